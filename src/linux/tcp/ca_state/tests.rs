use super::*;
use crate::cubic::LinuxCubicParams;
use crate::linux::cubic_ops::CubicOps;
use crate::linux::tcp::ReplayedRandom;

#[test]
fn undo_restarts_the_timeout_count_only_when_it_undoes_loss() {
    // tcp_try_undo_loss() clears icsk_retransmits; tcp_try_undo_recovery() does not.
    let p = LinuxCubicParams::default();
    let mut rand = ReplayedRandom::<1>::new();
    for (state, retransmits_left) in [(CaState::Recovery, 2), (CaState::Loss, 0)] {
        let mut ca = Default::default();
        let mut sk = TcpSock {
            icsk_ca_state: state,
            undo_marker: true,
            icsk_retransmits: 2,
            lost_out: 3,
            snd_cwnd: 5,
            ..TcpSock::default()
        };
        assert!(tcp_try_undo::<CubicOps, _>(&mut ca, &mut sk, &p, &mut rand));
        assert_eq!(sk.icsk_retransmits, retransmits_left);
        assert_eq!(sk.icsk_ca_state, CaState::Open);
        assert_eq!(sk.lost_out, if state == CaState::Loss { 0 } else { 3 });
        assert!(!tcp_try_undo::<CubicOps, _>(
            &mut ca, &mut sk, &p, &mut rand
        ));
    }
}
