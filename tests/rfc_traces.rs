//! RFC-mode traces (tests/data/rfc9438): hand-checked rows, then the whole CSV against
//! the stored expectation (a regression check of every column).

mod replay;

use replay::{cell, num};

fn run(name: &str) -> Vec<Vec<String>> {
    replay::checked_rows("rfc9438", name)
}

#[test]
fn header_starts_as_the_issue_requires() {
    let rows = run("ss_loss_ca");
    assert_eq!(
        rows[0][..6],
        ["idx", "ev", "t_us", "cwnd", "ssthresh", "phase"]
    );
}

#[test]
fn slow_start_loss_recovery_and_cubic_growth() {
    let r = run("ss_loss_ca");
    // Slow start: 10000 + 1000 + 1000 + 8000.
    assert_eq!((num(&r, 8, "cwnd"), cell(&r, 8, "phase")), (20_000, "ss"));
    // Loss: ssthresh = cwnd = 0.7 · 20000; W_max = 20000; cwnd_prior = 20000.
    assert_eq!(
        (num(&r, 9, "cwnd"), num(&r, 9, "ssthresh")),
        (14_000, 14_000)
    );
    assert_eq!(
        (
            num(&r, 9, "w_max"),
            num(&r, 9, "cwnd_prior"),
            cell(&r, 9, "phase")
        ),
        (20_000, 20_000, "recovery")
    );
    // snd_una 30000 is not above the 30000 sent at the loss: still recovery.
    assert_eq!(cell(&r, 11, "phase"), "recovery");
    // Epoch at t = 0.3 s: K = cbrt((20000 − 14000) / (0.4 · 1000)) = cbrt(15) = 2.466212 s.
    assert_eq!(
        (num(&r, 12, "k_us"), num(&r, 12, "t_epoch_us")),
        (2_466_212, 300_000)
    );
    // W_est = 14000 + ⌊1000 · 900 · 1000 / 1700⌋ / 14000 = 14000 + 529411 / 14000 = 14037;
    // W_cubic(0) = 20000 − ⌊400 · 2.466212³⌋ = 20000 − 5999 = 14001 < W_est: cwnd = W_est.
    assert_eq!(
        (
            num(&r, 12, "w_est"),
            num(&r, 12, "cwnd"),
            cell(&r, 12, "phase")
        ),
        (14_037, 14_037, "ca")
    );
    // At t = K: target = W_cubic(K + 0.1 s) = 20000 + ⌊400 · 0.001⌋ = 20000;
    // cwnd = 14075 + ⌊(20000 − 14075) · 14000 / 14075⌋ = 14075 + 5893 = 19968.
    assert_eq!(num(&r, 14, "cwnd"), 19_968);
    // 14000 bytes in flight before the next ACK (+1000 < 19968): no growth, clock paused.
    assert_eq!(
        (num(&r, 15, "cwnd"), num(&r, 15, "cwnd_limited")),
        (19_968, 0)
    );
    // Cwnd-limited again 20 ms later: t_epoch moved from 0.3 s to 0.32 s.
    assert_eq!(
        (num(&r, 16, "t_epoch_us"), num(&r, 16, "cwnd_limited")),
        (320_000, 1)
    );
    // t = 2.5 s, τ = 2.6 s: W_cubic(τ) = 20000 + ⌊400 · 0.133788³⌋ = 20000;
    // cwnd = 19968 + ⌊32 · 1000 / 19968⌋ = 19969.
    assert_eq!(num(&r, 16, "cwnd"), 19_969);
}

#[test]
fn hystart_plus_plus_css_then_congestion_avoidance() {
    let r = run("hystartpp_css");
    // Rounds 1 and 2 in slow start; the 8th sample of round 2 (60 ms vs 50 ms + 6.25 ms).
    assert_eq!((num(&r, 21, "cwnd"), cell(&r, 21, "phase")), (26_000, "ss"));
    assert_eq!(
        (num(&r, 22, "cwnd"), cell(&r, 22, "phase")),
        (27_000, "css")
    );
    // CSS: 1000 / 4 = 250; a 12-segment stretch ACK: min(12000, 8 · 1000) / 4 = 2000.
    assert_eq!(num(&r, 23, "cwnd"), 27_250);
    assert_eq!(
        (num(&r, 24, "cwnd"), num(&r, 24, "css_rounds")),
        (29_250, 1)
    );
    // Fifth round end: ssthresh = cwnd = 35250, congestion avoidance.
    assert_eq!(
        (
            num(&r, 28, "cwnd"),
            num(&r, 28, "ssthresh"),
            cell(&r, 28, "phase")
        ),
        (35_250, 35_250, "ca")
    );
    assert_eq!(num(&r, 28, "css_rounds"), 5);
    // First CA ACK: W_max = cwnd_epoch = 35250, K = 0, W_est = 35250 + 28 (α = 1).
    assert_eq!(
        (
            num(&r, 29, "w_max"),
            num(&r, 29, "k_us"),
            num(&r, 29, "cwnd")
        ),
        (35_250, 0, 35_278)
    );
}

#[test]
fn ecn_idle_undo_and_rto() {
    let r = run("undo_idle_ecn_rto");
    assert_eq!((num(&r, 7, "cwnd"), cell(&r, 7, "phase")), (100_000, "ca"));
    // First CA ACK: W_max = 100000, K = 0, W_est = 100000 + 1000·1000/100000 = 100010.
    assert_eq!(
        (num(&r, 8, "w_max"), num(&r, 8, "k_us"), num(&r, 8, "cwnd")),
        (100_000, 0, 100_010)
    );
    // ECN-CE with β 0.85: ⌊0.85 · 100010⌋ = 85008; W_max = cwnd = 100010.
    assert_eq!(
        (
            num(&r, 9, "cwnd"),
            num(&r, 9, "ssthresh"),
            num(&r, 9, "w_max")
        ),
        (85_008, 85_008, 100_010)
    );
    // K = cbrt((100010 − 85008) / 400) = cbrt(37.505) = 3.3470 s (whole ms above 2.64 s).
    assert_eq!(
        (num(&r, 11, "k_us"), num(&r, 11, "t_epoch_us")),
        (3_347_000, 310_000)
    );
    // 10 s idle: t_epoch moves from 0.31 s to 10.31 s.
    assert_eq!(num(&r, 13, "t_epoch_us"), 10_310_000);
    // Loss: fast convergence W_max = ⌊87437 · 0.85⌋ = 74321, cwnd = ⌊0.7 · 87437⌋ = 61205.
    assert_eq!(num(&r, 15, "cwnd"), 87_437);
    assert_eq!(
        (num(&r, 16, "cwnd"), num(&r, 16, "w_max")),
        (61_205, 74_321)
    );
    // Undo: every column the loss changed is back.
    assert_eq!(r[17][3..12], r[15][3..12]);
    // RTO: ssthresh = ⌊0.7 · 87437⌋ = 61205, cwnd = 1 MSS, slow start, no epoch.
    assert_eq!(
        (
            num(&r, 18, "cwnd"),
            num(&r, 18, "ssthresh"),
            cell(&r, 18, "phase")
        ),
        (1000, 61_205, "ss")
    );
    assert_eq!(cell(&r, 18, "t_epoch_us"), "-1");
}

#[test]
fn linux_mode_stays_the_default_and_set_mode_linux_is_accepted() {
    let csv = replay::replay("set mode linux\ninit 0\n").expect("linux mode");
    assert!(csv.starts_with("idx,ev,t_us,jiffies,cwnd"));
    assert!(replay::replay("set mode bbr\n").is_err());
}

#[test]
fn linux_hystart_in_bytes_mss_change_and_persistent_congestion() {
    let r = run("linux_hystart_mss_pc");
    // Round 2, 8 samples counted (rows 18–25 grow 1000 each), the 9th exits.
    assert_eq!((num(&r, 25, "cwnd"), cell(&r, 25, "phase")), (40_000, "ss"));
    assert_eq!(
        (
            num(&r, 26, "cwnd"),
            num(&r, 26, "ssthresh"),
            cell(&r, 26, "phase")
        ),
        (40_000, 40_000, "ca")
    );
    assert_eq!(num(&r, 26, "cwnd_prior"), 40_000);
    // `set mss 1500` applies to the running flow.
    assert_eq!(num(&r, 27, "mss"), 1500);
    // First CA ACK: W_max = cwnd_epoch = 40000, K = 0, W_est = 40000 + 1500·1500/40000.
    assert_eq!(
        (
            num(&r, 28, "w_max"),
            num(&r, 28, "k_us"),
            num(&r, 28, "cwnd")
        ),
        (40_000, 0, 40_056)
    );
    // Persistent congestion: ssthresh = ⌊0.7 · 40056⌋ = 28039, cwnd = 2 · 1500.
    assert_eq!(
        (
            num(&r, 29, "cwnd"),
            num(&r, 29, "ssthresh"),
            cell(&r, 29, "phase")
        ),
        (3000, 28_039, "ss")
    );
    // Standard slow start afterwards: +1500.
    assert_eq!(num(&r, 30, "cwnd"), 4500);
}

#[test]
fn u64_settings_take_values_wider_than_32_bits_and_u32_ones_name_their_range() {
    // 1288490188800 bytes = 1.2 TiB: a u64 setting, accepted and printed as given.
    let csv = replay::replay("set mode rfc9438\nset init_ssthresh 1288490188800\ninit 0\n")
        .expect("a u64 setting wider than 32 bits");
    let row: Vec<&str> = csv.lines().nth(3).expect("init row").split(',').collect();
    assert_eq!(row[1], "init");
    assert_eq!(row[4], "1288490188800");
    let csv = replay::replay("set mode rfc9438\nset init_cwnd 8589934592\ninit 0\n")
        .expect("init_cwnd is u64 too");
    assert!(csv.lines().nth(3).expect("row").contains(",8589934592,"));
    // A u32 setting refuses the same width, naming the key and the range.
    let err = replay::replay("set mode rfc9438\nset beta 4294967296\n").unwrap_err();
    assert!(
        err.contains("set beta") && err.contains("0..=4294967295"),
        "{err}"
    );
}

#[test]
fn losses_reported_packet_by_packet_reduce_once_per_recovery_period() {
    let r = run("loss_per_packet");
    // Three reports of one episode (rows 9-11): one reduction, 0.7 · 20000 = 14000;
    // each report takes 1000 bytes out of flight, and so does the discard (row 12).
    for row in 9..=11 {
        assert_eq!(
            (num(&r, row, "cwnd"), num(&r, row, "ssthresh")),
            (14_000, 14_000)
        );
    }
    let flights: Vec<u64> = (8..=12).map(|row| num(&r, row, "in_flight")).collect();
    assert_eq!(flights, [20_000, 19_000, 18_000, 17_000, 16_000]);
    assert_eq!(cell(&r, 12, "phase"), "recovery");
    // The ACK of byte 31000 ends the recovery and grows by Reno-friendliness:
    // W_est = 14000 + ⌊21000 · 900 · 1000 / 1700⌋ / 14000 = 14000 + 794 = 14794.
    assert_eq!((num(&r, 13, "cwnd"), cell(&r, 13, "phase")), (14_794, "ca"));
    // A packet sent after the first reduction: 0.7 · 14794 = 10355; fast convergence
    // W_max = 14794 · 1.7 / 2 = 12574.
    assert_eq!(
        (num(&r, 14, "cwnd"), num(&r, 14, "w_max")),
        (10_355, 12_574)
    );
    // `loss T` with no packet named keeps its 0.1 meaning: 0.7 · 10355 = 7248.
    assert_eq!(num(&r, 15, "cwnd"), 7_248);
}
