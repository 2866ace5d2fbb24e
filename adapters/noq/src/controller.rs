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
//! - **Per-packet snapshots and segments (BBR).** A flow that
//!   [uses packet snapshots](congestion::CongestionController::uses_packet_snapshots)
//!   ([`BbrController`](congestion::linux::BbrController),
//!   [`Bbr3Controller`](congestion::linux::Bbr3Controller), Linux mode, segments) gets
//!   the per-packet calls. noq names every packet by number in `on_packet_sent`,
//!   `on_ack` and `on_packet_lost`, so the adapter keeps a map (std `BTreeMap`) from
//!   packet number to (send time, [`TxSnapshot`]): each packet's entry leaves the map
//!   when it is acknowledged or lost, and the frame's highest acknowledged packet is
//!   handed back with `on_ack_sampled`, the newest lost one with `on_packet_lost`.
//!   Entries more than [`SNAPSHOT_HORIZON_PACKETS`] below the largest acknowledged are
//!   dropped (packets of a discarded number space). Such a flow counts one segment per
//!   ack-eliciting packet: the adapter counts packets in flight, acknowledged and lost;
//!   the window noq reads is cwnd × the current MTU, and the pacing rate and send
//!   quantum (computed by the flow with the MSS it was built with) are scaled by
//!   MTU / that MSS, so noq's pacer runs at BBR's rate in bytes of the packets it sends.
//! - **A host that falls behind (BBR).** A packet that leaves more than
//!   [`HOST_LATENESS_US`](crate::HOST_LATENESS_US) behind the schedule of the flow's
//!   pacing rate, after a send that left the window open and the application with data,
//!   makes the next ACK frame application-limited: the host's timers, not the network,
//!   held it back, and BBR must not lower its bandwidth estimate for it (`adapters/harness/src/pace_watch.rs`).
//! - **Spurious congestion.** noq calls `on_spurious_congestion_event` without a time,
//!   while it processes the ACK frame that shows every packet declared lost was
//!   delivered; the adapter passes the latest time noq gave it in any call.

use crate::flow::NoqFlow;
use crate::pace_watch::PaceWatch;
use congestion::{
    AckEvent, AckedPacket, Duration, EcnEvent, Instant, LossEvent, SentEvent, SentPacket,
    TxSnapshot, WindowUnit,
};
use noq_proto::RttEstimator;
use noq_proto::congestion::{Controller, ControllerMetrics};
use std::any::Any;
use std::collections::BTreeMap;
use std::time::Instant as NoqInstant;

/// How far below the largest acknowledged packet number a sampling flow's snapshots are
/// kept before they are dropped as belonging to packets noq will never report again.
pub const SNAPSHOT_HORIZON_PACKETS: u64 = 1 << 16;

/// What the adapter keeps for a flow that samples the delivery rate and counts segments
/// (BBR): packets in flight, and each packet's send time and snapshot.
#[derive(Clone, Debug, Default)]
struct Sampling {
    /// Ack-eliciting packets sent and neither acknowledged nor lost.
    packets_in_flight: u64,
    /// Packets acknowledged in the current frame.
    acked_packets: u64,
    /// The frame's highest acknowledged packet's send time and snapshot.
    newest_acked: Option<(NoqInstant, TxSnapshot)>,
    /// Packets lost since the last congestion event, and the newest of them.
    lost_packets: u64,
    newest_lost: Option<(u64, TxSnapshot)>,
    /// Packet number → (send time, snapshot).
    kept: BTreeMap<u64, (NoqInstant, TxSnapshot)>,
    /// The segment size the flow was built with and the path MTU now, bytes.
    built_mss: u64,
    mtu: u64,
    /// Whether the host held the sender behind its pacing rate (see `adapters/harness/src/pace_watch.rs`).
    watch: PaceWatch,
    /// noq's application-limited flag at the last ACK frame.
    app_limited: bool,
}

impl Sampling {
    /// Scales a byte amount the flow computed with its build MSS to the current MTU.
    fn scale(&self, bytes: u64) -> u64 {
        let scaled = u128::from(bytes) * u128::from(self.mtu) / u128::from(self.built_mss.max(1));
        u64::try_from(scaled).unwrap_or(u64::MAX)
    }
}

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
    /// ACK frames handed to the flow with the highest acknowledged packet's snapshot.
    pub sampled_acks: u64,
    /// Loss events handed to the flow with the newest lost packet's snapshot.
    pub sampled_losses: u64,
    /// Packets (BBR) that left more than `HOST_LATENESS_US` behind the schedule of the
    /// pacing rate while nothing but the pacer held them: the next ACK frame was
    /// reported application-limited.
    pub late_packets: u64,
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
    /// `Some` for a flow that samples the delivery rate in segments (BBR).
    sampling: Option<Sampling>,
}

impl<F: NoqFlow> NoqController<F> {
    /// Wraps `flow`, built at noq time `now` (the flow's zero).
    pub fn new(flow: F, now: NoqInstant) -> Self {
        let sampling =
            (flow.uses_packet_snapshots() && flow.unit() == WindowUnit::Segments).then(|| {
                Sampling {
                    built_mss: flow.mss_bytes(),
                    mtu: flow.mss_bytes(),
                    ..Sampling::default()
                }
            });
        let initial_window_bytes = match &sampling {
            Some(s) => flow.cwnd().saturating_mul(s.mtu),
            None => flow.cwnd(),
        };
        NoqController {
            sampling,
            initial_window_bytes,
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
        let bytes = rate.as_bytes_per_second();
        let bytes = self.sampling.as_ref().map_or(bytes, |s| s.scale(bytes));
        Some(bytes).filter(|&r| r > 0)
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
        let newest = p.highest.is_some_and(|(highest, _)| highest == pn);
        self.in_flight_bytes = self.in_flight_bytes.saturating_sub(bytes);
        if let Some(s) = self.sampling.as_mut() {
            s.packets_in_flight = s.packets_in_flight.saturating_sub(1);
            s.acked_packets += 1;
            if let Some((time_sent, snapshot)) = s.kept.remove(&pn)
                && newest
            {
                s.newest_acked = Some((time_sent, snapshot));
            }
        }
    }

    /// One ACK frame for a sampling flow (segments): `on_ack_sampled` with the highest
    /// acknowledged packet's snapshot, or `on_ack` if it was not kept.
    fn sampled_end_acks(&mut self, t: Instant, rtt: Option<Duration>, app_limited: bool) {
        let Some(s) = self.sampling.as_mut() else {
            return;
        };
        let acked = std::mem::take(&mut s.acked_packets);
        let newest = s.newest_acked.take();
        if let Some(largest) = self.largest_acked {
            let floor = largest.saturating_sub(SNAPSHOT_HORIZON_PACKETS);
            if s.kept.first_key_value().is_some_and(|(&pn, _)| pn < floor) {
                s.kept = s.kept.split_off(&floor);
            }
        }
        let ack = AckEvent {
            acked,
            rtt,
            largest_acked: self.largest_acked,
            app_limited,
            ce_delta: 0,
        };
        let epoch = self.epoch;
        match newest {
            Some((sent, snapshot)) => {
                let us = sent.saturating_duration_since(epoch).as_micros();
                let time_sent = Instant::from_micros(u64::try_from(us).unwrap_or(u64::MAX));
                self.flow
                    .on_ack_sampled(t, &ack, &AckedPacket::new(time_sent, snapshot));
                self.stats.sampled_acks += 1;
            }
            None => self.flow.on_ack(t, &ack),
        }
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
        let rate = self.pacing_rate_bytes_per_second();
        if let Some(s) = self.sampling.as_mut() {
            s.packets_in_flight += 1;
            let sent = SentEvent::new(s.packets_in_flight, self.largest_sent);
            let snapshot = self.flow.on_packet_sent(t, &sent);
            s.kept.insert(pn, (now, snapshot));
            let open = s.packets_in_flight < self.flow.cwnd() && !s.app_limited;
            if s.watch.on_sent(t.as_micros(), u64::from(bytes), rate, open) {
                self.stats.late_packets += 1;
            }
            return;
        }
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
        if let Some(s) = self.sampling.as_mut() {
            s.app_limited = app_limited;
            // A sender the host held behind its pacer: its samples must not lower BBR's
            // bandwidth estimate (see `adapters/harness/src/pace_watch.rs`).
            let app_limited = app_limited || s.watch.take_late();
            self.sampled_end_acks(t, rtt, app_limited);
            self.stats.ack_frames += 1;
            self.stats.app_limited_ack_frames += u64::from(app_limited);
            return;
        }
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
        if let Some(s) = self.sampling.as_mut() {
            // Segments: the packets noq reported lost since the last event (at least one).
            let lost = std::mem::take(&mut s.lost_packets).max(1);
            let newest = s.newest_lost.take();
            let kept = newest
                .filter(|&(pn, _)| pn == largest_lost_pn)
                .map(|(_, snapshot)| snapshot)
                .or_else(|| s.kept.get(&largest_lost_pn).map(|k| k.1));
            let loss = LossEvent {
                lost,
                newest_lost: SentPacket::Number(largest_lost_pn),
                persistent_congestion: is_persistent_congestion,
            };
            match kept {
                Some(snapshot) => {
                    self.stats.sampled_losses += 1;
                    self.congestion(|flow| flow.on_packet_lost(t, &loss, &snapshot));
                }
                None => self.congestion(|flow| flow.on_loss(t, &loss)),
            }
            return;
        }
        let loss = LossEvent::packet(lost_bytes, largest_lost_pn)
            .with_persistent_congestion(is_persistent_congestion);
        self.congestion(|flow| flow.on_loss(t, &loss));
    }

    fn on_packet_lost(&mut self, lost_bytes: u16, pn: u64, now: NoqInstant) {
        self.time(now);
        self.in_flight_bytes = self.in_flight_bytes.saturating_sub(u64::from(lost_bytes));
        self.stats.packets_lost += 1;
        if let Some(s) = self.sampling.as_mut() {
            s.packets_in_flight = s.packets_in_flight.saturating_sub(1);
            s.lost_packets += 1;
            if let Some((_, snapshot)) = s.kept.remove(&pn)
                && s.newest_lost.is_none_or(|(newest, _)| pn > newest)
            {
                s.newest_lost = Some((pn, snapshot));
            }
        }
    }

    fn on_spurious_congestion_event(&mut self) {
        let latest = self.latest;
        let t = self.time(latest);
        self.flow.on_spurious_congestion(t);
        self.stats.spurious += 1;
    }

    fn on_mtu_update(&mut self, new_mtu: u16) {
        if let Some(s) = self.sampling.as_mut() {
            // Segments are packets: only the bytes noq reads scale with the MTU.
            s.mtu = u64::from(new_mtu).max(1);
            return;
        }
        self.flow.set_mtu(new_mtu);
    }

    fn window(&self) -> u64 {
        match &self.sampling {
            Some(s) => self.flow.cwnd().saturating_mul(s.mtu),
            None => self.flow.cwnd(),
        }
    }

    fn metrics(&self) -> ControllerMetrics {
        let mut m = ControllerMetrics::default();
        m.congestion_window = self.window();
        let quantum = self.flow.send_quantum_bytes();
        match &self.sampling {
            Some(s) => {
                m.ssthresh = self.flow.ssthresh().map(|x| x.saturating_mul(s.mtu));
                m.send_quantum = Some(s.scale(quantum));
            }
            None => {
                m.ssthresh = self.flow.ssthresh();
                m.send_quantum = Some(quantum);
            }
        }
        m.pacing_rate = self.pacing_rate_bytes_per_second();
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
