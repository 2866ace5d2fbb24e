//! s2n-quic-core 0.91 `CubicCongestionController` on the benchmark stream.

use crate::common::{PACKET_BYTES, RTT_US, START_US, StreamController};
use core::time::Duration;
use s2n_quic_core::event::builder::{BbrState, SlowStartExitCause};
use s2n_quic_core::packet::number::PacketNumberSpace;
use s2n_quic_core::random;
use s2n_quic_core::recovery::bandwidth::{Bandwidth, RateSample};
use s2n_quic_core::recovery::congestion_controller::Publisher;
use s2n_quic_core::recovery::cubic::ApplicationSettings;
use s2n_quic_core::recovery::{CongestionController, CubicCongestionController, RttEstimator};
use s2n_quic_core::time::Timestamp;

/// An event publisher that drops every event (s2n-quic's own does work per event).
#[derive(Clone, Copy, Default)]
struct NoEvents;

impl Publisher for NoEvents {
    fn on_slow_start_exited(&mut self, _: SlowStartExitCause, _: u32) {}
    fn on_delivery_rate_sampled(&mut self, _: RateSample) {}
    fn on_pacing_rate_updated(&mut self, _: Bandwidth, _: u32, _: num_rational::Ratio<u64>) {}
    fn on_bbr_state_changed(&mut self, _: BbrState) {}
}

/// A random source CUBIC never reads.
struct NoRandom;

impl random::Generator for NoRandom {
    fn public_random_fill(&mut self, dest: &mut [u8]) {
        dest.fill(0);
    }
    fn private_random_fill(&mut self, dest: &mut [u8]) {
        dest.fill(0);
    }
}

fn timestamp(us: u64) -> Timestamp {
    // SAFETY: s2n's contract is only that timestamps come from one monotonic clock;
    // every timestamp here is an offset from the same origin.
    unsafe { Timestamp::from_duration(Duration::from_micros(us)) }
}

/// s2n's CUBIC with the RTT estimator its stack passes in.
#[derive(Clone)]
pub struct S2nCubic {
    cc: CubicCongestionController,
    rtt: RttEstimator,
    in_flight: u32,
}

impl S2nCubic {
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
        S2nCubic {
            cc: CubicCongestionController::new(PACKET_BYTES as u16, ApplicationSettings::default()),
            rtt,
            in_flight: 0,
        }
    }
}

impl Default for S2nCubic {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for S2nCubic {
    fn name(&self) -> &'static str {
        "s2n-quic-core 0.91 Cubic"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, _rtt_us: u64) {
        let now = timestamp(now_us);
        let sent = timestamp(now_us - RTT_US);
        self.in_flight -= packets;
        self.cc.on_rtt_update(sent, now, &self.rtt, &mut NoEvents);
        let bytes = (packets * PACKET_BYTES) as usize;
        self.cc.on_ack(
            sent,
            bytes,
            (),
            &self.rtt,
            &mut NoRandom,
            now,
            &mut NoEvents,
        );
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        self.in_flight += packets;
        let now = timestamp(now_us);
        for _ in 0..packets {
            self.cc.on_packet_sent(
                now,
                PACKET_BYTES as usize,
                Some(false),
                &self.rtt,
                &mut NoEvents,
            );
        }
    }

    fn loss(&mut self, now_us: u64) {
        self.in_flight -= 1;
        let now = timestamp(now_us);
        self.cc.on_packet_lost(
            PACKET_BYTES,
            (),
            false,
            true,
            &mut NoRandom,
            now,
            &mut NoEvents,
        );
    }

    fn rto(&mut self, now_us: u64) {
        let now = timestamp(now_us);
        let lost = self.in_flight * PACKET_BYTES;
        self.cc
            .on_packet_lost(lost, (), true, true, &mut NoRandom, now, &mut NoEvents);
        self.in_flight = 0;
        self.send(now_us, 1);
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.cc.congestion_window() / PACKET_BYTES
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }
}
