use super::*;

#[test]
fn bounds_decide_only_what_they_prove() {
    let mut m = CurveMemo::at_epoch_start(10_000, 10_500);
    assert_eq!((m.at_zero(0), m.at_zero(1)), (Some(10_500), None));
    // W_cubic(t) >= 10000 for every t >= 0: W_est 10000 is not above it.
    assert_eq!(m.reno_verdict(5, 10_000), RenoVerdict::Cubic);
    assert_eq!(m.reno_verdict(5, 10_001), RenoVerdict::Unknown);
    m.remember_target(2_000, 12_000);
    // W_cubic(1500) <= W_cubic(2000) = 12000 < 12001.
    assert_eq!(m.reno_verdict(1_500, 12_001), RenoVerdict::Reno);
    // Past the cached point the upper bound says nothing.
    assert_eq!(m.reno_verdict(2_001, 12_001), RenoVerdict::Unknown);
    m.remember_low(3_000, 13_000);
    // Before the lower bound's time it says nothing either.
    assert_eq!(m.reno_verdict(2_999, 11_000), RenoVerdict::Unknown);
    assert_eq!(m.reno_verdict(3_000, 13_000), RenoVerdict::Cubic);
    // Within 1 ms of the lower point, the point stands for the curve.
    assert_eq!(m.reno_verdict(3_999, 13_001), RenoVerdict::Reno);
    assert_eq!(m.reno_verdict(4_000, 13_001), RenoVerdict::Unknown);
}

#[test]
#[cfg(target_pointer_width = "64")]
fn the_growth_per_ack_size_is_kept_only_when_it_fits_and_outlives_the_points() {
    let mut m = CurveMemo::new();
    assert_eq!((m.step(0), m.step(2_400)), (Some(0), None));
    m.remember_step(2_400, 1_524_705);
    assert_eq!(m.step(2_400), Some(1_524_705));
    // Too wide for a field: not remembered, the last entry stays.
    m.remember_step(65_536, 7);
    m.remember_step(1_200, 1 << 32);
    assert_eq!(
        (m.step(65_536), m.step(1_200), m.step(0)),
        (None, None, None)
    );
    assert_eq!(m.step(2_400), Some(1_524_705));
    m.remember_step(65_535, u64::from(u32::MAX));
    assert_eq!(m.step(65_535), Some(u64::from(u32::MAX)));
    // A new epoch, forgetting the points, taking another memo's points: kept.
    m.restart_epoch(10_000, 10_500);
    m.forget();
    let (points, low, target) = CurveMemo::at_epoch_start(1, 2).points();
    m.set_points(points, low, target);
    assert_eq!(m.step(65_535), Some(u64::from(u32::MAX)));
    assert_eq!(m.at_zero(0), Some(2));
    m.forget_step();
    assert_eq!((m.step(0), m.step(65_535)), (Some(0), None));
}

#[test]
fn the_target_is_reused_within_its_millisecond_only() {
    let mut m = CurveMemo::new();
    assert_eq!(m.target(0), None);
    m.remember_target(20_040, 5_000);
    assert_eq!(m.target(20_040), Some(5_000));
    assert_eq!(m.target(21_039), Some(5_000));
    assert_eq!(m.target(21_040), None);
    assert_eq!(m.target(20_039), None);
}
