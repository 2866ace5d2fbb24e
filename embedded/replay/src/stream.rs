//! The ACK stream of the x86-64 figures in docs/performance.md (`benches/common/mod.rs`
//! defines it for the benches; this is the same stream for a core without `std`): 20 ms
//! RTT, one ACK for 2 packets of 1200 bytes every 40 µs, every ACK with a 20 ms RTT
//! sample, the window refilled after each ACK. Congestion avoidance is measured from a
//! snapshot taken after slow start to 1430 packets, one loss and 25,000 more ACKs
//! (cwnd about 1000 packets, past the start of the epoch); slow start from a fresh flow
//! that sent its initial window, 200 ACKs a cycle.

use congestion::linux;
use congestion::rfc;
use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, SentEvent};
use core::hint::black_box;

/// Round-trip time of the path, µs.
pub const RTT_US: u64 = 20_000;
/// Time between two ACKs, µs.
pub const ACK_INTERVAL_US: u64 = 40;
/// Packets newly acknowledged by each ACK.
pub const PACKETS_PER_ACK: u32 = 2;
/// Bytes per packet.
pub const PACKET_BYTES: u32 = 1200;
/// The warm-up grows cwnd to this many packets before its loss.
pub const WARMUP_PEAK_PACKETS: u32 = 1430;
/// ACKs after the warm-up loss before the snapshot.
pub const WARMUP_AFTER_LOSS_ACKS: u32 = 25_000;
/// Upper bound on warm-up ACKs.
pub const WARMUP_MAX_ACKS: u32 = 4_000_000;
/// ACKs per slow-start cycle.
pub const SLOW_START_ACKS: u32 = 200;
/// The stream starts this late so that `now - RTT` is never negative, µs.
pub const START_US: u64 = 1_000_000;

/// One controller as its stack drives it; amounts in packets of [`PACKET_BYTES`].
pub trait Driven: Clone {
    /// An ACK newly acknowledging `packets` with an RTT sample of `rtt_us`.
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64);
    /// `packets` new packets leave.
    fn send(&mut self, now_us: u64, packets: u32);
    /// One loss of one packet.
    fn loss(&mut self, now_us: u64);
    /// A retransmission timeout (QUIC: persistent congestion); one packet resent.
    fn rto(&mut self, now_us: u64);
    /// The congestion window, packets.
    fn cwnd_packets(&self) -> u32;
    /// Packets in flight.
    fn in_flight(&self) -> u32;
}

/// Which regime a [`Stream`] starts from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Regime {
    /// Congestion avoidance at cwnd about 1000 packets.
    CongestionAvoidance,
    /// Slow start from the initial window.
    SlowStart,
}

/// The stream driving one controller, with the snapshot each measurement starts from.
pub struct Stream<C: Driven> {
    snapshot: C,
    snapshot_now_us: u64,
    /// The controller as it is now.
    pub live: C,
    now_us: u64,
}

impl<C: Driven> Stream<C> {
    /// Warms `fresh` up for `regime` and takes the snapshot.
    pub fn new(fresh: C, regime: Regime) -> Self {
        let mut s = Stream {
            snapshot: fresh.clone(),
            snapshot_now_us: START_US,
            live: fresh,
            now_us: START_US,
        };
        let iw = s.live.cwnd_packets();
        s.live.send(s.now_us, iw);
        if regime == Regime::CongestionAvoidance {
            let mut acks = 0;
            while s.live.cwnd_packets() < WARMUP_PEAK_PACKETS && acks < WARMUP_MAX_ACKS {
                s.one_ack();
                acks += 1;
            }
            s.live.loss(s.now_us);
            for _ in 0..WARMUP_AFTER_LOSS_ACKS {
                s.one_ack();
            }
        }
        s.snapshot = s.live.clone();
        s.snapshot_now_us = s.now_us;
        s
    }

    /// One ACK and the sends it clocks out.
    #[inline(always)]
    pub fn one_ack(&mut self) {
        self.now_us += ACK_INTERVAL_US;
        let now = black_box(self.now_us);
        let acked = PACKETS_PER_ACK.min(self.live.in_flight());
        self.live.ack(now, black_box(acked), black_box(RTT_US));
        let cwnd = self.live.cwnd_packets();
        let in_flight = self.live.in_flight();
        if cwnd > in_flight {
            self.live.send(now, cwnd - in_flight);
        }
    }

    /// Puts the snapshot back.
    #[inline(always)]
    pub fn restore(&mut self) {
        self.live.clone_from(&self.snapshot);
        self.now_us = self.snapshot_now_us;
    }

    /// The stream's time now, µs.
    pub fn now_us(&self) -> u64 {
        black_box(self.now_us)
    }
}

/// Linux-mode CUBIC + HyStart with the kernel's socket glue (kernel defaults, MSS 1200).
#[derive(Clone)]
pub struct Linux {
    flow: linux::Cubic,
    in_flight: u32,
}

impl Linux {
    /// Kernel defaults, MSS 1200 bytes; `None` if the library refused them.
    pub fn new() -> Option<Self> {
        let mut config = linux::CubicConfig::new();
        config.socket.mss = PACKET_BYTES;
        let flow = linux::Cubic::new(config, Instant::from_micros(START_US)).ok()?;
        Some(Linux { flow, in_flight: 0 })
    }
}

impl Driven for Linux {
    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        self.in_flight -= packets;
        self.flow
            .ack(Instant::from_micros(now_us), packets, Some(rtt_us as u32));
    }
    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        self.in_flight += packets;
        self.flow
            .transmit(Instant::from_micros(now_us), self.in_flight);
    }
    fn loss(&mut self, now_us: u64) {
        self.in_flight -= 1;
        self.flow.loss(Instant::from_micros(now_us));
    }
    fn rto(&mut self, now_us: u64) {
        self.in_flight = 1;
        self.flow.rto(Instant::from_micros(now_us), 1);
    }
    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.flow.state().cwnd
    }
    #[inline(always)]
    fn in_flight(&self) -> u32 {
        self.in_flight
    }
}

/// RFC 9438 CUBIC + RFC 9406 HyStart++ in bytes (RFC defaults, MSS 1200).
#[derive(Clone)]
pub struct Rfc {
    flow: rfc::Cubic,
    in_flight: u32,
    largest_sent: u64,
    largest_acked: u64,
}

impl Rfc {
    /// RFC defaults, MSS 1200 bytes; `None` if the library refused them.
    pub fn new() -> Option<Self> {
        let mut config = rfc::CubicConfig::new();
        config.cubic.mss_bytes = u64::from(PACKET_BYTES);
        let flow = rfc::Cubic::new(config, Instant::from_micros(START_US)).ok()?;
        Some(Rfc {
            flow,
            in_flight: 0,
            largest_sent: 0,
            largest_acked: 0,
        })
    }

    #[inline(always)]
    fn sent(&self) -> SentEvent {
        SentEvent::new(
            u64::from(self.in_flight) * u64::from(PACKET_BYTES),
            self.largest_sent,
        )
    }
}

impl Driven for Rfc {
    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        self.in_flight -= packets;
        self.largest_acked += u64::from(packets);
        let ack = AckEvent::new(
            u64::from(packets * PACKET_BYTES),
            self.largest_acked,
            Some(Duration::from_micros(rtt_us)),
        );
        self.flow.on_ack(Instant::from_micros(now_us), &ack);
    }
    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        self.in_flight += packets;
        self.largest_sent += u64::from(packets);
        let sent = self.sent();
        self.flow.on_sent(Instant::from_micros(now_us), &sent);
    }
    fn loss(&mut self, now_us: u64) {
        self.in_flight -= 1;
        // Unnamed: a congestion event every time, so each one costs a reduction.
        let loss = LossEvent::episode(u64::from(PACKET_BYTES));
        self.flow.on_loss(Instant::from_micros(now_us), &loss);
    }
    fn rto(&mut self, now_us: u64) {
        let now = Instant::from_micros(now_us);
        let loss = LossEvent::episode(0).with_persistent_congestion(true);
        self.flow.on_loss(now, &loss);
        self.in_flight = 1;
        self.largest_sent += 1;
        let sent = self.sent();
        self.flow.on_sent(now, &sent);
    }
    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        (self.flow.cwnd() / u64::from(PACKET_BYTES)) as u32
    }
    #[inline(always)]
    fn in_flight(&self) -> u32 {
        self.in_flight
    }
}

/// No controller: a fixed 1430-packet window. The stream's own cost per event.
#[derive(Clone, Default)]
pub struct Null {
    in_flight: u32,
}

impl Driven for Null {
    #[inline(always)]
    fn ack(&mut self, _now_us: u64, packets: u32, _rtt_us: u64) {
        self.in_flight -= packets;
    }
    #[inline(always)]
    fn send(&mut self, _now_us: u64, packets: u32) {
        self.in_flight += packets;
    }
    fn loss(&mut self, _now_us: u64) {
        self.in_flight -= 1;
    }
    fn rto(&mut self, _now_us: u64) {
        self.in_flight = 1;
    }
    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        black_box(WARMUP_PEAK_PACKETS)
    }
    #[inline(always)]
    fn in_flight(&self) -> u32 {
        self.in_flight
    }
}
