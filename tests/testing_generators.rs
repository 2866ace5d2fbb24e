//! The opt-in generators for embedders' fuzzers and property tests produce only valid
//! configurations and drive any controller without panics.

#![cfg(all(feature = "arbitrary", feature = "proptest"))]

use arbitrary::{Arbitrary, Unstructured};
use congestion::linux;
use congestion::rfc;
use congestion::testing::{
    ArbitraryLinuxConfig, ArbitraryRfcConfig, TimedEvent, run_stream, strategies,
};
use congestion::{CongestionController, Instant};
use proptest::prelude::*;

#[test]
fn arbitrary_configs_are_always_valid_and_streams_run() {
    let mut seed = 0x1234_5678_9ABC_DEF0u64;
    let mut made = 0;
    for _ in 0..2000 {
        let bytes: Vec<u8> = (0..512)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        if let Ok(ArbitraryRfcConfig(rfc)) =
            ArbitraryRfcConfig::arbitrary(&mut Unstructured::new(&bytes))
        {
            let mut flow =
                rfc::Cubic::new(rfc, Instant::ZERO).expect("generated RFC configs are valid");
            let events: Vec<TimedEvent> =
                Vec::arbitrary(&mut Unstructured::new(&bytes)).unwrap_or_default();
            run_stream(&mut flow, Instant::ZERO, &events, |f, _| {
                assert!(f.cwnd() >= f.params().mss())
            });
        }
        let mut u = Unstructured::new(&bytes);
        let Ok(cfg) = ArbitraryLinuxConfig::arbitrary(&mut u) else {
            continue;
        };
        let config = linux::CubicConfig::from_parts(*cfg.params.config(), cfg.socket);
        let mut flow =
            linux::Cubic::new(config, Instant::ZERO).expect("generated configs are valid");
        let events: Vec<TimedEvent> = Vec::arbitrary(&mut u).unwrap_or_default();
        run_stream(&mut flow, Instant::ZERO, &events, |f, _| {
            assert!(f.cwnd() >= 1)
        });
        made += 1;
    }
    assert!(made > 1000, "only {made} of 2000 inputs made a config");
}

proptest! {
    #[test]
    fn strategies_drive_a_linux_flow_within_its_clamp(
        (params, socket) in strategies::linux_config(),
        events in strategies::timed_events(100),
    ) {
        let config = linux::CubicConfig::from_parts(*params.config(), socket);
        let mut flow = linux::Cubic::new(config, Instant::ZERO).unwrap();
        run_stream(&mut flow, Instant::ZERO, &events, |f, _| {
            assert!(f.cwnd() >= 1 && f.cwnd() <= u64::from(socket.cwnd_clamp));
        });
    }
}

proptest! {
    #[test]
    fn strategies_drive_an_rfc_flow_above_one_mss(
        cfg in strategies::rfc_config(),
        events in strategies::timed_events(100),
    ) {
        let mut flow = rfc::Cubic::new(cfg, Instant::ZERO).unwrap();
        run_stream(&mut flow, Instant::ZERO, &events, |f, _| {
            assert!(f.cwnd() >= f.params().mss() && f.ssthresh().unwrap_or(u64::MAX) >= 2 * f.params().mss());
        });
    }
}
