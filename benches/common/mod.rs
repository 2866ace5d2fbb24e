//! The benchmark ACK stream, shared by the root crate's Criterion benches
//! (`benches/linux.rs`) and by the side-by-side comparison with other Rust CUBICs in
//! `perf/` (its bench and its instruction-count binary include this file by path).
//!
//! The stream: 20 ms RTT, one ACK for 2 packets of 1200 bytes every 40 µs (480 Mbit/s,
//! so a 1000-packet pipe), every ACK carries a 20 ms RTT sample, the sender refills the
//! window after each ACK (it is always cwnd-limited), and a loss every 10,000 ACKs.
//!
//! Cost depends on the regime, so every controller is measured in the same one: a
//! warm-up drives it from its initial window, without loss, until cwnd reaches 1430
//! packets, then one loss brings it to about 1000 (1430 · 0.7), then 25,000 more ACKs
//! (1 s) take it past the start of its new epoch. That state is the snapshot. One cycle
//! restores the snapshot and runs 10,000 ACKs and a loss; the restore is one copy per
//! 10,001 events. Slow start is measured the same way from a fresh controller that has
//! sent its initial window, 200 ACKs a cycle (cwnd 10 -> 410 packets, below where
//! HyStart's ACK train would end slow start on this path).
//!
//! A second stream, [`Regime::SteadyGrowth`], holds CUBIC in steady growth near W_max
//! for seconds: the same path, a warm-up to 1000 packets and one loss (W_max = 1000,
//! cwnd 700), then the snapshot 2.5 s before the curve reaches W_max (t = K − 2.5 s,
//! K = ∛(1000 · 0.3 / 0.4) s = 9.09 s for every controller here, all with β = 0.7 and
//! C = 0.4); a cycle runs 5 s of ACKs (125,000) from there without loss, so the curve
//! stays within 2.5 s of its plateau all along.
//!
//! Every controller is wrapped in a [`StreamController`] that counts packets in flight
//! and calls the controller exactly as its stack would.

#![allow(dead_code, reason = "each bench or binary uses a different part")]

use std::hint::black_box;

pub mod send_path;

/// Round-trip time of the path, µs.
pub const RTT_US: u64 = 20_000;
/// Time between two ACKs, µs.
pub const ACK_INTERVAL_US: u64 = 40;
/// Packets newly acknowledged by each ACK.
pub const PACKETS_PER_ACK: u32 = 2;
/// Bytes per packet (the QUIC controllers count bytes, Linux mode segments).
pub const PACKET_BYTES: u32 = 1200;
/// One loss per this many ACKs.
pub const ACKS_PER_LOSS: u32 = 10_000;
/// The warm-up grows cwnd to this many packets before its loss (1000 / 0.7).
pub const WARMUP_PEAK_PACKETS: u32 = 1430;
/// ACKs after the warm-up loss before the snapshot (1 s of the stream).
pub const WARMUP_AFTER_LOSS_ACKS: u32 = 25_000;
/// Upper bound on warm-up ACKs, for a controller that never reaches the peak.
pub const WARMUP_MAX_ACKS: u32 = 4_000_000;
/// ACKs per slow-start cycle.
pub const SLOW_START_ACKS: u32 = 200;
/// The stream starts this late so that `now - RTT` is never negative, µs.
pub const START_US: u64 = 1_000_000;
/// The steady-growth stream's warm-up peak, packets: W_max after its one loss.
pub const STEADY_PEAK_PACKETS: u32 = 1000;
/// K for W_max = 1000 packets, β = 0.7, C = 0.4: ∛(1000 · 0.3 / 0.4) s, µs.
pub const STEADY_K_US: u64 = 9_085_603;
/// The steady stream's snapshot is this long before t = K, µs.
pub const STEADY_BEFORE_K_US: u64 = 2_500_000;
/// ACKs from the steady stream's loss to its snapshot (t = K − 2.5 s).
pub const STEADY_AFTER_LOSS_ACKS: u64 = (STEADY_K_US - STEADY_BEFORE_K_US) / ACK_INTERVAL_US;
/// ACKs per steady cycle: 5 s of the stream.
pub const STEADY_CYCLE_ACKS: u32 = (5_000_000 / ACK_INTERVAL_US) as u32;

/// One controller, as the stream drives it. Amounts are packets of [`PACKET_BYTES`].
pub trait StreamController: Clone {
    /// The controller's name in tables.
    fn name(&self) -> &'static str;
    /// An ACK at `now_us` newly acknowledging `packets`, sent `RTT_US` earlier, with an
    /// RTT sample of `rtt_us`: every call the stack makes for it.
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64);
    /// `packets` new packets leave at `now_us`: every call the stack makes for them.
    fn send(&mut self, now_us: u64, packets: u32);
    /// One loss (fast retransmit / packet threshold) of one packet.
    fn loss(&mut self, now_us: u64);
    /// A retransmission timeout (QUIC: persistent congestion); one packet is resent.
    fn rto(&mut self, now_us: u64);
    /// The congestion window, in whole packets.
    fn cwnd_packets(&self) -> u32;
    /// Packets in flight as the wrapper counts them.
    fn in_flight_packets(&self) -> u32;
    /// The next ACK acknowledges data sent after now (after the congestion event just
    /// delivered), so a QUIC controller leaves recovery on it and starts its new epoch,
    /// as the first ACK a round after a loss does. Linux mode leaves recovery at once.
    fn next_ack_covers_data_sent_after_now(&mut self) {}
}

/// Which regime a [`Stream`] measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regime {
    /// Congestion avoidance at cwnd about 1000 packets, a loss per 10,000 ACKs.
    CongestionAvoidance,
    /// Slow start from the initial window, HyStart (where the controller has it) active.
    SlowStart,
    /// Steady growth near W_max: t = K − 2.5 s to K + 2.5 s after one loss at 1000
    /// packets, no loss in the cycle.
    SteadyGrowth,
}

/// A congestion event measured by [`Stream::event_then_ack`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// No event: the baseline to subtract.
    Nothing,
    /// One loss.
    Loss,
    /// One retransmission timeout.
    Rto,
}

/// The ACK stream driving one controller.
pub struct Stream<C: StreamController> {
    snapshot: C,
    snapshot_now_us: u64,
    live: C,
    now_us: u64,
    acks_in_cycle: u32,
    cycle_acks: u32,
    loss_at_cycle_end: bool,
}

impl<C: StreamController> Stream<C> {
    /// Warm `fresh` up for `regime` and take the snapshot every cycle restarts from.
    pub fn new(fresh: C, regime: Regime) -> Self {
        let mut s = Stream {
            snapshot: fresh.clone(),
            snapshot_now_us: START_US,
            live: fresh,
            now_us: START_US,
            acks_in_cycle: 0,
            cycle_acks: SLOW_START_ACKS,
            loss_at_cycle_end: false,
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
            s.cycle_acks = ACKS_PER_LOSS;
            s.loss_at_cycle_end = true;
        }
        if regime == Regime::SteadyGrowth {
            let mut acks = 0;
            while s.live.cwnd_packets() < STEADY_PEAK_PACKETS && acks < WARMUP_MAX_ACKS {
                s.one_ack();
                acks += 1;
            }
            s.live.loss(s.now_us);
            for _ in 0..STEADY_AFTER_LOSS_ACKS {
                s.one_ack();
            }
            s.cycle_acks = STEADY_CYCLE_ACKS;
            s.loss_at_cycle_end = false;
        }
        s.snapshot = s.live.clone();
        s.snapshot_now_us = s.now_us;
        s
    }

    /// One ACK of the stream and the sends it clocks out, no cycle bookkeeping.
    #[inline(always)]
    pub fn one_ack(&mut self) {
        self.now_us += ACK_INTERVAL_US;
        let now = black_box(self.now_us);
        let acked = PACKETS_PER_ACK.min(self.live.in_flight_packets());
        self.live.ack(now, black_box(acked), black_box(RTT_US));
        let cwnd = self.live.cwnd_packets();
        let in_flight = self.live.in_flight_packets();
        if cwnd > in_flight {
            self.live.send(now, cwnd - in_flight);
        }
    }

    /// Put the snapshot back.
    #[inline(always)]
    pub fn restore(&mut self) {
        self.live.clone_from(&self.snapshot);
        self.now_us = self.snapshot_now_us;
        self.acks_in_cycle = 0;
    }

    /// The next event of the stream: one ACK, and at a cycle's end the loss and restore.
    #[inline(always)]
    pub fn step(&mut self) {
        self.one_ack();
        self.acks_in_cycle += 1;
        if self.acks_in_cycle == self.cycle_acks {
            if self.loss_at_cycle_end {
                self.live.loss(self.now_us);
            }
            self.restore();
        }
    }

    /// From the snapshot: `event`, then one ACK of data sent after the event, which
    /// ends recovery and starts the new epoch (Linux mode: the first ACK after the
    /// event; RFC mode and the QUIC peers: the first ACK a round later), so the epoch
    /// start and its cube root belong to the event's cost. Measure it against
    /// [`Event::Nothing`] (the same ACK without the event) and subtract.
    #[inline(always)]
    pub fn event_then_ack(&mut self, event: Event) {
        self.restore();
        let now = black_box(self.now_us);
        match event {
            Event::Nothing => {}
            Event::Loss => self.live.loss(now),
            Event::Rto => self.live.rto(now),
        }
        self.live.next_ack_covers_data_sent_after_now();
        self.one_ack();
    }

    /// From the snapshot: the send call(s) for `packets` new packets alone (measure
    /// against [`Event::Nothing`] with [`Stream::event_only`] and subtract): what the
    /// send side of one ACK of the stream costs, to split the ACK path from it.
    #[inline(always)]
    pub fn send_only(&mut self, packets: u32) {
        self.restore();
        let now = black_box(self.now_us);
        self.live.send(now, black_box(packets));
    }

    /// From the snapshot: `event` alone (measure against [`Event::Nothing`]). For the
    /// QUIC controllers this is where K is computed; Linux computes it on the next ACK.
    #[inline(always)]
    pub fn event_only(&mut self, event: Event) {
        self.restore();
        let now = black_box(self.now_us);
        match event {
            Event::Nothing => {}
            Event::Loss => self.live.loss(now),
            Event::Rto => self.live.rto(now),
        }
    }

    /// The controller as it is now.
    pub fn live(&self) -> &C {
        &self.live
    }
}

/// Linux-mode CUBIC + HyStart with the kernel's socket glue, as a TCP stack drives it.
#[derive(Clone)]
pub struct OursLinux {
    flow: congestion::linux::Cubic,
    in_flight: u32,
}

impl OursLinux {
    /// Kernel defaults (HyStart on, pacing rate modelled), MSS 1200 bytes.
    pub fn new() -> Self {
        let mut config = congestion::linux::CubicConfig::new();
        config.socket.mss = PACKET_BYTES;
        let now = congestion::Instant::from_micros(START_US);
        let flow = congestion::linux::Cubic::new(config, now).expect("kernel defaults are valid");
        OursLinux { flow, in_flight: 0 }
    }
}

impl Default for OursLinux {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursLinux {
    fn name(&self) -> &'static str {
        "congestion Linux mode"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        use congestion::CongestionController;
        self.in_flight -= packets;
        let ack = congestion::AckEvent {
            acked: u64::from(packets),
            rtt: Some(congestion::Duration::from_micros(rtt_us)),
            ..congestion::AckEvent::default()
        };
        self.flow
            .on_ack(congestion::Instant::from_micros(now_us), &ack);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        use congestion::CongestionController;
        self.in_flight += packets;
        let sent = congestion::SentEvent::new(u64::from(self.in_flight), 0);
        self.flow
            .on_sent(congestion::Instant::from_micros(now_us), &sent);
    }

    fn loss(&mut self, now_us: u64) {
        use congestion::CongestionController;
        self.in_flight -= 1;
        self.flow.on_loss(
            congestion::Instant::from_micros(now_us),
            &congestion::LossEvent::episode(0),
        );
    }

    fn rto(&mut self, now_us: u64) {
        use congestion::CongestionController;
        self.in_flight = 1;
        self.flow
            .on_retransmission_timeout(congestion::Instant::from_micros(now_us));
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.flow.state().cwnd
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }
}

/// No controller at all: a fixed 1000-packet window. What the stream itself costs per
/// event (loop, clock, in-flight count, `black_box`), to subtract from the others.
#[derive(Clone, Default)]
pub struct NullController {
    in_flight: u32,
}

impl StreamController for NullController {
    fn name(&self) -> &'static str {
        "stream alone"
    }

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
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }
}

/// Only the kernel's CUBIC hooks on [`congestion::linux::LinuxCubicState`] (72 bytes), called
/// as `tcp_ack` calls `cubictcp_acked` and `cubictcp_cong_avoid`: what a kernel module or
/// a struct_ops program runs per ACK, without the socket glue of
/// [`congestion::linux::Cubic`] (smoothed RTT, window-use tracking, pacing rate),
/// which the kernel's own tcp_ack does around its CUBIC. The flow is always
/// window-limited on this stream, as `tcp_is_cwnd_limited` would say.
#[derive(Clone)]
pub struct OursLinuxHooks {
    state: congestion::linux::LinuxCubicState,
    params: congestion::cubic::LinuxCubicParams,
    snd_una: u32,
    snd_nxt: u32,
    in_flight: u32,
}

impl OursLinuxHooks {
    /// Kernel defaults, IW10.
    pub fn new() -> Self {
        let params = congestion::cubic::LinuxCubicConfig::new()
            .validate()
            .expect("kernel defaults are valid");
        let mut state = congestion::linux::LinuxCubicState {
            cwnd: 10,
            ssthresh: congestion::linux::TCP_INFINITE_SSTHRESH,
            ..Default::default()
        };
        state.hystart.start_round(START_US as u32, 0);
        OursLinuxHooks {
            state,
            params,
            snd_una: 0,
            snd_nxt: 0,
            in_flight: 0,
        }
    }
}

impl Default for OursLinuxHooks {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursLinuxHooks {
    fn name(&self) -> &'static str {
        "congestion Linux CUBIC hooks"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        let now = congestion::Instant::from_micros(now_us);
        let jiffies = now.jiffies32();
        self.in_flight -= packets;
        self.snd_una = self.snd_una.wrapping_add(packets);
        let s = &mut self.state;
        // cubictcp_acked
        if !s.cubic.in_sample_blackout(jiffies) {
            let delay = (rtt_us as u32).max(1);
            s.cubic.on_delay_sample(delay);
            if s.in_slow_start() && !s.hystart.found {
                let input = congestion::hystart::HystartInput {
                    now_us: now.micros32(),
                    delay_us: delay,
                    delay_min_us: s.cubic.delay_min,
                    snd_una: self.snd_una,
                    snd_nxt: self.snd_nxt,
                    cwnd: s.cwnd,
                    pacing_rate: 0,
                    pacing_status: congestion::hystart::PacingStatus::None,
                    gso_max_size: 65536,
                };
                if s.hystart.on_delay_sample(&self.params, &input).is_some() {
                    s.ssthresh = s.cwnd;
                }
            }
        }
        // cubictcp_cong_avoid
        let mut acked = packets;
        if s.in_slow_start() {
            acked = s.slow_start(acked, u32::MAX);
            if acked == 0 {
                return;
            }
        }
        s.cubic.update(&self.params, s.cwnd, acked, jiffies);
        let cnt = s.cubic.cnt;
        s.congestion_avoidance_ai(cnt, acked, u32::MAX);
    }

    #[inline(always)]
    fn send(&mut self, _now_us: u64, packets: u32) {
        self.in_flight += packets;
        self.snd_nxt = self.snd_nxt.wrapping_add(packets);
    }

    fn loss(&mut self, _now_us: u64) {
        self.in_flight -= 1;
        let s = &mut self.state;
        s.ssthresh = s.cubic.recalc_ssthresh(&self.params, s.cwnd);
        s.cwnd = s.ssthresh;
        s.cwnd_cnt = 0;
    }

    fn rto(&mut self, now_us: u64) {
        let s = &mut self.state;
        s.ssthresh = s.cubic.recalc_ssthresh(&self.params, s.cwnd);
        s.cwnd = 1;
        s.cwnd_cnt = 0;
        s.cubic.reset();
        s.hystart.found = false;
        s.hystart.start_round(now_us as u32, self.snd_nxt);
        self.in_flight = 1;
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.state.cwnd
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }
}

/// RFC-mode CUBIC (RFC 9438) + HyStart++ (RFC 9406) in bytes, as a QUIC stack drives
/// it: one `on_ack` per ACK frame with all its bytes, one `on_sent` per burst.
#[derive(Clone)]
pub struct OursRfc {
    flow: congestion::rfc::Cubic,
    in_flight: u32,
    largest_sent: u64,
    largest_acked: u64,
}

impl OursRfc {
    /// RFC defaults (HyStart++, unpaced, RFC 9002 initial window), MSS 1200 bytes.
    pub fn new() -> Self {
        let mut config = congestion::rfc::CubicConfig::new();
        config.cubic.mss_bytes = u64::from(PACKET_BYTES);
        let now = congestion::Instant::from_micros(START_US);
        let flow = congestion::rfc::Cubic::new(config, now).expect("RFC defaults are valid");
        OursRfc {
            flow,
            in_flight: 0,
            largest_sent: 0,
            largest_acked: 0,
        }
    }

    #[inline(always)]
    fn sent_event(&self) -> congestion::SentEvent {
        congestion::SentEvent::new(
            u64::from(self.in_flight) * u64::from(PACKET_BYTES),
            self.largest_sent,
        )
    }
}

impl Default for OursRfc {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursRfc {
    fn name(&self) -> &'static str {
        "congestion RFC mode"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        use congestion::CongestionController;
        self.in_flight -= packets;
        self.largest_acked += u64::from(packets);
        let ack = congestion::AckEvent {
            acked: u64::from(packets * PACKET_BYTES),
            rtt: Some(congestion::Duration::from_micros(rtt_us)),
            largest_acked: Some(self.largest_acked),
            app_limited: false,
            ce_delta: 0,
        };
        self.flow
            .on_ack(congestion::Instant::from_micros(now_us), &ack);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        use congestion::CongestionController;
        self.in_flight += packets;
        self.largest_sent += u64::from(packets);
        let sent = self.sent_event();
        self.flow
            .on_sent(congestion::Instant::from_micros(now_us), &sent);
    }

    fn loss(&mut self, now_us: u64) {
        use congestion::CongestionController;
        self.in_flight -= 1;
        self.flow.on_loss(
            congestion::Instant::from_micros(now_us),
            &congestion::LossEvent::episode(0),
        );
    }

    fn rto(&mut self, now_us: u64) {
        use congestion::CongestionController;
        let now = congestion::Instant::from_micros(now_us);
        self.flow.on_loss(
            now,
            &congestion::LossEvent::episode(0).with_persistent_congestion(true),
        );
        self.in_flight = 1;
        self.largest_sent += 1;
        let sent = self.sent_event();
        self.flow.on_sent(now, &sent);
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        use congestion::CongestionController;
        (self.flow.cwnd() / u64::from(PACKET_BYTES)) as u32
    }

    fn next_ack_covers_data_sent_after_now(&mut self) {
        self.largest_acked = self.largest_sent;
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }
}

/// The pacing rate one of our controllers gives a stack, bytes per second.
pub trait OursPacingRate {
    /// The rate as the stack would read it before stamping packets.
    fn pacing_rate_bytes_per_second(&self) -> u64;
}

impl OursPacingRate for OursLinux {
    #[inline(always)]
    fn pacing_rate_bytes_per_second(&self) -> u64 {
        self.flow.sk_pacing_rate()
    }
}

/// RFC mode's own rate (Linux's formula in bytes, the default), through the trait.
impl OursPacingRate for OursRfc {
    #[inline(always)]
    fn pacing_rate_bytes_per_second(&self) -> u64 {
        use congestion::CongestionController;
        self.flow.pacing_rate().as_bytes_per_second()
    }
}

/// One of our controllers with our EDT pacer stamping every packet it sends, at the
/// controller's pacing rate read once per send call: like for like with s2n-quic-core,
/// whose controller paces inside `on_packet_sent`.
#[derive(Clone)]
pub struct Paced<C> {
    inner: C,
    pacer: congestion::pacing::EdtPacer,
}

impl<C> Paced<C> {
    /// `inner` with a fresh pacer.
    pub fn new(inner: C) -> Self {
        Paced {
            inner,
            pacer: congestion::pacing::EdtPacer::new(),
        }
    }
}

impl<C: StreamController + OursPacingRate> StreamController for Paced<C> {
    fn name(&self) -> &'static str {
        "ours + EDT pacer"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        self.inner.ack(now_us, packets, rtt_us);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        self.inner.send(now_us, packets);
        let rate = congestion::pacing::Rate::from_bytes_per_second(
            self.inner.pacing_rate_bytes_per_second(),
        );
        for _ in 0..packets {
            black_box(
                self.pacer
                    .on_send(now_us * 1000, u64::from(PACKET_BYTES), 1, rate, true),
            );
        }
    }

    fn loss(&mut self, now_us: u64) {
        self.inner.loss(now_us);
    }

    fn rto(&mut self, now_us: u64) {
        self.inner.rto(now_us);
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.inner.cwnd_packets()
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.inner.in_flight_packets()
    }

    fn next_ack_covers_data_sent_after_now(&mut self) {
        self.inner.next_ack_covers_data_sent_after_now();
    }
}
