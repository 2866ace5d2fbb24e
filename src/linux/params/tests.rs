use super::*;

#[test]
fn a_configuration_out_of_range_is_refused_and_the_old_one_kept() {
    let mut config = CubicConfig::new();
    config.socket.mss = 0;
    assert_eq!(LinuxParams::new(config), Err(ConfigError::ZeroMss));
    let mut p = LinuxParams::KERNEL_DEFAULTS;
    let mut socket = *p.socket();
    socket.mss = 0;
    assert_eq!(p.set_socket(socket), Err(ConfigError::ZeroMss));
    assert_eq!(p.socket().mss, 1448);
}
