//! BBR v1 against mainline Linux: replays every reference trace of
//! tests/data/linux-bbr (copied from shared/conformance/linux-bbr) and requires every
//! column of every row to match; then tests, with hand-computed values, the kernel
//! paths those traces do not pin down (the README's "Paths these traces do not pin
//! down"), following `tcp_bbr.c`, `tcp_rate.c` and `win_minmax.c` line by line.

mod replay;

use congestion::linux::bbr::{
    BbrConfig, BbrMode, BbrParams, BbrState, TCP_INIT_CWND, bbr_bdp, bbr_check_probe_rtt_done,
    bbr_lt_bw_sampling, bbr_update_ack_aggregation, bbr_update_min_rtt,
};
use congestion::linux::tcp::{Minmax, RateSample, ReplayedRandom, TcpSock};
use replay::Cc;

/// `base` with the changes `f` makes (the one-bit fields are private, so struct
/// update syntax cannot be used).
fn state(base: BbrState, f: impl FnOnce(&mut BbrState)) -> BbrState {
    let mut bbr = base;
    f(&mut bbr);
    bbr
}

/// The folder of BBR v1's traces under tests/data.
const FOLDER: &str = "linux-bbr";

/// The cells of column `col` in every data row of `csv`.
fn column(csv: &str, col: &str) -> Vec<String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let i = header.iter().position(|h| *h == col).expect("column");
    lines
        .map(|l| l.split(',').nth(i).expect("cell").to_owned())
        .collect()
}

#[test]
fn all_26_reference_traces_replay_bit_exactly() {
    let names = replay::trace_names(FOLDER);
    assert_eq!(
        names.len(),
        26,
        "expected the 26 shipped traces, found {names:?}"
    );
    let (rows, failures) = replay::replay_folder_cc(FOLDER, &names, Cc::Bbr);
    assert!(
        failures.is_empty(),
        "{} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 103,212 events in all, per the conformance README.
    assert_eq!(rows, 103_212);
}

#[test]
fn a_changed_setting_changes_the_replay() {
    // Guards the comparison itself: a lower mss must not match.
    let name = "startup_10mbps_40ms";
    let got = replay::replay_cc(
        &format!("set mss 1400\n{}", replay::events(FOLDER, name)),
        Cc::Bbr,
    )
    .expect("replay");
    let want = replay::expected_csv(FOLDER, name);
    assert!(replay::first_difference(name, &got, &want).is_some());
}

#[test]
fn rows_before_init_are_zero_with_no_draws() {
    let csv = replay::replay_cc("set mss 1448\n", Cc::Bbr).expect("replay");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2);
    // 84 columns: idx, ev, 81 zeros and rand_drawn "-".
    assert_eq!(lines[1], format!("1,set{},-", ",0".repeat(81)));
    assert_eq!(lines[0].split(',').count(), 84);
}

#[test]
fn a_draw_from_an_empty_rand_queue_is_an_error() {
    // startup_10mbps_40ms enters PROBE_BW once, drawing the `rand 3` line's value;
    // without it the draw finds the queue empty.
    let events = replay::events(FOLDER, "startup_10mbps_40ms");
    let starved: String = events
        .lines()
        .filter(|l| !l.starts_with("rand"))
        .map(|l| format!("{l}\n"))
        .collect();
    let err = replay::replay_cc(&starved, Cc::Bbr).unwrap_err();
    assert!(err.contains("rand"), "{err}");
}

#[test]
fn a_flight_larger_than_the_scoreboard_is_an_error_not_a_panic() {
    let err = replay::replay_cc("init 0\nsend 0 5000\n", Cc::Bbr).unwrap_err();
    assert!(err.contains("scoreboard"), "{err}");
    let err = replay::replay_cc("init 0\nsend 0 2\nack 1000 5 1000\n", Cc::Bbr).unwrap_err();
    assert!(err.contains("CUM"), "{err}");
}

#[test]
fn app_limited_needs_in_flight_strictly_below_cwnd() {
    // tcp_rate_check_app_limited(): `tcp_packets_in_flight(tp) < tcp_snd_cwnd(tp)`.
    // Init with a 10 ms handshake RTT; 10 segments leave at T. The ACK of 2 at +10 ms:
    // app_limited = ~0U is cleared (after(2, ~0U)); the sample is 2 over 10,000 µs,
    // bw = 2·2^24/10000 = 3355; target = bdp(3355, 739) = ceil(3355·10000·739/256 /
    // 2^24) = 6, plus 3·tso_segs_goal (pacing 4,138,115 B/s >> 10 = 4041 B = 2 segs)
    // = 12; cwnd 10 < 12 grows by 2 to 12; in flight 8.
    let head = "set pacing_status 2\nset syn_rtt_us 10000\ninit 1000000\nsend 1000000 10\n\
                ack 1010000 2 10000\n";
    // 4 more: in flight 12 == cwnd 12, so an application pause is cwnd-limited:
    // app_limited stays 0 (with `<=` it would be delivered + in_flight = 2 + 12 = 14).
    let full = replay::replay_cc(
        &format!("{head}send 1010000 4\nsend 1010000 0 al\n"),
        Cc::Bbr,
    )
    .expect("replay");
    assert_eq!(column(&full, "cwnd")[4..], ["12", "12", "12"]);
    assert_eq!(column(&full, "in_flight")[6], "12");
    assert_eq!(column(&full, "app_limited")[6], "0");
    // 3 more: in flight 11 < 12: app_limited = 2 + 11 = 13.
    let room = replay::replay_cc(
        &format!("{head}send 1010000 3\nsend 1010000 0 al\n"),
        Cc::Bbr,
    )
    .expect("replay");
    assert_eq!(column(&room, "in_flight")[6], "11");
    assert_eq!(column(&room, "app_limited")[6], "13");
}

/// A socket at jiffies `now_ms` with `in_flight` segments out.
fn sock(now_ms: u32, in_flight: u32) -> TcpSock {
    TcpSock {
        tcp_jiffies32: now_ms,
        tcp_mstamp: u64::from(now_ms) * 1000,
        tcp_clock_cache: u64::from(now_ms) * 1_000_000,
        snd_cwnd: 4,
        snd_cwnd_clamp: u32::MAX,
        mss_cache: 1448,
        packets_out: in_flight,
        delivered: 500,
        delivered_mstamp: u64::from(now_ms) * 1000,
        rtt_min: Minmax::new(0, 20_000),
        ..TcpSock::default()
    }
}

/// PROBE_RTT with its 200 ms armed to end at jiffies 5000 and a round done.
fn probe_rtt_state(full_bw_reached: bool) -> BbrState {
    let mut bbr = state(BbrState::default(), |b| {
        b.mode = BbrMode::ProbeRtt;
        b.min_rtt_us = 20_000;
        b.min_rtt_stamp = 4_000;
        b.probe_rtt_done_stamp = 5_000;
        b.prior_cwnd = 40;
    });
    bbr.set_full_bw_reached(full_bw_reached);
    bbr.set_round_start(true);
    bbr
}

#[test]
fn probe_rtt_exits_to_startup_when_the_pipe_was_never_full() {
    // bbr_reset_mode(): !bbr_full_bw_reached() -> bbr_reset_startup_mode(), no draw.
    let p = BbrParams::new();
    let mut rand = ReplayedRandom::<1>::new();
    rand.push(3);
    let rs = RateSample {
        rtt_us: -1,
        ..RateSample::default()
    };
    // At jiffies 5000 the stamp is not yet passed (after(5000, 5000) is false).
    let mut bbr = probe_rtt_state(false);
    let mut sk = sock(5_000, 4);
    bbr_update_min_rtt(&mut bbr, &mut sk, &p, &rs, &mut rand);
    assert_eq!(bbr.mode, BbrMode::ProbeRtt);
    assert!(bbr.probe_rtt_round_done());
    // PROBE_RTT marks samples app-limited: delivered 500 + in flight 4 = 504.
    assert_eq!(sk.app_limited, 504);
    assert_eq!(sk.snd_cwnd, 4);
    // At 5001: min_rtt_stamp = 5001, cwnd = max(4, prior_cwnd 40) = 40, STARTUP.
    let mut sk = sock(5_001, 4);
    bbr_update_min_rtt(&mut bbr, &mut sk, &p, &rs, &mut rand);
    assert_eq!(bbr.mode, BbrMode::Startup);
    assert_eq!(bbr.min_rtt_stamp, 5_001);
    assert_eq!(sk.snd_cwnd, 40);
    assert_eq!(rand.pending(), 1, "STARTUP draws nothing");
}

#[test]
fn probe_rtt_exits_to_probe_bw_at_a_random_phase_when_the_pipe_was_full() {
    // bbr_reset_probe_bw_mode(): cycle_idx = 8 - 1 - 3 = 4, then advanced to 5.
    let p = BbrParams::new();
    let mut rand = ReplayedRandom::<1>::new();
    rand.push(3);
    let mut bbr = probe_rtt_state(true);
    let mut sk = sock(5_001, 4);
    bbr_check_probe_rtt_done(&mut bbr, &mut sk, &p, &mut rand);
    assert_eq!(bbr.mode, BbrMode::ProbeBw);
    assert_eq!(bbr.cycle_idx, 5);
    assert_eq!(bbr.cycle_mstamp, 5_001_000);
    assert_eq!(rand.pending(), 0);
}

#[test]
fn bdp_without_an_rtt_sample_is_the_initial_window() {
    // bbr_bdp(): min_rtt_us == ~0U returns TCP_INIT_CWND whatever bw and gain are.
    let none = state(BbrState::default(), |b| {
        b.min_rtt_us = u32::MAX;
    });
    assert_eq!(bbr_bdp(&none, 1_000_000, 739), TCP_INIT_CWND);
    assert_eq!(bbr_bdp(&none, 0, 256), 10);
    // A real 10 ms: ceil(3355 · 10000 · 256/256 / 2^24) = ceil(1.9997) = 2.
    let ten_ms = state(BbrState::default(), |b| {
        b.min_rtt_us = 10_000;
    });
    assert_eq!(bbr_bdp(&ten_ms, 3355, 256), 2);
    // min_rtt 0 (a zero RTT sample): bdp 0.
    let zero = BbrState::default();
    assert_eq!(bbr_bdp(&zero, 3355, 739), 0);
}

/// Long-term sampling in progress since ms 1000 (delivered 0, lost 0), 4 rounds in.
fn lt_state() -> BbrState {
    let mut bbr = state(BbrState::default(), |b| {
        b.lt_rtt_cnt = 4;
        b.lt_last_stamp = 1_000;
    });
    bbr.set_lt_is_sampling(true);
    bbr
}

/// A socket that delivered 100 and lost 30 (30·256 = 7680 >= 50·100: lossy) by `mstamp_us`.
fn lossy_sock(mstamp_us: u64) -> TcpSock {
    TcpSock {
        delivered: 100,
        lost: 30,
        delivered_mstamp: mstamp_us,
        mss_cache: 1448,
        sk_max_pacing_rate: u64::MAX,
        ..TcpSock::default()
    }
}

#[test]
fn lt_sampling_waits_while_the_interval_is_under_one_ms_or_negative() {
    // bbr_lt_bw_sampling(): t = delivered_mstamp/1000 - lt_last_stamp; (s32)t < 1 returns.
    let p = BbrParams::new();
    let mut rand = ReplayedRandom::<1>::new();
    let rs = RateSample {
        losses: 1,
        delivered: 1,
        interval_us: 1,
        ..RateSample::default()
    };
    for mstamp_us in [1_000_999, 999_000, 5] {
        // t = 0, t = -1, t = 0 - 1000 (u32 wraps to a negative s32).
        let mut bbr = lt_state();
        let mut sk = lossy_sock(mstamp_us);
        bbr_lt_bw_sampling(&mut bbr, &mut sk, &p, &rs, &mut rand);
        assert_eq!(bbr, lt_state(), "t from {mstamp_us} us must wait");
    }
    // t = 2 ms: bw = 100 · 2^24 / 2000 = 838,860; the first interval's rate becomes
    // lt_bw and a new interval starts at ms 1002 (delivered 100, lost 30).
    let mut bbr = lt_state();
    let mut sk = lossy_sock(1_002_000);
    bbr_lt_bw_sampling(&mut bbr, &mut sk, &p, &rs, &mut rand);
    assert_eq!(bbr.lt_bw, 838_860);
    assert_eq!(
        (
            bbr.lt_last_stamp,
            bbr.lt_last_delivered,
            bbr.lt_last_lost,
            bbr.lt_rtt_cnt
        ),
        (1_002, 100, 30, 0)
    );
    assert!(bbr.lt_is_sampling() && !bbr.lt_use_bw());
}

#[test]
fn lt_sampling_resets_an_interval_too_long_to_scale_to_us() {
    // t >= ~0U / USEC_PER_MSEC = 4,294,967 ms resets sampling.
    let p = BbrParams::new();
    let mut rand = ReplayedRandom::<1>::new();
    let rs = RateSample {
        losses: 1,
        ..RateSample::default()
    };
    let mut bbr = state(lt_state(), |b| {
        b.lt_last_stamp = 0;
    });
    let mut sk = lossy_sock(4_294_967_000);
    bbr_lt_bw_sampling(&mut bbr, &mut sk, &p, &rs, &mut rand);
    assert!(!bbr.lt_is_sampling());
    assert_eq!((bbr.lt_bw, bbr.lt_last_stamp), (0, 4_294_967));
    // One ms less: t·1000 = 4,294,966,000 fits; bw = 100·2^24/4,294,966,000 = 0, an
    // interval done with lt_bw 0: sampling goes on from ms 4,294,966.
    let mut bbr = state(lt_state(), |b| {
        b.lt_last_stamp = 0;
    });
    let mut sk = lossy_sock(4_294_966_000);
    bbr_lt_bw_sampling(&mut bbr, &mut sk, &p, &rs, &mut rand);
    assert!(bbr.lt_is_sampling());
    assert_eq!((bbr.lt_bw, bbr.lt_last_stamp), (0, 4_294_966));
}

#[test]
fn the_min_rtt_filter_expires_strictly_after_ten_seconds() {
    // filter_expired = after(tcp_jiffies32, min_rtt_stamp + 10 * HZ).
    let p = BbrParams::new();
    let mut rand = ReplayedRandom::<1>::new();
    let rs = RateSample {
        rtt_us: 50_000,
        ..RateSample::default()
    };
    let start = state(BbrState::default(), |b| {
        b.mode = BbrMode::ProbeBw;
        b.min_rtt_us = 20_000;
        b.min_rtt_stamp = 1_000;
    });
    // At 11,000 (exactly stamp + 10 s): not expired; 50 ms > 20 ms is not kept.
    let mut bbr = start;
    let mut sk = sock(11_000, 10);
    bbr_update_min_rtt(&mut bbr, &mut sk, &p, &rs, &mut rand);
    assert_eq!(
        (bbr.min_rtt_us, bbr.min_rtt_stamp, bbr.mode),
        (20_000, 1_000, BbrMode::ProbeBw)
    );
    // At 11,001: expired: the sample replaces it and PROBE_RTT starts, saving cwnd 30.
    let mut bbr = start;
    let mut sk = sock(11_001, 10);
    sk.snd_cwnd = 30;
    bbr_update_min_rtt(&mut bbr, &mut sk, &p, &rs, &mut rand);
    assert_eq!(
        (bbr.min_rtt_us, bbr.min_rtt_stamp, bbr.mode),
        (50_000, 11_001, BbrMode::ProbeRtt)
    );
    assert_eq!(bbr.prior_cwnd, 30);
    // In flight 10 > 4: the 200 ms are not armed yet.
    assert_eq!(bbr.probe_rtt_done_stamp, 0);
}

#[test]
fn a_delayed_ack_does_not_refresh_an_expired_min_rtt() {
    // (filter_expired && !rs->is_ack_delayed): an expired filter keeps its value when
    // the larger sample came on a possibly delayed ACK (PROBE_RTT starts anyway).
    let p = BbrParams::new();
    let mut rand = ReplayedRandom::<1>::new();
    let rs = RateSample {
        rtt_us: 50_000,
        is_ack_delayed: true,
        ..RateSample::default()
    };
    let mut bbr = state(BbrState::default(), |b| {
        b.mode = BbrMode::ProbeBw;
        b.min_rtt_us = 20_000;
        b.min_rtt_stamp = 1_000;
    });
    let mut sk = sock(11_001, 10);
    bbr_update_min_rtt(&mut bbr, &mut sk, &p, &rs, &mut rand);
    assert_eq!((bbr.min_rtt_us, bbr.min_rtt_stamp), (20_000, 1_000));
    assert_eq!(bbr.mode, BbrMode::ProbeRtt);
}

#[test]
fn extra_acked_is_capped_by_cwnd() {
    // bbr_update_ack_aggregation(): bw 0 expects 0; the epoch holds 100 + 20 = 120
    // segments, extra_acked = min(120 - 0, cwnd 50) = 50.
    let rs = RateSample {
        acked_sacked: 20,
        delivered: 20,
        interval_us: 1_000,
        ..RateSample::default()
    };
    let mut bbr = state(BbrState::default(), |b| {
        b.ack_epoch_acked = 100;
    });
    let mut sk = sock(5, 0);
    sk.snd_cwnd = 50;
    bbr_update_ack_aggregation(&mut bbr, &sk, &rs);
    assert_eq!(bbr.ack_epoch_acked, 120);
    assert_eq!(bbr.extra_acked, [50, 0]);
    // With cwnd 500 the whole 140 counts.
    sk.snd_cwnd = 500;
    bbr_update_ack_aggregation(&mut bbr, &sk, &rs);
    assert_eq!(bbr.extra_acked, [140, 0]);
}

#[test]
fn an_rto_marks_the_flight_lost_and_starts_long_term_sampling() {
    // Init cwnd 10; 10 sent; the ACK of 1 marks 1..3 lost: Recovery, prior_ssthresh =
    // max(0x7fffffff, 3/4 · cwnd) = 0x7fffffff, high_seq = 10. The ACK of 10 ends
    // Recovery; 2 more go out and time out. tcp_enter_loss(): both are marked lost
    // (lost 2 + 2 = 4), cwnd = in_flight 0 + 1, high_seq = snd_nxt 12, one retransmit.
    // bbr_set_state(Loss): prev_ca_state 4, round_start 1, and bbr_lt_bw_sampling()
    // with { .losses = 1 } starts sampling and counts that round: lt_rtt_cnt 1.
    let csv = replay::replay_cc(
        "set syn_rtt_us 10000\ninit 0\nsend 0 10\nack 10000 1 10000 lost=1-3\n\
         ack 20000 10 10000\nsend 20000 2\nrto 300000\n",
        Cc::Bbr,
    )
    .expect("replay");
    assert_eq!(column(&csv, "ca_state")[3..], ["3", "0", "0", "4"]);
    let last = |col| column(&csv, col)[6].clone();
    assert_eq!(last("prior_ssthresh"), "2147483647");
    assert_eq!(last("high_seq"), "12");
    assert_eq!(last("retransmits"), "1");
    assert_eq!(last("cwnd"), "1");
    assert_eq!(
        (last("lost"), last("lost_out"), last("in_flight")),
        ("4".into(), "2".into(), "0".into())
    );
    assert_eq!(
        (last("prev_ca_state"), last("round_start")),
        ("4".into(), "1".into())
    );
    assert_eq!(
        (last("lt_is_sampling"), last("lt_rtt_cnt")),
        ("1".into(), "1".into())
    );
}

#[test]
fn params_refuse_a_header_that_leaves_no_room() {
    let mut config = BbrConfig::new();
    config.max_tcp_header = 65_534;
    assert!(config.validate().is_ok());
    config.max_tcp_header = 65_535;
    assert!(config.validate().is_err());
    let err = replay::replay_cc("set max_tcp_header 70000\ninit 0\n", Cc::Bbr).unwrap_err();
    assert!(err.contains("max_tcp_header"), "{err}");
    // The unused ECN key is accepted, unknown keys are not.
    assert!(replay::replay_cc("set ecn 1\ninit 0\n", Cc::Bbr).is_ok());
    assert!(replay::replay_cc("set beta 1\n", Cc::Bbr).is_err());
}
