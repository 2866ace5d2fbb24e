//! NewReno traces (tests/data/newreno), replayed with `set mode newreno`: hand-checked
//! rows against RFC 9002 §7 and Appendix B, then the whole CSV against the stored
//! expectation (a regression check of every column).

mod replay;

use replay::{cell, num};

fn run(name: &str) -> Vec<Vec<String>> {
    replay::checked_rows("newreno", name)
}

#[test]
fn newreno_slow_start_recovery_and_one_mss_per_window() {
    let r = run("ss_loss_ca");
    assert_eq!(
        r[0][..8],
        [
            "idx",
            "ev",
            "t_us",
            "cwnd",
            "ssthresh",
            "phase",
            "bytes_acked",
            "cwnd_prior"
        ]
    );
    // RFC 9002 §7.3.1 slow start: 10000 + 1000 + 1000 + 8000 = 20000.
    assert_eq!((num(&r, 8, "cwnd"), cell(&r, 8, "phase")), (20_000, "ss"));
    // B.6: two losses of one episode, one halving: ssthresh = cwnd = 10000.
    for row in [9, 10] {
        assert_eq!(
            (num(&r, row, "cwnd"), num(&r, row, "ssthresh")),
            (10_000, 10_000)
        );
        assert_eq!(cell(&r, row, "phase"), "recovery");
    }
    assert_eq!(
        (num(&r, 9, "in_flight"), num(&r, 10, "in_flight")),
        (19_000, 18_000)
    );
    // §7.3.2: the ACK of byte 18000 (sent before the reduction) does not end recovery.
    assert_eq!(
        (num(&r, 11, "cwnd"), cell(&r, 11, "phase")),
        (10_000, "recovery")
    );
    // §7.3.3: 13000 acked on a 10000 window: + 1 MSS, 3000 carried; then 3000 + 8000 =
    // 11000 = cwnd: + 1 MSS, 0 carried.
    assert_eq!(
        (num(&r, 12, "cwnd"), num(&r, 12, "bytes_acked")),
        (11_000, 3_000)
    );
    assert_eq!(
        (num(&r, 13, "cwnd"), num(&r, 13, "bytes_acked")),
        (12_000, 0)
    );
    // A packet sent after the first recovery: 12000 / 2 = 6000; its neighbour and a CE
    // mark on an older packet change nothing.
    for row in 14..=16 {
        assert_eq!(
            (num(&r, row, "cwnd"), num(&r, row, "ssthresh")),
            (6_000, 6_000)
        );
    }
    // 12000 acked bytes on a 6000 window: two windows, + 2 MSS.
    assert_eq!((num(&r, 17, "cwnd"), cell(&r, 17, "phase")), (8_000, "ca"));
    // ECN-CE on a packet sent after the second reduction: 8000 / 2 = 4000 (B.7).
    assert_eq!(
        (num(&r, 18, "cwnd"), num(&r, 18, "ssthresh")),
        (4_000, 4_000)
    );
    // §7.6.2: persistent congestion, cwnd = kMinimumWindow = 2 · 1000, slow start.
    assert_eq!(
        (
            num(&r, 19, "cwnd"),
            num(&r, 19, "ssthresh"),
            cell(&r, 19, "phase")
        ),
        (2_000, 2_000, "ss")
    );
    // The undo brings back the window before the collapse (2000 < cwnd_prior 4000).
    assert_eq!(
        (num(&r, 20, "cwnd"), num(&r, 20, "ssthresh")),
        (4_000, 4_000)
    );
}
