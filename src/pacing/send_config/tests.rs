use super::*;

#[test]
fn defaults_validate_and_bad_values_are_refused() {
    assert!(SendPathConfig::new().validate().is_ok());
    let mut c = SendPathConfig::new();
    c.pacing_shift = 32;
    assert_eq!(c.validate(), Err(ConfigError::ShiftOutOfRange));
    let mut c = SendPathConfig::new();
    c.min_tso_segs = 0;
    assert_eq!(c.validate(), Err(ConfigError::ZeroLimit));
    let mut c = SendPathConfig::new();
    c.gso_max_size = 0;
    assert_eq!(c.validate(), Err(ConfigError::ZeroLimit));
}
