//! The integer tools of RFC mode against 128-bit references (tests may use u128; the
//! library may not).

use congestion::cubic::{
    bitwise_cube_root, bitwise_wide_div, exact_cube_root, knuth_wide_div, mul_div_floor,
    newton_cube_root, rfc_curve::cubic_k_us, rfc_curve::cubic_offset_bytes,
};
use proptest::prelude::*;

proptest! {
    #[test]
    fn mul_div_agrees_with_a_wide_reference(a: u64, b: u64, d in 1u64..) {
        let exact = (a as u128) * (b as u128) / (d as u128);
        let want = u64::try_from(exact).unwrap_or(u64::MAX);
        prop_assert_eq!(mul_div_floor(a, b, d), want);
    }

    #[test]
    fn both_wide_divisions_agree_with_a_wide_reference(high: u64, low: u64, d in 1u64..) {
        let high = high % d;
        let want = (((high as u128) << 64) | low as u128) / d as u128;
        prop_assert_eq!(knuth_wide_div(high, low, d) as u128, want);
        prop_assert_eq!(bitwise_wide_div(high, low, d) as u128, want);
    }

    #[test]
    fn both_wide_divisions_agree_on_small_divisors(high: u64, low: u64, d in 1u64..(1 << 33)) {
        // Divisors below 2^33 exercise the normalisation shift and the digit corrections.
        let high = high % d;
        let want = (((high as u128) << 64) | low as u128) / d as u128;
        prop_assert_eq!(knuth_wide_div(high, low, d) as u128, want);
        prop_assert_eq!(bitwise_wide_div(high, low, d) as u128, want);
    }

    #[test]
    fn both_cube_roots_are_the_floor_cube_root(x: u64) {
        let want = exact_cube_root(x);
        prop_assert_eq!(newton_cube_root(x), want);
        prop_assert_eq!(bitwise_cube_root(x), want);
    }

    #[test]
    fn cube_roots_of_cubes_and_their_neighbours(r in 0u64..2_642_246) {
        let c = r * r * r;
        prop_assert_eq!(newton_cube_root(c), r);
        prop_assert_eq!(bitwise_cube_root(c), r);
        if r > 0 {
            prop_assert_eq!(newton_cube_root(c - 1), r - 1);
            prop_assert_eq!(bitwise_cube_root(c - 1), r - 1);
        }
    }

    #[test]
    fn cube_root_is_the_floor_cube_root(x: u64) {
        let r = exact_cube_root(x) as u128;
        prop_assert!(r * r * r <= x as u128);
        prop_assert!((r + 1) * (r + 1) * (r + 1) > x as u128);
    }

    #[test]
    fn offset_never_exceeds_the_exact_value_and_is_monotone_within_a_tier(
        c_mss in 1u64..(100_000 * 65_535),
        d_us in 0u64..2_642_245,
    ) {
        // Tier 1 (µs) is exact: floor(c_mss · d³ / 1e21).
        let exact = (c_mss as u128) * (d_us as u128).pow(3) / 1_000_000_000_000_000_000_000u128;
        prop_assert_eq!(cubic_offset_bytes(c_mss, d_us) as u128, exact);
        prop_assert!(cubic_offset_bytes(c_mss, d_us + 1) >= cubic_offset_bytes(c_mss, d_us));
    }

    #[test]
    fn k_never_overshoots_the_window_difference(c_mss in 1u64..(100_000 * 65_535), diff in 0u64..(1u64 << 50)) {
        // C·K³ <= W_max − cwnd_epoch, so the curve starts at or above cwnd_epoch.
        let k = cubic_k_us(c_mss, diff);
        prop_assert!(cubic_offset_bytes(c_mss, k) <= diff);
    }
}
