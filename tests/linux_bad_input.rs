//! Odd input to a Linux-mode flow: each case is either refused at construction with a
//! `ConfigError` or handled at run time as the docs say, never with a panic.

use congestion::cubic::LinuxCubicConfig;
use congestion::linux::{CaState, LinuxFlow, LinuxSocketConfig};
use congestion::{AckEvent, ConfigError, CongestionController, Duration, Instant};

fn flow_at(t_us: u64) -> LinuxFlow {
    let mut socket = LinuxSocketConfig::new();
    socket.initial_srtt_us = 20_000;
    let mut f = LinuxFlow::new(
        LinuxCubicConfig::new().validate().unwrap(),
        socket,
        Instant::from_micros(t_us),
    )
    .unwrap();
    f.transmit(Instant::from_micros(t_us), 10);
    f
}

#[test]
fn an_rtt_sample_of_zero_counts_as_one_microsecond_for_cubic() {
    let mut f = flow_at(0);
    f.ack(Instant::from_micros(1000), 1, Some(0));
    assert_eq!(f.state().cubic.delay_min, 1);
    // srtt: 20000*8 + 0 - 20000 = 140000 (the estimator itself takes the 0).
    assert_eq!(f.socket_view().srtt_us_x8, 140_000);
}

#[test]
fn a_missing_rtt_sample_is_ignored() {
    let mut f = flow_at(0);
    f.on_ack(
        Instant::from_micros(1000),
        &AckEvent {
            acked: 1,
            rtt: None,
            ..AckEvent::default()
        },
    );
    assert_eq!(f.state().cubic.delay_min, 0);
    assert_eq!(f.socket_view().srtt_us_x8, 160_000);
    assert_eq!(f.state().cwnd, 11, "the ACK still grows the window");
}

#[test]
fn an_rtt_of_hours_is_clamped_to_the_kernels_s32_range() {
    let mut f = flow_at(0);
    let three_hours = Duration::from_secs(3 * 3600);
    f.on_ack(
        Instant::from_micros(1000),
        &AckEvent {
            acked: 1,
            rtt: Some(three_hours),
            ..AckEvent::default()
        },
    );
    assert_eq!(f.state().cubic.delay_min, i32::MAX as u32);
    // A later normal sample brings delay_min back down.
    f.ack(Instant::from_micros(2000), 1, Some(20_000));
    assert_eq!(f.state().cubic.delay_min, 20_000);
}

#[test]
fn time_going_backwards_is_taken_as_the_kernels_wrapping_clock_and_never_panics() {
    let mut f = flow_at(5_000_000);
    f.loss(Instant::from_micros(5_000_000));
    f.ack(Instant::from_micros(6_200_000), 2, Some(20_000));
    let cwnd = f.state().cwnd;
    // 4 s earlier: jiffies difference is negative, so the 1/32 s skip holds cnt and the
    // window may grow by at most the ACKed amount.
    f.ack(Instant::from_micros(2_000_000), 2, Some(20_000));
    assert!(f.state().cwnd <= cwnd + 2);
    f.transmit(Instant::from_micros(0), 50);
    f.rto(Instant::from_micros(1), 1);
    assert_eq!(f.state().cwnd, 1);
}

#[test]
fn acking_more_than_is_in_flight_empties_the_flight_without_underflow() {
    let mut f = flow_at(0);
    f.ack(Instant::from_micros(1000), 1_000_000, Some(20_000));
    assert_eq!(f.socket_view().packets_out, 0);
    assert_eq!(f.socket_view().snd_una, 1_000_000);
}

#[test]
fn undo_without_a_congestion_event_changes_nothing() {
    let mut f = flow_at(0);
    let before = f;
    f.undo(Instant::from_micros(10));
    assert_eq!(f, before);
}

#[test]
fn a_loss_sets_ssthresh_to_beta_times_cwnd_and_returns_to_open() {
    let mut f = flow_at(0);
    f.set_cwnd(100);
    f.loss(Instant::from_micros(10));
    // 100 * 717 / 1024 = 70
    assert_eq!(f.ssthresh(), 70);
    assert_eq!(f.ca_state(), CaState::Open);
}

#[test]
fn absurd_configurations_are_refused_at_construction() {
    let mut cubic = LinuxCubicConfig::new();
    cubic.beta = 1024;
    assert_eq!(cubic.validate(), Err(ConfigError::BetaOutOfRange));
    cubic.beta = 5000;
    assert_eq!(cubic.validate(), Err(ConfigError::BetaOutOfRange));

    let params = LinuxCubicConfig::new().validate().unwrap();
    let with = |edit: fn(&mut LinuxSocketConfig)| {
        let mut s = LinuxSocketConfig::new();
        edit(&mut s);
        s
    };
    let cases = [
        (with(|s| s.cwnd_clamp = 0), ConfigError::ClampTooSmall),
        (
            with(|s| (s.cwnd_clamp, s.init_cwnd) = (1, 1)),
            ConfigError::ClampTooSmall,
        ),
        (with(|s| s.mss = 0), ConfigError::ZeroMss),
        (
            with(|s| s.init_cwnd = 0),
            ConfigError::InitialWindowOutOfRange,
        ),
        (
            with(|s| (s.init_cwnd, s.cwnd_clamp) = (60, 50)),
            ConfigError::InitialWindowOutOfRange,
        ),
        (with(|s| s.init_ssthresh = 0), ConfigError::ZeroLimit),
        (
            with(|s| s.pacing_ca_ratio = 0),
            ConfigError::PacingRatioOutOfRange,
        ),
    ];
    for (socket, want) in cases {
        assert_eq!(
            LinuxFlow::new(params, socket, Instant::ZERO).err(),
            Some(want),
            "{socket:?}"
        );
    }
}
