//! proptest strategies: valid configurations and hostile event streams.

use super::{StackEvent, TimedEvent};
use crate::controller::{AckEvent, EcnEvent, LossEvent, SentEvent, SentPacket};
use crate::cubic::{HystartDetect, LinuxCubicConfig, LinuxCubicParams, MAX_BIC_SCALE};
use crate::hystart::PacingStatus;
use crate::linux::LinuxSocketConfig;
use crate::time::Duration;
use crate::time::Instant;
use proptest::prelude::*;
use std::vec::Vec;

/// RTT samples: none, 0, 1 µs, typical, an hour, the largest.
pub fn rtt() -> impl Strategy<Value = Option<Duration>> {
    prop_oneof![
        1 => Just(None),
        1 => Just(Some(Duration::ZERO)),
        1 => Just(Some(Duration::from_micros(1))),
        1 => Just(Some(Duration::from_secs(3600))),
        1 => Just(Some(Duration::from_micros(u64::MAX))),
        6 => (100u64..500_000).prop_map(|us| Some(Duration::from_micros(us))),
    ]
}

/// Which packet an event names: a number, a send time, or none.
pub fn sent_packet() -> impl Strategy<Value = SentPacket> {
    prop_oneof![
        4 => any::<u64>().prop_map(SentPacket::Number),
        4 => (0u64..1_000_000).prop_map(SentPacket::Number),
        2 => any::<u64>().prop_map(|us| SentPacket::SentAt(Instant::from_micros(us))),
        1 => Just(SentPacket::Unknown),
    ]
}

/// One stack event, hostile values included.
pub fn stack_event() -> impl Strategy<Value = StackEvent> {
    let amount = prop_oneof![8 => 0u64..100_000, 1 => Just(0u64), 1 => Just(u64::MAX)];
    prop_oneof![
        8 => (amount.clone(), rtt(), proptest::option::of(any::<u64>()), any::<bool>()).prop_map(|(acked, rtt, largest_acked, app_limited)| {
            StackEvent::Ack(AckEvent { acked, rtt, largest_acked, app_limited, ce_delta: 0 })
        }),
        4 => (amount.clone(), any::<u64>()).prop_map(|(in_flight_after, largest_sent)| {
            StackEvent::Sent(SentEvent { in_flight_after, largest_sent })
        }),
        2 => (amount.clone(), any::<u64>()).prop_map(|(sent, largest_sent)| {
            StackEvent::SentCounted { sent, largest_sent }
        }),
        3 => (amount.clone(), sent_packet(), any::<bool>()).prop_map(|(lost, newest_lost, persistent_congestion)| {
            StackEvent::Loss(LossEvent { lost, newest_lost, persistent_congestion })
        }),
        1 => (amount.clone(), sent_packet()).prop_map(|(ce_increase, newest_acked)| {
            StackEvent::Ecn(EcnEvent { ce_increase, newest_acked })
        }),
        1 => Just(StackEvent::RetransmissionTimeout),
        1 => amount.prop_map(StackEvent::Discarded),
        1 => Just(StackEvent::Spurious),
        1 => Just(StackEvent::TransmitStart),
    ]
}

/// A stream of up to `max` events; the clock mostly advances, sometimes jumps by days
/// or goes backwards.
pub fn timed_events(max: usize) -> impl Strategy<Value = Vec<TimedEvent>> {
    let advance =
        prop_oneof![12 => 0i64..50_000, 1 => Just(50 * 86_400_000_000i64), 1 => -10_000_000i64..0];
    proptest::collection::vec(
        (advance, stack_event()).prop_map(|(advance_us, event)| TimedEvent { advance_us, event }),
        0..max,
    )
}

/// Valid Linux-mode configurations.
pub fn linux_config() -> impl Strategy<Value = (LinuxCubicParams, LinuxSocketConfig)> {
    (
        1u32..1024,
        1u32..=MAX_BIC_SCALE,
        any::<[bool; 3]>(),
        0u8..4,
        any::<u32>(),
        2u32..,
        any::<u32>(),
        1u32..9000,
        0usize..3,
    )
        .prop_map(
            |(beta, bic, flags, detect, low_window, clamp, iw, mss, pacing)| {
                let mut c = LinuxCubicConfig::new();
                c.beta = beta;
                c.bic_scale = bic;
                c.fast_convergence = flags[0];
                c.tcp_friendliness = flags[1];
                c.hystart = flags[2];
                c.hystart_detect = HystartDetect::from_bits(detect).unwrap_or(HystartDetect::BOTH);
                c.hystart_low_window = low_window;
                let mut s = LinuxSocketConfig::new();
                s.cwnd_clamp = clamp;
                s.init_cwnd = 1 + iw % clamp;
                s.mss = mss;
                s.pacing_status =
                    [PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq][pacing];
                (c.validate().unwrap_or_default(), s)
            },
        )
}

/// Valid RFC-mode configurations (any slow start, paced or not).
pub fn rfc_config() -> impl Strategy<Value = crate::rfc::CubicConfig> {
    use crate::rfc::{CubicConfig, SlowStartKind};
    (
        1u64..=9000,
        1u32..1000,
        1u32..1000,
        1u32..=100_000,
        any::<[bool; 3]>(),
        0usize..3,
        2u64..100,
    )
        .prop_map(|(mss, beta, ecn_beta, c, flags, ss, iw_segments)| {
            let mut cfg = CubicConfig::new();
            cfg.cubic.mss_bytes = mss;
            cfg.cubic.beta_permille = beta;
            cfg.cubic.ecn_beta_permille = ecn_beta;
            cfg.cubic.c_permille = c;
            cfg.cubic.fast_convergence = flags[0];
            cfg.cubic.reno_friendly = flags[1];
            cfg.paced = flags[2];
            cfg.slow_start = [
                SlowStartKind::Standard,
                SlowStartKind::LinuxHystart,
                SlowStartKind::HystartPlusPlus,
            ][ss];
            cfg.initial_window_bytes = Some(iw_segments * mss);
            cfg
        })
}
