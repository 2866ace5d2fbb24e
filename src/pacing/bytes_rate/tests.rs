use super::*;

fn params() -> PacingRateParams {
    match PacingRateConfig::new().validate() {
        Ok(p) => p,
        Err(_) => unreachable!(),
    }
}

#[test]
fn slow_start_paces_twice_the_window_per_srtt() {
    // 14480 B per 30 ms at 200 %: 14480 * 2 / 0.030 = 965333 B/s (the segment
    // mode's value for 10 x 1448 B, rounded down the same way).
    let i = BytesPacingInput {
        cwnd_bytes: 14_480,
        ssthresh_bytes: u64::MAX,
        in_flight_bytes: 0,
        srtt_us: 30_000,
    };
    assert_eq!(
        pacing_rate_bytes(&params(), &i),
        Rate::from_bytes_per_second(965_333)
    );
}

#[test]
fn congestion_avoidance_uses_120_percent_of_the_larger_of_window_and_flight() {
    // 1.2 * 17376 B / 0.030 s = 695040 B/s.
    let i = BytesPacingInput {
        cwnd_bytes: 14_480,
        ssthresh_bytes: 28_960,
        in_flight_bytes: 17_376,
        srtt_us: 30_000,
    };
    assert_eq!(
        pacing_rate_bytes(&params(), &i),
        Rate::from_bytes_per_second(695_040)
    );
}

#[test]
fn the_cap_and_a_missing_rtt_bound_the_rate() {
    let mut cfg = PacingRateConfig::new();
    cfg.max_rate = Rate::from_bytes_per_second(100_000);
    let Ok(p) = cfg.validate() else {
        unreachable!()
    };
    let i = BytesPacingInput {
        cwnd_bytes: 14_480,
        ssthresh_bytes: u64::MAX,
        in_flight_bytes: 0,
        srtt_us: 30_000,
    };
    assert_eq!(
        pacing_rate_bytes(&p, &i),
        Rate::from_bytes_per_second(100_000)
    );
    let no_rtt = BytesPacingInput { srtt_us: 0, ..i };
    assert_eq!(pacing_rate_bytes(&params(), &no_rtt), Rate::UNLIMITED);
}

#[test]
fn ratios_outside_1_to_10000_percent_are_refused() {
    let mut cfg = PacingRateConfig::new();
    cfg.ss_ratio_percent = 0;
    assert_eq!(cfg.validate(), Err(ConfigError::PacingRatioOutOfRange));
    cfg.ss_ratio_percent = 10_001;
    assert_eq!(cfg.validate(), Err(ConfigError::PacingRatioOutOfRange));
}
