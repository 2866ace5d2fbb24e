//! The hostile-input suite of the Linux 2.6.35 profile: one test per row of its table
//! in `docs/hostile-inputs.md`. Every odd input is refused at construction, or handled
//! as the table says, never with a panic or an overflow (overflow checks are on).

use congestion::v2_6_35::{Bictcp2635, Cubic, CubicConfig};
use congestion::{ConfigError, CongestionController, Duration, Instant};

const T0: u64 = 1_000_000_000;

fn at(us: u64) -> Instant {
    Instant::from_micros(us)
}

/// A default flow (HZ=1000, IW2) with 10 segments in flight at `T0`.
fn flow() -> Cubic {
    let mut f = Cubic::new(CubicConfig::new(), at(T0)).unwrap();
    f.transmit(at(T0), 10);
    f
}

#[test]
fn v2635_an_rtt_under_one_jiffy_gives_no_sample_but_the_ack_still_counts() {
    let mut f = flow();
    // 0 us, and 400 us inside one jiffy (1000.0105 s - 0.0004 s = same jiffy).
    for rtt in [0, 400] {
        let before = f.state().cwnd;
        f.ack(at(T0 + 10_500), 1, Some(Duration::from_micros(rtt)));
        assert_eq!(f.rtt_us_passed(), -1);
        assert_eq!(f.bictcp().delay_min, 0);
        assert_eq!(f.state().cwnd, before + 1);
    }
}

#[test]
fn v2635_an_rtt_longer_than_the_clock_is_clamped_to_it() {
    let mut f = Cubic::new(CubicConfig::new(), at(5_000_000)).unwrap();
    f.transmit(at(5_000_000), 10);
    // Sent "before time began": taken as sent at 0, 5000 jiffies ago.
    f.ack(at(5_000_000), 1, Some(Duration::from_secs(3600)));
    assert_eq!(f.rtt_us_passed(), 5_000_000);
    assert_eq!(f.bictcp().delay_min, 5000 << 3);
}

#[test]
fn v2635_an_rtt_over_35_minutes_wraps_negative_and_is_ignored_like_the_kernel() {
    let now = 10_000_000_000u64; // 10,000 s
    let mut f = Cubic::new(CubicConfig::new(), at(now)).unwrap();
    f.transmit(at(now), 10);
    // 3000 s = 3,000,000 jiffies; * 1000 us = 3e9, which is negative as s32.
    f.ack(at(now), 1, Some(Duration::from_secs(3000)));
    assert_eq!(f.rtt_us_passed(), 3_000_000_000u32 as i32);
    assert_eq!(f.bictcp().delay_min, 0);
}

#[test]
fn v2635_time_going_backwards_is_taken_as_wrapping_jiffies_and_never_panics() {
    let mut f = flow();
    f.ack(at(T0 + 20_000), 1, Some(Duration::from_millis(20)));
    for back in [T0, T0 / 2, 0] {
        f.ack(at(back), 1, Some(Duration::from_millis(20)));
        f.transmit(at(back), 10);
        assert!(f.state().cwnd >= 1 && f.state().cwnd <= f.clamp());
    }
}

#[test]
fn v2635_acking_more_than_is_in_flight_empties_the_flight_without_underflow() {
    let mut f = flow();
    f.ack(at(T0 + 20_000), u32::MAX, None);
    assert_eq!(f.socket_view().packets_out, 0);
    assert_eq!(f.socket_view().snd_una, u32::MAX);
    // Slow start still adds exactly one (the era's +1 per ACK).
    assert_eq!(f.state().cwnd, 3);
}

#[test]
fn v2635_an_ack_of_nothing_reaches_neither_cubic_hook() {
    let mut f = flow();
    let before = *f.state();
    f.ack(at(T0 + 20_000), 0, Some(Duration::from_millis(20)));
    assert_eq!(f.rtt_us_passed(), -1);
    assert_eq!(*f.state(), before);
}

#[test]
fn v2635_undo_without_a_congestion_event_changes_nothing() {
    let mut f = flow();
    let before = f;
    f.undo(at(T0 + 1000));
    assert_eq!(f, before);
}

#[test]
fn v2635_a_restart_after_idle_changes_nothing() {
    let mut f = flow();
    f.ack(at(T0 + 20_000), 1, Some(Duration::from_millis(20)));
    let before = f;
    f.on_transmit_start(at(T0 + 100_000_000));
    assert_eq!(f, before);
}

#[test]
fn v2635_repeated_timeouts_compute_ssthresh_once_and_keep_cwnd_at_one() {
    let mut c = CubicConfig::new();
    c.init_cwnd = 100;
    let mut f = Cubic::new(c, at(T0)).unwrap();
    f.transmit(at(T0), 100);
    f.rto(at(T0 + 300_000), 1);
    // 100 * 717 / 1024 = 70.
    assert_eq!(f.state().ssthresh, 70);
    for i in 2..=256u64 {
        f.rto(at(T0 + i * 300_000), 1);
        assert_eq!((f.state().cwnd, f.state().ssthresh), (1, 70));
    }
    // icsk_retransmits is a u8 in the kernel: after 256 RTOs in a row it reads 0, and
    // the next RTO counts as the first of an episode (ssthresh = max(1 * 717/1024, 2)).
    // A real 2.6.35 socket gives up after tcp_retries2 (15) long before.
    assert_eq!(f.socket_view().retransmits, 0);
    f.rto(at(T0 + 257 * 300_000), 1);
    assert_eq!((f.state().cwnd, f.state().ssthresh), (1, 2));
    assert_eq!(f.socket_view().retransmits, 1);
}

#[test]
fn v2635_samples_are_ignored_in_the_upper_half_of_jiffies_before_any_epoch() {
    let start = ((1u64 << 32) - 6000) * 1000;
    let mut f = Cubic::new(CubicConfig::new(), at(start)).unwrap();
    f.transmit(at(start), 10);
    f.ack(at(start + 18_000), 1, Some(Duration::from_millis(18)));
    assert_eq!(f.rtt_us_passed(), 18_000);
    assert_eq!(f.bictcp().delay_min, 0);
}

#[test]
fn v2635_a_delayed_ack_estimate_wrapped_to_zero_divides_by_one() {
    let cfg = CubicConfig::new();
    let mut b = Bictcp2635 {
        delayed_ack: 0,
        ..Default::default()
    };
    // Kernel: divide error. Here: cnt = (cwnd / (target - cwnd)) << 4 / 1.
    b.update(&cfg, 100, 10_000);
    assert!(b.cnt >= 1);
    assert_eq!(b.epoch_start, 10_000);
}

#[test]
fn v2635_a_zero_reno_step_is_skipped_instead_of_spinning() {
    let mut cfg = CubicConfig::new();
    cfg.beta = 1; // beta_scale = 8*1025/3/1023 = 2
    let mut b = Bictcp2635 {
        delayed_ack: 32,
        ..Default::default()
    };
    // cwnd 3: (3 * 2) >> 3 = 0, the kernel's `while (ack_cnt > 0)` would never end.
    b.update(&cfg, 3, 10_000);
    b.update(&cfg, 3, 20_000);
    assert_eq!(b.tcp_cwnd, 3);
    assert_eq!(b.ack_cnt, 2);
}

#[test]
fn v2635_absurd_configurations_are_refused_at_construction() {
    let refused = |f: fn(&mut CubicConfig)| {
        let mut c = CubicConfig::new();
        f(&mut c);
        Cubic::new(c, Instant::ZERO).err()
    };
    assert_eq!(refused(|c| c.hz = 0), Some(ConfigError::HzOutOfRange));
    assert_eq!(refused(|c| c.hz = 1024), Some(ConfigError::HzOutOfRange));
    assert_eq!(
        refused(|c| c.beta = 1024),
        Some(ConfigError::BetaOutOfRange)
    );
    assert_eq!(
        refused(|c| c.bic_scale = 0),
        Some(ConfigError::BicScaleOutOfRange)
    );
    assert_eq!(
        refused(|c| c.cwnd_clamp = 1),
        Some(ConfigError::ClampTooSmall)
    );
    assert_eq!(
        refused(|c| c.init_cwnd = 0),
        Some(ConfigError::InitialWindowOutOfRange)
    );
    assert_eq!(refused(|c| c.mss = 0), Some(ConfigError::ZeroMss));
    assert_eq!(refused(|c| c.reordering = 0), Some(ConfigError::ZeroLimit));
    assert_eq!(
        refused(|c| c.init_ssthresh = 0),
        Some(ConfigError::ZeroLimit)
    );
}
