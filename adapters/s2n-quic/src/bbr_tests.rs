//! The host-lateness check of [`S2nBbrController`], one s2n-quic call at a time.

use super::*;
use congestion::linux::BbrConfig;
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

type Flow = linux::BbrController<RandomFn>;

struct Driver {
    cc: S2nBbrController<Flow>,
    stats: Arc<AdapterStats>,
    t0: Timestamp,
    rtt: RttEstimator,
}

impl Driver {
    fn new(t0: Timestamp) -> Self {
        let stats = Arc::new(AdapterStats::default());
        let cc = S2nBbrController::<Flow>::new(&BbrConfig::new(), 1200)
            .expect("valid")
            .with_stats(stats.clone());
        Driver {
            cc,
            stats,
            t0,
            rtt: RttEstimator::new(StdDuration::from_millis(40)),
        }
    }

    fn t(&self, us: u64) -> Timestamp {
        self.t0 + StdDuration::from_micros(us)
    }

    fn send(&mut self, us: u64) -> SampledPacketInfo {
        let t = self.t(us);
        self.cc
            .on_packet_sent(t, 1200, Some(false), &self.rtt, &mut NoPublisher)
    }

    fn ack(&mut self, us: u64, bytes: usize, newest: SampledPacketInfo) {
        let t = self.t(us);
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

    fn late(&self) -> u64 {
        AdapterStats::get(&self.stats.late_packets)
    }

    /// The sampler's application-limited mark (`tp->app_limited`, 0: none).
    fn app_limited_mark(&self) -> u32 {
        self.cc.flow().flow().delivery_counters().2
    }
}

#[test]
fn a_packet_the_host_held_behind_the_pacer_marks_the_next_ack_app_limited() {
    testing::test(Model::default(), |_| {
        let mut d = Driver::new(time::now());
        // The initial window, then its ACK 40 ms later: BBR paces from a real RTT now.
        let mut last = d.send(0);
        for _ in 1..10 {
            last = d.send(0);
        }
        d.ack(40_000, 12_000, last);
        let rate = d.cc.flow().pacing_rate().as_bytes_per_second();
        let spacing_us = 1200 * 1_000_000 / rate;
        assert!((500..2_000).contains(&spacing_us), "{spacing_us} µs");
        // A burst puts the pacer ahead of the clock; packets before their time are not late.
        for _ in 0..5 {
            d.send(40_000);
        }
        d.send(41_000);
        d.send(41_000);
        d.send(41_000);
        assert_eq!(d.late(), 0);
        // 8 packets under the window of 10: the next was due a few spacings after 41 ms;
        // sent at 80 ms, the host held it back.
        assert!(d.cc.flow().in_flight() < d.cc.flow().cwnd());
        let held = d.send(80_000);
        assert_eq!(d.late(), 1);
        assert_eq!(d.app_limited_mark(), 0, "marked only with the next ACK");
        d.ack(110_000, 1200, held);
        assert_ne!(d.app_limited_mark(), 0);
        // The mark is for one ACK frame: the next one reports what s2n-quic said.
        let next = d.send(110_000);
        d.ack(150_000, 1200, next);
        Ok(())
    })
    .expect("runs");
}

#[test]
fn a_sender_waiting_for_the_window_or_the_application_is_not_late() {
    testing::test(Model::default(), |_| {
        let mut d = Driver::new(time::now());
        let mut last = d.send(0);
        for _ in 1..10 {
            last = d.send(0);
        }
        d.ack(40_000, 12_000, last);
        // Fill the window: the next send waits for an ACK, however long it takes.
        let cwnd = d.cc.flow().cwnd();
        for _ in 0..cwnd {
            d.send(40_000);
        }
        d.send(200_000);
        assert_eq!(d.late(), 0);
        // The application had nothing more after this packet.
        let t = d.t(200_000);
        d.cc.on_packet_sent(t, 1200, Some(true), &d.rtt, &mut NoPublisher);
        d.send(400_000);
        assert_eq!(d.late(), 0);
        Ok(())
    })
    .expect("runs");
}
