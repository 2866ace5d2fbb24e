//! The peers' flows in the BBR cold benchmark: quinn's `Bbr` and s2n-quic's BBRv2,
//! each behind its own stack's records.

use super::{ScriptFlow, Stack};
use crate::bbr::Phase;
use crate::bbr::peers::{Wire, blank_info};
use crate::common::{PACKET_BYTES, RTT_US, START_US};
use crate::quinn::rtt_estimator;
use crate::s2n::{NoEvents, NoRandom, timestamp};
use core::time::Duration;
use s2n_quic_core::packet::number::PacketNumberSpace;
use s2n_quic_core::recovery::bandwidth::PacketInfo;
use s2n_quic_core::recovery::bbr::{ApplicationSettings, BbrCongestionController};
use s2n_quic_core::recovery::{CongestionController, RttEstimator};
use std::sync::Arc;

/// What quinn's stack shares: the clock's origin, its RTT estimator, the config.
pub struct QuinnShared {
    epoch: std::time::Instant,
    rtt: quinn_proto::RttEstimator,
    config: Arc<quinn_proto::congestion::BbrConfig>,
}

/// quinn's ACK: the packets' numbers and send times, the flight after.
#[derive(Clone, Copy)]
pub struct QuinnAckIn {
    now_us: u64,
    packets: [(u64, u64); 2],
    n: u8,
    in_flight_after: u64,
    /// A packet declared lost before this ACK: its send time.
    lost_sent_us: Option<u64>,
}

/// quinn's send.
#[derive(Clone, Copy)]
pub struct QuinnSendIn {
    now_us: u64,
    pn: u64,
}

/// quinn's `Bbr` with the departure time its stack's pacer keeps.
#[derive(Clone)]
pub struct ColdQuinnBbr {
    bbr: quinn_proto::congestion::Bbr,
    next_departure_us: u64,
}

impl ScriptFlow for ColdQuinnBbr {
    const NAME: &'static str = "quinn-bbr";
    type Shared = QuinnShared;
    type AckIn = QuinnAckIn;
    type SendIn = QuinnSendIn;
    type SendOut = ();
    fn shared() -> QuinnShared {
        QuinnShared {
            epoch: std::time::Instant::now(),
            rtt: rtt_estimator(Duration::from_micros(RTT_US)),
            config: Arc::new(quinn_proto::congestion::BbrConfig::default()),
        }
    }
    fn fresh(sh: &QuinnShared) -> Self {
        ColdQuinnBbr {
            bbr: quinn_proto::congestion::Bbr::new(sh.config.clone(), PACKET_BYTES as u16),
            next_departure_us: 0,
        }
    }
    #[inline(always)]
    fn ack(&mut self, sh: &QuinnShared, a: &QuinnAckIn) {
        use quinn_proto::congestion::Controller;
        let now = sh.epoch + Duration::from_micros(a.now_us);
        if let Some(sent_us) = a.lost_sent_us {
            let sent = sh.epoch + Duration::from_micros(sent_us);
            self.bbr
                .on_congestion_event(now, sent, false, u64::from(PACKET_BYTES));
        }
        let mut largest = None;
        for &(pn, sent_us) in &a.packets[..a.n as usize] {
            let sent = sh.epoch + Duration::from_micros(sent_us);
            self.bbr
                .on_ack(now, sent, u64::from(PACKET_BYTES), false, &sh.rtt);
            largest = Some(pn);
        }
        self.bbr.on_end_acks(now, a.in_flight_after, false, largest);
    }
    #[inline(always)]
    fn send(&mut self, sh: &QuinnShared, s: &QuinnSendIn) {
        use quinn_proto::congestion::Controller;
        let now = sh.epoch + Duration::from_micros(s.now_us);
        self.bbr.on_sent(now, u64::from(PACKET_BYTES), s.pn);
        let rate = self.bbr.metrics().pacing_rate.unwrap_or(0) / 8;
        if let Some(gap) = (u64::from(PACKET_BYTES) * 1_000_000).checked_div(rate) {
            self.next_departure_us = self.next_departure_us.max(s.now_us) + gap;
        }
    }
    fn cwnd_packets(&self, _: &QuinnShared) -> u32 {
        use quinn_proto::congestion::Controller;
        (self.bbr.window() / u64::from(PACKET_BYTES)) as u32
    }
    fn may_send(&self, _: &QuinnShared, now_us: u64) -> bool {
        self.next_departure_us <= now_us
    }
    fn phase(&self) -> Phase {
        debug_phase(&format!("{:?}", self.bbr), "mode: ")
    }
    fn in_recovery(&self) -> bool {
        !format!("{:?}", self.bbr).contains("recovery_state: NotInRecovery")
    }
}

/// quinn's stack side: packet numbers and send times in flight.
#[derive(Clone)]
pub struct QuinnStack {
    wire: Wire<(u64, u64)>,
    next_pn: u64,
    lost_sent_us: Option<u64>,
}

impl Stack<ColdQuinnBbr> for QuinnStack {
    fn new() -> Self {
        QuinnStack {
            wire: Wire::new((0, 0)),
            next_pn: 0,
            lost_sent_us: None,
        }
    }
    fn ack(&mut self, now_us: u64, packets: u32, _rtt_us: u64) -> QuinnAckIn {
        let mut a = QuinnAckIn {
            now_us,
            packets: [(0, 0); 2],
            n: 0,
            in_flight_after: 0,
            lost_sent_us: self.lost_sent_us.take(),
        };
        for _ in 0..packets.min(2) {
            a.packets[a.n as usize] = self.wire.pop();
            a.n += 1;
        }
        a.in_flight_after = u64::from(self.wire.len) * u64::from(PACKET_BYTES);
        a
    }
    fn send(&mut self, now_us: u64) -> QuinnSendIn {
        let pn = self.next_pn;
        self.next_pn += 1;
        self.wire.push((pn, now_us));
        QuinnSendIn { now_us, pn }
    }
    fn keep(&mut self, _: ()) {}
    fn lose(&mut self, _: &mut ColdQuinnBbr, _: &QuinnShared, _now_us: u64) {
        if self.wire.len > 2 {
            let (_, sent_us) = self.wire.pop();
            self.lost_sent_us = Some(sent_us);
        }
    }
    fn in_flight(&self) -> u32 {
        self.wire.len
    }
    fn due(&self, now_us: u64) -> u32 {
        (0..2)
            .filter(|&i| i < self.wire.len && self.wire.peek(i).1 + RTT_US <= now_us)
            .count() as u32
    }
}

/// What s2n's stack shares: its RTT estimators (20 ms, and 20.1 ms after the PROBE_RTT
/// stream's warm-up).
pub struct S2nShared {
    rtt: RttEstimator,
    rtt_late: RttEstimator,
}

/// s2n's ACK: the newest packet's record and send time, the bytes, which estimator.
#[derive(Clone, Copy)]
pub struct S2nAckIn {
    now_us: u64,
    newest: PacketInfo,
    newest_sent_us: u64,
    bytes: u32,
    late: bool,
    /// A packet declared lost before this ACK: its record.
    lost: Option<PacketInfo>,
}

/// s2n's `BbrCongestionController` (BBRv2, paces itself).
#[derive(Clone)]
pub struct ColdS2nBbr(BbrCongestionController);

impl ScriptFlow for ColdS2nBbr {
    const NAME: &'static str = "s2n-bbr";
    type Shared = S2nShared;
    type AckIn = S2nAckIn;
    type SendIn = u64;
    type SendOut = PacketInfo;
    fn shared() -> S2nShared {
        let est = |us: u64| {
            let mut rtt = RttEstimator::new(Duration::from_micros(RTT_US));
            for _ in 0..64 {
                rtt.update_rtt(
                    Duration::ZERO,
                    Duration::from_micros(us),
                    timestamp(START_US),
                    true,
                    PacketNumberSpace::ApplicationData,
                );
            }
            rtt
        };
        let mut rtt = RttEstimator::new(Duration::from_micros(RTT_US));
        rtt.update_rtt(
            Duration::ZERO,
            Duration::from_micros(RTT_US),
            timestamp(START_US),
            true,
            PacketNumberSpace::ApplicationData,
        );
        S2nShared {
            rtt,
            rtt_late: est(crate::bbr::LATE_RTT_US),
        }
    }
    fn fresh(_: &S2nShared) -> Self {
        ColdS2nBbr(BbrCongestionController::new(
            PACKET_BYTES as u16,
            ApplicationSettings::default(),
        ))
    }
    #[inline(always)]
    fn ack(&mut self, sh: &S2nShared, a: &S2nAckIn) {
        let now = timestamp(a.now_us);
        if let Some(info) = a.lost {
            self.0.on_packet_lost(
                PACKET_BYTES,
                info,
                false,
                true,
                &mut NoRandom,
                now,
                &mut NoEvents,
            );
        }
        let rtt = if a.late { &sh.rtt_late } else { &sh.rtt };
        let sent = timestamp(a.newest_sent_us);
        self.0.on_rtt_update(sent, now, rtt, &mut NoEvents);
        self.0.on_ack(
            sent,
            a.bytes as usize,
            a.newest,
            rtt,
            &mut NoRandom,
            now,
            &mut NoEvents,
        );
    }
    #[inline(always)]
    fn send(&mut self, sh: &S2nShared, now_us: &u64) -> PacketInfo {
        self.0.on_packet_sent(
            timestamp(*now_us),
            PACKET_BYTES as usize,
            Some(false),
            &sh.rtt,
            &mut NoEvents,
        )
    }
    fn cwnd_packets(&self, _: &S2nShared) -> u32 {
        self.0.congestion_window() / PACKET_BYTES
    }
    fn may_send(&self, _: &S2nShared, now_us: u64) -> bool {
        self.0
            .earliest_departure_time()
            .is_none_or(|t| t <= timestamp(now_us))
    }
    fn phase(&self) -> Phase {
        debug_phase(&format!("{:?}", self.0), "state: ")
    }
    fn in_recovery(&self) -> bool {
        self.0.requires_fast_retransmission()
            || format!("{:?}", self.0).contains("recovery_state: Recovering")
    }
}

/// s2n's stack side: each packet's `PacketInfo` and send time.
#[derive(Clone)]
pub struct S2nStack {
    wire: Wire<(PacketInfo, u64)>,
    pending: u64,
    lost: Option<PacketInfo>,
}

impl Stack<ColdS2nBbr> for S2nStack {
    fn new() -> Self {
        S2nStack {
            wire: Wire::new((blank_info(), 0)),
            pending: 0,
            lost: None,
        }
    }
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) -> S2nAckIn {
        let mut newest = (blank_info(), 0);
        for _ in 0..packets {
            newest = self.wire.pop();
        }
        S2nAckIn {
            now_us,
            newest: newest.0,
            newest_sent_us: newest.1,
            bytes: packets * PACKET_BYTES,
            late: rtt_us != RTT_US,
            lost: self.lost.take(),
        }
    }
    fn send(&mut self, now_us: u64) -> u64 {
        self.pending = now_us;
        now_us
    }
    fn keep(&mut self, info: PacketInfo) {
        self.wire.push((info, self.pending));
    }
    fn lose(&mut self, _: &mut ColdS2nBbr, _: &S2nShared, _now_us: u64) {
        if self.wire.len > 2 {
            self.lost = Some(self.wire.pop().0);
        }
    }
    fn in_flight(&self) -> u32 {
        self.wire.len
    }
    fn due(&self, now_us: u64) -> u32 {
        (0..2)
            .filter(|&i| i < self.wire.len && self.wire.peek(i).1 + RTT_US <= now_us)
            .count() as u32
    }
}

fn debug_phase(debug: &str, key: &str) -> Phase {
    let rest = debug.split_once(key).map_or("", |(_, r)| r);
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
