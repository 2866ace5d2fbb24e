//! `LinuxFlow::pacing_rate` is computed when asked for (issue 13), so these tests pin
//! what the kernel's eager `tcp_update_pacing_rate` gives: the rate the last event
//! left, which neither the transmit step nor a setter moves.

use congestion::Instant;
use congestion::cubic::LinuxCubicConfig;
use congestion::linux::{LinuxFlow, LinuxFlowConfig, LinuxSocketConfig};

fn flow(hystart: bool) -> LinuxFlow {
    let mut cubic = LinuxCubicConfig::new();
    cubic.hystart = hystart;
    let config = LinuxFlowConfig::from_parts(cubic, LinuxSocketConfig::new());
    let mut f = LinuxFlow::new(config, Instant::ZERO).unwrap();
    f.transmit(Instant::ZERO, 10);
    f
}

fn check_rate_stays_where_the_last_event_left_it(hystart: bool) {
    let mut f = flow(hystart);
    let t = Instant::from_micros(20_000);
    f.ack(t, 2, Some(20_000));
    // Slow start: cwnd 10 + 2 = 12, 8 in flight, srtt = 8 * 20 ms.
    // 1448 B * 80,000 * 200 % * max(12, 8) / 160,000 = 1,737,600 B/s.
    assert_eq!(f.state().cwnd, 12);
    assert_eq!(f.pacing_rate(), 1_737_600);
    // More in flight than cwnd after the send: the kernel's rate is still the ACK's.
    f.transmit(t, 20);
    assert_eq!(f.pacing_rate(), 1_737_600);
    // A setter writes the window, not sk_pacing_rate.
    f.set_cwnd(100);
    f.set_ssthresh(150);
    assert_eq!(f.pacing_rate(), 1_737_600);
    // The next ACK recomputes: 19 in flight, cwnd 100 + 1 = 101 >= 150 / 2 so the
    // CA ratio: 1448 * 80,000 * 120 * 101 / (160,000 + 20,000 - 20,000) = 8,774,880.
    f.ack(Instant::from_micros(20_040), 1, Some(20_000));
    assert_eq!(f.state().cwnd, 101);
    assert_eq!(f.pacing_rate(), 8_774_880);
}

#[test]
fn the_pacing_rate_is_the_last_events_with_hystart_reading_it() {
    check_rate_stays_where_the_last_event_left_it(true);
}

#[test]
fn the_pacing_rate_is_the_last_events_when_computed_on_demand() {
    check_rate_stays_where_the_last_event_left_it(false);
}

#[test]
fn turning_pacing_off_keeps_the_last_rate() {
    let mut f = flow(false);
    f.ack(Instant::from_micros(20_000), 2, Some(20_000));
    let mut socket = *f.socket_config();
    socket.model_pacing = false;
    f.set_socket_config(socket).unwrap();
    f.ack(Instant::from_micros(20_040), 2, Some(20_000));
    assert_eq!(f.pacing_rate(), 1_737_600);
}
