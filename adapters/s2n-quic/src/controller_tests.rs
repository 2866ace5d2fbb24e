//! The call mapping, one s2n-quic call at a time (timestamps from s2n-quic's
//! virtual clock, which these tests only read).

use super::*;
use crate::flow::RfcModeFlow;
use congestion::rfc::{Cubic, CubicConfig, NewReno};
use num_rational::Ratio;
use s2n_quic::provider::io::testing::{self, Model, time};
use s2n_quic_core::event::builder::{BbrState, SlowStartExitCause};
use s2n_quic_core::random::Generator;
use s2n_quic_core::recovery::bandwidth::{Bandwidth, RateSample};
use std::time::Duration as StdDuration;

struct NoPublisher;

impl Publisher for NoPublisher {
    fn on_slow_start_exited(&mut self, _: SlowStartExitCause, _: u32) {}
    fn on_delivery_rate_sampled(&mut self, _: RateSample) {}
    fn on_pacing_rate_updated(&mut self, _: Bandwidth, _: u32, _: Ratio<u64>) {}
    fn on_bbr_state_changed(&mut self, _: BbrState) {}
}

struct Zeros;

impl Generator for Zeros {
    fn public_random_fill(&mut self, dest: &mut [u8]) {
        dest.fill(0);
    }
    fn private_random_fill(&mut self, dest: &mut [u8]) {
        dest.fill(0);
    }
}

/// Runs `f` with s2n-quic's clock at its start (`t0`).
fn at_t0(f: impl FnOnce(Timestamp)) {
    testing::test(Model::default(), |_| {
        f(time::now());
        Ok(())
    })
    .expect("runs");
}

const MDS: u16 = 1200;

fn controller<F: RfcModeFlow>(paced: bool) -> S2nController<F> {
    S2nController::new(CubicConfig::quic(1200), MDS, paced).expect("valid")
}

struct Driver<F: RfcModeFlow> {
    cc: S2nController<F>,
    t0: Timestamp,
    rtt: RttEstimator,
}

impl<F: RfcModeFlow> Driver<F> {
    fn new(t0: Timestamp, paced: bool) -> Self {
        Driver {
            cc: controller(paced),
            t0,
            rtt: RttEstimator::new(StdDuration::from_millis(40)),
        }
    }

    fn t(&self, ms: u64) -> Timestamp {
        self.t0 + StdDuration::from_millis(ms)
    }

    fn send(&mut self, ms: u64, bytes: usize) -> PacketInfo {
        let t = self.t(ms);
        self.cc
            .on_packet_sent(t, bytes, Some(false), &self.rtt, &mut NoPublisher)
    }

    fn ack(&mut self, ms: u64, bytes: usize, newest: PacketInfo) {
        let t = self.t(ms);
        self.rtt.update_rtt(
            StdDuration::ZERO,
            StdDuration::from_millis(40),
            t,
            true,
            s2n_quic_core::packet::number::PacketNumberSpace::ApplicationData,
        );
        self.cc
            .on_rtt_update(self.t0, t, &self.rtt, &mut NoPublisher);
        self.cc.on_ack(
            self.t0,
            bytes,
            newest,
            &self.rtt,
            &mut Zeros,
            t,
            &mut NoPublisher,
        );
    }

    fn lose(&mut self, ms: u64, bytes: u32, info: PacketInfo, persistent: bool) {
        let t = self.t(ms);
        self.cc.on_packet_lost(
            bytes,
            info,
            persistent,
            false,
            &mut Zeros,
            t,
            &mut NoPublisher,
        );
    }
}

#[test]
fn packets_are_numbered_in_send_order_and_ack_only_packets_are_not_counted() {
    at_t0(|t0| {
        let mut d = Driver::<Cubic>::new(t0, true);
        assert_eq!(d.send(0, 1200).number, 1);
        assert_eq!(d.send(0, 1200).number, 2);
        // An ACK-only packet: not in flight, takes the last number.
        assert_eq!(d.send(0, 0).number, 2);
        assert_eq!(d.send(0, 1200).number, 3);
        assert_eq!(d.cc.bytes_in_flight(), 3600);
        assert_eq!(d.cc.largest_sent(), 3);
    });
}

#[test]
fn a_burst_of_per_packet_losses_reduces_once() {
    at_t0(|t0| {
        let mut d = Driver::<Cubic>::new(t0, false);
        let sent: Vec<PacketInfo> = (0..10).map(|_| d.send(0, 1200)).collect();
        d.ack(40, 2400, sent[1]);
        let before = d.cc.congestion_window();
        for p in &sent[2..7] {
            d.lose(45, 1200, *p, false);
        }
        let after = d.cc.congestion_window();
        assert_eq!(
            u64::from(after),
            u64::from(before) * 7 / 10,
            "one β reduction"
        );
        assert_eq!(d.cc.flow().phase(), Phase::Recovery);
        // A packet sent after the reduction, then lost, starts a new period.
        let late = d.send(50, 1200);
        d.lose(95, 1200, late, false);
        assert!(d.cc.congestion_window() < after);
    });
}

#[test]
fn requires_fast_retransmission_from_a_reduction_to_the_next_send() {
    at_t0(|t0| {
        let mut d = Driver::<NewReno>::new(t0, false);
        let sent: Vec<PacketInfo> = (0..10).map(|_| d.send(0, 1200)).collect();
        assert!(!d.cc.requires_fast_retransmission());
        d.lose(45, 1200, sent[0], false);
        assert!(d.cc.requires_fast_retransmission());
        d.lose(45, 1200, sent[1], false); // same period: still one packet owed
        assert!(d.cc.requires_fast_retransmission());
        d.send(46, 1200);
        assert!(!d.cc.requires_fast_retransmission());
    });
}

#[test]
fn ecn_ce_waits_for_the_ack_frame_that_carried_it() {
    at_t0(|t0| {
        let mut d = Driver::<Cubic>::new(t0, false);
        let sent: Vec<PacketInfo> = (0..10).map(|_| d.send(0, 1200)).collect();
        d.ack(40, 1200, sent[0]);
        let before = d.cc.congestion_window();
        let t = d.t(41);
        d.cc.on_explicit_congestion(1, t, &mut NoPublisher);
        assert_eq!(
            d.cc.congestion_window(),
            before,
            "held until the frame's on_ack"
        );
        d.ack(41, 1200, sent[1]);
        assert!(d.cc.congestion_window() < before);
        assert_eq!(d.cc.flow().phase(), Phase::Recovery);
    });
}

#[test]
fn persistent_congestion_collapses_the_window() {
    at_t0(|t0| {
        let mut d = Driver::<Cubic>::new(t0, false);
        let sent: Vec<PacketInfo> = (0..10).map(|_| d.send(0, 1200)).collect();
        d.ack(40, 1200, sent[0]);
        d.lose(1000, 1200, sent[1], true);
        assert_eq!(d.cc.congestion_window(), 2 * 1200);
    });
}

#[test]
fn paced_departure_times_and_quantum_come_back_as_s2n_timestamps() {
    at_t0(|t0| {
        let mut d = Driver::<Cubic>::new(t0, true);
        let first = d.send(0, 1200);
        d.ack(40, 1200, first);
        // An RTT sample gives a pacing rate; past the unpaced first segments each
        // send moves the departure forward.
        for _ in 0..20 {
            d.send(40, 1200);
        }
        let edt = d.cc.earliest_departure_time().expect("paced");
        assert!(edt > d.t(40), "the next departure lies ahead");
        let quantum = d.cc.send_quantum().expect("paced");
        assert!(quantum >= 2 * 1200);

        let mut unpaced = Driver::<Cubic>::new(t0, false);
        unpaced.send(0, 1200);
        assert_eq!(unpaced.cc.earliest_departure_time(), None);
        assert_eq!(unpaced.cc.send_quantum(), None);
    });
}

#[test]
fn discarded_packets_leave_flight_and_mtu_updates_change_the_segment() {
    at_t0(|t0| {
        let mut d = Driver::<Cubic>::new(t0, false);
        for _ in 0..10 {
            d.send(0, 1200);
        }
        d.cc.on_packet_discarded(2400, &mut NoPublisher);
        assert_eq!(d.cc.bytes_in_flight(), 9600);
        d.cc.on_mtu_update(1400, &mut NoPublisher);
        assert_eq!(d.cc.flow().mss_bytes(), 1400);
        // 12000 − 9600 = 2400 left: not limited for 1400-byte datagrams.
        assert!(!d.cc.is_congestion_limited());
        d.send(1, 1400);
        assert!(d.cc.is_congestion_limited(), "1000 bytes left < 1400");
    });
}
