use super::*;
use crate::cubic::HystartDetect;

fn at(hz: u32, detect: HystartDetect) -> CubicConfig {
    let mut c = CubicConfig::new();
    c.hz = hz;
    c.hystart_detect = detect;
    c
}

#[test]
fn the_train_fires_after_half_the_minimum_rtt_of_close_acks() {
    // HZ=250, 18 ms RTT reads as 4 jiffies: delay_min = 32, threshold 32 >> 4 = 2 j.
    let cfg = at(250, HystartDetect::BOTH);
    let mut b = Bictcp2635 {
        delay_min: 32,
        ..Default::default()
    };
    b.hystart_reset(1000, 50);
    // 1 jiffy gap (= msecs_to_jiffies(2) at 250) continues the train; 1 - 0 < 2.
    assert_eq!(b.hystart_update(&cfg, 1001, 32), None);
    assert_eq!(b.last_jiffies, 1001);
    // 1002 - 1000 = 2 >= 2: train.
    assert_eq!(
        b.hystart_update(&cfg, 1002, 32),
        Some(HystartExit2635::AckTrain)
    );
    // Nothing more once found.
    assert_eq!(b.hystart_update(&cfg, 1003, 32), None);
}

#[test]
fn a_gap_longer_than_two_ms_leaves_the_train_stale() {
    // HZ=1000: gap allowed 2 jiffies; delay_min 144 (18 j) -> threshold 9 j.
    let cfg = at(1000, HystartDetect::BOTH);
    let mut b = Bictcp2635 {
        delay_min: 144,
        ..Default::default()
    };
    b.hystart_reset(0, 10);
    // 3 jiffies later: 3 > 2, last_jiffies stays 0, and every later ACK is > 2 away.
    b.hystart_update(&cfg, 3, 144);
    assert_eq!(b.last_jiffies, 0);
    assert_eq!(b.hystart_update(&cfg, 12, 144), None);
    assert_eq!(b.found, 0);
}

#[test]
fn the_delay_test_uses_the_first_eight_samples_and_a_clamped_margin() {
    let cfg = at(1000, HystartDetect::DELAY);
    // delay_min 144: margin = clamp(9, 16, 128) = 16 -> fires above 160.
    let mut b = Bictcp2635 {
        delay_min: 144,
        ..Default::default()
    };
    b.hystart_reset(0, 10);
    for (i, d) in [200, 170, 161, 300, 300, 300, 300, 300]
        .into_iter()
        .enumerate()
    {
        // ACKs far apart, so the train never runs.
        assert_eq!(b.hystart_update(&cfg, 100 * (i as u32 + 1), d), None);
    }
    assert_eq!((b.curr_rtt, b.sample_cnt), (161, 8));
    assert_eq!(
        b.hystart_update(&cfg, 5000, 1),
        Some(HystartExit2635::DelayIncrease)
    );
    // curr_rtt exactly at the limit would not fire: 160 is not > 160.
    let mut c = Bictcp2635 {
        delay_min: 144,
        curr_rtt: 160,
        sample_cnt: 8,
        ..Default::default()
    };
    assert_eq!(c.hystart_update(&cfg, 0, 1), None);
}

#[test]
fn a_train_bit_outside_the_enabled_detectors_does_not_end_slow_start() {
    let cfg = at(1000, HystartDetect::DELAY);
    let mut b = Bictcp2635 {
        delay_min: 8,
        ..Default::default()
    };
    b.hystart_reset(0, 10);
    // delay_min >> 4 = 0: the train fires at once, but only DELAY is enabled.
    assert_eq!(b.hystart_update(&cfg, 0, 8), None);
    assert_eq!(b.found, HYSTART_ACK_TRAIN);
}

#[test]
fn exit_bits_round_trip() {
    for bits in 1..=3 {
        assert_eq!(
            HystartExit2635::from_bits(bits).map(HystartExit2635::bits),
            Some(bits)
        );
    }
    assert_eq!(HystartExit2635::from_bits(0), None);
}
