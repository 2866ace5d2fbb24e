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
//! - **Per-packet snapshots (BBR).** quinn's `on_sent`/`on_ack` have no per-packet
//!   slot, so for a flow that [uses packet snapshots](congestion::CongestionController::uses_packet_snapshots)
//!   ([`BbrController`](congestion::linux::BbrController),
//!   [`Bbr3Controller`](congestion::linux::Bbr3Controller)) the adapter keeps a map of its
//!   own (std `VecDeque`, in send order) from send time to (packet number,
//!   [`TxSnapshot`]): `on_sent` calls `on_packet_sent` and stores what it returns,
//!   `on_end_acks` looks up the send time of the newest packet of the frame and calls
//!   `on_ack_sampled`, `on_congestion_event` looks up the newest lost packet's send
//!   time and calls `on_packet_lost`. Packets of one GSO batch share a send time: the
//!   map keeps the batch's last snapshot, the one the kernel's sampler would use for an
//!   ACK covering the batch. Entries older than the newest acknowledged send time by
//!   more than [`SNAPSHOT_HORIZON`] are dropped, so the map stays bounded. Such a flow
//!   counts in segments of the MTU it was built with (quinn's later MTU changes leave
//!   its unit alone), is told exactly the segments quinn has in flight (no window-full
//!   rounding: Linux-mode BBR reads any rise as new data sent), and is not told its
//!   window was full at each ACK (BBR takes `app_limited` as the kernel's app-limited
//!   mark and needs no window-use signal).
//! - **A host that falls behind (BBR).** A packet that leaves more than
//!   [`HOST_LATENESS_US`](crate::HOST_LATENESS_US) behind the schedule of the slower of
//!   the flow's pacing rate and quinn's own (`1.25 · window / srtt`), after a send that
//!   left the window open and the application with data, makes the next ACK frame
//!   application-limited: the host's timers, not the network, held it back, and BBR
//!   must not lower its bandwidth estimate for it (`adapters/harness/src/pace_watch.rs`).
//! - **Pacing.** quinn 0.11's pacer computes its own rate from the window and smoothed
//!   RTT; `metrics().pacing_rate` reports the flow's rate (qlog, from the crate's
//!   `pacing_rate()`) but quinn does not pace by it.

use crate::flow::QuinnFlow;
use crate::pace_watch::PaceWatch;
use crate::units::Units;
use congestion::{
    AckEvent, AckedPacket, Duration, EcnEvent, Instant, LossEvent, SentEvent, SentPacket,
    TxSnapshot,
};
use quinn_proto::RttEstimator;
use quinn_proto::congestion::{Controller, ControllerMetrics};
use std::any::Any;
use std::collections::VecDeque;
use std::time::Instant as QuinnInstant;

/// The per-ACK-frame accumulator of quinn's per-packet `on_ack` calls.
#[derive(Clone, Copy, Debug, Default)]
struct PendingAcks {
    bytes: u64,
    newest_sent: Option<QuinnInstant>,
    app_limited: bool,
}

/// How long after the newest acknowledged packet was sent the adapter still keeps older
/// packets' snapshots (for a late loss report).
pub const SNAPSHOT_HORIZON: std::time::Duration = std::time::Duration::from_secs(2);

/// Per-packet snapshots kept for a sampling flow, in send order: (send time, packet
/// number, snapshot).
#[derive(Clone, Debug, Default)]
struct Snapshots {
    kept: VecDeque<(QuinnInstant, u64, TxSnapshot)>,
    /// Whether the host held the sender behind its pacing rate (see `adapters/harness/src/pace_watch.rs`).
    watch: PaceWatch,
    /// quinn's application-limited flag at the last ACK frame.
    app_limited: bool,
    /// quinn's smoothed RTT at the last acknowledged packet, for its pacer's rate.
    srtt: std::time::Duration,
}

impl Snapshots {
    /// Stores a packet's snapshot; a packet sent at the same time as the last one (a GSO
    /// batch) replaces it.
    fn keep(&mut self, sent: QuinnInstant, pn: u64, snapshot: TxSnapshot) {
        match self.kept.back_mut() {
            Some(last) if last.0 == sent => *last = (sent, pn, snapshot),
            _ => self.kept.push_back((sent, pn, snapshot)),
        }
    }

    /// The packet sent at `sent`, if still kept.
    fn find(&self, sent: QuinnInstant) -> Option<(u64, TxSnapshot)> {
        let i = self.kept.partition_point(|k| k.0 < sent);
        self.kept.get(i).filter(|k| k.0 == sent).map(|k| (k.1, k.2))
    }

    /// Drops what was sent more than [`SNAPSHOT_HORIZON`] before `newest_acked`.
    fn prune(&mut self, newest_acked: QuinnInstant) {
        while let Some(front) = self.kept.front() {
            if front.0 + SNAPSHOT_HORIZON < newest_acked {
                self.kept.pop_front();
            } else {
                break;
            }
        }
    }
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
    /// ACK frames handed to the flow with the newest packet's snapshot.
    pub sampled_acks: u64,
    /// Congestion events handed to the flow with the lost packet's snapshot.
    pub sampled_losses: u64,
    /// Packets (BBR) that left more than `HOST_LATENESS_US` behind the schedule of the
    /// flow's pacing rate while nothing but pacing held them: the next ACK frame was
    /// reported application-limited.
    pub late_packets: u64,
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
    /// `Some` for a flow that samples the delivery rate (BBR): its packets' snapshots.
    snapshots: Option<Snapshots>,
}

impl<F: QuinnFlow> QuinnController<F> {
    /// Wraps `flow`, built at quinn time `now` (the flow's zero) for `mtu_bytes`.
    pub fn new(flow: F, now: QuinnInstant, mtu_bytes: u16) -> Self {
        let units = Units::new(flow.unit(), mtu_bytes);
        QuinnController {
            initial_window_bytes: units.to_bytes(flow.cwnd()),
            snapshots: flow.uses_packet_snapshots().then(Snapshots::default),
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

    /// Tells a sampling flow what is in flight after a packet of `packet` bytes sent at
    /// `sent`, keeps the snapshot it returns, and checks the send against the pacing
    /// rate's schedule.
    fn report_packet(&mut self, sent: QuinnInstant, pn: u64, packet: u64) {
        let now = self.time(sent);
        // Exact segments (rounded up), not the window-full rounding of `report_in_flight`.
        let in_flight = self.in_flight_bytes.div_ceil(self.units.mtu_bytes());
        let snapshot = self
            .flow
            .on_packet_sent(now, &SentEvent::new(in_flight, self.largest_sent));
        // The schedule is the slower of the flow's rate and quinn's own pacer, which
        // quinn 0.11 runs at 1.25 · window / srtt whatever the flow's rate.
        let rate = self.flow.pacing_rate();
        let rate = rate.is_pacing().then(|| rate.as_bytes_per_second());
        let srtt_us = self.snapshots.as_ref().map_or(0, |k| k.srtt.as_micros());
        let quinn_rate = u64::try_from(u128::from(self.window()) * 1_250_000 / srtt_us.max(1))
            .unwrap_or(u64::MAX);
        let rate = rate.map(|r| if srtt_us > 0 { r.min(quinn_rate) } else { r });
        // quinn stops at `in_flight + MTU >= window`: room for one more packet.
        let room = self.in_flight_bytes.saturating_add(self.units.mtu_bytes()) < self.window();
        if let Some(kept) = self.snapshots.as_mut() {
            kept.keep(sent, pn, snapshot);
            let open = room && !kept.app_limited;
            if kept.watch.on_sent(now.as_micros(), packet, rate, open) {
                self.stats.late_packets += 1;
            }
        }
    }
}

impl<F: QuinnFlow> QuinnController<F> {
    /// One ACK frame for a sampling flow: `on_ack_sampled` with the newest packet's
    /// snapshot (plain `on_ack` if it is no longer kept).
    fn sampled_ack(
        &mut self,
        t: Instant,
        now: QuinnInstant,
        pending: &PendingAcks,
        app_limited: bool,
        new_largest: bool,
        in_flight: u64,
    ) {
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
        let newest = pending.newest_sent.and_then(|sent| {
            let kept = self.snapshots.as_ref()?.find(sent)?;
            Some((sent, kept.1))
        });
        match newest {
            Some((sent, snapshot)) => {
                let packet = AckedPacket::new(self.time(sent), snapshot);
                self.flow.on_ack_sampled(t, &ack, &packet);
                self.stats.sampled_acks += 1;
                if let Some(kept) = self.snapshots.as_mut() {
                    kept.prune(sent);
                }
            }
            None => self.flow.on_ack(t, &ack),
        }
        self.in_flight_bytes = in_flight;
        self.stats.ack_frames += 1;
        self.stats.app_limited_ack_frames += u64::from(ack.app_limited);
    }

    /// A congestion event for a sampling flow: ECN-CE (no bytes lost) as `on_ecn`, a
    /// loss as `on_packet_lost` with the newest lost packet's number and snapshot.
    fn sampled_congestion(
        &mut self,
        t: Instant,
        sent: QuinnInstant,
        persistent: bool,
        lost_bytes: u64,
    ) {
        let before = (self.flow.cwnd(), self.flow.ssthresh());
        let kept = self.snapshots.as_ref().and_then(|k| k.find(sent));
        let newest = match kept {
            Some((pn, _)) => SentPacket::Number(pn),
            None => SentPacket::SentAt(self.time(sent)),
        };
        if lost_bytes == 0 && !persistent {
            let ecn = EcnEvent {
                ce_increase: 1,
                newest_acked: newest,
            };
            self.flow.on_ecn(t, &ecn);
        } else {
            // Lost segments, rounded up: a lost packet always leaves the flight.
            let loss = LossEvent {
                lost: lost_bytes.div_ceil(self.units.mtu_bytes()).max(1),
                newest_lost: newest,
                persistent_congestion: persistent,
            };
            match kept {
                Some((_, snapshot)) => {
                    self.flow.on_packet_lost(t, &loss, &snapshot);
                    self.stats.sampled_losses += 1;
                }
                None => self.flow.on_loss(t, &loss),
            }
            self.in_flight_bytes = self.in_flight_bytes.saturating_sub(lost_bytes);
        }
        if (self.flow.cwnd(), self.flow.ssthresh()) == before {
            self.stats.congestion_events_in_recovery += 1;
        } else {
            self.stats.congestion_events += 1;
        }
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
        if self.snapshots.is_some() {
            self.report_packet(now, last_packet_number, packet);
            return;
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
        rtt: &RttEstimator,
    ) {
        if let Some(kept) = self.snapshots.as_mut() {
            kept.srtt = rtt.get();
        }
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
        if let Some(kept) = self.snapshots.as_mut() {
            kept.app_limited = app_limited;
            // A sender the host held behind its pacing rate: its samples must not lower
            // BBR's bandwidth estimate (see `adapters/harness/src/pace_watch.rs`).
            let app_limited = app_limited || kept.watch.take_late();
            self.sampled_ack(t, now, &pending, app_limited, new_largest, in_flight);
            return;
        }
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
        if self.snapshots.is_some() {
            self.sampled_congestion(t, sent, is_persistent_congestion, lost_bytes);
            return;
        }
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
        if self.snapshots.is_some() {
            // A sampling flow keeps the segment size it was built with (see above).
            return;
        }
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
