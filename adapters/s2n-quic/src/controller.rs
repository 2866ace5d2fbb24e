//! [`S2nController`]: s2n-quic's `CongestionController` on top of a flow of this crate.
//!
//! # Call mapping
//!
//! | s2n-quic 1.91 (`CongestionController`) | the crate |
//! |---|---|
//! | `on_packet_sent(time, bytes, app_limited, ..)`, once per packet | the adapter numbers the packet (s2n-quic passes no packet number) and keeps the number in the `PacketInfo`; [`on_sent_counted`](CongestionController::on_sent_counted) (the flow keeps bytes in flight, as s2n-quic expects of its controller). A 0-byte packet (ACK only, not congestion controlled) takes the number of the last packet in flight and is not reported |
//! | `on_rtt_update`, when an ACK frame newly acknowledges its largest packet | the latest RTT sample, kept for the `on_ack` that follows in the same frame |
//! | `on_ack(.., bytes, newest PacketInfo, .., receive time)`, once per ACK frame | one [`AckEvent`]: the bytes, the newest acknowledged packet's number, the RTT sample if the frame gave one, app-limited when the last packet sent was (s2n-quic's own judgement: window not full and nothing left to send) |
//! | `on_packet_lost(bytes, PacketInfo, persistent, new_loss_burst, .., now)`, once per lost packet | [`LossEvent::packet`] with the packet's number, `with_persistent_congestion`; the flow reduces once per recovery period and ignores losses of packets sent before it began (RFC 9002 §7.3.2), so the adapter has no filter of its own and ignores `new_loss_burst` |
//! | `on_explicit_congestion(ce_count, time)` | [`EcnEvent`] with the number of the frame's newest acknowledged packet: s2n-quic reports the CE increase just before that frame's `on_ack`, so the adapter holds it until then (RFC 9002 §A.7 also processes ECN before the acknowledged packets) |
//! | `on_packet_discarded(bytes)` | [`on_discarded`](CongestionController::on_discarded) at the last event's time |
//! | `on_mtu_update(size)` | the flow's MSS |
//! | `congestion_window()`, `bytes_in_flight()` | `cwnd()`, `in_flight()` (saturated to `u32`) |
//! | `is_congestion_limited()` | `cwnd − in_flight < max datagram size` |
//! | `requires_fast_retransmission()` | true from a reduction until the next packet is sent (RFC 9002 §7.3.2: one packet may be sent on entering recovery) |
//! | `earliest_departure_time()` | the EDT pacer's next departure (paced), else `None` |
//! | `send_quantum()` | TSO/GSO autosizing on the pacing rate and minimum RTT (paced), else `None` |
//!
//! Time: s2n-quic's `Timestamp`s become the crate's microsecond [`Instant`]s counted
//! from the first packet the controller sees, and departure times go back the same way.

use crate::flow::{RfcModeFlow, Sender};
use congestion::rfc::CubicConfig;
use congestion::{
    AckEvent, ConfigError, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase,
};
use s2n_quic::provider::congestion_controller::{
    CongestionController as S2nCongestionController, Publisher, RandomGenerator, RttEstimator,
    Timestamp,
};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What s2n-quic keeps with each sent packet until it is acknowledged or lost: the
/// number the adapter gave it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketInfo {
    /// The adapter's packet number (1, 2, ... in send order; 0 before any packet).
    pub number: u64,
}

/// One sent packet as the controller saw it, for tests and traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Departure {
    /// When s2n-quic sent it, µs since the controller's first packet.
    pub sent_at_us: u64,
    /// The earliest departure time the controller reported just before (what s2n-quic
    /// consulted to decide it could send), µs on the same clock; `None` unpaced.
    pub earliest_departure_us: Option<u64>,
    /// Bytes of the packet.
    pub bytes: u32,
    /// The adapter's packet number.
    pub number: u64,
    /// The flow's pacing rate when the packet was sent (before the send), bytes/s
    /// (`u64::MAX` while unlimited).
    pub pacing_rate_bytes_per_second: u64,
    /// The congestion window after the send, bytes.
    pub cwnd_bytes: u64,
    /// Bytes in flight after the send.
    pub in_flight_bytes: u64,
    /// The send quantum after the send, bytes (paced), else 0.
    pub send_quantum_bytes: u64,
}

/// A shared record of departures, at most `capacity` of them (the first ones).
#[derive(Clone, Debug)]
pub struct DepartureLog {
    entries: Arc<Mutex<Vec<Departure>>>,
    capacity: usize,
}

impl DepartureLog {
    /// An empty log keeping the first `capacity` departures.
    pub fn new(capacity: usize) -> Self {
        DepartureLog {
            entries: Arc::new(Mutex::new(Vec::new())),
            capacity,
        }
    }

    /// A copy of what was recorded.
    pub fn entries(&self) -> Vec<Departure> {
        self.entries.lock().map(|e| e.clone()).unwrap_or_default()
    }

    fn push(&self, d: Departure) {
        if let Ok(mut e) = self.entries.lock()
            && e.len() < self.capacity
        {
            e.push(d);
        }
    }
}

/// Counters shared by every controller an endpoint built (all its connections).
#[derive(Debug, Default)]
pub struct AdapterStats {
    /// Packets reported sent (congestion-controlled ones).
    pub sent_packets: AtomicU64,
    /// ACK frames passed on.
    pub ack_frames: AtomicU64,
    /// Lost packets passed on.
    pub lost_packets: AtomicU64,
    /// Reductions the flow made (a loss or CE mark that started a recovery period).
    pub reductions: AtomicU64,
    /// Losses the flow judged part of a recovery period already under way.
    pub losses_in_recovery: AtomicU64,
    /// Losses reported with persistent congestion.
    pub persistent_congestion: AtomicU64,
    /// ECN-CE increases passed on.
    pub ecn_events: AtomicU64,
    /// Packets the pacer held back: the earliest departure time reported before them
    /// lay after the previous packet's send time.
    pub paced_packets: AtomicU64,
    /// The largest congestion window seen, bytes.
    pub max_cwnd: AtomicU64,
    /// Packets (BBR) that left later than [`HOST_LATENESS`] beyond the timer slack after
    /// the departure time the sender was waiting for: the host, not the network, held
    /// them back, and the next ACK is reported application-limited.
    pub late_packets: AtomicU64,
}

impl AdapterStats {
    /// One counter's value.
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

/// How late a packet may leave after the EDT pacer's departure time without the pacer
/// losing that time: s2n-quic's timer granularity (`K_GRANULARITY`, 1 ms; its pacing
/// timer fires on a millisecond wheel). See [`S2nController::with_timer_slack`].
pub const DEFAULT_TIMER_SLACK: Duration = Duration::from_millis(1);

/// How much later than its departure time (beyond the timer slack) a packet the sender
/// was waiting to pace out may leave before the adapter calls the delay the host's:
/// four of s2n-quic's 1 ms timer granularity (`K_GRANULARITY`), well above the
/// millisecond a working timer wheel adds. See [`S2nBbrController`](crate::S2nBbrController).
pub const HOST_LATENESS: Duration = Duration::from_millis(4);

/// s2n-quic's congestion controller backed by one of this crate's RFC-mode flows.
#[derive(Clone, Debug)]
pub struct S2nController<F: RfcModeFlow> {
    sender: Sender<F>,
    /// The s2n-quic time that is the crate's `Instant::ZERO`: the first event's.
    base: Option<Timestamp>,
    last_now: Instant,
    /// The number of the last congestion-controlled packet sent.
    largest_sent: u64,
    last_sent_at: Option<Instant>,
    pending_rtt: Option<Duration>,
    pending_ce: u64,
    last_send_app_limited: bool,
    max_datagram_size: u16,
    fast_retransmission: bool,
    timer_slack: Duration,
    stats: Option<Arc<AdapterStats>>,
    log: Option<DepartureLog>,
}

impl<F: RfcModeFlow> S2nController<F> {
    /// A controller for a path whose max datagram size is `max_datagram_size`; `config`'s
    /// MSS is replaced by it. With `paced`, the EDT pacer and TSO autosizing answer
    /// `earliest_departure_time` and `send_quantum`.
    pub fn new(
        config: CubicConfig,
        max_datagram_size: u16,
        paced: bool,
    ) -> Result<Self, ConfigError> {
        let mut config = config;
        config.cubic.mss_bytes = u64::from(max_datagram_size);
        Ok(S2nController {
            sender: Sender::new(config, paced, Instant::ZERO)?,
            base: None,
            last_now: Instant::ZERO,
            largest_sent: 0,
            last_sent_at: None,
            pending_rtt: None,
            pending_ce: 0,
            last_send_app_limited: false,
            max_datagram_size,
            fast_retransmission: false,
            timer_slack: DEFAULT_TIMER_SLACK,
            stats: None,
            log: None,
        })
    }

    /// How late after its departure time a packet may leave without the pacer losing
    /// that time (see [`DEFAULT_TIMER_SLACK`]); zero: the EDT pacer's own rule only.
    pub fn with_timer_slack(mut self, slack: Duration) -> Self {
        self.timer_slack = slack;
        self
    }

    /// Counts into `stats`.
    pub fn with_stats(mut self, stats: Arc<AdapterStats>) -> Self {
        self.stats = Some(stats);
        self
    }

    /// Records departures into `log`.
    pub fn with_log(mut self, log: DepartureLog) -> Self {
        self.log = Some(log);
        self
    }

    /// The crate's controller behind the adapter.
    pub fn flow(&self) -> &dyn CongestionController {
        self.sender.cc()
    }

    /// Whether the EDT pacer is on.
    pub fn is_paced(&self) -> bool {
        self.sender.is_paced()
    }

    /// The largest packet number given so far.
    pub fn largest_sent(&self) -> u64 {
        self.largest_sent
    }

    /// s2n-quic time to the crate's.
    fn instant(&mut self, t: Timestamp) -> Instant {
        let base = *self.base.get_or_insert(t);
        let us = t.saturating_duration_since(base).as_micros();
        let now = Instant::from_micros(u64::try_from(us).unwrap_or(u64::MAX));
        // Time never goes backwards for the flow.
        if now.as_micros() > self.last_now.as_micros() {
            self.last_now = now;
        }
        self.last_now
    }

    /// The crate's time to s2n-quic's (`None` before the first event).
    fn timestamp(&self, at: Instant) -> Option<Timestamp> {
        self.base
            .map(|b| b + core::time::Duration::from_micros(at.as_micros()))
    }

    fn count(&self, pick: impl Fn(&AdapterStats) -> &AtomicU64) {
        if let Some(s) = &self.stats {
            pick(s).fetch_add(1, Ordering::Relaxed);
        }
    }

    fn note_cwnd(&self) {
        if let Some(s) = &self.stats {
            s.max_cwnd
                .fetch_max(self.sender.cc().cwnd(), Ordering::Relaxed);
        }
    }

    /// Runs a congestion signal and notes whether it reduced the window.
    fn signal(&mut self, f: impl FnOnce(&mut dyn CongestionController)) -> bool {
        let cc = self.sender.cc();
        let before = (cc.cwnd(), cc.phase());
        f(self.sender.cc_mut());
        let cc = self.sender.cc();
        let reduced =
            cc.cwnd() < before.0 || (cc.phase() == Phase::Recovery && before.1 != Phase::Recovery);
        if reduced {
            // RFC 9002 §7.3.2: one packet may be sent on entering recovery.
            self.fast_retransmission = true;
            self.count(|s| &s.reductions);
        }
        reduced
    }

    fn deliver_pending_ce(&mut self, now: Instant, newest_acked: u64) {
        if self.pending_ce > 0 {
            let event = EcnEvent::new(self.pending_ce, newest_acked);
            self.pending_ce = 0;
            self.count(|s| &s.ecn_events);
            self.signal(|cc| cc.on_ecn(now, &event));
        }
    }
}

fn saturate_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

impl<F: RfcModeFlow> S2nCongestionController for S2nController<F> {
    type PacketInfo = PacketInfo;

    fn congestion_window(&self) -> u32 {
        saturate_u32(self.sender.cc().cwnd())
    }

    fn bytes_in_flight(&self) -> u32 {
        saturate_u32(self.sender.cc().in_flight())
    }

    fn is_congestion_limited(&self) -> bool {
        let cc = self.sender.cc();
        cc.cwnd().saturating_sub(cc.in_flight()) < u64::from(self.max_datagram_size)
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
    ) -> PacketInfo {
        let now = self.instant(time_sent);
        if sent_bytes == 0 {
            // An ACK-only packet: not in flight, not congestion controlled.
            return PacketInfo {
                number: self.largest_sent,
            };
        }
        let edt = self.sender.next_departure();
        let rate = self.sender.cc().pacing_rate().as_bytes_per_second();
        self.largest_sent += 1;
        let number = self.largest_sent;
        self.fast_retransmission = false;
        self.last_send_app_limited = app_limited == Some(true);
        self.sender
            .on_sent(now, sent_bytes as u64, number, self.timer_slack);
        self.count(|s| &s.sent_packets);
        if let (Some(edt), Some(prev)) = (edt, self.last_sent_at)
            && edt.as_micros() > prev.as_micros()
        {
            self.count(|s| &s.paced_packets);
        }
        self.last_sent_at = Some(now);
        if let Some(log) = &self.log {
            log.push(Departure {
                sent_at_us: now.as_micros(),
                earliest_departure_us: edt.map(Instant::as_micros),
                bytes: saturate_u32(sent_bytes as u64),
                number,
                pacing_rate_bytes_per_second: rate,
                cwnd_bytes: self.sender.cc().cwnd(),
                in_flight_bytes: self.sender.cc().in_flight(),
                send_quantum_bytes: self.sender.send_quantum().unwrap_or(0),
            });
        }
        PacketInfo { number }
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
        newest_acked_packet_info: PacketInfo,
        _rtt_estimator: &RttEstimator,
        _random_generator: &mut dyn RandomGenerator,
        ack_receive_time: Timestamp,
        _publisher: &mut Pub,
    ) {
        let now = self.instant(ack_receive_time);
        let newest = newest_acked_packet_info.number;
        self.deliver_pending_ce(now, newest);
        let ack = AckEvent::new(bytes_acknowledged as u64, newest, self.pending_rtt.take())
            .with_app_limited(self.last_send_app_limited);
        self.sender.cc_mut().on_ack(now, &ack);
        self.count(|s| &s.ack_frames);
        self.note_cwnd();
    }

    fn on_packet_lost<Pub: Publisher>(
        &mut self,
        lost_bytes: u32,
        packet_info: PacketInfo,
        persistent_congestion: bool,
        _new_loss_burst: bool,
        _random_generator: &mut dyn RandomGenerator,
        timestamp: Timestamp,
        _publisher: &mut Pub,
    ) {
        let now = self.instant(timestamp);
        let loss = LossEvent::packet(u64::from(lost_bytes), packet_info.number)
            .with_persistent_congestion(persistent_congestion);
        self.count(|s| &s.lost_packets);
        if persistent_congestion {
            self.count(|s| &s.persistent_congestion);
        }
        if !self.signal(|cc| cc.on_loss(now, &loss)) {
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
    }

    fn on_mtu_update<Pub: Publisher>(&mut self, max_data_size: u16, _publisher: &mut Pub) {
        // An invalid size is refused by the flow and changes nothing.
        if self.sender.set_mss(u64::from(max_data_size)).is_ok() {
            self.max_datagram_size = max_data_size;
        }
    }

    fn on_packet_discarded<Pub: Publisher>(&mut self, bytes_sent: usize, _publisher: &mut Pub) {
        let now = self.last_now;
        self.sender.cc_mut().on_discarded(now, bytes_sent as u64);
    }

    fn earliest_departure_time(&self) -> Option<Timestamp> {
        self.sender
            .next_departure()
            .and_then(|at| self.timestamp(at))
    }

    fn send_quantum(&self) -> Option<usize> {
        self.sender
            .send_quantum()
            .map(|q| usize::try_from(q).unwrap_or(usize::MAX))
    }
}
#[cfg(test)]
#[path = "controller_tests.rs"]
mod tests;
