//! Cubic under arbitrary event streams: never panics (debug builds check every
//! arithmetic overflow), and keeps its invariants after every event.

use congestion::rfc::{Cubic, CubicConfig, SlowStartKind};
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase, SentEvent,
};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Ev {
    Sent {
        dt: u64,
        in_flight: u64,
        largest: u64,
    },
    Ack {
        dt: u64,
        acked: u64,
        rtt: Option<u64>,
        largest: u64,
        app_limited: bool,
    },
    Congestion(u8),
    Undo,
    TransmitStart {
        dt: u64,
    },
    Mss(u64),
}

fn any_u64() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..100_000, any::<u64>(), Just(u64::MAX), Just(0)]
}

fn ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        2 => (any_u64(), any_u64(), any_u64()).prop_map(|(dt, in_flight, largest)| Ev::Sent { dt, in_flight, largest }),
        4 => (any_u64(), any_u64(), proptest::option::of(any_u64()), any_u64(), any::<bool>())
            .prop_map(|(dt, acked, rtt, largest, app_limited)| Ev::Ack { dt, acked, rtt, largest, app_limited }),
        1 => (0u8..4).prop_map(Ev::Congestion),
        1 => Just(Ev::Undo),
        1 => any_u64().prop_map(|dt| Ev::TransmitStart { dt }),
        1 => prop_oneof![0u64..70_000, Just(1u64), Just(65_535)].prop_map(Ev::Mss),
    ]
}

fn kind() -> impl Strategy<Value = SlowStartKind> {
    prop_oneof![
        Just(SlowStartKind::Standard),
        Just(SlowStartKind::LinuxHystart),
        Just(SlowStartKind::HystartPlusPlus)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]
    #[test]
    fn no_panic_and_invariants_hold(
        slow_start in kind(),
        paced: bool,
        mss in 1u64..=65_535,
        init_mss in 2u64..200,
        events in proptest::collection::vec(ev(), 0..200),
    ) {
        let mut cfg = CubicConfig::new();
        cfg.cubic.mss_bytes = mss;
        cfg.slow_start = slow_start;
        cfg.paced = paced;
        cfg.initial_window_bytes = Some(init_mss * mss);
        let mut f = Cubic::new(cfg, Instant::ZERO).expect("valid");
        let mut now = 0u64;
        for e in events {
            match e {
                Ev::Sent { dt, in_flight, largest } => {
                    now = now.saturating_add(dt % 10_000_000);
                    f.on_sent(Instant::from_micros(now), &SentEvent::new(in_flight, largest));
                }
                Ev::Ack { dt, acked, rtt, largest, app_limited } => {
                    // Time may also run backwards: the flow must clamp, not panic.
                    now = if dt % 7 == 0 { now.saturating_sub(dt % 1_000_000) } else { now.saturating_add(dt) };
                    let ack = AckEvent { acked, rtt: rtt.map(Duration::from_micros), largest_acked: Some(largest), app_limited, ce_delta: 0 };
                    f.on_ack(Instant::from_micros(now), &ack);
                }
                Ev::Congestion(k) => {
                    let t = Instant::from_micros(now);
                    match k % 4 {
                        0 => f.on_loss(t, &LossEvent::episode(0)),
                        1 => f.on_ecn(t, &EcnEvent::episode(1)),
                        2 => f.on_retransmission_timeout(t),
                        _ => f.on_loss(t, &LossEvent::episode(0).with_persistent_congestion(true)),
                    }
                }
                Ev::Undo => f.on_spurious_congestion(Instant::from_micros(now)),
                Ev::TransmitStart { dt } => {
                    now = now.saturating_add(dt);
                    f.on_transmit_start(Instant::from_micros(now));
                }
                Ev::Mss(m) => {
                    let before = f;
                    if f.set_mss(m).is_err() {
                        prop_assert_eq!(f, before, "a refused MSS changes nothing");
                    }
                }
            }
            let mss = f.params().mss();
            // cwnd never drops below one MSS (RTO / ECE floor); ssthresh never below 2 MSS.
            prop_assert!(f.cwnd() >= mss, "cwnd {} < mss {}", f.cwnd(), mss);
            prop_assert!(f.ssthresh().unwrap_or(u64::MAX) >= 2 * mss);
            // Slow-start phases only below ssthresh; CA only at or above it.
            match f.phase() {
                Phase::SlowStart | Phase::ConservativeSlowStart => prop_assert!(f.cwnd() <= f.ssthresh().unwrap_or(u64::MAX)),
                Phase::CongestionAvoidance => prop_assert!(f.cwnd() >= f.ssthresh().unwrap_or(u64::MAX)),
                Phase::Recovery => {}
            }
            // CSS is only ever shown with HyStart++.
            if f.phase() == Phase::ConservativeSlowStart {
                prop_assert_eq!(slow_start, SlowStartKind::HystartPlusPlus);
            }
        }
    }
}
