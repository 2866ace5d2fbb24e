//! The hostile-input suite: one test per row of the table in `docs/hostile-inputs.md`.
//! Each odd input is either refused at construction with a `ConfigError` or handled at
//! run time as the table says (clamped, ignored, or taken as the kernel takes it),
//! never with a panic or an overflow (tests run with overflow checks on).

use congestion::cubic::LinuxCubicConfig;
use congestion::linux::{self, CaState, LinuxSocketConfig};
use congestion::{
    AckEvent, ConfigError, CongestionController, Duration, Instant, LossEvent, SentEvent,
};

fn flow_at(t_us: u64) -> linux::Cubic {
    let mut socket = LinuxSocketConfig::new();
    socket.initial_srtt_us = 20_000;
    let config = linux::CubicConfig::from_parts(LinuxCubicConfig::new(), socket);
    let mut f = linux::Cubic::new(config, Instant::from_micros(t_us)).unwrap();
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
fn a_loss_right_after_a_loss_reduces_again_from_the_reduced_window() {
    let mut f = flow_at(0);
    f.set_cwnd(100);
    f.loss(Instant::from_micros(10));
    // 100 * 717 / 1024 = 70
    assert_eq!(f.ssthresh().unwrap_or(u64::MAX), 70);
    assert_eq!(f.ca_state(), CaState::Open);
    // Recovery ended at once, so a second loss is a new event: 70 * 717 / 1024 = 49;
    // fast convergence: Wmax = 70 * 1741 / 2048 = 59.
    f.loss(Instant::from_micros(20));
    assert_eq!(
        (
            f.state().cwnd,
            f.ssthresh().unwrap_or(u64::MAX),
            f.state().cubic.last_max_cwnd
        ),
        (49, 49, 59)
    );
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
            linux::Cubic::new(
                linux::CubicConfig::from_parts(*params.config(), socket),
                Instant::ZERO
            )
            .err(),
            Some(want),
            "{socket:?}"
        );
    }
}

#[test]
fn an_ack_of_nothing_still_feeds_the_rtt_but_does_not_grow_the_window() {
    let mut f = flow_at(0);
    f.ack(Instant::from_micros(1000), 0, Some(15_000));
    assert_eq!(f.state().cubic.delay_min, 15_000);
    assert_eq!(f.state().cwnd, 10);
}

#[test]
fn an_ack_near_2_pow_32_saturates_instead_of_wrapping_the_window() {
    let mut f = flow_at(0);
    f.ack(Instant::from_micros(1000), u32::MAX, None);
    // Slow start: min(10 + (2^32 - 1) saturated, ssthresh 2^31 - 1) = 2^31 - 1, and the
    // rest of the ACK goes on to congestion avoidance: the window only grows. A wrapping
    // sum would have made it 9.
    assert!(f.state().cwnd >= 0x7fff_ffff, "cwnd {}", f.state().cwnd);
}

#[test]
fn a_second_undo_is_ignored() {
    let mut f = flow_at(0);
    f.set_cwnd(100);
    f.loss(Instant::from_micros(10));
    f.undo(Instant::from_micros(20));
    assert_eq!(f.state().cwnd, 100);
    f.loss(Instant::from_micros(30));
    f.undo(Instant::from_micros(40));
    let after_first = f.state();
    f.undo(Instant::from_micros(50));
    assert_eq!(f.state(), after_first);
}

#[test]
fn repeated_timeouts_compute_ssthresh_only_once_per_episode() {
    let mut f = flow_at(0);
    f.set_cwnd(100);
    f.rto(Instant::from_micros(10), 1);
    assert_eq!(f.ssthresh().unwrap_or(u64::MAX), 70);
    // Still in Loss with a retransmission outstanding: ssthresh stays.
    f.rto(Instant::from_micros(20), 1);
    f.rto(Instant::from_micros(30), 1);
    assert_eq!((f.state().cwnd, f.ssthresh().unwrap_or(u64::MAX)), (1, 70));
}

#[test]
fn an_in_flight_beyond_u32_saturates() {
    let mut f = flow_at(0);
    f.on_sent(Instant::from_micros(10), &SentEvent::new(u64::MAX, 0));
    assert_eq!(f.socket_view().packets_out, u32::MAX);
    assert!(f.socket_view().is_cwnd_limited);
}

#[test]
fn a_transmit_start_with_the_last_send_in_the_future_does_not_move_the_epoch() {
    let mut f = flow_at(0);
    f.set_cwnd(100);
    f.loss(Instant::from_micros(1_000));
    f.ack(Instant::from_micros(2_000_000), 2, Some(20_000));
    let epoch = f.state().cubic.epoch_start;
    assert_ne!(epoch, 0);
    f.set_last_send_jiffies(10_000);
    f.transmit_start(Instant::from_micros(3_000_000));
    assert_eq!(f.state().cubic.epoch_start, epoch);
}

#[test]
fn persistent_congestion_in_linux_mode_is_a_retransmission_timeout() {
    let mut f = flow_at(0);
    f.set_cwnd(100);
    f.on_loss(
        Instant::from_micros(10),
        &LossEvent::episode(0).with_persistent_congestion(true),
    );
    assert_eq!(
        (
            f.state().cwnd,
            f.ssthresh().unwrap_or(u64::MAX),
            f.ca_state()
        ),
        (1, 70, CaState::Loss)
    );
}

#[test]
fn a_gap_of_fifty_days_wraps_jiffies_like_the_kernel_and_keeps_the_window_sane() {
    let mut f = flow_at(0);
    f.set_cwnd(100);
    f.loss(Instant::from_micros(1_000));
    f.ack(Instant::from_micros(2_000_000), 2, Some(20_000));
    // 50 days later jiffies have wrapped (2^32 ms = 49.7 days).
    let later = 2_000_000 + 50 * 86_400 * 1_000_000u64;
    f.transmit(Instant::from_micros(later), 100);
    f.ack(Instant::from_micros(later + 1_000), 2, Some(20_000));
    assert!(f.state().cwnd >= 70 && f.state().cwnd <= 102);
}

// ---- RFC mode (`rfc::Cubic`) ----

mod rfc {
    use congestion::rfc;
    use congestion::{
        AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase, SentEvent,
    };

    const MSS: u64 = 1200;

    fn flow() -> rfc::Cubic {
        let mut c = rfc::CubicConfig::new();
        c.cubic.mss_bytes = MSS;
        let mut f = rfc::Cubic::new(c, Instant::ZERO).unwrap();
        f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
        f
    }

    fn ack(acked: u64, rtt_us: Option<u64>, largest_acked: u64) -> AckEvent {
        AckEvent {
            acked,
            rtt: rtt_us.map(Duration::from_micros),
            largest_acked: Some(largest_acked),
            app_limited: false,
            ce_delta: 0,
        }
    }

    #[test]
    fn rfc_acking_more_than_is_in_flight_empties_the_flight() {
        let mut f = flow();
        f.on_ack(Instant::from_micros(10), &ack(u64::MAX, Some(20_000), 10));
        assert_eq!(f.in_flight(), 0);
        // Slow start grows by what was acked, saturating, up to ssthresh (none): no wrap.
        assert!(f.cwnd() >= 12_000);
    }

    #[test]
    fn rfc_an_rtt_of_zero_is_taken_as_is() {
        let mut f = flow();
        f.on_ack(Instant::from_micros(10), &ack(MSS, Some(0), 1));
        assert_eq!((f.min_rtt_us(), f.srtt_us()), (0, 0));
    }

    #[test]
    fn rfc_largest_acked_going_backwards_is_ignored() {
        let mut f = flow();
        f.on_ack(Instant::from_micros(10), &ack(MSS, None, 9));
        f.on_ack(Instant::from_micros(20), &ack(MSS, None, 3));
        assert_eq!(f.largest_acked(), Some(9));
    }

    #[test]
    fn rfc_an_invalid_mss_is_refused_and_a_valid_one_raises_the_minimum_window() {
        let mut f = flow();
        let before = f;
        assert!(f.set_mss(0).is_err());
        assert!(f.set_mss(1 << 20).is_err());
        assert_eq!(f, before);
        f.on_retransmission_timeout(Instant::from_micros(10));
        assert_eq!(f.cwnd(), MSS);
        f.set_mss(9000).unwrap();
        // cwnd and ssthresh keep their bytes but are raised to the new minimum, 2 * 9000.
        assert_eq!(f.cwnd(), 18_000);
        assert!(f.ssthresh().unwrap_or(u64::MAX) >= 18_000);
    }

    #[test]
    fn rfc_undo_without_a_congestion_event_is_ignored() {
        let mut f = flow();
        let before = f;
        f.on_spurious_congestion(Instant::from_micros(10));
        assert_eq!(f, before);
    }

    #[test]
    fn rfc_ecn_may_take_cwnd_to_one_mss_but_loss_stops_at_two() {
        let mut f = flow();
        for i in 0..20 {
            f.on_ecn(Instant::from_micros(i), &EcnEvent::episode(1));
        }
        assert_eq!((f.cwnd(), f.ssthresh().unwrap_or(u64::MAX)), (MSS, 2 * MSS));
        let mut g = flow();
        for i in 0..20 {
            g.on_loss(Instant::from_micros(i), &LossEvent::episode(0));
        }
        assert_eq!(
            (g.cwnd(), g.ssthresh().unwrap_or(u64::MAX)),
            (2 * MSS, 2 * MSS)
        );
    }

    #[test]
    fn rfc_time_going_backwards_counts_as_no_time() {
        let mut f = flow();
        f.on_loss(Instant::from_micros(1_000_000), &LossEvent::episode(0));
        f.on_sent(
            Instant::from_micros(1_000_000),
            &SentEvent::new(f.cwnd(), 20),
        );
        f.on_ack(Instant::from_micros(1_100_000), &ack(MSS, Some(20_000), 21));
        let cwnd = f.cwnd();
        // An ACK stamped an hour earlier: elapsed time saturates at 0, growth stays tiny.
        f.on_sent(
            Instant::from_micros(1_100_000),
            &SentEvent::new(f.cwnd(), 30),
        );
        f.on_ack(Instant::ZERO, &ack(MSS, Some(20_000), 22));
        assert!(f.cwnd() >= cwnd && f.cwnd() <= cwnd + MSS);
        assert_eq!(f.phase(), Phase::CongestionAvoidance);
    }
}

// ---- The send path (pacer, TSQ, TSO) ----

mod send_path {
    use congestion::Instant;
    use congestion::hystart::PacingStatus;
    use congestion::pacing::{Rate, SendPath, SendPathConfig, TsqBudget};

    fn path(status: PacingStatus) -> SendPath {
        let mut c = SendPathConfig::new();
        c.pacing_status = status;
        SendPath::new(c.validate().unwrap())
    }

    #[test]
    fn pacing_a_rate_of_zero_or_unlimited_does_not_pace() {
        for rate in [Rate::ZERO, Rate::UNLIMITED] {
            let mut p = path(PacingStatus::Needed);
            for _ in 0..20 {
                assert_eq!(p.on_send(Instant::from_micros(5), 1500, 1, rate), 5_000);
            }
        }
    }

    #[test]
    fn pacing_a_completion_of_more_than_was_queued_floors_at_zero() {
        let mut t = TsqBudget::new();
        t.on_enqueue(1000);
        t.on_tx_completion(5000);
        assert_eq!(t.queued_bytes(), 0);
    }

    #[test]
    fn pacing_time_going_backwards_never_moves_a_departure_back() {
        let mut p = path(PacingStatus::Needed);
        let rate = Rate::from_bits_per_second(1_000_000);
        let mut last = 0;
        for t_us in [1_000_000u64, 2_000_000, 10, 0, 1_500_000] {
            let d = p.on_send(Instant::from_micros(t_us), 1500, 10, rate);
            assert!(d >= last);
            last = d;
        }
    }

    #[test]
    fn pacing_an_mss_of_zero_counts_as_one_byte() {
        let p = path(PacingStatus::Fq);
        // 1 Gbit/s: 125,000,000 B/s >> 10 = 122,070 B of TSO budget (+ the RTT term),
        // capped by gso_max_size 65536 and gso_max_segs 65535 segments of 1 byte.
        let segs = p.tso_segs(Rate::from_bits_per_second(1_000_000_000), 0);
        assert_eq!(segs, 65_535);
    }
}
