use super::*;

fn input(rate: Rate, min_rtt_us: u32) -> TsoInput {
    TsoInput {
        pacing_rate: rate,
        pacing_shift: 10,
        min_rtt_us,
        tso_rtt_log: TSO_RTT_LOG,
        gso_max_size: GSO_MAX_SIZE,
        gso_max_segs: GSO_MAX_SEGS,
        min_tso_segs: MIN_TSO_SEGS,
        mss: 1448,
    }
}

#[test]
fn a_slow_long_path_flow_gets_one_millisecond_of_data() {
    // 100 Mbit/s = 12.5e6 B/s >> 10 = 12207 B; min_rtt 20 ms >> 9 = 39 >= 32: no
    // allowance. 12207 / 1448 = 8 segments.
    let i = input(Rate::from_bits_per_second(100_000_000), 20_000);
    assert_eq!(tso_autosize_bytes(&i), 12_207);
    assert_eq!(tso_segs(&i), 8);
}

#[test]
fn short_paths_get_an_allowance_that_halves_every_512_us() {
    // Same rate, min_rtt 1100 us >> 9 = 2: + 65536 >> 2 = 16384 -> 28591 B = 19 segs.
    let i = input(Rate::from_bits_per_second(100_000_000), 1_100);
    assert_eq!(tso_autosize_bytes(&i), 28_591);
    assert_eq!(tso_segs(&i), 19);
    // min_rtt 100 us >> 9 = 0: + 65536 -> capped at 65536 B = 45 segments.
    let i = input(Rate::from_bits_per_second(100_000_000), 100);
    assert_eq!(tso_autosize_bytes(&i), 65_536);
    assert_eq!(tso_segs(&i), 45);
}

#[test]
fn fast_flows_fill_the_gso_maximum() {
    // 10 Gbit/s >> 10 = 1220703 B, capped at 65536 B: 65536 / 1448 = 45 segments.
    let i = input(Rate::from_bits_per_second(10_000_000_000), u32::MAX);
    assert_eq!(tso_segs(&i), 45);
}

#[test]
fn very_slow_flows_still_send_min_tso_segs_within_gso_max_segs() {
    // 1 Mbit/s >> 10 = 122 B / 1448 = 0 -> min_tso_segs 2.
    let mut i = input(Rate::from_bits_per_second(1_000_000), u32::MAX);
    assert_eq!(tso_segs(&i), 2);
    i.gso_max_segs = 1;
    assert_eq!(tso_segs(&i), 1);
    i.mss = 0;
    i.gso_max_segs = GSO_MAX_SEGS;
    assert_eq!(tso_segs(&i), 122);
}
