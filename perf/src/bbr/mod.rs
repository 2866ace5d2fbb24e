//! The BBR streams: our `linux::Bbr` (v1) and `linux::Bbr3`, quinn-proto 0.11's `Bbr`
//! and s2n-quic-core 0.91's `BbrCongestionController` (BBRv2), each called as its stack
//! calls it, on the same path as `benches/common` (20 ms RTT samples, one ACK for 2
//! packets of 1200 bytes every 40 µs, the window refilled after each ACK).
//!
//! BBR needs what CUBIC does not: a per-packet record the stack keeps (our `Sent`,
//! s2n's `PacketInfo`, quinn's send time) handed back when the packet is acknowledged
//! or lost. So every wrapper here keeps what its stack keeps: packets leave into a
//! first-in first-out "wire", each ACK takes the 2 oldest off it, and a loss drops the
//! oldest before the ACK that reports it. Our TCP flows see a TCP scoreboard (the lost
//! segment is marked lost on that ACK, retransmitted on the next send, SACKs above it
//! until the retransmission arrives and the cumulative ACK jumps); the QUIC peers see
//! the packet declared lost and carry on with new packet numbers.
//!
//! The path delivers a packet no earlier than [`RTT_US`] after it was sent and at most
//! 2 per 40 µs tick (a 1000-packet pipe, a FIFO queue beyond it); an ACK comes at every
//! tick with a packet due, and the stream counts ACKs, not ticks (a tick without one
//! only sends what the pacer allows). Every ACK carries the
//! same RTT sample (20 ms; 20.1 ms after the PROBE_RTT stream's warm-up), as the CUBIC
//! streams do. After each ACK the sender sends one packet at a time while cwnd allows
//! and the pacer lets it leave (ours and s2n's own; for quinn, whose controller only
//! computes a rate, the wrapper paces at that rate as its stack would).
//!
//! Two regimes ([`BbrRegime`]), the same for every controller:
//!
//! - **Steady**: warm up [`WARMUP_ACKS`] ACKs (1.5 s) from the initial window, which takes
//!   every controller through STARTUP and DRAIN into PROBE_BW; snapshot; each cycle runs
//!   [`STEADY_CYCLE_ACKS`] (2 s) without loss and restores the snapshot. Every
//!   controller stays in PROBE_BW for the whole cycle (`tests/bbr.rs` checks it): the
//!   next PROBE_RTT is due 5 s (v3) or 10 s (v1, quinn, s2n) after the last.
//! - **PROBE_RTT and losses**: the same warm-up, then on until the controller enters
//!   PROBE_RTT; the snapshot is taken [`PROBE_RTT_LEAD_ACKS`] ACKs (100 ms) before that
//!   entry (a second warm-up, replayed identically); each cycle runs
//!   [`PROBE_RTT_CYCLE_ACKS`] (1 s) with a loss every [`LOSS_EVERY_ACKS`] (100 ms, the
//!   first 50 ms in), so it enters PROBE_RTT once, stays its 200 ms and leaves, and
//!   takes 10 losses (`tests/bbr.rs` counts both).

use crate::common::{ACK_INTERVAL_US, RTT_US, START_US, StreamController};
use std::hint::black_box;

pub(crate) mod ours;
pub(crate) mod peers;

pub use ours::{NullTcp, OursBbr, OursBbr3};
pub use peers::{QuinnBbr, S2nBbr};

/// ACKs from the initial window to the snapshot (1.5 s).
pub const WARMUP_ACKS: u32 = 37_500;
/// ACKs per steady cycle (2 s).
pub const STEADY_CYCLE_ACKS: u32 = 50_000;
/// The PROBE_RTT stream's snapshot is this many ACKs (100 ms) before PROBE_RTT.
pub const PROBE_RTT_LEAD_ACKS: u32 = 2_500;
/// ACKs per PROBE_RTT-and-loss cycle (1 s).
pub const PROBE_RTT_CYCLE_ACKS: u32 = 25_000;
/// One loss per this many ACKs in the PROBE_RTT-and-loss stream (100 ms).
pub const LOSS_EVERY_ACKS: u32 = 2_500;
/// The RTT sample of every ACK after the PROBE_RTT stream's warm-up, µs: 100 µs above
/// the minimum the warm-up measured, so that every controller's minimum-RTT filter
/// expires (s2n's takes an equal sample as a new minimum and would never probe).
pub const LATE_RTT_US: u64 = RTT_US + 100;
/// Upper bound on the ACKs to wait for PROBE_RTT (12 s).
pub const PROBE_RTT_WAIT_MAX_ACKS: u32 = 300_000;
/// The per-packet records a wrapper keeps: a power of two above any flight here.
pub const RING: usize = 1 << 15;

/// BBR's state machine as every implementation names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// STARTUP.
    Startup,
    /// DRAIN.
    Drain,
    /// PROBE_BW (any of its sub-phases).
    ProbeBw,
    /// PROBE_RTT.
    ProbeRtt,
}

/// A controller on a BBR stream: the stream's calls, and its phase for the checks.
pub trait BbrController: StreamController {
    /// The controller's BBR phase (read by the warm-up and the tests, never per event).
    fn phase(&self) -> Phase;
    /// Losses the wrapper delivered to the controller so far.
    fn losses(&self) -> u32;
    /// Packets the path can deliver at `now_us`: those sent at least [`RTT_US`]
    /// earlier, at most [`crate::common::PACKETS_PER_ACK`].
    fn due(&self, now_us: u64) -> u32;
    /// The controller's pacer lets the next packet leave at `now_us` (ours:
    /// `next_departure_ns`; s2n: `earliest_departure_time`; quinn: the wrapper's pacer
    /// at quinn's `pacing_rate`).
    fn may_send(&self, now_us: u64) -> bool;
}

/// Which stream a [`BbrStream`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BbrRegime {
    /// PROBE_BW, no loss.
    Steady,
    /// Through PROBE_RTT once and 10 losses per cycle.
    ProbeRttLoss,
}

/// The ACK stream driving one BBR controller.
pub struct BbrStream<C: BbrController> {
    snapshot: C,
    snapshot_now_us: u64,
    live: C,
    now_us: u64,
    acks_in_cycle: u32,
    cycle_acks: u32,
    /// 0: no loss.
    loss_every: u32,
    /// The RTT sample every ACK carries, µs.
    rtt_us: u64,
}

impl<C: BbrController> BbrStream<C> {
    /// Warm `fresh` up for `regime` and take the snapshot every cycle restarts from.
    pub fn new(fresh: C, regime: BbrRegime) -> Self {
        let mut s = Self::warm(fresh.clone(), WARMUP_ACKS);
        match regime {
            BbrRegime::Steady => {
                s.cycle_acks = STEADY_CYCLE_ACKS;
            }
            BbrRegime::ProbeRttLoss => {
                let mut more = 0;
                s.rtt_us = LATE_RTT_US;
                while s.live.phase() != Phase::ProbeRtt && more < PROBE_RTT_WAIT_MAX_ACKS {
                    s.one_ack();
                    more += 1;
                }
                assert_eq!(
                    s.live.phase(),
                    Phase::ProbeRtt,
                    "{}: no PROBE_RTT",
                    s.live.name()
                );
                let lead = more.saturating_sub(PROBE_RTT_LEAD_ACKS);
                s = Self::warm(fresh, WARMUP_ACKS);
                s.rtt_us = LATE_RTT_US;
                for _ in 0..lead {
                    s.one_ack();
                }
                s.cycle_acks = PROBE_RTT_CYCLE_ACKS;
                s.loss_every = LOSS_EVERY_ACKS;
            }
        }
        s.snapshot = s.live.clone();
        s.snapshot_now_us = s.now_us;
        s
    }

    fn warm(fresh: C, acks: u32) -> Self {
        let mut s = BbrStream {
            snapshot: fresh.clone(),
            snapshot_now_us: START_US,
            live: fresh,
            now_us: START_US,
            acks_in_cycle: 0,
            cycle_acks: 0,
            loss_every: 0,
            rtt_us: RTT_US,
        };
        while s.live.cwnd_packets() > s.live.in_flight_packets() && s.live.may_send(s.now_us) {
            s.live.send(s.now_us, 1);
        }
        for _ in 0..acks {
            s.one_ack();
        }
        s
    }

    /// The next ACK of the stream and the sends around it: tick by 40 µs; at every tick
    /// the packets due are acknowledged (one ACK), then the sender sends one packet at a
    /// time while cwnd allows and the pacer lets it leave; ticks without an ACK only
    /// send (a pacing timer). Returns at the first tick with an ACK.
    #[inline(always)]
    pub fn one_ack(&mut self) {
        loop {
            self.now_us += ACK_INTERVAL_US;
            let now = black_box(self.now_us);
            let acked = self.live.due(now);
            if acked > 0 {
                self.live.ack(now, black_box(acked), black_box(self.rtt_us));
            }
            while self.live.cwnd_packets() > self.live.in_flight_packets()
                && self.live.may_send(now)
            {
                self.live.send(now, 1);
            }
            if acked > 0 {
                break;
            }
        }
    }

    /// The next event: at a loss point the loss, then one ACK; at a cycle's end the
    /// restore.
    #[inline(always)]
    pub fn step(&mut self) {
        if self.loss_every != 0 && self.acks_in_cycle % self.loss_every == self.loss_every / 2 {
            self.live.loss(self.now_us);
        }
        self.one_ack();
        self.acks_in_cycle += 1;
        if self.acks_in_cycle == self.cycle_acks {
            self.live.clone_from(&self.snapshot);
            self.now_us = self.snapshot_now_us;
            self.acks_in_cycle = 0;
        }
    }

    /// The controller as it is now.
    pub fn live(&self) -> &C {
        &self.live
    }

    /// The controller as it is now, to change (a recorder switched on).
    pub fn live_mut(&mut self) -> &mut C {
        &mut self.live
    }

    /// The stream's clock, µs.
    pub fn now_us(&self) -> u64 {
        self.now_us
    }

    /// ACKs into the current cycle.
    pub fn acks_in_cycle(&self) -> u32 {
        self.acks_in_cycle
    }

    /// ACKs per cycle.
    pub fn cycle_acks(&self) -> u32 {
        self.cycle_acks
    }
}

/// A small deterministic generator (xorshift32) for the controllers' random draws.
#[derive(Clone, Copy, Debug)]
pub struct XorShift(u32);

impl XorShift {
    /// Seeded.
    pub const fn new() -> Self {
        XorShift(0x9e37_79b9)
    }

    /// The next 32 bits.
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
}

impl Default for XorShift {
    fn default() -> Self {
        Self::new()
    }
}

impl congestion::linux::tcp::RandomSource for XorShift {
    #[inline(always)]
    fn below(&mut self, ceil: u32) -> u32 {
        // Linux include/linux/random.h get_random_u32_below(): multiply-shift
        ((u64::from(self.next_u32()) * u64::from(ceil.max(1))) >> 32) as u32
    }
}

impl s2n_quic_core::random::Generator for XorShift {
    fn public_random_fill(&mut self, dest: &mut [u8]) {
        for b in dest {
            *b = self.next_u32() as u8;
        }
    }
    fn private_random_fill(&mut self, dest: &mut [u8]) {
        self.public_random_fill(dest);
    }
}
