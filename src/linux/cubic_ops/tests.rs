use super::*;
use crate::linux::TCP_INFINITE_SSTHRESH;
use crate::linux::tcp::ReplayedRandom;

fn sock(cwnd: u32) -> TcpSock {
    TcpSock {
        snd_cwnd: cwnd,
        snd_ssthresh: TCP_INFINITE_SSTHRESH,
        snd_cwnd_clamp: u32::MAX,
        is_cwnd_limited: true,
        sk_gso_max_size: 65536,
        ..TcpSock::default()
    }
}

#[test]
fn an_rto_forgets_cubic_and_starts_a_hystart_round_but_a_loss_does_not() {
    let p = LinuxCubicParams::default();
    let mut ca = CubicCa::default();
    let mut sk = sock(100);
    sk.snd_nxt = 77;
    sk.tcp_mstamp = 5_000;
    ca.cubic.last_max_cwnd = 300;
    ca.hystart.found = true;
    CubicOps::set_state(&mut ca, &mut sk, &p, CaState::Recovery);
    assert_eq!(ca.cubic.last_max_cwnd, 300);
    CubicOps::set_state(&mut ca, &mut sk, &p, CaState::Loss);
    assert_eq!(ca.cubic, LinuxCubic::default());
    assert!(!ca.hystart.found);
    assert_eq!((ca.hystart.end_seq, ca.hystart.round_start), (77, 5_000));
}

#[test]
fn init_without_hystart_takes_initial_ssthresh_and_starts_no_round() {
    let mut cfg = crate::cubic::LinuxCubicConfig::new();
    cfg.hystart = false;
    cfg.initial_ssthresh = 64;
    let p = cfg.validate().unwrap();
    let (mut ca, mut sk) = (CubicCa::default(), sock(10));
    sk.tcp_mstamp = 9;
    CubicOps::init(&mut ca, &mut sk, &p, &mut ReplayedRandom::<1>::new());
    assert_eq!(sk.snd_ssthresh, 64);
    assert_eq!(ca.hystart.curr_rtt, 0);
}

#[test]
fn samples_are_ignored_in_the_first_second_of_an_epoch_and_zero_counts_as_one() {
    let p = LinuxCubicParams::default();
    let (mut ca, mut sk) = (CubicCa::default(), sock(10));
    sk.tcp_jiffies32 = 1_500;
    ca.cubic.epoch_start = 1_000;
    cubictcp_acked(&mut ca, &mut sk, &p, 700);
    assert_eq!(ca.cubic.delay_min, 0);
    sk.tcp_jiffies32 = 2_000;
    cubictcp_acked(&mut ca, &mut sk, &p, 0);
    assert_eq!(ca.cubic.delay_min, 1);
    cubictcp_acked(&mut ca, &mut sk, &p, -1);
    assert_eq!(ca.cubic.delay_min, 1);
}

#[test]
fn undo_restores_the_larger_window() {
    let mut sk = sock(40);
    sk.prior_cwnd = 57;
    assert_eq!(tcp_reno_undo_cwnd(&sk), 57);
    sk.prior_cwnd = 30;
    assert_eq!(tcp_reno_undo_cwnd(&sk), 40);
}
