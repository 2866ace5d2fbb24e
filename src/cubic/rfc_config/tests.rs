use super::*;

#[test]
fn defaults_are_the_rfc_recommendations() {
    let p = RfcCubicConfig::new().validate().unwrap();
    assert_eq!(p.config().beta_permille, 700);
    assert_eq!(p.config().c_permille, 400);
    assert_eq!(p.config().ecn_beta_permille, 700);
    // 2 · 1200 bytes.
    assert_eq!(p.min_window(), 2400);
    // 400 · 1200 = 480000 thousandths of bytes/s³ = 480 bytes/s³.
    assert_eq!(p.c_mss(), 480_000);
}

#[test]
fn bad_values_are_refused() {
    let mut c = RfcCubicConfig::new();
    c.mss_bytes = 0;
    assert_eq!(c.validate(), Err(ConfigError::ZeroMss));
    c.mss_bytes = 70_000;
    assert_eq!(c.validate(), Err(ConfigError::MssOutOfRange));
    let mut c = RfcCubicConfig::new();
    c.beta_permille = 1000;
    assert_eq!(c.validate(), Err(ConfigError::BetaOutOfRange));
    let mut c = RfcCubicConfig::new();
    c.ecn_beta_permille = 0;
    assert_eq!(c.validate(), Err(ConfigError::BetaOutOfRange));
    let mut c = RfcCubicConfig::new();
    c.c_permille = 0;
    assert_eq!(c.validate(), Err(ConfigError::CubicCOutOfRange));
}
