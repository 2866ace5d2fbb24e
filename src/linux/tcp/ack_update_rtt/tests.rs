use super::*;
use crate::linux::tcp::Minmax;

#[test]
fn srtt_moves_by_an_eighth_of_the_error() {
    let mut sk = TcpSock::default();
    tcp_rtt_estimator_srtt(&mut sk, 1000);
    assert_eq!(sk.srtt_us, 8000);
    // 8000 + (2000 - 1000) = 9000.
    tcp_rtt_estimator_srtt(&mut sk, 2000);
    assert_eq!(sk.srtt_us, 9000);
    // A zero first sample gives srtt 0, raised to 1.
    let mut z = TcpSock::default();
    tcp_rtt_estimator_srtt(&mut z, 0);
    assert_eq!(z.srtt_us, 1);
}

#[test]
fn a_zero_rtt_counts_as_one_jiffy_and_delayed_acks_only_lower_the_min() {
    let mut sk = TcpSock {
        rtt_min: Minmax::new(0, u32::MAX),
        ..TcpSock::default()
    };
    tcp_update_rtt_min(&mut sk, 0, false);
    assert_eq!(sk.tcp_min_rtt(), 1000);
    // A delayed ACK's 5000 > 1000 is skipped; its 700 is taken.
    tcp_update_rtt_min(&mut sk, 5000, true);
    assert_eq!(sk.rtt_min, Minmax::new(0, 1000));
    tcp_update_rtt_min(&mut sk, 700, true);
    assert_eq!(sk.tcp_min_rtt(), 700);
}
