use super::*;

fn input() -> LinuxPacingInput {
    LinuxPacingInput {
        mss: 1448,
        cwnd: 10,
        ssthresh: i32::MAX as u32,
        packets_out: 10,
        srtt_us_x8: 30_000 * 8,
        ss_ratio_percent: PACING_SS_RATIO_PERCENT,
        ca_ratio_percent: PACING_CA_RATIO_PERCENT,
        max_rate: u64::MAX,
    }
}

#[test]
fn slow_start_paces_at_twice_cwnd_per_srtt() {
    // 1448 * 80000 * 200 * 10 / 240000 = 965333 B/s (2 x 14480 B per 30 ms)
    assert_eq!(linux_pacing_rate(&input()), 965_333);
}

#[test]
fn congestion_avoidance_paces_at_120_percent_and_uses_packets_out_when_larger() {
    let mut i = input();
    i.ssthresh = 20; // cwnd 10 is not below 20 / 2
    i.packets_out = 12;
    // 1448 * 80000 * 120 * 12 / 240000 = 695040
    assert_eq!(linux_pacing_rate(&i), 695_040);
}

#[test]
fn no_srtt_means_no_division_and_the_cap_applies() {
    let mut i = input();
    i.srtt_us_x8 = 0;
    i.max_rate = 1_000_000;
    assert_eq!(linux_pacing_rate(&i), 1_000_000);
}
