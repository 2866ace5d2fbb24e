use super::*;

#[test]
fn defaults_are_valid_and_derive_the_kernel_constants() {
    let c = CubicConfig::new();
    assert_eq!(c.validate(), Ok(()));
    // 8*1741/3/307 = 13928/3/307 = 4642/307 = 15
    assert_eq!(c.beta_scale(), 15);
    assert_eq!(c.cube_rtt_scale(), 410);
    // 2^40/410 = 2681735677.46
    assert_eq!(c.cube_factor(), 2_681_735_677);
    assert_eq!(c, CubicConfig::default());
}

#[test]
fn each_bad_setting_is_refused_with_its_own_error() {
    let ok = CubicConfig::new();
    let check = |f: fn(&mut CubicConfig), e: ConfigError| {
        let mut c = ok;
        f(&mut c);
        assert_eq!(c.validate(), Err(e));
    };
    check(|c| c.beta = 1024, ConfigError::BetaOutOfRange);
    check(|c| c.beta = 0, ConfigError::BetaOutOfRange);
    check(|c| c.bic_scale = 0, ConfigError::BicScaleOutOfRange);
    check(|c| c.hz = 300, ConfigError::HzOutOfRange);
    check(|c| c.hz = 0, ConfigError::HzOutOfRange);
    check(|c| c.cwnd_clamp = 1, ConfigError::ClampTooSmall);
    check(|c| c.init_cwnd = 0, ConfigError::InitialWindowOutOfRange);
    check(
        |c| {
            c.cwnd_clamp = 4;
            c.init_cwnd = 5
        },
        ConfigError::InitialWindowOutOfRange,
    );
    check(|c| c.mss = 0, ConfigError::ZeroMss);
    check(|c| c.reordering = 0, ConfigError::ZeroLimit);
    check(|c| c.init_ssthresh = 0, ConfigError::ZeroLimit);
    check(|c| c.tso_win_divisor = 0, ConfigError::ZeroLimit);
    for hz in [100, 250, 1000] {
        let mut c = ok;
        c.hz = hz;
        assert_eq!(c.validate(), Ok(()));
    }
}
