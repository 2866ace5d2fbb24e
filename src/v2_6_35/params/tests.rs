use super::*;

#[test]
fn a_bad_setting_is_refused_with_its_own_error() {
    let mut c = CubicConfig::new();
    c.hz = 300;
    assert_eq!(Linux2635Params::new(c), Err(ConfigError::HzOutOfRange));
    assert_eq!(Linux2635Params::default().config(), &CubicConfig::new());
}
