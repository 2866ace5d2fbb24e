use super::*;

fn hz250() -> CubicConfig {
    let mut c = CubicConfig::new();
    c.hz = 250;
    c
}

#[test]
fn delayed_ack_wraps_in_u16_from_the_initial_two_packets_per_ack() {
    let mut b = Bictcp2635::default();
    b.reset();
    assert_eq!(b.delayed_ack, 32);
    // cnt = 1 - (32 >> 4) = u32::MAX; 32 + (u16)u32::MAX = 31.
    b.update_delayed_ack(1);
    assert_eq!(b.delayed_ack, 31);
    // cnt = 2 - (31 >> 4) = 1; 31 + 1 = 32.
    b.update_delayed_ack(2);
    assert_eq!(b.delayed_ack, 32);
}

#[test]
fn a_loss_epoch_gives_the_readme_hand_checked_cnt() {
    // ca_cycles_fastconv_on rows 2285-2287 (HZ=250): loss at cwnd 133, then one slow
    // start step to 94, then an epoch 25 jiffies after... see the README's arithmetic.
    let cfg = hz250();
    let mut b = Bictcp2635::default();
    b.reset();
    b.last_max_cwnd = 98;
    // 133 >= Wmax 98: no fast convergence; ssthresh = 133*717/1024 = 93.
    assert_eq!(b.recalc_ssthresh(&cfg, 133), 93);
    assert_eq!((b.last_max_cwnd, b.loss_cwnd, b.epoch_start), (133, 133, 0));
    // delay_min 200 (25 jiffies << 3), new epoch at cwnd 94.
    b.delay_min = 200;
    b.update(&cfg, 94, 251_293);
    // K = cubic_root(2681735677 * 39) = 4714
    assert_eq!(b.bic_k, 4714);
    // t = 25 * 1024 / 250 = 102; offs = 4612; delta = 410 * 4612^3 >> 40 = 36;
    // target = 133 - 36 = 97; cnt = 94 / 3 = 31; then 31 * 16 / 32 = 15.
    assert_eq!(b.cnt, 15);
    assert_eq!((b.epoch_start, b.ack_cnt, b.tcp_cwnd), (251_293, 1, 94));
}

#[test]
fn fast_convergence_shrinks_wmax_below_the_previous_one() {
    let cfg = hz250();
    let mut b = Bictcp2635 {
        last_max_cwnd: 133,
        ..Default::default()
    };
    // 131 < 133: Wmax = 131 * 1741 / 2048 = 111; ssthresh = 131*717/1024 = 91.
    assert_eq!(b.recalc_ssthresh(&cfg, 131), 91);
    assert_eq!(b.last_max_cwnd, 111);
    // The floor of 2: 2 * 717 / 1024 = 1 -> 2.
    assert_eq!(b.recalc_ssthresh(&cfg, 2), 2);
}

#[test]
fn no_cnt_clamp_before_the_first_loss() {
    // Wmax 0, cwnd 100 at the epoch start: target = 100 at t = K = 0 + delay... with
    // delay_min 0, t = 0, offs = 0, target = 100 = cwnd, so cnt = 100 * 100 = 10000,
    // scaled by 16/32 = 5000. 6.x would clamp it to 20 first.
    let cfg = CubicConfig::new();
    let mut b = Bictcp2635::default();
    b.reset();
    b.tcp_cwnd = 0;
    let mut no_reno = cfg;
    no_reno.tcp_friendliness = false;
    b.update(&no_reno, 100, 5000);
    assert_eq!(b.cnt, 5000);
}

#[test]
fn the_update_is_skipped_within_hz_over_32_at_the_same_cwnd() {
    let cfg = hz250();
    let mut b = Bictcp2635::default();
    b.reset();
    b.update(&cfg, 50, 1000);
    let cnt = b.cnt;
    b.cnt = 12345;
    // 7 jiffies later (HZ/32 = 7 at 250): skipped, only ack_cnt counts.
    b.update(&cfg, 50, 1007);
    assert_eq!((b.cnt, b.ack_cnt), (12345, 2));
    // 8 jiffies later: recomputed.
    b.update(&cfg, 50, 1008);
    assert_ne!(b.cnt, 12345);
    assert!(cnt > 0);
}

#[test]
fn cubic_time_is_computed_in_u32_and_wraps() {
    // 2^22 jiffies after the epoch, (ticks << 10) wraps to 0 in u32: t = 0, as the
    // kernel's code has it (a u64 t would be 4,294,967 at HZ=1000).
    let cfg = CubicConfig::new();
    let b = Bictcp2635 {
        epoch_start: 10,
        origin_point: 500,
        ..Default::default()
    };
    // t = 0 = K: target = origin = 500 > 400: cnt = 400 / 100 = 4.
    assert_eq!(b.cubic_cnt(&cfg, 400, 10 + (1 << 22)), 4);
}

#[test]
fn undo_restores_wmax_only() {
    let b = Bictcp2635 {
        last_max_cwnd: 80,
        ..Default::default()
    };
    assert_eq!(b.undo_cwnd(50), 80);
    assert_eq!(b.undo_cwnd(90), 90);
}

#[test]
fn samples_are_blind_for_a_second_after_the_epoch_and_after_the_wrap() {
    let b = Bictcp2635 {
        epoch_start: 5000,
        ..Default::default()
    };
    assert!(b.in_sample_blackout(5999, 1000));
    assert!(!b.in_sample_blackout(6000, 1000));
    let none = Bictcp2635::default();
    assert!(!none.in_sample_blackout(1_000_000, 1000));
    // (s32)(2^31 + 5 - 0) < 0: blind, the jiffies_wrap case.
    assert!(none.in_sample_blackout((1 << 31) + 5, 1000));
    assert!(none.in_sample_blackout(249, 250));
}

#[test]
fn delay_is_whole_jiffies_shifted_by_three() {
    let mut b = Bictcp2635::default();
    // 18,000 us at HZ=1000 = 18 jiffies = 144; at HZ=250, 18,000 us -> 5 jiffies = 40.
    assert_eq!(b.delay_sample(18_000, 1000), 144);
    assert_eq!(b.delay_min, 144);
    assert_eq!(b.delay_sample(18_000, 250), 40);
    assert_eq!(b.delay_min, 40);
    assert_eq!(b.delay_sample(0, 1000), 1);
    assert_eq!(b.delay_min, 1);
}
