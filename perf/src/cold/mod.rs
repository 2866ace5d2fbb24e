//! The cold-state benchmark (issue 27, item 3): N flows in one array, each driven by
//! the project's congestion-avoidance stream, their ACKs arriving in one seeded random
//! flow order, so that at large N a flow's state is not in cache when its ACK arrives.
//!
//! The benchmark is generic over a [`ColdFlow`]: a flow type and the calls its stack
//! makes for one ACK and the send it clocks out. Every call into `congestion` (and into
//! the peers) sits in one small module per controller under [`flows`], so a change of the
//! library's API or layout changes those modules only, and the benchmark measures
//! whatever layout the library has when it runs.
//!
//! # The stream, per flow
//!
//! The project's stream (`benches/common`): 20 ms RTT, one ACK for 2 packets of 1200
//! bytes every 40 µs, a 20 ms RTT sample on every ACK, the window refilled after every
//! ACK. One template flow is warmed up as `Regime::CongestionAvoidance` does (slow start
//! to 1430 packets, one loss, 25,000 ACKs), then [`PHASES`] consecutive ACKs give 64
//! templates one ACK apart; flow `i` starts as template `i % 64`. There is no loss in the
//! cold stream (no flow gets more than a few tens of thousands of ACKs in a run), so every
//! flow stays in congestion avoidance, which the smoke test checks.
//!
//! The ACKs come in rounds: each round walks one fixed, seeded permutation of the N
//! flows (the same for every controller, [`permutation`]), so after r rounds every flow
//! has had r ACKs. That lets the stream keep no per-flow state of its own: flow `i`'s
//! ACK in round r is its virtual ACK number `v = v0 + 1 + i % 64 + r`, at time
//! `START_US + 40 µs · v`, acknowledging 2 packets up to packet number `2v + c_a`; the
//! flow had refilled its window on the previous ACK, so it had `cwnd` packets in flight
//! before this one (`c_a`, `c_s` are the offsets the template's warm-up ended with; the
//! warm-up counts everything explicitly, and [`Template::new`] checks that these
//! formulas give its counts). Everything a flow slot holds is the controller's state.
//!
//! # What is timed
//!
//! `acks` ACKs (each: the ACK call(s), the window read, the send call(s)), wall clock.
//! The same loop with [`flows::Null`] (a zero-sized flow: the loop, the permutation read,
//! the clock and packet-number arithmetic, the calls' arguments through `black_box`) is
//! the stream's own cost; it is measured at every N in the same run and subtracted.

use crate::common::{
    ACK_INTERVAL_US, PACKETS_PER_ACK, START_US, WARMUP_AFTER_LOSS_ACKS, WARMUP_MAX_ACKS,
    WARMUP_PEAK_PACKETS,
};
use std::time::{Duration, Instant};

pub mod arena;
pub mod bbr;
pub mod flows;
pub mod lines;

/// Templates one ACK apart; flow `i` starts as template `i % PHASES` (a power of two).
pub const PHASES: usize = 64;

/// One ACK as the stack sees it.
#[derive(Clone, Copy, Debug)]
pub struct Ack {
    /// Now, µs.
    pub now_us: u64,
    /// Packets newly acknowledged (each sent one RTT earlier).
    pub packets: u32,
    /// The highest packet number this ACK covers.
    pub largest_acked: u64,
    /// Packets in flight after this ACK, by the stack's count.
    pub in_flight_after: u32,
}

/// One send (of new packets) as the stack sees it.
#[derive(Clone, Copy, Debug)]
pub struct Send {
    /// Now, µs.
    pub now_us: u64,
    /// Packets in this send.
    pub packets: u32,
    /// Packets in flight after it, by the stack's count.
    pub in_flight_after: u32,
    /// The highest packet number sent so far (this send's last).
    pub largest_sent: u64,
}

/// A flow type and the calls its stack makes; one implementation per controller, in
/// [`flows`].
pub trait ColdFlow: Clone {
    /// Column name.
    const NAME: &'static str;
    /// What every flow shares and its stack keeps outside the flow (the peers' RTT
    /// estimator, which all flows here would hold equal; shared parameters).
    type Shared;
    /// Builds the shared part once.
    fn shared() -> Self::Shared;
    /// A new flow at `START_US`, nothing sent.
    fn fresh(sh: &Self::Shared) -> Self;
    /// The congestion window in whole packets: what the stack refills to.
    fn cwnd_packets(&self, sh: &Self::Shared) -> u32;
    /// Every call the stack makes for one ACK.
    fn on_ack(&mut self, sh: &Self::Shared, ack: &Ack);
    /// Every call the stack makes to send `send.packets` new packets; false if the flow
    /// (its send path) did not let them all go now, which the stream does not expect.
    fn on_send(&mut self, sh: &Self::Shared, send: &Send) -> bool;
    /// One packet declared lost (`lost_pn`), leaving `in_flight_after` (warm-up only).
    fn on_loss(&mut self, sh: &Self::Shared, now_us: u64, lost_pn: u64, in_flight_after: u32);
    /// The warm-up has ended (slow start, the loss, 25,000 ACKs): from here on the flow
    /// runs as measured. A self-paced send path is switched on here; the stream's ACK
    /// clock (2 packets every 40 µs) is not paced, so in slow start it outruns any pacer.
    fn warmed(&mut self, _sh: &Self::Shared) {}
    /// Whether the controller says it is in congestion avoidance (not slow start, not
    /// recovery); for the smoke test, which is where the peers' `Debug` output is read.
    fn in_congestion_avoidance(&self, sh: &Self::Shared) -> bool;
}

/// The per-controller constants of the cold stream, from its template's warm-up.
#[derive(Clone, Copy, Debug)]
pub struct StreamConsts {
    /// Virtual ACK number of template 0.
    pub v0: u64,
    /// `largest_acked - 2v` (wrapping).
    pub acked_offset: u64,
    /// `largest_sent - largest_acked - in_flight` after a refill (wrapping).
    pub sent_offset: u64,
}

/// A flow counted explicitly, as a stack would: the warm-up, and the reference the
/// derived stream is checked against.
#[derive(Clone)]
pub struct Driver<F> {
    /// The flow.
    pub flow: F,
    /// ACKs so far (the virtual ACK number of the last).
    pub v: u64,
    /// Packets in flight.
    pub in_flight: u32,
    /// Highest packet number sent.
    pub largest_sent: u64,
    /// Highest packet number acknowledged.
    pub largest_acked: u64,
    /// Sends the flow did not let go (the counts above took them as sent).
    pub refused: u64,
}

impl<F: ColdFlow> Driver<F> {
    /// A fresh flow that has sent its initial window at `START_US`.
    pub fn new(sh: &F::Shared) -> Self {
        let mut flow = F::fresh(sh);
        let iw = flow.cwnd_packets(sh);
        let ok = flow.on_send(
            sh,
            &Send {
                now_us: START_US,
                packets: iw,
                in_flight_after: iw,
                largest_sent: u64::from(iw),
            },
        );
        assert!(ok, "{}: the initial window did not go", F::NAME);
        Driver {
            flow,
            v: 0,
            in_flight: iw,
            largest_sent: u64::from(iw),
            largest_acked: 0,
            refused: 0,
        }
    }

    /// Now, µs.
    pub fn now_us(&self) -> u64 {
        START_US + self.v * ACK_INTERVAL_US
    }

    /// The next ACK of the stream and the send it clocks out (`one_ack` of
    /// `benches/common`); returns whether the send went.
    pub fn ack(&mut self, sh: &F::Shared) -> bool {
        self.v += 1;
        let now_us = self.now_us();
        let acked = PACKETS_PER_ACK.min(self.in_flight);
        self.in_flight -= acked;
        self.largest_acked += u64::from(acked);
        self.flow.on_ack(
            sh,
            &Ack {
                now_us,
                packets: acked,
                largest_acked: self.largest_acked,
                in_flight_after: self.in_flight,
            },
        );
        let cwnd = self.flow.cwnd_packets(sh);
        if cwnd > self.in_flight {
            let n = cwnd - self.in_flight;
            self.in_flight = cwnd;
            self.largest_sent += u64::from(n);
            let ok = self.flow.on_send(
                sh,
                &Send {
                    now_us,
                    packets: n,
                    in_flight_after: cwnd,
                    largest_sent: self.largest_sent,
                },
            );
            self.refused += u64::from(!ok);
            return ok;
        }
        true
    }

    /// One loss of the oldest unacknowledged packet, at the last ACK's time.
    pub fn loss(&mut self, sh: &F::Shared) {
        self.in_flight -= 1;
        let lost = self.largest_acked + 1;
        let now_us = self.now_us();
        self.flow.on_loss(sh, now_us, lost, self.in_flight);
    }

    /// The offsets of the derived stream, valid once the window is refilled after every
    /// ACK (in flight = cwnd).
    pub fn consts(&self, sh: &F::Shared) -> StreamConsts {
        assert_eq!(
            self.in_flight,
            self.flow.cwnd_packets(sh),
            "{}: not window-limited",
            F::NAME
        );
        StreamConsts {
            v0: self.v,
            acked_offset: self.largest_acked.wrapping_sub(2 * self.v),
            sent_offset: self
                .largest_sent
                .wrapping_sub(self.largest_acked)
                .wrapping_sub(u64::from(self.in_flight)),
        }
    }
}

/// The warmed-up templates of one controller.
pub struct Template<F: ColdFlow> {
    /// Template `p` is the flow after its ACK number `consts.v0 + p`.
    pub phases: Vec<F>,
    /// The derived stream's constants.
    pub consts: StreamConsts,
    /// The explicit driver after the last template, for the tests.
    pub driver: Driver<F>,
}

impl<F: ColdFlow> Template<F> {
    /// Warm up as `Regime::CongestionAvoidance` does, then take [`PHASES`] templates,
    /// checking the derived stream's formulas against the explicit counts at each.
    pub fn new(sh: &F::Shared) -> Self {
        let mut d = Driver::<F>::new(sh);
        let mut acks = 0;
        while d.flow.cwnd_packets(sh) < WARMUP_PEAK_PACKETS && acks < WARMUP_MAX_ACKS {
            d.ack(sh);
            acks += 1;
        }
        d.loss(sh);
        for _ in 0..WARMUP_AFTER_LOSS_ACKS {
            d.ack(sh);
        }
        assert_eq!(d.refused, 0, "{}: warm-up sends held back", F::NAME);
        d.flow.warmed(sh);
        let consts = d.consts(sh);
        let mut phases = Vec::with_capacity(PHASES);
        for p in 0..PHASES {
            if p > 0 {
                assert!(d.ack(sh), "{}: a warm-up send did not go", F::NAME);
                let c = d.consts(sh);
                assert_eq!(
                    (c.acked_offset, c.sent_offset),
                    (consts.acked_offset, consts.sent_offset),
                    "{}: the stream's packet numbers drifted",
                    F::NAME
                );
            }
            phases.push(d.flow.clone());
        }
        Template {
            phases,
            consts,
            driver: d,
        }
    }
}

/// One ACK of the derived stream for a flow whose last ACK was number `v - 1`: the ACK,
/// the window read, the refill. False if the flow did not behave as the stream assumes
/// (window shrank, a send refused).
#[inline(always)]
pub fn step<F: ColdFlow>(f: &mut F, sh: &F::Shared, c: &StreamConsts, v: u64) -> bool {
    let now_us = START_US + v * ACK_INTERVAL_US;
    let before = f.cwnd_packets(sh);
    let after_ack = before.wrapping_sub(PACKETS_PER_ACK);
    let largest_acked = (2 * v).wrapping_add(c.acked_offset);
    f.on_ack(
        sh,
        &Ack {
            now_us,
            packets: PACKETS_PER_ACK,
            largest_acked,
            in_flight_after: after_ack,
        },
    );
    let cwnd = f.cwnd_packets(sh);
    if cwnd <= after_ack {
        return false;
    }
    f.on_send(
        sh,
        &Send {
            now_us,
            packets: cwnd - after_ack,
            in_flight_after: cwnd,
            largest_sent: largest_acked
                .wrapping_add(u64::from(cwnd))
                .wrapping_add(c.sent_offset),
        },
    )
}

/// A seeded permutation of `0..n` (splitmix64 + Fisher-Yates): the flow order of every
/// round, the same for every controller.
pub fn permutation(n: usize, seed: u64) -> Vec<u32> {
    assert!(n <= u32::MAX as usize);
    let mut p: Vec<u32> = (0..n as u32).collect();
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for i in (1..n).rev() {
        // Multiply-shift into 0..=i (bias below 2^-32 for n < 2^32).
        let j = ((u128::from(next()) * (i as u128 + 1)) >> 64) as usize;
        p.swap(i, j);
    }
    p
}

/// How the ACKs of a run are processed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One after another.
    Plain,
    /// In bursts of `burst`: first every flow of the burst has its state's lines
    /// prefetched ([`prefetch`]), then the ACKs are processed in order, as a stack that
    /// receives a burst of ACKs (a NIC RX batch) can.
    Batched {
        /// ACKs per burst.
        burst: usize,
    },
}

/// Asks for every 64-byte line of `*p` to be brought into L1 (x86_64:
/// `_mm_prefetch(_MM_HINT_T0)`, one per line, no fault possible; elsewhere nothing).
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    let size = size_of::<T>();
    if size == 0 {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = (p as usize) & !63;
        let end = p as usize + size;
        let mut a = start;
        while a < end {
            // SAFETY: prefetch is a hint; it never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(a as *const i8) };
            a += 64;
        }
    }
}

/// Runs `acks` ACKs of the cold stream over `flows` in `perm`'s order, starting at
/// round 0 (the flows as the templates left them). Returns the wall time and how many
/// steps did not behave as the stream assumes.
#[inline(never)]
pub fn run<F: ColdFlow>(
    flows: &mut [F],
    sh: &F::Shared,
    c: &StreamConsts,
    perm: &[u32],
    acks: u64,
    mode: Mode,
) -> (Duration, u64) {
    let n = flows.len();
    assert_eq!(perm.len(), n);
    let base = flows.as_mut_ptr();
    let mut bad = 0u64;
    let mut done = 0u64;
    let mut round = 0u64;
    let start = Instant::now();
    while done < acks {
        let take = (acks - done).min(n as u64) as usize;
        let first_v = c.v0 + 1 + round;
        let order = &perm[..take];
        // SAFETY (both arms): every index comes from a permutation of 0..n, so each
        // pointer is inside `flows`, and only one flow is borrowed at a time.
        match mode {
            Mode::Plain => {
                for &i in order {
                    let i = i as usize;
                    let f = unsafe { &mut *base.add(i) };
                    let v = first_v + (i & (PHASES - 1)) as u64;
                    bad += u64::from(!step(f, sh, c, v));
                }
            }
            Mode::Batched { burst } => {
                for chunk in order.chunks(burst) {
                    for &i in chunk {
                        prefetch(unsafe { base.add(i as usize) });
                    }
                    for &i in chunk {
                        let i = i as usize;
                        let f = unsafe { &mut *base.add(i) };
                        let v = first_v + (i & (PHASES - 1)) as u64;
                        bad += u64::from(!step(f, sh, c, v));
                    }
                }
            }
        }
        done += take as u64;
        round += 1;
    }
    (start.elapsed(), std::hint::black_box(bad))
}
