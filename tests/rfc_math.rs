//! The integer tools of RFC mode against 128-bit references (tests may use u128; the
//! library may not).

use congestion::cubic::{
    exact_cube_root, mul_div_floor, rfc_curve::cubic_k_us, rfc_curve::cubic_offset_bytes,
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
