use super::*;

#[test]
fn either_half_out_of_range_is_refused() {
    let mut c = CubicConfig::new();
    assert!(c.validate().is_ok());
    c.socket.mss = 0;
    assert_eq!(c.validate(), Err(ConfigError::ZeroMss));
    let mut c = CubicConfig::new();
    c.cubic.beta = 0;
    assert_eq!(c.validate(), Err(ConfigError::BetaOutOfRange));
}
