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
pub(crate) struct NoEvents;

impl Publisher for NoEvents {
    fn on_slow_start_exited(&mut self, _: SlowStartExitCause, _: u32) {}
    fn on_delivery_rate_sampled(&mut self, _: RateSample) {}
    fn on_pacing_rate_updated(&mut self, _: Bandwidth, _: u32, _: num_rational::Ratio<u64>) {}
    fn on_bbr_state_changed(&mut self, _: BbrState) {}
}

/// A random source CUBIC never reads.
pub(crate) struct NoRandom;

impl random::Generator for NoRandom {
    fn public_random_fill(&mut self, dest: &mut [u8]) {
        dest.fill(0);
    }
    fn private_random_fill(&mut self, dest: &mut [u8]) {
        dest.fill(0);
    }
}

pub(crate) fn timestamp(us: u64) -> Timestamp {
    // SAFETY: s2n's contract is only that timestamps come from one monotonic clock;
    // every timestamp here is an offset from the same origin.
    unsafe { Timestamp::from_duration(Duration::from_micros(us)) }
}

/// s2n's CUBIC with the RTT estimator its stack passes in.
#[derive(Clone)]
pub struct S2nCubic {
    cc: CubicCongestionController,
    rtt: RttEstimator,
    /// The estimator `on_packet_sent` gets: `rtt`, or for [`S2nCubic::without_pacer`]
    /// one whose smoothed RTT (1 ms) is below s2n's `MINIMUM_PACING_RTT` (2 ms), so its
    /// pacer returns after that one comparison. `on_packet_sent` reads the estimator
    /// for nothing else (s2n-quic-core 0.91 `recovery/cubic.rs`), so CUBIC is unchanged.
    send_rtt: RttEstimator,
    in_flight: u32,
    /// The next ACK covers a packet sent after the last event (see the trait).
    next_ack_after_event: bool,
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
            send_rtt: rtt,
            rtt,
            in_flight: 0,
            next_ack_after_event: false,
        }
    }

    /// The same controller with its pacer short-circuited (see `send_rtt`).
    pub fn without_pacer() -> Self {
        let short = Duration::from_millis(1);
        let mut send_rtt = RttEstimator::new(short);
        send_rtt.update_rtt(
            Duration::ZERO,
            short,
            timestamp(START_US),
            true,
            PacketNumberSpace::ApplicationData,
        );
        S2nCubic {
            send_rtt,
            ..Self::new()
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
        // Sent a round earlier, or just after the last congestion event (1 µs ago).
        let sent_us = if self.next_ack_after_event {
            now_us - 1
        } else {
            now_us - RTT_US
        };
        self.next_ack_after_event = false;
        let sent = timestamp(sent_us);
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
                &self.send_rtt,
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

    fn next_ack_covers_data_sent_after_now(&mut self) {
        self.next_ack_after_event = true;
    }
}
