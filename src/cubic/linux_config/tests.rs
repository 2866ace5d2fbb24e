use super::*;

#[test]
fn derived_constants_match_the_kernel_defaults() {
    let p = LinuxCubicConfig::new().validate().unwrap();
    // 8*(1024+717)/3/(1024-717) = 13928/3/307 = 4642/307 = 15
    assert_eq!(p.beta_scale(), 15);
    assert_eq!(p.cube_rtt_scale(), 410);
    // 2^40 / 410 = 2681735677.46 -> 2681735677
    assert_eq!(p.cube_factor(), 2_681_735_677);
    assert_eq!(p, LinuxCubicParams::default());
}

#[test]
fn absurd_parameters_are_refused() {
    let mut c = LinuxCubicConfig::new();
    c.beta = 1024;
    assert_eq!(c.validate(), Err(ConfigError::BetaOutOfRange));
    c.beta = 0;
    assert_eq!(c.validate(), Err(ConfigError::BetaOutOfRange));
    c = LinuxCubicConfig::new();
    c.bic_scale = 0;
    assert_eq!(c.validate(), Err(ConfigError::BicScaleOutOfRange));
    c.bic_scale = MAX_BIC_SCALE + 1;
    assert_eq!(c.validate(), Err(ConfigError::BicScaleOutOfRange));
    assert_eq!(
        HystartDetect::from_bits(4),
        Err(ConfigError::HystartDetectOutOfRange)
    );
}

#[test]
fn the_largest_beta_still_gives_a_finite_scale() {
    let mut c = LinuxCubicConfig::new();
    c.beta = 1023;
    // 8*2047/3/1 = 5458
    assert_eq!(c.validate().unwrap().beta_scale(), 5458);
}
