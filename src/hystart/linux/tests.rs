use super::*;

fn input(now_us: u32, delay_us: u32) -> HystartInput {
    HystartInput {
        now_us,
        delay_us,
        delay_min_us: 18_000,
        snd_una: 0,
        snd_nxt: 100,
        cwnd: 100,
        pacing_rate: 0,
        pacing_status: PacingStatus::None,
        gso_max_size: 65536,
    }
}

#[test]
fn ack_delay_cushion_is_gso_time_at_the_pacing_rate_capped_at_1ms() {
    // 65536 * 4e6 / 1.25e9 B/s = 209 us
    assert_eq!(hystart_ack_delay_us(1_250_000_000, 65536), 209);
    assert_eq!(hystart_ack_delay_us(1_000_000, 65536), 1000);
    assert_eq!(hystart_ack_delay_us(0, 65536), 0);
}

#[test]
fn an_ack_train_longer_than_half_the_min_delay_ends_slow_start() {
    let p = LinuxCubicParams::default();
    let mut h = LinuxHystart::default();
    h.start_round(0, 100);
    // ACKs every 1 ms (< 2 ms delta): the train grows; threshold = 18000 >> 1 = 9000.
    for t in 1..=9u32 {
        assert_eq!(h.on_delay_sample(&p, &input(t * 1000, 18_000)), None);
    }
    assert_eq!(
        h.on_delay_sample(&p, &input(9_001, 18_000)),
        Some(HystartExit::AckTrain)
    );
    assert!(h.found);
}

#[test]
fn a_gap_longer_than_ack_delta_breaks_the_train() {
    let p = LinuxCubicParams::default();
    let mut h = LinuxHystart::default();
    h.start_round(0, 100);
    assert_eq!(h.on_delay_sample(&p, &input(12_000, 18_000)), None);
    assert_eq!(h.last_ack, 0);
}

#[test]
fn delay_increase_needs_eight_samples_then_fires_above_the_margin() {
    let mut cfg = crate::cubic::LinuxCubicConfig::new();
    cfg.hystart_detect = crate::cubic::HystartDetect::DELAY;
    let p = cfg.validate().unwrap();
    let mut h = LinuxHystart::default();
    h.start_round(0, 100);
    // margin = clamp(18000 >> 3 = 2250, 4000, 16000) = 4000: fires above 22000 us.
    for i in 0..8 {
        assert_eq!(h.on_delay_sample(&p, &input(i, 22_001)), None);
    }
    assert_eq!(h.sample_cnt, 8);
    assert_eq!(
        h.on_delay_sample(&p, &input(9, 22_001)),
        Some(HystartExit::DelayIncrease)
    );
}

#[test]
fn passing_end_seq_starts_a_new_round_before_the_low_window_check() {
    let p = LinuxCubicParams::default();
    let mut h = LinuxHystart::default();
    h.start_round(0, 10);
    let mut i = input(5_000, 18_000);
    i.snd_una = 11;
    i.snd_nxt = 40;
    i.cwnd = 4; // below hystart_low_window
    assert_eq!(h.on_delay_sample(&p, &i), None);
    assert_eq!(
        (h.round_start, h.end_seq, h.curr_rtt),
        (5_000, 40, u32::MAX)
    );
}
