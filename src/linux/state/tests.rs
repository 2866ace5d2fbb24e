use super::*;

#[test]
fn the_state_fits_the_kernels_budget() {
    // 60 bytes of struct bictcp + cwnd, ssthresh, cwnd_cnt.
    assert_eq!(core::mem::size_of::<LinuxCubicState>(), 72);
}

#[test]
fn slow_start_stops_at_ssthresh_and_returns_the_rest() {
    let mut s = LinuxCubicState {
        cwnd: 60,
        ssthresh: 64,
        ..Default::default()
    };
    assert_eq!(s.slow_start(10, u32::MAX), 6);
    assert_eq!(s.cwnd, 64);
}

#[test]
fn additive_increase_applies_old_credit_before_accumulating() {
    let mut s = LinuxCubicState {
        cwnd: 100,
        cwnd_cnt: 50,
        ..Default::default()
    };
    // cnt 50 >= w 40: reset and +1, then 0 + 90 acked -> +2 with 10 left.
    s.congestion_avoidance_ai(40, 90, u32::MAX);
    assert_eq!((s.cwnd, s.cwnd_cnt), (103, 10));
    s.congestion_avoidance_ai(40, 100, 102);
    assert_eq!(s.cwnd, 102);
}
