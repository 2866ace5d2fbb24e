//! [`S2nBbrController`] and [`BbrEndpoint`]: this crate's Linux-mode BBR v1 and BBRv3
//! (segments, delivery-rate sampling) behind s2n-quic's `CongestionController`, paced by
//! the crate's EDT pacer at BBR's rate.
//!
//! # Where each packet's snapshot lives
//!
//! s2n-quic keeps a controller-defined `PacketInfo` with every sent packet and hands it
//! back when the packet is acknowledged (the frame's newest acknowledged packet) or
//! lost: the slot the crate's per-packet calls were shaped after. The adapter stores
//! the packet's number, send time and [`TxSnapshot`] there ([`SampledPacketInfo`]);
//! no table of its own.
//!
//! # Call mapping (segments)
//!
//! | s2n-quic 1.91 | the crate |
//! |---|---|
//! | `on_packet_sent(time, bytes, app_limited, ..)` | one segment: `on_packet_sent(SentEvent::new(in_flight + 1, number))` on the flow, its departure stamped by the EDT pacer at the rate before the send (one segment of the flow's MSS, with the timer slack of [`S2nController`](crate::S2nController)); ACK-only packets (0 bytes) are not reported |
//! | `on_rtt_update` | the latest RTT sample, kept for the frame's `on_ack` |
//! | `on_ack(.., bytes, newest PacketInfo, .., receive time)` | `on_ack_sampled` with the newest packet's send time and snapshot; the segments acknowledged are what leaves the flow's flight when s2n-quic's bytes in flight (the adapter's count) are rounded up to datagrams; ECN-CE counts reported just before ride on it as `AckEvent::ce_delta` (BBRv3 reads them, BBR v1 ignores them) |
//! | `on_packet_lost(bytes, PacketInfo, persistent, ..)` | `on_packet_lost(LossEvent::packet(1, number), snapshot)`, persistent congestion as the flow defines it |
//! | `on_packet_discarded(bytes)` | `on_discarded` of the datagrams it took |
//! | `on_mtu_update(size)` | the byte view only: the flow keeps counting one segment per packet |
//! | `congestion_window()` | cwnd segments × the current max datagram size |
//! | `bytes_in_flight()` | the adapter's byte count: sent − acknowledged − lost − discarded |
//! | `earliest_departure_time()`, `send_quantum()` | the EDT pacer's next departure; the flow's send quantum scaled from its MSS to the current datagram size |
//!
//! # A late sender is application-limited, not a slower network
//!
//! BBR measures the delivery rate of what it sent and paces at that rate (times a
//! gain), so anything that makes the sender fall behind its own pacer feeds back: the
//! lower rate is measured, the bandwidth estimate falls, the pacer slows further. The
//! kernel's pacer runs on hrtimers; s2n-quic arms its pacing timer on a millisecond
//! wheel from a tokio task, and on a loaded host that task wakes tens of milliseconds
//! late. The EDT pacer forgives a late sender only the timer slack (and half a
//! packet), so each late wake-up lets out about a millisecond's worth of packets:
//! under CPU contention (three busy loops sharing the transfer's core) `ours-bbr` fell
//! from 23 to 1.5 Mbit/s on a 30 Mbit/s link with no loss at all, its bandwidth
//! estimate sinking round after round, where s2n-quic's own BBR kept 14 to 17.
//!
//! The delivery-rate sampler has the answer for a sender that did not send as fast as
//! it could for reasons of its own: the application-limited mark
//! (`tcp_rate_check_app_limited()`), whose samples may raise the bandwidth estimate
//! but never lower it. The adapter uses it for the host too: when a packet leaves more
//! than [`HOST_LATENESS`] after the departure time the sender was waiting for (the
//! previous send left the pacer closed, the window open and data to send), the next
//! ACK frame is reported application-limited, and BBR keeps its estimate until the
//! host keeps time again.
//!
//! The flow's MSS is the path's max datagram size when the controller is built (1200
//! at first in s2n-quic). BBR measures bandwidth in packets per second and paces one
//! MSS per packet, so each packet is spaced by one segment at BBR's rate whatever its
//! size; the byte figures s2n-quic reads are scaled to the current datagram size.

use crate::controller::{AdapterStats, DEFAULT_TIMER_SLACK, HOST_LATENESS};
use congestion::hystart::PacingStatus;
use congestion::linux::{self, RandomFn};
use congestion::pacing::{PacedFlow, SendPathConfig};
use congestion::{
    AckEvent, AckedPacket, ConfigError, CongestionController, Duration, Instant, LossEvent,
    SentEvent, TxSnapshot, WindowUnit,
};
use core::fmt::Debug;
use s2n_quic::provider::congestion_controller::{
    CongestionController as S2nCongestionController, Endpoint, PathInfo, Publisher,
    RandomGenerator, RttEstimator, Timestamp,
};
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The random numbers BBR draws (its first PROBE_BW phase; the kernel's
/// `get_random_u32_below()`): xorshift64*, seeded from the clock at the first draw,
/// shared by the process. Not cryptographic; flows only need different phases.
pub fn random_below(ceil: u32) -> u32 {
    use std::sync::atomic::AtomicU64;
    static STATE: AtomicU64 = AtomicU64::new(0);
    let mut x = STATE.load(Ordering::Relaxed);
    if x == 0 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        x = u64::from(nanos) | 1;
    }
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    STATE.store(x, Ordering::Relaxed);
    let r = x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
    u32::try_from(r).unwrap_or(0) % ceil.max(1)
}

/// A Linux-mode flow in segments that samples the delivery rate: what
/// [`S2nBbrController`] drives.
pub trait SegmentFlow: CongestionController + Clone + Debug + Send + Sized + 'static {
    /// The name used in reports.
    const NAME: &'static str;
    /// Its settings (the MSS is replaced by the path's max datagram size).
    type Config: Copy + Debug + Send + Sync + 'static;

    /// A new flow at `now` whose segments are `mss_bytes` long.
    fn build(config: &Self::Config, mss_bytes: u16, now: Instant) -> Result<Self, ConfigError>;
}

impl SegmentFlow for linux::BbrController<RandomFn> {
    const NAME: &'static str = "bbr";
    type Config = linux::BbrConfig;

    fn build(config: &Self::Config, mss_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.mss = u32::from(mss_bytes);
        linux::BbrController::new(config, now, RandomFn(random_below))
    }
}

impl SegmentFlow for linux::Bbr3Controller<RandomFn> {
    const NAME: &'static str = "bbr3";
    type Config = linux::Bbr3Config;

    fn build(config: &Self::Config, mss_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.mss = u32::from(mss_bytes);
        linux::Bbr3Controller::new(config, now, RandomFn(random_below))
    }
}

/// What s2n-quic keeps with each packet for [`S2nBbrController`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SampledPacketInfo {
    /// The adapter's packet number (1, 2, ... in send order).
    pub number: u64,
    /// When it was sent, on the flow's clock.
    pub time_sent: Instant,
    /// What the flow's `on_packet_sent` returned for it.
    pub snapshot: TxSnapshot,
}

/// s2n-quic's congestion controller backed by a Linux-mode BBR flow and the crate's
/// EDT pacer.
#[derive(Clone, Debug)]
pub struct S2nBbrController<F: SegmentFlow> {
    flow: PacedFlow<F>,
    base: Option<Timestamp>,
    last_now: Instant,
    largest_sent: u64,
    /// What the last packet in flight carries (ACK-only packets carry it too).
    last_info: SampledPacketInfo,
    bytes_in_flight: u64,
    /// The path's max datagram size now, bytes.
    max_datagram_size: u16,
    /// The flow's segment size (the datagram size at build), bytes.
    mss: u64,
    pending_rtt: Option<Duration>,
    pending_ce: u64,
    last_send_app_limited: bool,
    /// The departure time the sender was left waiting for by its last send (the pacer
    /// closed, the window open, data to send), if it was.
    waiting_for: Option<Instant>,
    /// A packet left late since the last ACK frame: report that frame app-limited.
    host_limited: bool,
    fast_retransmission: bool,
    timer_slack: Duration,
    stats: Option<Arc<AdapterStats>>,
}

impl<F: SegmentFlow> S2nBbrController<F> {
    /// A controller for a path whose max datagram size is `max_datagram_size` (also the
    /// flow's MSS).
    pub fn new(config: &F::Config, max_datagram_size: u16) -> Result<Self, ConfigError> {
        let flow = F::build(config, max_datagram_size, Instant::ZERO)?;
        debug_assert_eq!(flow.unit(), WindowUnit::Segments);
        let mut path = SendPathConfig::new();
        // s2n-quic waits for each departure itself (Linux's internal pacing, not fq).
        path.pacing_status = PacingStatus::Needed;
        Ok(S2nBbrController {
            mss: flow.mss_bytes().max(1),
            flow: PacedFlow::new(flow, path.validate()?),
            base: None,
            last_now: Instant::ZERO,
            largest_sent: 0,
            last_info: SampledPacketInfo::default(),
            bytes_in_flight: 0,
            max_datagram_size,
            pending_rtt: None,
            pending_ce: 0,
            last_send_app_limited: false,
            waiting_for: None,
            host_limited: false,
            fast_retransmission: false,
            timer_slack: DEFAULT_TIMER_SLACK,
            stats: None,
        })
    }

    /// The pacer's timer slack (see [`DEFAULT_TIMER_SLACK`]).
    pub fn with_timer_slack(mut self, slack: Duration) -> Self {
        self.timer_slack = slack;
        self
    }

    /// Counts into `stats`.
    pub fn with_stats(mut self, stats: Arc<AdapterStats>) -> Self {
        self.stats = Some(stats);
        self
    }

    /// The flow behind the adapter.
    pub fn flow(&self) -> &F {
        self.flow.controller()
    }

    fn instant(&mut self, t: Timestamp) -> Instant {
        let base = *self.base.get_or_insert(t);
        let us = t.saturating_duration_since(base).as_micros();
        let now = Instant::from_micros(u64::try_from(us).unwrap_or(u64::MAX));
        if now.as_micros() > self.last_now.as_micros() {
            self.last_now = now;
        }
        self.last_now
    }

    fn count(&self, pick: impl Fn(&AdapterStats) -> &std::sync::atomic::AtomicU64) {
        if let Some(s) = &self.stats {
            pick(s).fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Bytes the flow computed with its MSS, in datagrams of the current size.
    fn scale(&self, bytes: u64) -> u64 {
        let scaled = u128::from(bytes) * u128::from(self.max_datagram_size) / u128::from(self.mss);
        u64::try_from(scaled).unwrap_or(u64::MAX)
    }

    fn window_bytes(&self) -> u64 {
        self.flow
            .cwnd()
            .saturating_mul(u64::from(self.max_datagram_size))
    }

    /// Segments still in flight by s2n-quic's byte count.
    fn segments_in_flight(&self) -> u64 {
        self.bytes_in_flight
            .div_ceil(u64::from(self.max_datagram_size.max(1)))
    }
}

fn saturate_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

impl<F: SegmentFlow> S2nCongestionController for S2nBbrController<F> {
    type PacketInfo = SampledPacketInfo;

    fn congestion_window(&self) -> u32 {
        saturate_u32(self.window_bytes())
    }

    fn bytes_in_flight(&self) -> u32 {
        saturate_u32(self.bytes_in_flight)
    }

    fn is_congestion_limited(&self) -> bool {
        self.window_bytes().saturating_sub(self.bytes_in_flight) < u64::from(self.max_datagram_size)
    }

    fn requires_fast_retransmission(&self) -> bool {
        self.fast_retransmission
    }

    fn on_packet_sent<Pub: Publisher>(
        &mut self,
        time_sent: Timestamp,
        sent_bytes: usize,
        app_limited: Option<bool>,
        _rtt_estimator: &RttEstimator,
        _publisher: &mut Pub,
    ) -> SampledPacketInfo {
        let now = self.instant(time_sent);
        if sent_bytes == 0 {
            // ACK only: not in flight; it carries the last packet's info, so an ACK
            // naming it samples as that packet's ACK would.
            return self.last_info;
        }
        self.largest_sent += 1;
        let number = self.largest_sent;
        self.fast_retransmission = false;
        self.last_send_app_limited = app_limited == Some(true);
        if let Some(due) = self.waiting_for.take() {
            let late = now.as_micros().saturating_sub(due.as_micros());
            if late > self.timer_slack.as_micros() + HOST_LATENESS.as_micros() {
                self.host_limited = true;
                self.count(|s| &s.late_packets);
            }
        }
        self.bytes_in_flight = self.bytes_in_flight.saturating_add(sent_bytes as u64);
        let rate = self.flow.pacing_rate();
        let sent = SentEvent::new(self.flow.in_flight().saturating_add(1), number);
        let snapshot = self.flow.controller_mut().on_packet_sent(now, &sent);
        // The pacer's clock moved back by the timer slack, as `S2nController` does.
        let pacer_now =
            Instant::from_micros(now.as_micros().saturating_sub(self.timer_slack.as_micros()));
        self.flow
            .send_path_mut()
            .on_send(pacer_now, saturate_u32(self.mss), 1, rate);
        self.flow.on_tx_completion(saturate_u32(self.mss));
        let window_open = self.flow.in_flight() < self.flow.cwnd();
        self.waiting_for = self
            .flow
            .next_departure(now)
            .filter(|_| window_open && !self.last_send_app_limited);
        self.count(|s| &s.sent_packets);
        self.last_info = SampledPacketInfo {
            number,
            time_sent: now,
            snapshot,
        };
        self.last_info
    }

    fn on_rtt_update<Pub: Publisher>(
        &mut self,
        _time_sent: Timestamp,
        now: Timestamp,
        rtt_estimator: &RttEstimator,
        _publisher: &mut Pub,
    ) {
        self.instant(now);
        self.pending_rtt = Some(rtt_estimator.latest_rtt().into());
    }

    fn on_ack<Pub: Publisher>(
        &mut self,
        _newest_acked_time_sent: Timestamp,
        bytes_acknowledged: usize,
        newest: SampledPacketInfo,
        _rtt_estimator: &RttEstimator,
        _random_generator: &mut dyn RandomGenerator,
        ack_receive_time: Timestamp,
        _publisher: &mut Pub,
    ) {
        let now = self.instant(ack_receive_time);
        self.bytes_in_flight = self
            .bytes_in_flight
            .saturating_sub(bytes_acknowledged as u64);
        let mut acked = self
            .flow
            .in_flight()
            .saturating_sub(self.segments_in_flight());
        if acked == 0 && bytes_acknowledged > 0 {
            acked = 1.min(self.flow.in_flight());
        }
        let ce = std::mem::take(&mut self.pending_ce);
        // A sender that fell behind its pacer was held back by the host: its samples
        // must not lower the bandwidth estimate (see the module docs).
        let host_limited = std::mem::take(&mut self.host_limited);
        let ack = AckEvent::new(acked, newest.number, self.pending_rtt.take())
            .with_app_limited(self.last_send_app_limited || host_limited)
            .with_ce(ce);
        let packet = AckedPacket::new(newest.time_sent, newest.snapshot);
        self.flow.on_ack_sampled(now, &ack, &packet);
        self.count(|s| &s.ack_frames);
        if let Some(s) = &self.stats {
            s.max_cwnd.fetch_max(self.window_bytes(), Ordering::Relaxed);
        }
    }

    fn on_packet_lost<Pub: Publisher>(
        &mut self,
        lost_bytes: u32,
        info: SampledPacketInfo,
        persistent_congestion: bool,
        _new_loss_burst: bool,
        _random_generator: &mut dyn RandomGenerator,
        timestamp: Timestamp,
        _publisher: &mut Pub,
    ) {
        let now = self.instant(timestamp);
        self.bytes_in_flight = self.bytes_in_flight.saturating_sub(u64::from(lost_bytes));
        let loss =
            LossEvent::packet(1, info.number).with_persistent_congestion(persistent_congestion);
        let before = self.flow.cwnd();
        self.flow.on_packet_lost(now, &loss, &info.snapshot);
        self.count(|s| &s.lost_packets);
        if persistent_congestion {
            self.count(|s| &s.persistent_congestion);
        }
        if self.flow.cwnd() < before {
            self.fast_retransmission = true;
            self.count(|s| &s.reductions);
        } else {
            self.count(|s| &s.losses_in_recovery);
        }
    }

    fn on_explicit_congestion<Pub: Publisher>(
        &mut self,
        ce_count: u64,
        event_time: Timestamp,
        _publisher: &mut Pub,
    ) {
        self.instant(event_time);
        self.pending_ce = self.pending_ce.saturating_add(ce_count);
        self.count(|s| &s.ecn_events);
    }

    fn on_mtu_update<Pub: Publisher>(&mut self, max_data_size: u16, _publisher: &mut Pub) {
        if max_data_size > 0 {
            self.max_datagram_size = max_data_size;
        }
    }

    fn on_packet_discarded<Pub: Publisher>(&mut self, bytes_sent: usize, _publisher: &mut Pub) {
        let now = self.last_now;
        self.bytes_in_flight = self.bytes_in_flight.saturating_sub(bytes_sent as u64);
        let gone = self
            .flow
            .in_flight()
            .saturating_sub(self.segments_in_flight());
        self.flow.on_discarded(now, gone);
    }

    fn earliest_departure_time(&self) -> Option<Timestamp> {
        let at = self.flow.next_departure(Instant::ZERO)?;
        self.base
            .map(|b| b + core::time::Duration::from_micros(at.as_micros()))
    }

    fn send_quantum(&self) -> Option<usize> {
        let q = self.scale(self.flow.send_quantum_bytes());
        Some(usize::try_from(q).unwrap_or(usize::MAX))
    }
}

/// The s2n-quic endpoint that builds an [`S2nBbrController`] per path.
#[derive(Debug)]
pub struct BbrEndpoint<F: SegmentFlow> {
    config: F::Config,
    timer_slack: Duration,
    stats: Option<Arc<AdapterStats>>,
    flow: PhantomData<fn() -> F>,
}

impl<F: SegmentFlow> Clone for BbrEndpoint<F> {
    fn clone(&self) -> Self {
        BbrEndpoint {
            config: self.config,
            timer_slack: self.timer_slack,
            stats: self.stats.clone(),
            flow: PhantomData,
        }
    }
}

impl<F: SegmentFlow> BbrEndpoint<F> {
    /// An endpoint building flows from `config`, refused here if invalid (s2n-quic's
    /// `new_congestion_controller` cannot fail).
    pub fn new(config: F::Config) -> Result<Self, ConfigError> {
        S2nBbrController::<F>::new(&config, 1200)?;
        Ok(BbrEndpoint {
            config,
            timer_slack: DEFAULT_TIMER_SLACK,
            stats: None,
            flow: PhantomData,
        })
    }

    /// The pacer's timer slack for every controller.
    pub fn with_timer_slack(mut self, slack: Duration) -> Self {
        self.timer_slack = slack;
        self
    }

    /// Counts every controller's calls into `stats`.
    pub fn with_stats(mut self, stats: Arc<AdapterStats>) -> Self {
        self.stats = Some(stats);
        self
    }
}

impl<F: SegmentFlow> Endpoint for BbrEndpoint<F> {
    type CongestionController = S2nBbrController<F>;

    fn new_congestion_controller(&mut self, path_info: PathInfo) -> S2nBbrController<F> {
        let controller = S2nBbrController::new(&self.config, path_info.max_datagram_size)
            .or_else(|_| S2nBbrController::new(&self.config, 1200))
            .expect("validated when the endpoint was built");
        let controller = controller.with_timer_slack(self.timer_slack);
        match &self.stats {
            Some(s) => controller.with_stats(s.clone()),
            None => controller,
        }
    }
}

#[cfg(test)]
#[path = "bbr_tests.rs"]
mod tests;
