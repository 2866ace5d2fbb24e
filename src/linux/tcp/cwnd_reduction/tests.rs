use super::*;

fn reducing(ssthresh: u32, in_flight: u32, prior_cwnd: u32) -> TcpSock {
    TcpSock {
        snd_ssthresh: ssthresh,
        packets_out: in_flight,
        prior_cwnd,
        icsk_ca_state: CaState::Cwr,
        ..TcpSock::default()
    }
}

#[test]
fn above_ssthresh_prr_sends_the_proportional_share_rounded_up() {
    // The edge_cases row 6 numbers: ssthresh 7, in flight 10, prior_cwnd 12, 2
    // delivered: ceil(7 * 2 / 12) - 0 = (14 + 11) / 12 = 2, cwnd 10 + 2 = 12.
    let mut sk = reducing(7, 10, 12);
    tcp_cwnd_reduction(&mut sk, 2, 0, ack_flags::SND_UNA_ADVANCED);
    assert_eq!((sk.snd_cwnd, sk.prr_delivered), (12, 2));
}

#[test]
fn at_or_below_ssthresh_snd_una_progress_adds_one() {
    // ssthresh 10, in flight 6: delta 4. prr_delivered 3 (+3 now = 6), prr_out 5:
    // max(6 - 5, 3) = 3, +1 for snd_una advancing = 4, min(4, 4) = 4 -> cwnd 10.
    let mut sk = reducing(10, 6, 20);
    sk.prr_delivered = 3;
    sk.prr_out = 5;
    tcp_cwnd_reduction(&mut sk, 3, 0, ack_flags::SND_UNA_ADVANCED);
    assert_eq!(sk.snd_cwnd, 10);
    // The same ACK without snd_una progress (a SACK): 3, cwnd 9.
    let mut sk = reducing(10, 6, 20);
    sk.prr_delivered = 3;
    sk.prr_out = 5;
    tcp_cwnd_reduction(&mut sk, 3, 0, 0);
    assert_eq!(sk.snd_cwnd, 9);
    // With a newly lost segment the +1 is withheld too: 9.
    let mut sk = reducing(10, 6, 20);
    sk.prr_delivered = 3;
    sk.prr_out = 5;
    tcp_cwnd_reduction(&mut sk, 3, 1, ack_flags::SND_UNA_ADVANCED);
    assert_eq!(sk.snd_cwnd, 9);
}

#[test]
fn the_first_ack_always_lets_one_out_and_nothing_delivered_changes_nothing() {
    // delta 0: min(0, ...) = 0, but prr_out 0 forces 1 (edge_cases row 30).
    let mut sk = reducing(4, 4, 4);
    tcp_cwnd_reduction(&mut sk, 1, 0, ack_flags::SND_UNA_ADVANCED);
    assert_eq!(sk.snd_cwnd, 5);
    let mut sk = reducing(4, 4, 4);
    sk.snd_cwnd = 9;
    tcp_cwnd_reduction(&mut sk, 0, 0, 0);
    assert_eq!((sk.snd_cwnd, sk.prr_delivered), (9, 0));
    sk.prior_cwnd = 0;
    tcp_cwnd_reduction(&mut sk, 3, 0, 0);
    assert_eq!(sk.snd_cwnd, 9);
}
