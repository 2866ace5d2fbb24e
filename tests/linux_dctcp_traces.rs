//! Replays every reference trace of Linux DCTCP (tests/data/linux-dctcp, copied from
//! shared/conformance) and requires every column of every row to match; then the
//! paths the README says those traces do not pin down, checked by hand.

mod replay;

use congestion::ConfigError;
use congestion::linux::CaState;
use congestion::linux::dctcp::{DctcpCa, DctcpConfig, DctcpOps, DctcpParams, dctcp_update_alpha};
use congestion::linux::tcp::{
    ReplayedRandom, TcpAck, TcpSock, TcpSysctl, tcp_ack, tcp_enter_cwr, tcp_enter_recovery,
    tcp_try_undo,
};
use replay::Cc;

const FOLDER: &str = "linux-dctcp";

#[test]
fn all_18_reference_traces_replay_bit_exactly() {
    let names = replay::trace_names(FOLDER);
    assert_eq!(
        names.len(),
        18,
        "expected the 18 shipped traces, found {names:?}"
    );
    let (rows, failures) = replay::replay_folder_cc(FOLDER, &names, Cc::Dctcp);
    assert!(
        failures.is_empty(),
        "{} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 37,559 events in all, per the conformance README.
    assert_eq!(rows, 37_559);
}

#[test]
fn a_changed_module_parameter_changes_the_replay() {
    // Guards the comparison itself: g = 1/2^3 instead of 1/2^4 must not match.
    let name = "steady_rtt50ms_20m";
    let events = replay::events(FOLDER, name);
    let got = replay::replay_cc(&format!("set dctcp_shift_g 3\n{events}"), Cc::Dctcp).unwrap();
    let want = replay::expected_csv(FOLDER, name);
    assert!(replay::first_difference(name, &got, &want).is_some());
}

/// A socket after `init` with cwnd `cwnd` all in flight, and DCTCP's state.
fn flow(cwnd: u32, p: &DctcpParams) -> (TcpSock, DctcpCa) {
    let mut sk = TcpSock {
        snd_cwnd: cwnd,
        snd_ssthresh: 0x7fff_ffff,
        snd_cwnd_clamp: u32::MAX,
        mss_cache: 1448,
        sk_max_pacing_rate: u64::MAX,
        snd_una: 100,
        snd_nxt: 100 + cwnd,
        packets_out: cwnd,
        is_cwnd_limited: true,
        max_packets_out: cwnd,
        ..TcpSock::default()
    };
    let mut ca = DctcpCa::default();
    congestion::linux::dctcp::dctcp_init(&mut ca, &sk, p);
    // The round started before these segments were sent: it ends at snd_una 100.
    ca.next_seq = 100;
    sk.snd_una = 100;
    (sk, ca)
}

#[test]
fn alpha_is_capped_at_1024_when_a_round_reports_more_ce_than_deliveries() {
    let p = DctcpParams::new();
    let (mut sk, mut ca) = flow(10, &p);
    ca.dctcp_alpha = 512;
    // A round with d = 2 delivered and c = 6 CE (AccECN after lost ACKs):
    // alpha = 512 - (512 >> 4) + (6 << 6) / 2 = 512 - 32 + 192 = 672: below the cap.
    sk.delivered = 2;
    sk.delivered_ce = 6;
    dctcp_update_alpha(&mut ca, &sk, &p);
    assert_eq!(ca.dctcp_alpha, 672);
    // Next round (snd_una reaches the new next_seq): d = 1, c = 40:
    // 672 - 42 + (40 << 6) / 1 = 630 + 2560 = 3190 -> capped at 1024.
    sk.snd_una = sk.snd_nxt;
    sk.delivered = 3;
    sk.delivered_ce = 46;
    dctcp_update_alpha(&mut ca, &sk, &p);
    assert_eq!(ca.dctcp_alpha, 1024);
}

#[test]
fn shift_g_above_10_is_refused_and_the_old_value_stays() {
    let mut p = DctcpParams::new();
    assert_eq!(
        p.set_dctcp_shift_g(11),
        Err(ConfigError::ParamOutOfRange {
            field: "dctcp_shift_g",
            min: 0,
            max: 10
        })
    );
    assert_eq!(p.dctcp_shift_g(), 4);
    let message = p.set_dctcp_shift_g(99).unwrap_err().to_string();
    assert!(
        message.contains("dctcp_shift_g") && message.contains("0..=10"),
        "{message}"
    );
    let config = |g| DctcpConfig {
        dctcp_shift_g: g,
        ..DctcpConfig::new()
    };
    assert!(config(11).validate().is_err());
    assert_eq!(config(10).validate().map(|p| p.dctcp_shift_g()), Ok(10));
    // In a replay the refused write is ignored (not clamped to 10): the run equals the
    // one without it.
    let events = replay::events(FOLDER, "steady_rtt50ms_20m");
    let with_11 = replay::replay_cc(&format!("set dctcp_shift_g 11\n{events}"), Cc::Dctcp).unwrap();
    let without = replay::replay_cc(
        &format!("set dctcp_alpha_on_init 1024\n{events}"),
        Cc::Dctcp,
    )
    .unwrap();
    let body = |csv: &str| {
        csv.lines()
            .skip(2)
            .map(|l| l.split_once(',').unwrap().1.to_owned())
            .collect::<Vec<_>>()
    };
    let g10 = replay::replay_cc(&format!("set dctcp_shift_g 10\n{events}"), Cc::Dctcp).unwrap();
    assert!(
        body(&with_11) == body(&without),
        "the refused write changed the run"
    );
    assert!(
        body(&with_11) != body(&g10),
        "the refused write acted as a clamp to 10"
    );
}

#[test]
fn prr_adds_one_when_snd_una_advances_at_or_below_ssthresh() {
    let p = DctcpParams::new();
    let sysctl = TcpSysctl::new();
    let (mut sk, mut ca) = flow(20, &p);
    // An ACK of 10, all CE. The round ends (snd_una 110 >= next_seq 100):
    // alpha = 1024 - 64 + (10 << 6) / 10 = 1024 (cap). ECE -> CWR with
    // ssthresh = 20 - (20 * 1024 >> 11) = 10, prior_cwnd 20. PRR: in flight 10,
    // delta 0 -> min(0, max(10, 10) + 1) = 0, forced to 1 (prr_out 0): cwnd 11.
    let ack = TcpAck {
        acked: 10,
        rtt_us: Some(1000),
        ce_delta: 10,
        ece: false,
    };
    tcp_ack::<DctcpOps, _>(
        &mut ca,
        &mut sk,
        &p,
        &sysctl,
        &ack,
        &mut ReplayedRandom::<1>::new(),
    );
    assert_eq!(sk.icsk_ca_state, CaState::Cwr);
    assert_eq!((sk.snd_ssthresh, sk.snd_cwnd), (10, 11));
    // The sender uses its one segment: prr_out 1, in flight 11.
    congestion::linux::tcp::tcp_write_xmit::<DctcpOps, _>(
        &mut ca,
        &mut sk,
        &p,
        11,
        &mut ReplayedRandom::<1>::new(),
    );
    assert_eq!(sk.prr_out, 1);
    // 4 ACKed, no CE: in flight 7, delta = 10 - 7 = 3; prr_delivered 14:
    // max(14 - 1, 4) + 1 = 14, min(3, 14) = 3: cwnd 7 + 3 = 10.
    let ack = TcpAck {
        acked: 4,
        rtt_us: Some(1000),
        ce_delta: 0,
        ece: false,
    };
    tcp_ack::<DctcpOps, _>(
        &mut ca,
        &mut sk,
        &p,
        &sysctl,
        &ack,
        &mut ReplayedRandom::<1>::new(),
    );
    assert_eq!(sk.snd_cwnd, 10);
    // Where delta is the larger, the +1 shows: a CWR with ssthresh 30 (above the
    // flight), prr_out 5, recovery point not yet reached.
    let (mut sk2, mut ca2) = flow(20, &p);
    sk2.icsk_ca_state = CaState::Cwr;
    sk2.prior_cwnd = 20;
    sk2.snd_ssthresh = 30;
    sk2.prr_out = 5;
    sk2.high_seq = sk2.snd_nxt;
    // 2 ACKed: in flight 18, delta 12; prr_delivered 2: max(2 - 5, 2) = 2, +1 = 3: cwnd 21.
    let ack = TcpAck {
        acked: 2,
        rtt_us: None,
        ce_delta: 0,
        ece: false,
    };
    tcp_ack::<DctcpOps, _>(
        &mut ca2,
        &mut sk2,
        &p,
        &sysctl,
        &ack,
        &mut ReplayedRandom::<1>::new(),
    );
    assert_eq!(sk2.snd_cwnd, 21);
}

#[test]
fn a_loss_in_cwr_keeps_the_reduction_and_halves() {
    let p = DctcpParams::new();
    let (mut sk, mut ca) = flow(40, &p);
    ca.dctcp_alpha = 256;
    tcp_enter_cwr::<DctcpOps, _>(&mut ca, &mut sk, &p, &mut ReplayedRandom::<1>::new());
    // ssthresh = 40 - (40 * 256 >> 11) = 40 - 5 = 35; prior_cwnd 40, high_seq 140.
    assert_eq!((sk.snd_ssthresh, sk.prior_cwnd, sk.high_seq), (35, 40, 140));
    sk.prr_delivered = 3;
    sk.prr_out = 2;
    sk.snd_cwnd = 38;
    assert!(tcp_enter_recovery::<DctcpOps, _>(
        &mut ca,
        &mut sk,
        &p,
        false,
        &mut ReplayedRandom::<1>::new()
    ));
    // No new reduction: prior_cwnd, high_seq, PRR counters kept, prior_ssthresh 0;
    // undo possible; dctcp_state halves the current cwnd 38 -> 19, loss_cwnd 38.
    assert_eq!(
        (sk.prior_cwnd, sk.high_seq, sk.prr_delivered, sk.prr_out),
        (40, 140, 3, 2)
    );
    assert_eq!((sk.prior_ssthresh, sk.undo_marker), (0, true));
    assert_eq!((sk.snd_ssthresh, ca.loss_cwnd), (19, 38));
    assert_eq!(sk.icsk_ca_state, CaState::Recovery);
    // Undo with prior_ssthresh 0: cwnd and ssthresh stay, the marker clears, Open.
    assert!(tcp_try_undo::<DctcpOps, _>(
        &mut ca,
        &mut sk,
        &p,
        &mut ReplayedRandom::<1>::new()
    ));
    assert_eq!(
        (sk.snd_cwnd, sk.snd_ssthresh, sk.undo_marker),
        (38, 19, false)
    );
    assert_eq!(sk.icsk_ca_state, CaState::Open);
    // A second undo does nothing.
    assert!(!tcp_try_undo::<DctcpOps, _>(
        &mut ca,
        &mut sk,
        &p,
        &mut ReplayedRandom::<1>::new()
    ));
}

#[test]
fn undo_restores_loss_cwnd_not_prior_cwnd() {
    let p = DctcpParams::new();
    let (mut sk, mut ca) = flow(50, &p);
    assert!(tcp_enter_recovery::<DctcpOps, _>(
        &mut ca,
        &mut sk,
        &p,
        false,
        &mut ReplayedRandom::<1>::new()
    ));
    // prior_ssthresh = max(inf, ...) = 0x7fffffff; prior_cwnd = loss_cwnd = 50.
    assert_eq!((sk.prior_cwnd, ca.loss_cwnd, sk.snd_ssthresh), (50, 50, 25));
    // Make the two differ: Reno's undo would give max(20, 60) = 60, DCTCP's
    // max(20, loss_cwnd 45) = 45.
    sk.prior_cwnd = 60;
    ca.loss_cwnd = 45;
    sk.snd_cwnd = 20;
    assert!(tcp_try_undo::<DctcpOps, _>(
        &mut ca,
        &mut sk,
        &p,
        &mut ReplayedRandom::<1>::new()
    ));
    assert_eq!((sk.snd_cwnd, sk.snd_ssthresh), (45, 0x7fff_ffff));
}

/// A DCTCP flow (the public type) at t = 0 with cwnd `cwnd` grown by hand, nothing in
/// flight, last send at jiffy 0.
fn idle_flow(cwnd: u32) -> congestion::linux::Dctcp {
    let p = DctcpParams::new();
    let socket = congestion::linux::TcpSocketConfig::new();
    let mut rand = ReplayedRandom::<1>::new();
    let mut flow = congestion::linux::Dctcp::new(&p, &socket, 0, &mut rand).unwrap();
    flow.parts_mut().0.snd_cwnd = cwnd;
    flow
}

#[test]
fn idle_restart_needs_strictly_more_than_an_rto_and_halves_per_rto() {
    let p = DctcpParams::new();
    let sysctl = TcpSysctl::new();
    // Idle exactly 200 ms = rto: no restart (the test is `delta > rto`).
    let mut flow = idle_flow(100);
    flow.send(&p, &sysctl, 200_000, 1, &mut ReplayedRandom::<1>::new());
    assert_eq!(flow.socket().snd_cwnd, 100);
    // Idle 201 ms: delta 201 - 200 = 1 > 0 and 100 > 10: one halving to 50; then
    // 1 - 200 < 0 stops. ssthresh = max(inf, 75) stays infinite.
    let mut flow = idle_flow(100);
    flow.send(&p, &sysctl, 201_000, 1, &mut ReplayedRandom::<1>::new());
    assert_eq!(
        (flow.socket().snd_cwnd, flow.socket().snd_ssthresh),
        (50, 0x7fff_ffff)
    );
    // Idle 450 ms: 250 -> 50, 50 -> 25, then -150 stops: 25 (above the restart 10).
    let mut flow = idle_flow(100);
    flow.send(&p, &sysctl, 450_000, 1, &mut ReplayedRandom::<1>::new());
    assert_eq!(flow.socket().snd_cwnd, 25);
    // Idle 2 s: the halvings stop at the restart window min(10, clamp, cwnd) = 10.
    let mut flow = idle_flow(100);
    flow.send(&p, &sysctl, 2_000_000, 1, &mut ReplayedRandom::<1>::new());
    assert_eq!(flow.socket().snd_cwnd, 10);
    // With the sysctl off, nothing.
    let mut flow = idle_flow(100);
    let off = TcpSysctl {
        slow_start_after_idle: false,
        ..TcpSysctl::new()
    };
    flow.send(&p, &off, 2_000_000, 1, &mut ReplayedRandom::<1>::new());
    assert_eq!(flow.socket().snd_cwnd, 100);
}

#[test]
fn a_repeated_rto_recomputes_ssthresh_only_after_forward_progress() {
    let p = DctcpParams::new();
    let sysctl = TcpSysctl::new();
    let mut rand = ReplayedRandom::<1>::new();
    let mut flow = idle_flow(40);
    flow.transmit(&p, 0, 40, &mut rand);
    // First RTO (Open): dctcp_ssthresh 40 - (40·1024 >> 11) = 20, then
    // CA_EVENT_LOSS halves: max(40 >> 1, 2) = 20; loss_cwnd 40; cwnd 1; high_seq 40.
    flow.rto(&p, 200_000, 1, &mut rand);
    let sk = flow.socket();
    assert_eq!((sk.snd_ssthresh, sk.snd_cwnd, sk.high_seq), (20, 1, 40));
    assert_eq!((flow.ca().loss_cwnd, sk.icsk_retransmits), (40, 1));
    // Backed-off second RTO: Loss, high_seq after snd_una, retransmits 1: no recompute
    // (a recompute at cwnd 1 would give ssthresh 2).
    flow.rto(&p, 600_000, 1, &mut rand);
    assert_eq!(
        (flow.socket().snd_ssthresh, flow.socket().icsk_retransmits),
        (20, 2)
    );
    // An ACK of 1 segment clears retransmits (snd_una 1, still before high_seq 40:
    // Loss) and slow start grows cwnd to 2. The next RTO then recomputes:
    // dctcp_ssthresh(2) = 2, CA_EVENT_LOSS max(2 >> 1, 2) = 2, prior_cwnd 2.
    let ack = TcpAck {
        acked: 1,
        rtt_us: None,
        ce_delta: 0,
        ece: false,
    };
    flow.ack(&p, &sysctl, 700_000, &ack, &mut rand);
    assert_eq!(flow.socket().icsk_ca_state, CaState::Loss);
    assert_eq!(
        (flow.socket().snd_cwnd, flow.socket().icsk_retransmits),
        (2, 0)
    );
    flow.rto(&p, 900_000, 1, &mut rand);
    let sk = flow.socket();
    assert_eq!(
        (sk.snd_ssthresh, sk.prior_cwnd, flow.ca().loss_cwnd),
        (2, 2, 2)
    );
}
