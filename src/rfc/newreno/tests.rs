use super::*;
use crate::cubic::RfcCubicConfig;

fn params(mss: u64) -> RfcCubicParams {
    let mut c = RfcCubicConfig::new();
    c.mss_bytes = mss;
    match c.validate() {
        Ok(p) => p,
        Err(_) => unreachable!(),
    }
}

#[test]
fn a_whole_window_of_acked_bytes_adds_one_mss() {
    let p = params(1200);
    let mut r = NewRenoWindow::new();
    let t = Instant::ZERO;
    // cwnd 12000: nine ACKs of 1200 bytes (10800) do not reach a window ...
    let mut cwnd = 12_000;
    for _ in 0..9 {
        cwnd = r.on_ack(&p, p.mss_non_zero(), t, cwnd, 1_200, 0);
    }
    assert_eq!((cwnd, r.bytes_acked), (12_000, 10_800));
    // ... the tenth does: 12000 + 1200, and nothing is carried over.
    cwnd = r.on_ack(&p, p.mss_non_zero(), t, cwnd, 1_200, 0);
    assert_eq!((cwnd, r.bytes_acked), (13_200, 0));
}

#[test]
fn an_ack_of_two_and_a_half_windows_adds_two_mss_and_keeps_the_half() {
    let p = params(1000);
    let mut r = NewRenoWindow::new();
    // 25000 acked on a 10000-byte window: 2 windows, 5000 left towards the next.
    let cwnd = r.on_ack(&p, p.mss_non_zero(), Instant::ZERO, 10_000, 25_000, 0);
    assert_eq!((cwnd, r.bytes_acked), (12_000, 5_000));
}

#[test]
fn a_reduction_halves_the_window_and_forgets_the_count() {
    let p = params(1200);
    let mut r = NewRenoWindow::new();
    r.bytes_acked = 7_000;
    // RFC 9002 B.6: 13201 / 2 = 6600 (floor).
    assert_eq!(r.on_congestion(&p, 13_201, false), 6_600);
    assert_eq!((r.bytes_acked, r.cwnd_prior_bytes), (0, 13_201));
    assert_eq!(r.on_congestion(&p, 13_200, true), 6_600);
}
