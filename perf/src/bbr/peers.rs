//! quinn-proto 0.11 `congestion::Bbr` and s2n-quic-core 0.91 `recovery::bbr::
//! BbrCongestionController` (public in 0.91) on the BBR streams, each with the
//! per-packet record its stack keeps.

use super::{BbrController, Phase, RING, XorShift};
use crate::common::{PACKET_BYTES, RTT_US, START_US, StreamController};
use crate::quinn::rtt_estimator;
use crate::s2n::{NoEvents, timestamp};
use core::time::Duration;
use s2n_quic_core::packet::number::PacketNumberSpace;
use s2n_quic_core::recovery::bandwidth::PacketInfo;
use s2n_quic_core::recovery::bbr::{ApplicationSettings, BbrCongestionController};
use s2n_quic_core::recovery::{CongestionController, RttEstimator};
use std::sync::Arc;

/// A first-in first-out wire of per-packet records.
#[derive(Clone)]
pub(crate) struct Wire<T: Copy> {
    ring: Vec<T>,
    head: u32,
    pub(crate) len: u32,
}

impl<T: Copy> Wire<T> {
    pub(crate) fn new(fill: T) -> Self {
        Wire {
            ring: vec![fill; RING],
            head: 0,
            len: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, v: T) {
        assert!((self.len as usize) < RING, "flight above RING");
        self.ring[(self.head.wrapping_add(self.len)) as usize & (RING - 1)] = v;
        self.len += 1;
    }

    #[inline(always)]
    pub(crate) fn peek(&self, i: u32) -> T {
        self.ring[(self.head.wrapping_add(i)) as usize & (RING - 1)]
    }

    #[inline(always)]
    pub(crate) fn pop(&mut self) -> T {
        let v = self.ring[self.head as usize & (RING - 1)];
        self.head = self.head.wrapping_add(1);
        self.len -= 1;
        v
    }
}

/// quinn's BBR with what quinn's stack keeps: each packet's number and send time, its
/// RTT estimator (fixed at 20 ms, as the stream's samples are), and a pacer at the
/// controller's `metrics().pacing_rate` (quinn's controller does not pace itself; an
/// unpaced window-limited sender never leaves STARTUP on this path).
#[derive(Clone)]
pub struct QuinnBbr {
    bbr: quinn_proto::congestion::Bbr,
    rtt: quinn_proto::RttEstimator,
    epoch: std::time::Instant,
    /// (packet number, send time µs) per packet in flight.
    wire: Wire<(u64, u64)>,
    next_pn: u64,
    losses: u32,
    /// The stack's pacer: the next packet's earliest departure, µs.
    next_departure_us: u64,
}

impl QuinnBbr {
    /// Default config, MTU 1200.
    pub fn new() -> Self {
        let config = Arc::new(quinn_proto::congestion::BbrConfig::default());
        QuinnBbr {
            bbr: quinn_proto::congestion::Bbr::new(config, PACKET_BYTES as u16),
            rtt: rtt_estimator(Duration::from_micros(RTT_US)),
            epoch: std::time::Instant::now(),
            wire: Wire::new((0, 0)),
            next_pn: 0,
            losses: 0,
            next_departure_us: 0,
        }
    }

    #[inline(always)]
    fn at(&self, us: u64) -> std::time::Instant {
        self.epoch + Duration::from_micros(us)
    }
}

impl Default for QuinnBbr {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for QuinnBbr {
    fn name(&self) -> &'static str {
        "quinn-proto 0.11 Bbr"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, _rtt_us: u64) {
        use quinn_proto::congestion::Controller;
        let now = self.at(now_us);
        let mut largest = None;
        for _ in 0..packets {
            let (pn, sent_us) = self.wire.pop();
            let sent = self.at(sent_us);
            self.bbr
                .on_ack(now, sent, u64::from(PACKET_BYTES), false, &self.rtt);
            largest = Some(pn);
        }
        let in_flight = u64::from(self.wire.len) * u64::from(PACKET_BYTES);
        self.bbr.on_end_acks(now, in_flight, false, largest);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        use quinn_proto::congestion::Controller;
        let now = self.at(now_us);
        for _ in 0..packets {
            let pn = self.next_pn;
            self.next_pn += 1;
            self.wire.push((pn, now_us));
            self.bbr.on_sent(now, u64::from(PACKET_BYTES), pn);
            // The stack paces at the controller's rate (`metrics().pacing_rate`, bits/s).
            let rate = self.bbr.metrics().pacing_rate.unwrap_or(0) / 8;
            if let Some(gap) = (u64::from(PACKET_BYTES) * 1_000_000).checked_div(rate) {
                self.next_departure_us = self.next_departure_us.max(now_us) + gap;
            }
        }
    }

    fn loss(&mut self, now_us: u64) {
        use quinn_proto::congestion::Controller;
        if self.wire.len <= 2 {
            return;
        }
        let (_, sent_us) = self.wire.pop();
        self.losses += 1;
        let now = self.at(now_us);
        let sent = self.at(sent_us);
        self.bbr
            .on_congestion_event(now, sent, false, u64::from(PACKET_BYTES));
    }

    fn rto(&mut self, _now_us: u64) {
        unimplemented!("the BBR streams have no timeout")
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        use quinn_proto::congestion::Controller;
        (self.bbr.window() / u64::from(PACKET_BYTES)) as u32
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.wire.len
    }
}

/// The field `mode: X` of a `Debug` print (the peers keep their state private).
fn debug_phase(debug: &str, key: &str) -> Phase {
    let rest = debug
        .split_once(key)
        .map(|(_, r)| r)
        .expect("the peer's Debug print names its state");
    if rest.starts_with("ProbeRtt") {
        Phase::ProbeRtt
    } else if rest.starts_with("ProbeBw") {
        Phase::ProbeBw
    } else if rest.starts_with("Drain") {
        Phase::Drain
    } else {
        Phase::Startup
    }
}

impl BbrController for QuinnBbr {
    fn phase(&self) -> Phase {
        debug_phase(&format!("{:?}", self.bbr), "mode: ")
    }

    fn losses(&self) -> u32 {
        self.losses
    }

    #[inline(always)]
    fn due(&self, now_us: u64) -> u32 {
        let mut n = 0;
        for i in 0..2 {
            if i < self.wire.len && self.wire.peek(i).1 + RTT_US <= now_us {
                n += 1;
            }
        }
        n
    }

    #[inline(always)]
    fn may_send(&self, now_us: u64) -> bool {
        self.next_departure_us <= now_us
    }
}

/// s2n's BBRv2 with what s2n's stack keeps: each packet's `PacketInfo` and send time,
/// and its RTT estimator (fed 20 ms once; the stream's samples never change it).
/// s2n's BBR always paces inside `on_packet_sent`.
#[derive(Clone)]
pub struct S2nBbr {
    cc: BbrCongestionController,
    rtt: RttEstimator,
    /// The estimator after the PROBE_RTT stream's warm-up (latest and smoothed 20.1 ms,
    /// minimum 20 ms), passed when the ACK's sample says so.
    rtt_late: RttEstimator,
    rand: XorShift,
    wire: Wire<(PacketInfo, u64)>,
    losses: u32,
}

impl S2nBbr {
    /// Default settings, max datagram size 1200; the RTT estimator has seen 20 ms.
    pub fn new() -> Self {
        let rtt_sample = Duration::from_micros(RTT_US);
        let mut rtt = RttEstimator::new(rtt_sample);
        rtt.update_rtt(
            Duration::ZERO,
            rtt_sample,
            timestamp(START_US),
            true,
            PacketNumberSpace::ApplicationData,
        );
        let mut rtt_late = rtt;
        for _ in 0..64 {
            rtt_late.update_rtt(
                Duration::ZERO,
                Duration::from_micros(super::LATE_RTT_US),
                timestamp(START_US),
                true,
                PacketNumberSpace::ApplicationData,
            );
        }
        S2nBbr {
            cc: BbrCongestionController::new(PACKET_BYTES as u16, ApplicationSettings::default()),
            rtt,
            rtt_late,
            rand: XorShift::new(),
            wire: Wire::new((blank_info(), 0)),
            losses: 0,
        }
    }
}

impl Default for S2nBbr {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for S2nBbr {
    fn name(&self) -> &'static str {
        "s2n-quic-core 0.91 BBRv2"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        let rtt = if rtt_us == RTT_US {
            &self.rtt
        } else {
            &self.rtt_late
        };
        let now = timestamp(now_us);
        let mut newest = (blank_info(), 0);
        for _ in 0..packets {
            newest = self.wire.pop();
        }
        let sent = timestamp(newest.1);
        self.cc.on_rtt_update(sent, now, rtt, &mut NoEvents);
        self.cc.on_ack(
            sent,
            (packets * PACKET_BYTES) as usize,
            newest.0,
            rtt,
            &mut self.rand,
            now,
            &mut NoEvents,
        );
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        let now = timestamp(now_us);
        for _ in 0..packets {
            let info = self.cc.on_packet_sent(
                now,
                PACKET_BYTES as usize,
                Some(false),
                &self.rtt,
                &mut NoEvents,
            );
            self.wire.push((info, now_us));
        }
    }

    fn loss(&mut self, now_us: u64) {
        if self.wire.len <= 2 {
            return;
        }
        let (info, _) = self.wire.pop();
        self.losses += 1;
        self.cc.on_packet_lost(
            PACKET_BYTES,
            info,
            false,
            true,
            &mut self.rand,
            timestamp(now_us),
            &mut NoEvents,
        );
    }

    fn rto(&mut self, _now_us: u64) {
        unimplemented!("the BBR streams have no timeout")
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.cc.congestion_window() / PACKET_BYTES
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.wire.len
    }
}

impl BbrController for S2nBbr {
    fn phase(&self) -> Phase {
        debug_phase(&format!("{:?}", self.cc), "state: ")
    }

    fn losses(&self) -> u32 {
        self.losses
    }

    #[inline(always)]
    fn due(&self, now_us: u64) -> u32 {
        let mut n = 0;
        for i in 0..2 {
            if i < self.wire.len && self.wire.peek(i).1 + RTT_US <= now_us {
                n += 1;
            }
        }
        n
    }

    #[inline(always)]
    fn may_send(&self, now_us: u64) -> bool {
        self.cc
            .earliest_departure_time()
            .is_none_or(|t| t <= timestamp(now_us))
    }
}

/// A record for the rings' unused slots and the loop's first assignment.
pub(crate) fn blank_info() -> PacketInfo {
    PacketInfo {
        delivered_bytes: 0,
        delivered_time: timestamp(START_US),
        lost_bytes: 0,
        ecn_ce_count: 0,
        first_sent_time: timestamp(START_US),
        bytes_in_flight: 0,
        is_app_limited: false,
    }
}
