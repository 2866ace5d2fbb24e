use super::*;

#[test]
fn the_hot_line_and_the_whole_flow_fit_their_budgets() {
    assert_eq!(core::mem::size_of::<Hot>(), 64);
    assert_eq!(core::mem::size_of::<LinuxFlowState>(), 128);
    // The fields every CA ACK reads come first, in the line the state starts on.
    assert_eq!(core::mem::offset_of!(LinuxFlowState, hot), 0);
    assert_eq!(core::mem::offset_of!(LinuxFlowState, cold), 64);
}

#[test]
fn cubic_and_hystart_round_trip_through_both_lines() {
    let mut s = LinuxFlowState::default();
    let c = LinuxCubic {
        cnt: 1,
        last_max_cwnd: 2,
        last_cwnd: 3,
        last_time: 4,
        origin_point: 5,
        bic_k: 6,
        delay_min: 7,
        epoch_start: 8,
        ack_cnt: 9,
        tcp_cwnd: 10,
    };
    s.set_cubic(&c);
    assert_eq!(s.cubic(), c);
    s.set_hystart_exit(Some(HystartExit::DelayIncrease));
    let h = LinuxHystart {
        round_start: 11,
        end_seq: 12,
        last_ack: 13,
        curr_rtt: 14,
        sample_cnt: 8,
        found: true,
    };
    s.set_hystart(&h);
    assert_eq!(s.hystart(), h);
    assert_eq!(s.hystart_exit(), Some(HystartExit::DelayIncrease));
    s.set_hystart_exit(None);
    assert_eq!(s.hystart(), h);
    assert_eq!(s.hystart_exit(), None);
}

#[test]
fn snd_nxt_is_derived_until_the_flight_leaves_it_behind() {
    let mut s = LinuxFlowState::default();
    s.hot.snd_una = 100;
    s.hot.packets_out = 10;
    assert_eq!(s.snd_nxt(), 110);
    s.set_packets_out(7);
    assert!(s.has(SND_NXT_AHEAD));
    assert_eq!(s.snd_nxt(), 110);
    s.hot.packets_out = 10;
    s.store_snd_nxt(110);
    assert!(!s.has(SND_NXT_AHEAD));
    assert_eq!(s.snd_nxt(), 110);
}
