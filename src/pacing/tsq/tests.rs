use super::*;

fn input(rate: Rate) -> TsqLimitInput {
    TsqLimitInput {
        pacing_rate: rate,
        pacing_shift: PACING_SHIFT,
        truesize_bytes: 2_304,
        paced: true,
        limit_output_bytes: LIMIT_OUTPUT_BYTES,
        retransmit: false,
    }
}

#[test]
fn at_10_gbit_one_millisecond_of_rate_is_about_1_25_mb() {
    // 10 Gbit/s = 1.25e9 B/s; >> 10 = 1220703 B (1.25e9 / 1024, ~0.98 ms).
    let l = tsq_limit_bytes(&input(Rate::from_bits_per_second(10_000_000_000)));
    assert_eq!(l, 1_220_703);
}

#[test]
fn at_1_gbit_the_budget_is_about_the_original_128_kib() {
    // 1.25e8 B/s >> 10 = 122070 B: 93 % of the original 131072 B limit.
    let l = tsq_limit_bytes(&input(Rate::from_bits_per_second(1_000_000_000)));
    assert_eq!(l, 122_070);
}

#[test]
fn slow_flows_may_still_queue_two_packets() {
    // 1 Mbit/s = 125000 B/s >> 10 = 122 B < 2 * 2304 = 4608 B.
    let l = tsq_limit_bytes(&input(Rate::from_bits_per_second(1_000_000)));
    assert_eq!(l, 4_608);
}

#[test]
fn unpaced_flows_are_capped_by_limit_output_bytes_and_retransmits_double() {
    let mut i = input(Rate::from_bits_per_second(10_000_000_000));
    i.paced = false;
    i.limit_output_bytes = LIMIT_OUTPUT_BYTES_ORIGINAL;
    assert_eq!(tsq_limit_bytes(&i), 131_072);
    i.retransmit = true;
    assert_eq!(tsq_limit_bytes(&i), 262_144);
    // Paced flows ignore the cap: 2 * 1220703.
    i.paced = true;
    assert_eq!(tsq_limit_bytes(&i), 2_441_406);
}

#[test]
fn a_flow_over_budget_is_throttled_until_a_completion_reopens_it() {
    let mut b = TsqBudget::new();
    assert!(b.check(4_608, false));
    b.on_enqueue(2_304);
    b.on_enqueue(2_304);
    assert!(b.check(4_608, false), "4608 queued is not above 4608");
    b.on_enqueue(2_304);
    assert!(!b.check(4_608, false));
    assert!(b.is_throttled());
    // Unless the retransmit queue holds at most one packet.
    assert!(b.check(4_608, true));
    assert!(b.on_tx_completion(2_304), "6912 - 2304 = 4608 reopens");
    assert!(!b.is_throttled());
    assert!(!b.on_tx_completion(2_304), "not throttled: nothing to tell");
}

#[test]
fn a_flow_throttled_at_a_limit_of_zero_reopens_only_once_empty() {
    // The smallest limit a refusal can record (0) is still told apart from "not
    // throttled", and so is the largest (u64::MAX - 1).
    let mut b = TsqBudget::new();
    b.on_enqueue(1);
    assert!(!b.check(0, false));
    assert!(b.is_throttled());
    assert!(b.on_tx_completion(1));
    assert!(!b.is_throttled());
    b.on_enqueue(u64::MAX);
    assert!(!b.check(u64::MAX - 1, false));
    assert!(b.is_throttled());
    assert!(!b.on_tx_completion(0), "u64::MAX queued > u64::MAX - 1");
    assert!(b.on_tx_completion(1));
    assert_eq!(b.queued_bytes(), u64::MAX - 1);
    // u64::MAX itself admits everything: no refusal, nothing throttled.
    assert!(b.check(u64::MAX, false));
    assert!(!b.is_throttled());
    assert_eq!(TsqBudget::default(), TsqBudget::new());
}

#[test]
fn completing_more_than_was_queued_empties_instead_of_going_negative() {
    let mut b = TsqBudget::new();
    b.on_enqueue(100);
    b.on_tx_completion(1_000);
    assert_eq!(b.queued_bytes(), 0);
}
