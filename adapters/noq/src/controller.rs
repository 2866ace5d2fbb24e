//! [`NoqController`]: noq-proto's `Controller` trait mapped onto a [`NoqFlow`].
//!
//! # How noq's calls map
//!
//! | noq-proto 1.x | here |
//! |---|---|
//! | `on_packet_sent(now, bytes, pn)`, once per ack-eliciting packet | the in-flight estimate grows by the packet; `SentEvent::new(in_flight_after, largest_sent)` |
//! | `on_sent(now, bytes, largest_pn)`, once per transmit (GSO batch) | only the largest packet number (the packets were reported one by one) |
//! | `on_ack(now, sent, bytes, pn, app_limited, rtt)`, once per newly acked packet | accumulated; the estimate shrinks |
//! | `on_end_acks(now, in_flight, app_limited, largest_acked)`, once per ACK frame | one `AckEvent::new(summed bytes, largest_acked, RTT sample)` with `app_limited`; the estimate is reset to noq's `in_flight` |
//! | `on_packet_lost(bytes, pn, now)`, once per lost packet | the estimate shrinks |
//! | `on_congestion_event(now, sent, persistent, is_ecn, lost_bytes, largest_lost_pn)` | `is_ecn`: `on_ecn(EcnEvent::new(1, largest_lost_pn))` (noq passes the largest acked packet there); else `on_loss(LossEvent::packet(lost_bytes, largest_lost_pn).with_persistent_congestion(persistent))` |
//! | `on_spurious_congestion_event()` | `on_spurious_congestion` at the latest time noq gave |
//! | `on_cwnd_limited()` | counted only (the sends already told the flow its window was full) |
//! | `on_mtu_update(mtu)` | [`NoqFlow::set_mtu`] |
//! | `on_ack_frequency_update(..)` | ignored |
//! | `window()`, `initial_window()` | cwnd, the cwnd at build |
//! | `metrics()` | cwnd, ssthresh, `pacing_rate` = the flow's rate in bytes/s (none before an RTT sample), `send_quantum` = its TSO/GSO autosize in bytes |
//!
//! Details and why:
//!
//! - **One reduction per recovery period** (RFC 9002 §7.3.2) is the flow's rule, not the
//!   adapter's: noq calls `on_congestion_event` once per loss-detection pass with the
//!   newest lost packet's number, and the flow ignores a loss of a packet numbered at or
//!   below the largest it had sent when its current recovery began. Persistent
//!   congestion always acts.
//! - **RTT sample.** noq updates its RTT estimator *after* `on_end_acks`, so the
//!   estimator handed to `on_ack` still holds the previous frame's sample. The adapter
//!   takes the sample itself, RFC 9002 §5.1 style: `now` minus the send time of the
//!   highest-numbered packet the frame newly acknowledged, only when the frame raised
//!   the largest acknowledged packet number (ACK delay is not subtracted; both HyStart
//!   variants use minima of samples, and Linux feeds raw samples too).
//! - **Bytes in flight.** noq keeps the count (`PathData::in_flight`) but passes it only
//!   at the end of an ACK frame. The adapter mirrors it: noq's value at each
//!   `on_end_acks`, plus the packets sent since, minus those acknowledged or lost since,
//!   and gives it to the flow with every send (`SentEvent::new`, "the stack counts").
//!   Window use is judged by the flow from these sends (RFC 9438 §5.8).
//! - **Pacing.** noq's pacer takes `metrics().pacing_rate` (bytes/s) over its own
//!   `1.25 · window / srtt` whenever it is reported, and splits a GSO batch at
//!   `send_quantum / MTU` datagrams. Before the flow has an RTT sample its rate is
//!   unlimited and the adapter reports none, so noq paces by the window then.
//! - **Spurious congestion.** noq calls `on_spurious_congestion_event` without a time,
//!   while it processes the ACK frame that shows every packet declared lost was
//!   delivered; the adapter passes the latest time noq gave it in any call.

use crate::flow::NoqFlow;
use congestion::{AckEvent, Duration, EcnEvent, Instant, LossEvent, SentEvent};
use noq_proto::RttEstimator;
use noq_proto::congestion::{Controller, ControllerMetrics};
use std::any::Any;
use std::time::Instant as NoqInstant;

/// The per-ACK-frame accumulator of noq's per-packet `on_ack` calls.
#[derive(Clone, Copy, Debug, Default)]
struct PendingAcks {
    bytes: u64,
    /// The highest packet number acknowledged in this frame, and when it was sent.
    highest: Option<(u64, NoqInstant)>,
    app_limited: bool,
}

/// Counters of what the adapter did with noq's calls, for tests and reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdapterStats {
    /// Packets noq reported sent (`on_packet_sent`).
    pub packets_sent: u64,
    /// Packets noq reported lost (`on_packet_lost`).
    pub packets_lost: u64,
    /// `AckEvent`s delivered (one per ACK frame that acknowledged something).
    pub ack_frames: u64,
    /// ACK frames delivered flagged application-limited.
    pub app_limited_ack_frames: u64,
    /// `LossEvent`s delivered (one per noq loss-detection pass that lost ack-eliciting
    /// packets).
    pub loss_events: u64,
    /// `EcnEvent`s delivered.
    pub ecn_events: u64,
    /// Loss or ECN events after which the flow's window was smaller: its reductions.
    pub reductions: u64,
    /// Loss or ECN events that left the window as it was (inside a recovery period).
    pub events_in_recovery: u64,
    /// Loss events noq flagged persistent congestion.
    pub persistent_congestion: u64,
    /// Spurious-congestion calls passed on.
    pub spurious: u64,
    /// Times noq said the window held a send back (`on_cwnd_limited`).
    pub cwnd_limited: u64,
}

/// A noq congestion controller backed by a flow of this crate.
#[derive(Clone, Debug)]
pub struct NoqController<F: NoqFlow> {
    flow: F,
    /// noq's clock at build time: the flow's `Instant::ZERO`.
    epoch: NoqInstant,
    /// The latest time noq passed in any call (for the call that has none).
    latest: NoqInstant,
    initial_window_bytes: u64,
    pending: PendingAcks,
    /// noq's in-flight bytes at the last ACK frame, plus sent, minus acked and lost since.
    in_flight_bytes: u64,
    largest_sent: u64,
    largest_acked: Option<u64>,
    stats: AdapterStats,
}

impl<F: NoqFlow> NoqController<F> {
    /// Wraps `flow`, built at noq time `now` (the flow's zero).
    pub fn new(flow: F, now: NoqInstant) -> Self {
        NoqController {
            initial_window_bytes: flow.cwnd(),
            flow,
            epoch: now,
            latest: now,
            pending: PendingAcks::default(),
            in_flight_bytes: 0,
            largest_sent: 0,
            largest_acked: None,
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

    /// noq time as the flow's time: µs since the adapter was built (earlier times read
    /// as the epoch, so the flow's clock never goes backwards across the epoch).
    fn time(&mut self, now: NoqInstant) -> Instant {
        self.latest = self.latest.max(now);
        let us = now.saturating_duration_since(self.epoch).as_micros();
        Instant::from_micros(u64::try_from(us).unwrap_or(u64::MAX))
    }

    /// The flow's pacing rate in bytes per second, if it paces yet (it has an RTT
    /// sample) and the rate is not zero (noq would stall on it).
    pub fn pacing_rate_bytes_per_second(&self) -> Option<u64> {
        let rate = self.flow.pacing_rate();
        if !rate.is_pacing() {
            return None;
        }
        Some(rate.as_bytes_per_second()).filter(|&r| r > 0)
    }

    /// One packet of the current ACK frame was acknowledged: the body of noq's `on_ack`,
    /// which never reads the RTT estimator (whose sample is a frame old; and which has no
    /// public constructor, so the tests call this).
    fn packet_acked(
        &mut self,
        now: NoqInstant,
        sent: NoqInstant,
        bytes: u64,
        pn: u64,
        app_limited: bool,
    ) {
        self.time(now);
        let p = &mut self.pending;
        p.bytes = p.bytes.saturating_add(bytes);
        if p.highest.is_none_or(|(highest, _)| pn > highest) {
            p.highest = Some((pn, sent));
        }
        p.app_limited |= app_limited;
        self.in_flight_bytes = self.in_flight_bytes.saturating_sub(bytes);
    }

    /// Applies a loss or ECN call and counts whether it reduced the window.
    fn congestion(&mut self, apply: impl FnOnce(&mut F)) {
        let before = self.flow.cwnd();
        apply(&mut self.flow);
        if self.flow.cwnd() < before {
            self.stats.reductions += 1;
        } else {
            self.stats.events_in_recovery += 1;
        }
    }
}

impl<F: NoqFlow> Controller for NoqController<F> {
    fn on_sent(&mut self, now: NoqInstant, _bytes: u64, largest_pn: u64) {
        // Every packet of the transmit was already reported by `on_packet_sent`.
        self.time(now);
        self.largest_sent = self.largest_sent.max(largest_pn);
    }

    fn on_packet_sent(&mut self, now: NoqInstant, bytes: u16, pn: u64) {
        let t = self.time(now);
        self.in_flight_bytes = self.in_flight_bytes.saturating_add(u64::from(bytes));
        self.largest_sent = self.largest_sent.max(pn);
        self.stats.packets_sent += 1;
        self.flow
            .on_sent(t, &SentEvent::new(self.in_flight_bytes, self.largest_sent));
    }

    fn on_cwnd_limited(&mut self) {
        self.stats.cwnd_limited += 1;
    }

    fn on_ack(
        &mut self,
        now: NoqInstant,
        sent: NoqInstant,
        bytes: u64,
        pn: u64,
        app_limited: bool,
        _rtt: &RttEstimator,
    ) {
        self.packet_acked(now, sent, bytes, pn, app_limited);
    }

    fn on_end_acks(
        &mut self,
        now: NoqInstant,
        in_flight: u64,
        app_limited: bool,
        largest_packet_num_acked: Option<u64>,
    ) {
        let t = self.time(now);
        let pending = std::mem::take(&mut self.pending);
        let raised = match (largest_packet_num_acked, self.largest_acked) {
            (Some(new), Some(old)) => new > old,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if raised {
            self.largest_acked = largest_packet_num_acked;
        }
        self.in_flight_bytes = in_flight;
        if pending.bytes == 0 {
            return;
        }
        let rtt = match (raised, pending.highest) {
            (true, Some((_, sent))) => {
                let us = now.saturating_duration_since(sent).as_micros();
                Some(Duration::from_micros(u64::try_from(us).unwrap_or(u64::MAX)))
            }
            _ => None,
        };
        let app_limited = app_limited || pending.app_limited;
        let ack = AckEvent {
            acked: pending.bytes,
            rtt,
            // None until noq reports one: packet 0 is a packet, not "none".
            largest_acked: self.largest_acked,
            app_limited,
            ce_delta: 0,
        };
        self.flow.on_ack(t, &ack);
        self.stats.ack_frames += 1;
        self.stats.app_limited_ack_frames += u64::from(app_limited);
    }

    fn on_congestion_event(
        &mut self,
        now: NoqInstant,
        _sent: NoqInstant,
        is_persistent_congestion: bool,
        is_ecn: bool,
        lost_bytes: u64,
        largest_lost_pn: u64,
    ) {
        let t = self.time(now);
        if is_ecn {
            // noq's ECN check says only that the CE count rose, not by how much; and its
            // `largest_lost_pn` is then the ACK's largest acknowledged packet.
            self.stats.ecn_events += 1;
            self.congestion(|flow| flow.on_ecn(t, &EcnEvent::new(1, largest_lost_pn)));
            return;
        }
        self.stats.loss_events += 1;
        self.stats.persistent_congestion += u64::from(is_persistent_congestion);
        let loss = LossEvent::packet(lost_bytes, largest_lost_pn)
            .with_persistent_congestion(is_persistent_congestion);
        self.congestion(|flow| flow.on_loss(t, &loss));
    }

    fn on_packet_lost(&mut self, lost_bytes: u16, _pn: u64, now: NoqInstant) {
        self.time(now);
        self.in_flight_bytes = self.in_flight_bytes.saturating_sub(u64::from(lost_bytes));
        self.stats.packets_lost += 1;
    }

    fn on_spurious_congestion_event(&mut self) {
        let latest = self.latest;
        let t = self.time(latest);
        self.flow.on_spurious_congestion(t);
        self.stats.spurious += 1;
    }

    fn on_mtu_update(&mut self, new_mtu: u16) {
        self.flow.set_mtu(new_mtu);
    }

    fn window(&self) -> u64 {
        self.flow.cwnd()
    }

    fn metrics(&self) -> ControllerMetrics {
        let mut m = ControllerMetrics::default();
        m.congestion_window = self.window();
        m.ssthresh = self.flow.ssthresh();
        m.pacing_rate = self.pacing_rate_bytes_per_second();
        m.send_quantum = Some(self.flow.send_quantum_bytes());
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
