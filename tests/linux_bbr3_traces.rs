//! Replays every reference trace of Google's BBRv3 (tests/data/linux-bbr3, copied from
//! shared/conformance) byte for byte, then tests the paths those traces do not pin
//! down (the README's list), each with values worked out by hand from
//! `tcp_bbr.c`@001a430b in the comments.

mod replay;

use congestion::linux::CaState;
use congestion::linux::bbr3::{
    self, AckPhase, Bbr, Bbr3Params, CyclePhase, FastPath, LostSkb, Mode, Sample,
};
use congestion::linux::tcp::rate::{IN_FLIGHT_MAX, tcp_rate_skb_sent_v3};
use congestion::linux::tcp::{Minmax, ReplayedRandom, TcpSock};
use congestion_replay::{Cc, Kernel};

/// The folder of the traces under tests/data.
const FOLDER: &str = "linux-bbr3";

/// Replays `text` with `--cc bbr3`.
fn replay_bbr3(text: &str) -> Result<String, String> {
    let mut out = String::new();
    congestion_replay::replay_cc(text, Cc::Bbr3, Kernel::Today, &mut out)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

#[test]
fn all_24_reference_traces_replay_byte_for_byte() {
    let names = replay::trace_names(FOLDER);
    assert_eq!(
        names.len(),
        24,
        "expected the 24 shipped traces, found {names:?}"
    );
    let mut rows = 0;
    let mut failures = Vec::new();
    for name in &names {
        let want = replay::expected_csv(FOLDER, name);
        let got =
            replay_bbr3(&replay::events(FOLDER, name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        rows += want.lines().count() - 1;
        if got != want {
            failures.push(
                replay::first_difference(name, &got, &want)
                    .unwrap_or_else(|| format!("{name}: bytes differ")),
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 103,076 events in all, per the conformance README.
    assert_eq!(rows, 103_076);
}

#[test]
fn a_changed_setting_changes_the_replay() {
    // Guards the comparison itself: the same trace with another MSS must not match.
    let name = "startup_plateau_10mbps_40ms";
    let got = replay_bbr3(&format!("set mss 1000\n{}", replay::events(FOLDER, name))).unwrap();
    let want = replay::expected_csv(FOLDER, name);
    assert!(replay::first_difference(name, &got, &want).is_some());
}

#[test]
fn a_draw_without_a_queued_value_is_an_error_not_a_zero() {
    // The plateau trace without its `rand` lines: the first PROBE_DOWN start draws.
    let events: String = replay::events(FOLDER, "startup_plateau_10mbps_40ms")
        .lines()
        .filter(|l| !l.starts_with("rand"))
        .map(|l| format!("{l}\n"))
        .collect();
    let err = replay_bbr3(&events).unwrap_err();
    assert!(err.contains("random"), "{err}");
}

// ---- the socket and BBR state the hand-worked cases start from ----

/// A socket 1 s into a connection: mss 1448, cwnd 20, min_rtt 10 ms, 1000 delivered.
fn socket() -> TcpSock {
    TcpSock {
        mss_cache: 1448,
        snd_cwnd: 20,
        snd_cwnd_clamp: u32::MAX,
        sk_max_pacing_rate: u64::MAX,
        sk_pacing_shift: 10,
        sk_pacing_status: 2,
        tcp_mstamp: 1_000_000,
        tcp_clock_cache: 1_000_000_000,
        tcp_jiffies32: 1000,
        rtt_min: Minmax::new(1000, 10_000),
        srtt_us: 10_000 << 3,
        delivered: 1000,
        snd_una: 1000,
        snd_nxt: 1010,
        packets_out: 10,
        ..TcpSock::default()
    }
}

/// `bbr_init` on [`socket`], then moved to PROBE_BW CRUISE with `bw_hi = [0, 10000]`
/// (10000/2^24 packets/µs: a BDP of ceil(10000 * 10000 / 2^24) = 6 packets over
/// 10 ms), a probe wait of 2.5 s from t = 1 s, and the round ending at 1000 delivered.
fn cruising() -> (Bbr, TcpSock) {
    let mut sk = socket();
    let mut bbr = Bbr::default();
    bbr3::bbr_init(&mut bbr, &mut sk, 10_000);
    bbr.set_full_bw_reached(true);
    bbr.mode = Mode::ProbeBw;
    bbr.cycle_idx = CyclePhase::Cruise;
    bbr.bw_hi = [0, 10_000];
    bbr.cycle_mstamp = 1_000_000;
    bbr.probe_wait_us = 2_500_000;
    bbr.next_rtt_delivered = 1000;
    bbr.loss_round_delivered = 1000;
    (bbr, sk)
}

/// An ACK of one packet whose sample was sent before the round's end (no round
/// start): 5 delivered over 10 ms, no flight recorded.
fn plain_ack() -> Sample {
    Sample {
        prior_delivered: 990,
        delivered: 5,
        interval_us: 10_000,
        rtt_us: 10_000,
        acked_sacked: 1,
        prior_in_flight: 10,
        ..Sample::default()
    }
}

/// Moves the socket's clocks to `t_us`.
fn at(sk: &mut TcpSock, t_us: u64) {
    sk.tcp_mstamp = t_us;
    sk.tcp_clock_cache = t_us * 1000;
    sk.tcp_jiffies32 = (t_us / 1000) as u32;
}

const P: Bbr3Params = Bbr3Params::DEFAULT;

// ---- slips the traces do not catch ----

#[test]
fn advancing_the_bw_filter_keeps_the_old_window_when_the_new_one_is_empty() {
    // PROBE_STOPPING ends at a round start; the sample is valid but delivered 0, so
    // sample_bw = 0 and bw_hi[1] stays 0: bbr_advance_max_bw_filter returns early and
    // bw_hi[0] = 7000 survives (advancing anyway would give [0, 0]).
    let (mut bbr, mut sk) = cruising();
    bbr.bw_hi = [7000, 0];
    bbr.cycle_idx = CyclePhase::Down;
    bbr.ack_phase = AckPhase::ProbeStopping;
    let rs = Sample {
        prior_delivered: 1000,
        delivered: 0,
        interval_us: 10_000,
        acked_sacked: 0,
        ..plain_ack()
    };
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert!(bbr.round_start());
    assert_eq!(bbr.ack_phase, AckPhase::Init);
    assert_eq!(bbr.bw_hi, [7000, 0]);
}

#[test]
fn a_zero_bandwidth_after_full_bw_paces_at_one_byte_per_second() {
    // bbr_rate_bytes_per_sec(0, 256, 1 %) = max(0, 1) = 1; with full_bw_reached the
    // rate is stored even though it is lower than the current one.
    let (mut bbr, mut sk) = cruising();
    bbr.bw_hi = [0, 0];
    let rs = Sample {
        delivered: -1,
        interval_us: -1,
        ..plain_ack()
    };
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert_eq!(bbr.cycle_idx, CyclePhase::Cruise);
    assert_eq!(sk.sk_pacing_rate, 1);
}

#[test]
fn the_probe_wait_must_be_strictly_exceeded() {
    // cycle_mstamp 1,000,000 + probe_wait_us 2,500,000 = 3,500,000: at exactly that
    // time tcp_stamp_us_delta is 0, not > 0, so CRUISE holds; 1 µs later REFILL starts.
    // (The Reno bound does not fire: rounds_since_probe 0 < min(63, target 15).)
    let (mut bbr, mut sk) = cruising();
    at(&mut sk, 3_500_000);
    bbr3::bbr_main(
        &mut bbr,
        &mut sk,
        &P,
        &plain_ack(),
        &mut ReplayedRandom::<4>::new(),
    );
    assert_eq!(bbr.cycle_idx, CyclePhase::Cruise);
    at(&mut sk, 3_500_001);
    bbr3::bbr_main(
        &mut bbr,
        &mut sk,
        &P,
        &plain_ack(),
        &mut ReplayedRandom::<4>::new(),
    );
    assert_eq!(bbr.cycle_idx, CyclePhase::Refill);
    assert_eq!(bbr.ack_phase, AckPhase::Refilling);
}

#[test]
fn the_headroom_below_a_tiny_inflight_hi_is_at_least_one_packet() {
    // CRUISE caps cwnd at bbr_inflight_with_headroom(): inflight_hi 6 gives headroom
    // 6 * 38 >> 8 = 0, raised to 1, so the cap is max(6 - 1, 4) = 5 (6 without the
    // max). cwnd first snaps to its target 12: bdp ceil(10000 * 10000 * 512 / 256 /
    // 2^24) = 12, and the pacing rate just set, 10000 * 1448 * 990000 >> 24 = 854,444
    // B/s, gives 854470 >> 10 = 834 bytes per burst: 0 segments, raised to 2, so the
    // quantization budget 3 * 2 = 6 does not lift it.
    let (mut bbr, mut sk) = cruising();
    bbr.inflight_hi = 6;
    let rs = Sample {
        tx_in_flight: 0,
        ..plain_ack()
    };
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert_eq!(sk.sk_pacing_rate, 854_444);
    assert_eq!(bbr3::bbr_tso_segs_goal(&bbr, &sk, &P), 2);
    assert_eq!(sk.snd_cwnd, 5);
    // inflight_hi 5: headroom 1, cap 4.
    let (mut bbr, mut sk) = cruising();
    bbr.inflight_hi = 5;
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert_eq!(sk.snd_cwnd, 4);
}

#[test]
fn an_ecn_reprobe_with_inflight_hi_1_sets_31_probe_up_rounds() {
    // ilog2(1 * 128 >> 8) = ilog2(0) = -1, whose low 5 bits are 31.
    let (mut bbr, mut sk) = cruising();
    bbr.inflight_hi = 1;
    bbr.set_ecn_eligible(true);
    bbr.set_ecn_in_cycle(true);
    let rs = Sample {
        tx_in_flight: 0,
        ..plain_ack()
    };
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert_eq!(bbr.cycle_idx, CyclePhase::Refill);
    assert_eq!(bbr.bw_probe_up_rounds, 31);
    // inflight_hi 64: ilog2(32) = 5.
    let (mut bbr, mut sk) = cruising();
    bbr.inflight_hi = 64;
    bbr.set_ecn_eligible(true);
    bbr.set_ecn_in_cycle(true);
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert_eq!(bbr.bw_probe_up_rounds, 5);
}

#[test]
fn the_probe_up_slope_stops_doubling_at_30_rounds() {
    // PROBE_UP, cwnd-limited at inflight_hi, at a round start: bbr_raise_inflight_hi_slope
    // grows by 1 << 30 this round, keeps the count at min(30 + 1, 30) = 30, and
    // bw_probe_up_cnt = max(cwnd / 2^30, 1) = 1.
    let (mut bbr, mut sk) = cruising();
    bbr.cycle_idx = CyclePhase::Up;
    bbr.inflight_hi = 20;
    bbr.bw_probe_up_rounds = 30;
    bbr.bw_probe_up_cnt = 1000;
    sk.is_cwnd_limited = true;
    let rs = Sample {
        prior_delivered: 1000,
        tx_in_flight: 0,
        ..plain_ack()
    };
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert!(bbr.round_start());
    assert_eq!(bbr.cycle_idx, CyclePhase::Up);
    assert_eq!((bbr.bw_probe_up_rounds, bbr.bw_probe_up_cnt), (30, 1));
}

/// STARTUP at a loss-round start with 5 loss events counted, and an ACK that marks one
/// more loss (6) with 3 lost of a flight of 20 (3 > 20 * 5 >> 8 = 0: too high).
fn startup_loss_round(state: CaState) -> (Bbr, TcpSock) {
    let mut sk = socket();
    let mut bbr = Bbr::default();
    bbr3::bbr_init(&mut bbr, &mut sk, 10_000);
    bbr.loss_events_in_round = 5;
    bbr.loss_round_delivered = 1000;
    bbr.bw_hi = [0, 10_000];
    sk.icsk_ca_state = state;
    let rs = Sample {
        prior_delivered: 1000,
        losses: 1,
        lost: 3,
        tx_in_flight: 20,
        ..plain_ack()
    };
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    (bbr, sk)
}

#[test]
fn startup_ends_on_loss_only_in_recovery() {
    let (open, _) = startup_loss_round(CaState::Open);
    assert!(!open.full_bw_reached());
    assert_eq!(open.mode, Mode::Startup);
    // The loss-round start that does not exit resets the count.
    assert_eq!(open.loss_events_in_round, 0);
    let (recovery, sk) = startup_loss_round(CaState::Recovery);
    assert!(recovery.full_bw_reached());
    // inflight_hi = bbr_inflight(max_bw 10000, 1.0) = max(bdp 6, 3 * tso 5, 4) = 15
    // (STARTUP's pacing rate from init, 2.77 * 20 packets per 10 ms, gives
    // 7,952,xxx >> 10 = 7766 bytes: 5 segments per burst); DRAIN's ssthresh is the same.
    assert_eq!(recovery.inflight_hi, 15);
    assert_eq!(sk.snd_ssthresh, 15);
    // DRAIN ends in the same ACK: in the network at the EDT are the 10 in flight (no
    // burst is added: pacing_gain is still 0, as bbr_init leaves it for the first
    // bbr_update_gains) <= 15. PROBE_BW starts in DOWN and goes on to CRUISE in the
    // same call: 10 <= bbr_inflight_with_headroom = 15 - (15 * 38 >> 8) = 13 and <= 15.
    assert_eq!(recovery.mode, Mode::ProbeBw);
    assert_eq!(recovery.cycle_idx, CyclePhase::Cruise);
}

#[test]
fn an_app_limited_sample_below_the_max_stays_out_of_bw_hi() {
    // bw_hi = [1000, 500]; an app-limited sample of ceil(2^24 / 20972) = 800 < max 1000
    // is not taken (bw_hi[1] stays 500); one of 1001 >= 1000 would be. try_fast_path is
    // 0 after init, so bbr_update_congestion_signals runs.
    let (mut bbr, mut sk) = cruising();
    bbr.bw_hi = [1000, 500];
    bbr.set_try_fast_path(false);
    let rs = Sample {
        delivered: 1,
        interval_us: 20_972,
        is_app_limited: true,
        ..plain_ack()
    };
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert_eq!(bbr.bw_hi, [1000, 500]);
    // ceil(2^24 / 16760) = 1002 >= 1000: taken.
    let rs = Sample {
        interval_us: 16_760,
        ..rs
    };
    bbr.set_try_fast_path(false);
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert_eq!(bbr.bw_hi, [1000, 1002]);
}

#[test]
fn the_per_ack_app_limited_check_runs_before_the_ack_is_processed() {
    // Before the last ACK: in_flight 12 = cwnd 12, so the check fails and app_limited
    // stays 0. Run after the ACK (in_flight 10 < 12) it would set 4 + 10 = 14.
    let csv = replay_bbr3(
        "set syn_rtt_us 10000\nset pacing_status 2\ninit 1000000\nsend 1000000 10\n\
         ack 1010000 2 10000\nsend 1010000 4\nack 1011000 4 10000 al\n",
    )
    .unwrap();
    let last = column(&csv, 7, "app_limited");
    assert_eq!(
        (column(&csv, 6, "in_flight"), column(&csv, 6, "cwnd")),
        ("12".into(), "12".into())
    );
    assert_eq!(last, "0");
}

/// The cell of event `idx` (1-based) in column `name` of a replay CSV.
fn column(csv: &str, idx: usize, name: &str) -> String {
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == name).unwrap();
    csv.lines()
        .nth(idx)
        .unwrap()
        .split(',')
        .nth(col)
        .unwrap()
        .to_owned()
}

// ---- code the traces never reach ----

/// PROBE_RTT whose done stamp (jiffies 1000) has passed at jiffies 1001, with
/// `prior_cwnd` 30 and an app-limited socket.
fn probe_rtt_done() -> (Bbr, TcpSock) {
    let (mut bbr, mut sk) = cruising();
    bbr.mode = Mode::ProbeRtt;
    bbr.probe_rtt_done_stamp = 1000;
    bbr.prior_cwnd = 30;
    sk.snd_cwnd = 4;
    sk.app_limited = 1;
    at(&mut sk, 1_001_000);
    (bbr, sk)
}

#[test]
fn tx_start_in_probe_rtt_ends_it_into_cruise_with_two_draws() {
    // bbr_cwnd_event(TX_START) -> bbr_check_probe_rtt_done: cwnd = max(4, 30) = 30,
    // probe_rtt_min_stamp = 1001, then PROBE_BW: DOWN draws rounds 1 and wait
    // 2,000,000 + 500,000, and CRUISE follows at once.
    let (mut bbr, mut sk) = probe_rtt_done();
    let mut rand = ReplayedRandom::<4>::new();
    rand.push(1);
    rand.push(500_000);
    bbr3::bbr_cwnd_event_tx_start(&mut bbr, &mut sk, &mut rand);
    assert!(bbr.idle_restart());
    assert_eq!(bbr.mode, Mode::ProbeBw);
    assert_eq!(bbr.cycle_idx, CyclePhase::Cruise);
    assert_eq!((bbr.rounds_since_probe, bbr.probe_wait_us), (1, 2_500_000));
    assert_eq!((sk.snd_cwnd, bbr.probe_rtt_min_stamp), (30, 1001));
    assert_eq!(rand.pending(), 0);
}

#[test]
fn probe_rtt_without_full_bw_goes_back_to_startup_without_drawing() {
    let (mut bbr, mut sk) = probe_rtt_done();
    bbr.set_full_bw_reached(false);
    let mut rand = ReplayedRandom::<4>::new();
    bbr3::bbr_cwnd_event_tx_start(&mut bbr, &mut sk, &mut rand);
    assert_eq!(bbr.mode, Mode::Startup);
    assert_eq!(rand.exhausted, 0);
    assert_eq!((bbr.bw_lo, bbr.inflight_lo), (u32::MAX, u32::MAX));
}

#[test]
fn without_an_rtt_sample_the_bdp_is_the_initial_cwnd() {
    // min_rtt_us = ~0U: bbr_bdp returns init_cwnd (20 here, not v1's TCP_INIT_CWND 10),
    // so DRAIN's ssthresh = bbr_inflight = max(20, 3 * tso_segs_goal, 4). The pacing
    // rate 100,000 B/s >> 10 = 97 bytes and min_rtt >> 9 >= 32 add nothing: 97 / 1448
    // = 0, raised to 2 segments, so 3 * 2 = 6 and ssthresh = 20.
    let mut sk = TcpSock {
        snd_cwnd: 20,
        srtt_us: 0,
        rtt_min: Minmax::new(1000, u32::MAX),
        ..socket()
    };
    let mut bbr = Bbr::default();
    bbr3::bbr_init(&mut bbr, &mut sk, u32::MAX);
    assert_eq!(bbr.init_cwnd, 20);
    sk.sk_pacing_rate = 100_000;
    bbr.set_full_bw_reached(true);
    let rs = Sample {
        delivered: -1,
        interval_us: -1,
        rtt_us: -1,
        ..plain_ack()
    };
    let mut rand = ReplayedRandom::<4>::new();
    rand.push(0);
    rand.push(0);
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut rand);
    assert_eq!(bbr.min_rtt_us, u32::MAX);
    assert_eq!(sk.snd_ssthresh, 20);
}

#[test]
fn ecn_alpha_ignores_a_round_with_nothing_or_a_negative_count_delivered() {
    // ECN-eligible, at a round start: delivered - alpha_last_delivered = 0 returns -1
    // before touching alpha; so does 2^31 (negative as s32, the kernel's WARN).
    for delivered in [0u32, 0x8000_0000] {
        let (mut bbr, mut sk) = cruising();
        bbr.set_ecn_eligible(true);
        bbr.ecn_alpha = 100;
        sk.delivered = delivered;
        bbr.next_rtt_delivered = delivered;
        let rs = Sample {
            prior_delivered: delivered,
            delivered_ce: 0,
            ..plain_ack()
        };
        bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
        assert!(bbr.round_start());
        assert_eq!((bbr.ecn_alpha, bbr.alpha_last_delivered), (100, 0));
    }
}

#[test]
fn a_lost_skb_without_timing_only_notes_the_loss() {
    // While probing, a lost skb whose tx.delivered_mstamp is 0 marks the loss round
    // but is not judged: inflight_hi stays unset although 5 lost of 10 is too high.
    let (mut bbr, mut sk) = cruising();
    bbr.set_bw_probe_samples(true);
    sk.lost = 5;
    let skb = LostSkb {
        delivered_mstamp: 0,
        in_flight: 10,
        lost: 0,
        is_app_limited: false,
        pcount: 1,
    };
    bbr3::bbr_skb_marked_lost(&mut bbr, &sk, &P, &skb, &mut ReplayedRandom::<4>::new());
    assert!(bbr.loss_in_round() && bbr.loss_in_cycle());
    assert_eq!(bbr.loss_round_delivered, 1000);
    assert_eq!(bbr.inflight_hi, u32::MAX);
    assert!(bbr.bw_probe_samples());
    // With timing, the same skb is judged: lost 5 - tx.lost 0 = 5 > 10 * 5 >> 8 = 0.
    // inflight_prev = 9, lost_prev = 4 >= loss_budget (9 * 5 + 255) >> 8 = 1, so the
    // prefix is 0 and inflight_hi = max(9, target 15 * 180 >> 8 = 10) = 10.
    let skb = LostSkb {
        delivered_mstamp: 1,
        ..skb
    };
    bbr3::bbr_skb_marked_lost(&mut bbr, &sk, &P, &skb, &mut ReplayedRandom::<4>::new());
    assert_eq!(bbr.inflight_hi, 10);
    assert!(bbr.prev_probe_too_high() && !bbr.bw_probe_samples());
}

#[test]
fn an_inconsistent_lost_skb_sample_leaves_inflight_hi_unbounded() {
    // pcount 2 with tx.in_flight 1: inflight_prev = -1 (the kernel's WARN) gives ~0U,
    // which bbr_handle_inflight_too_high takes as the new inflight_hi.
    let (mut bbr, mut sk) = cruising();
    bbr.set_bw_probe_samples(true);
    bbr.inflight_hi = 50;
    sk.lost = 1;
    let skb = LostSkb {
        delivered_mstamp: 1,
        in_flight: 1,
        lost: 0,
        is_app_limited: false,
        pcount: 2,
    };
    bbr3::bbr_skb_marked_lost(&mut bbr, &sk, &P, &skb, &mut ReplayedRandom::<4>::new());
    assert_eq!(bbr.inflight_hi, u32::MAX);
    // lost_prev = 1 - 2 = -1 (in_flight 10): also ~0U.
    let (mut bbr, _) = cruising();
    bbr.set_bw_probe_samples(true);
    bbr.inflight_hi = 50;
    let skb = LostSkb {
        in_flight: 10,
        ..skb
    };
    bbr3::bbr_skb_marked_lost(&mut bbr, &sk, &P, &skb, &mut ReplayedRandom::<4>::new());
    assert_eq!(bbr.inflight_hi, u32::MAX);
}

#[test]
fn a_negative_delivered_count_gives_no_bandwidth_sample() {
    // bbr_calculate_bw_sample WARNs and leaves sample_bw 0: bw_hi and bw_latest keep
    // their values.
    let (mut bbr, mut sk) = cruising();
    bbr.bw_latest = 9000;
    let rs = Sample {
        delivered: -5,
        ..plain_ack()
    };
    bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert_eq!((bbr.bw_hi, bbr.bw_latest), ([0, 10_000], 9000));
}

#[test]
fn the_send_snapshot_clamps_the_flight_to_20_bits() {
    let mut sk = socket();
    sk.packets_out = 3 << 20;
    sk.delivered_mstamp = 5_000_000_000;
    let tx = tcp_rate_skb_sent_v3(&mut sk, 5_000_000_000, 1);
    assert_eq!(tx.in_flight(), IN_FLIGHT_MAX);
    // The stamps keep their low 32 bits: 5e9 - 2^32 = 705,032,704.
    assert_eq!(tx.delivered_mstamp, 705_032_704);
}

// ---- inputs the traces never use ----

#[test]
fn an_expired_probe_rtt_min_keeps_its_value_against_a_larger_delayed_sample() {
    // probe_rtt_min_stamp 1000 + 5000 < jiffies 6001: expired. A larger sample (12 ms)
    // on a delayed ACK does not replace 10 ms; on an ordinary ACK it does. PROBE_RTT
    // starts either way.
    for (delayed, want) in [(true, 10_000), (false, 12_000)] {
        let (mut bbr, mut sk) = cruising();
        at(&mut sk, 6_001_000);
        bbr.probe_wait_us = 10_000_000;
        let rs = Sample {
            rtt_us: 12_000,
            is_ack_delayed: delayed,
            ..plain_ack()
        };
        bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
        assert_eq!(bbr.probe_rtt_min_us, want);
        assert_eq!(bbr.mode, Mode::ProbeRtt);
    }
}

#[test]
fn the_set_keys_no_trace_uses_take_effect() {
    // init_cwnd 200: snd_cwnd 200 but bbr->init_cwnd keeps min(127, 200) = 127 (7 bits).
    // max_pacing_rate 100000 caps the initial rate (it would be 200 * 2^24 / 10000 =
    // 335544 bw at gain 2.77: about 83 MB/s). iss near 2^32: sequence numbers wrap.
    let csv = replay_bbr3(
        "set init_cwnd 200\nset max_pacing_rate 100000\nset iss 4294967290\n\
         set syn_rtt_us 10000\nset pacing_status 2\nset cwnd_clamp 150\ninit 1000000\n\
         send 1000000 10\nack 1010000 4 10000\n",
    )
    .unwrap();
    assert_eq!(column(&csv, 7, "init_cwnd"), "127");
    assert_eq!(column(&csv, 7, "cwnd"), "200");
    assert_eq!(column(&csv, 7, "pacing_rate"), "100000");
    assert_eq!(column(&csv, 8, "snd_nxt"), "4");
    // The ACK of 4294967290..4 (10 segments) delivers 10; cwnd 200 + 10 is clamped to 150.
    assert_eq!(column(&csv, 9, "delivered"), "10");
    assert_eq!(column(&csv, 9, "cwnd"), "150");
}

#[test]
fn with_delivered0_above_2_to_the_31_ecn_alpha_never_moves() {
    // ECN-eligible (ecn 3, min_rtt 1 ms) with delivered starting at 2^31 + 10: every
    // round's (s32)(delivered - alpha_last_delivered 0) is negative, so alpha stays 256.
    let mut events = String::from(
        "set delivered0 2147483658\nset ecn 3\nset syn_rtt_us 1000\nset pacing_status 2\ninit 1000000\nsend 1000000 10\n",
    );
    for i in 1..=5u32 {
        let t = 1_000_000 + u64::from(i) * 1000;
        events.push_str(&format!("ack {t} {} 1000 ece\nsend {t} 2\n", 2 * i));
    }
    let csv = replay_bbr3(&events).unwrap();
    let last = csv.lines().count() - 1;
    assert_eq!(column(&csv, last, "ecn_eligible"), "1");
    assert_eq!(column(&csv, last, "ecn_alpha"), "256");
    assert_eq!(column(&csv, last, "alpha_last_delivered"), "0");
}

#[test]
fn the_fast_path_skips_the_control_update_on_a_quiet_app_limited_ack() {
    // try_fast_path, an app-limited sample below max_bw, no loss or CE: the mode,
    // min_rtt and try_fast_path stay, so cwnd and the pacing rate are not touched.
    let (mut bbr, mut sk) = cruising();
    bbr.set_try_fast_path(true);
    sk.sk_pacing_rate = 12_345;
    sk.snd_cwnd = 77;
    let rs = Sample {
        is_app_limited: true,
        ..plain_ack()
    };
    let fast = bbr3::bbr_main(&mut bbr, &mut sk, &P, &rs, &mut ReplayedRandom::<4>::new());
    assert_eq!(fast, FastPath::Skipped);
    assert_eq!((sk.snd_cwnd, sk.sk_pacing_rate), (77, 12_345));
}

#[test]
fn the_hook_table_runs_the_same_code_as_the_direct_calls() {
    use congestion::linux::bbr3::TcpBbr3;
    use congestion::linux::tcp::{CaEvent, RateSample, TcpCongestionOps};
    // cong_control on a rate sample equals bbr_main on its BBR view.
    let (bbr0, sk0) = cruising();
    let rs = RateSample {
        prior_delivered: 990,
        delivered: 5,
        interval_us: 10_000,
        rtt_us: 10_000,
        acked_sacked: 1,
        prior_in_flight: 10,
        ..RateSample::default()
    };
    let (mut a, mut sa) = (bbr0, sk0);
    TcpBbr3::cong_control(
        &mut a,
        &mut sa,
        &P,
        1000,
        0,
        &rs,
        &mut ReplayedRandom::<4>::new(),
    );
    let (mut b, mut sb) = (bbr0, sk0);
    bbr3::bbr_main(
        &mut b,
        &mut sb,
        &P,
        &Sample::from_rate_sample(&rs),
        &mut ReplayedRandom::<4>::new(),
    );
    assert_eq!((a, sa), (b, sb));
    // The tso_segs hook: min(pacing_rate >> 10 + 65536 >> (min_rtt >> 9), 65536 - 1 -
    // 320) / mss, at least 2: at 854,444 B/s and min_rtt 10 ms, 834 / 1448 = 0 -> 2; at
    // 100 MB/s, 97656 bytes are capped at 65215: 65215 / 1448 = 45.
    assert_eq!(TcpBbr3::tso_segs(&a, &sa, &P, 1448), Some(2));
    sa.sk_pacing_rate = 100_000_000;
    assert_eq!(TcpBbr3::tso_segs(&a, &sa, &P, 1448), Some(45));
    // CA_EVENT_TX_START while app-limited in PROBE_BW: idle_restart, and the pacing rate
    // goes back from 100 MB/s to bw at gain 1.0 (less the 1 % margin): 854,444 B/s.
    sa.app_limited = 5;
    TcpBbr3::cwnd_event_with_random(
        &mut a,
        &mut sa,
        &P,
        CaEvent::TxStart,
        &mut ReplayedRandom::<4>::new(),
    );
    assert!(a.idle_restart());
    assert_eq!(sa.sk_pacing_rate, 854_444);
    // Other events leave BBRv3 alone.
    let before = a;
    TcpBbr3::cwnd_event(&mut a, &mut sa, &P, CaEvent::Loss);
    assert_eq!(a, before);
}
