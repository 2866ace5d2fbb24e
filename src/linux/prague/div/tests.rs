use super::*;

#[test]
fn the_u32_divisor_is_truncated_and_the_u64_one_is_not() {
    let d = (1u64 << 32) + 3;
    assert_eq!(div_u64(12, d), 4);
    assert_eq!(div64_u64(12, d), 0);
    assert_eq!(div_u64_round_closest(7, 2), 4);
    assert_eq!(div64_u64_round_closest(7, 4), 2);
    assert_eq!(div_u64_round_up(7, 2), 4);
    assert_eq!(div64_u64_round_up(8, 4), 2);
    // Zero divisors count as 1.
    assert_eq!(div_u64(5, 1 << 32), 5);
    assert_eq!(div64_u64(5, 0), 5);
}
