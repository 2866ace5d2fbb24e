//! [`QuinnController`]: quinn-proto's `Controller` trait mapped onto a [`QuinnFlow`].
//!
//! # How quinn's calls map
//!
//! | quinn-proto 0.11 | here |
//! |---|---|
//! | `on_sent(now, bytes, pn)` once per packet | in-flight estimate grows by the packet; `SentEvent::new(in_flight_after, pn)` |
//! | `on_ack(now, sent, bytes, app_limited, rtt)` once per newly acked packet | accumulated, nothing delivered yet |
//! | `on_end_acks(now, in_flight, app_limited, largest)` once per ACK frame | one `AckEvent` for the whole frame: the summed bytes, `largest_acked` = largest packet number (round tracking), `app_limited`, and an RTT sample |
//! | `on_congestion_event(now, sent, persistent, lost_bytes)` | `on_loss(LossEvent::sent_at(lost, sent))`, with persistent congestion when quinn says so; `on_ecn(EcnEvent { newest_acked: SentAt(sent) })` for ECN-CE (quinn passes `lost_bytes == 0`); the flow keeps one reduction per recovery period |
//! | `on_mtu_update(mtu)` | [`QuinnFlow::set_mtu`] and the byte/segment conversion |
//! | `window()`, `initial_window()`, `metrics()` | cwnd, the initial cwnd, and cwnd + ssthresh + pacing rate |
//!
//! Details and why:
//!
//! - **RTT sample.** quinn updates its RTT estimator *after* `on_end_acks`, so the
//!   estimator handed to `on_ack` still holds the previous frame's sample. The adapter
//!   takes the sample itself, RFC 9002 §5.1 style: `now` minus the send time of the most
//!   recently sent packet of the frame, only when the frame raised the largest acked
//!   packet number (ACK delay is not subtracted; both HyStart variants look at the
//!   minimum of several samples, and the Linux kernel feeds raw samples too).
//! - **In flight.** quinn's `on_sent` `bytes` is the length of the whole transmit buffer
//!   so far (with GSO it grows packet by packet), and ACK-only packets are reported
//!   although they are not in flight. The adapter therefore counts each packet as the
//!   growth of that buffer (or its full length when a new buffer starts) and resets its
//!   estimate to quinn's exact `in_flight` at every `on_end_acks`.
//! - **One reduction per recovery period** (RFC 9002 §7.3.2): quinn calls
//!   `on_congestion_event` once per loss-detection pass, with the send time of the
//!   newest lost packet. The adapter passes that time on; the flow itself ignores
//!   events for packets sent before its current recovery started, and persistent
//!   congestion always applies. The adapter keeps no recovery state of its own.
//! - **Window-limited or not.** quinn's `app_limited` is true only when the sender
//!   had nothing to send; a sender held back by the window *or by quinn's pacer* is not
//!   app-limited. quinn 0.11 paces at `1.25 · window / srtt` with a token bucket whose
//!   timer granularity often keeps the flight below the window, so a flow that only
//!   grows when its flight fills the window (Linux `tcp_is_cwnd_limited`, RFC 9438
//!   §5.8) would never grow. The adapter follows quinn's definition: an ACK frame that
//!   quinn does not flag app-limited is reported with the window in use.
//! - **Spurious congestion.** quinn-proto 0.11 never reports one (its trait has no
//!   such call), so [`QuinnController::on_spurious_congestion_event`] exists for stacks
//!   that detect it themselves and is otherwise unused.
//! - **Pacing.** quinn 0.11's pacer computes its own rate from the window and smoothed
//!   RTT; `metrics().pacing_rate` reports the flow's rate (qlog, from the crate's
//!   `pacing_rate()`) but quinn does not pace by it.

use crate::flow::QuinnFlow;
use crate::units::Units;
use congestion::{AckEvent, Duration, EcnEvent, Instant, LossEvent, SentEvent, SentPacket};
use quinn_proto::RttEstimator;
use quinn_proto::congestion::{Controller, ControllerMetrics};
use std::any::Any;
use std::time::Instant as QuinnInstant;

/// The per-ACK-frame accumulator of quinn's per-packet `on_ack` calls.
#[derive(Clone, Copy, Debug, Default)]
struct PendingAcks {
    bytes: u64,
    newest_sent: Option<QuinnInstant>,
    app_limited: bool,
}

/// Counters of what the adapter did with quinn's calls, for tests and reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdapterStats {
    /// `AckEvent`s delivered (one per ACK frame that acknowledged something in flight).
    pub ack_frames: u64,
    /// quinn's congestion events that reduced the flow's window or threshold.
    pub congestion_events: u64,
    /// quinn's congestion events the flow judged part of its current recovery period
    /// (the packet was sent before it began): nothing but the in-flight count changed.
    pub congestion_events_in_recovery: u64,
    /// ACK frames quinn flagged application-limited.
    pub app_limited_ack_frames: u64,
    /// Packets after which the window had no room for one more full packet.
    pub window_full_sends: u64,
}

/// A quinn congestion controller backed by a flow of this crate.
#[derive(Clone, Debug)]
pub struct QuinnController<F: QuinnFlow> {
    flow: F,
    units: Units,
    /// quinn's clock at build time: the flow's `Instant::ZERO`.
    epoch: QuinnInstant,
    initial_window_bytes: u64,
    pending: PendingAcks,
    /// quinn's exact in-flight bytes at the last ACK frame, plus packets sent since.
    in_flight_bytes: u64,
    /// Length of the transmit buffer at the last `on_sent`, and when.
    last_buffer: (QuinnInstant, u64),
    largest_acked: Option<u64>,
    largest_sent: u64,
    stats: AdapterStats,
}

impl<F: QuinnFlow> QuinnController<F> {
    /// Wraps `flow`, built at quinn time `now` (the flow's zero) for `mtu_bytes`.
    pub fn new(flow: F, now: QuinnInstant, mtu_bytes: u16) -> Self {
        let units = Units::new(flow.unit(), mtu_bytes);
        QuinnController {
            initial_window_bytes: units.to_bytes(flow.cwnd()),
            flow,
            units,
            epoch: now,
            pending: PendingAcks::default(),
            in_flight_bytes: 0,
            last_buffer: (now, 0),
            largest_acked: None,
            largest_sent: 0,
            stats: AdapterStats::default(),
        }
    }

    /// The flow behind the adapter.
    pub fn flow(&self) -> &F {
        &self.flow
    }

    /// What the adapter did so far.
    pub fn stats(&self) -> AdapterStats {
        self.stats
    }

    /// The adapter's estimate of bytes in flight.
    pub fn in_flight_bytes(&self) -> u64 {
        self.in_flight_bytes
    }

    /// quinn time as the flow's time: µs since the adapter was built (a clock that
    /// never goes backwards; earlier times read as the epoch).
    fn time(&self, now: QuinnInstant) -> Instant {
        let us = now.saturating_duration_since(self.epoch).as_micros();
        Instant::from_micros(u64::try_from(us).unwrap_or(u64::MAX))
    }

    /// A spurious congestion event (the stack found the lost packets were delivered):
    /// the flow restores what the last reduction took. quinn-proto 0.11 does not call
    /// this; stacks that detect spurious losses can.
    pub fn on_spurious_congestion_event(&mut self, now: QuinnInstant) {
        let t = self.time(now);
        self.flow.on_spurious_congestion(t);
    }

    /// One packet of the current ACK frame was acknowledged (quinn's `on_ack`).
    fn pending_ack(&mut self, sent: QuinnInstant, bytes: u64, app_limited: bool) {
        let p = &mut self.pending;
        p.bytes = p.bytes.saturating_add(bytes);
        p.newest_sent = Some(p.newest_sent.map_or(sent, |s| s.max(sent)));
        p.app_limited |= app_limited;
    }

    /// Tells the flow what is in flight now.
    fn report_in_flight(&mut self, now: Instant) {
        let in_flight = self.units.in_flight(self.in_flight_bytes, self.flow.cwnd());
        self.flow
            .on_sent(now, &SentEvent::new(in_flight, self.largest_sent));
    }
}

impl<F: QuinnFlow> Controller for QuinnController<F> {
    fn on_sent(&mut self, now: QuinnInstant, bytes: u64, last_packet_number: u64) {
        // `bytes` is the transmit buffer so far: this packet is its growth, unless a new
        // buffer started (same or smaller length, or a later call).
        let (last_at, last_len) = self.last_buffer;
        let packet = if now == last_at && bytes > last_len {
            bytes - last_len
        } else {
            bytes
        };
        self.last_buffer = (now, bytes);
        self.in_flight_bytes = self.in_flight_bytes.saturating_add(packet);
        self.largest_sent = self.largest_sent.max(last_packet_number);
        if self.in_flight_bytes.saturating_add(self.units.mtu_bytes()) >= self.window() {
            self.stats.window_full_sends += 1;
        }
        let t = self.time(now);
        self.report_in_flight(t);
    }

    fn on_ack(
        &mut self,
        _now: QuinnInstant,
        sent: QuinnInstant,
        bytes: u64,
        app_limited: bool,
        _rtt: &RttEstimator,
    ) {
        self.pending_ack(sent, bytes, app_limited);
    }

    fn on_end_acks(
        &mut self,
        now: QuinnInstant,
        in_flight: u64,
        app_limited: bool,
        largest_packet_num_acked: Option<u64>,
    ) {
        let pending = std::mem::take(&mut self.pending);
        let t = self.time(now);
        let new_largest = match (largest_packet_num_acked, self.largest_acked) {
            (Some(new), Some(old)) => new > old,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if new_largest {
            self.largest_acked = largest_packet_num_acked;
        }
        if pending.bytes == 0 {
            self.in_flight_bytes = in_flight;
            return;
        }
        let app_limited = app_limited || pending.app_limited;
        // Bytes in flight before this frame: quinn's exact count after it, plus what it
        // acknowledged (loss detection runs after this call). A sender quinn calls not
        // application-limited was held back by the window or by the pacer, whose rate
        // quinn derives from the window (1.25 · window / srtt): either way the window is
        // what limits it, so the flow is told its window was in use.
        let before = in_flight.saturating_add(pending.bytes);
        self.in_flight_bytes = if app_limited {
            before
        } else {
            before.max(self.window())
        };
        self.report_in_flight(t);
        let rtt = match (new_largest, pending.newest_sent) {
            (true, Some(sent)) => {
                let us = now.saturating_duration_since(sent).as_micros();
                Some(Duration::from_micros(u64::try_from(us).unwrap_or(u64::MAX)))
            }
            _ => None,
        };
        let ack = AckEvent {
            acked: self.units.acked(pending.bytes),
            rtt,
            largest_acked: self.largest_acked,
            app_limited,
            ce_delta: 0,
        };
        self.flow.on_ack(t, &ack);
        self.in_flight_bytes = in_flight;
        self.stats.ack_frames += 1;
        self.stats.app_limited_ack_frames += u64::from(ack.app_limited);
    }

    fn on_congestion_event(
        &mut self,
        now: QuinnInstant,
        sent: QuinnInstant,
        is_persistent_congestion: bool,
        lost_bytes: u64,
    ) {
        let t = self.time(now);
        let newest = SentPacket::SentAt(self.time(sent));
        let before = (self.flow.cwnd(), self.flow.ssthresh());
        if lost_bytes == 0 && !is_persistent_congestion {
            // quinn reports ECN-CE as a congestion event with no lost bytes.
            let ecn = EcnEvent {
                ce_increase: 1,
                newest_acked: newest,
            };
            self.flow.on_ecn(t, &ecn);
        } else {
            let loss = LossEvent {
                lost: self.units.acked(lost_bytes),
                newest_lost: newest,
                persistent_congestion: is_persistent_congestion,
            };
            self.flow.on_loss(t, &loss);
            self.in_flight_bytes = self.in_flight_bytes.saturating_sub(lost_bytes);
        }
        if (self.flow.cwnd(), self.flow.ssthresh()) == before {
            self.stats.congestion_events_in_recovery += 1;
        } else {
            self.stats.congestion_events += 1;
        }
    }

    fn on_mtu_update(&mut self, new_mtu: u16) {
        self.units.set_mtu(new_mtu);
        self.flow.set_mtu(new_mtu);
    }

    fn window(&self) -> u64 {
        self.units.to_bytes(self.flow.cwnd())
    }

    fn metrics(&self) -> ControllerMetrics {
        let mut m = ControllerMetrics::default();
        m.congestion_window = self.window();
        m.ssthresh = self.flow.ssthresh().map(|s| self.units.to_bytes(s));
        // No RTT estimate yet means "not paced": report nothing rather than infinity.
        let rate = self.flow.pacing_rate();
        m.pacing_rate = rate.is_pacing().then(|| rate.as_bits_per_second());
        m
    }

    fn clone_box(&self) -> Box<dyn Controller> {
        Box::new(self.clone())
    }

    fn initial_window(&self) -> u64 {
        self.initial_window_bytes
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

#[cfg(test)]
#[path = "controller_tests.rs"]
mod tests;
