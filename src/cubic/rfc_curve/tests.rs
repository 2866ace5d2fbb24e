use super::*;

// C = 0.4, MSS = 1000 bytes: c_mss = 400 · 1000 = 400000 thousandths = 400 bytes/s³.
const C_MSS: u64 = 400_000;

#[test]
fn offset_of_one_second_is_c_times_mss() {
    // 0.4 seg/s³ · 1 s³ · 1000 B = 400 B.
    assert_eq!(cubic_offset_bytes(C_MSS, 1_000_000), 400);
    // 10 s: 0.4 · 1000 · 1000 = 400000 B (µs tier no longer fits: ms tier).
    assert_eq!(cubic_offset_bytes(C_MSS, 10_000_000), 400_000);
    // 0.5 s: 400 · 0.125 = 50 B.
    assert_eq!(cubic_offset_bytes(C_MSS, 500_000), 50);
}

#[test]
fn k_for_a_classic_reduction() {
    // W_max = 100 segments, cwnd_epoch = 70: (30 / 0.4)^(1/3) = 75^(1/3) = 4.2171633 s.
    let k = cubic_k_us(C_MSS, 30_000);
    assert_eq!(k / 1000, 4217);
    // C·K³ never exceeds the difference, so W_cubic(0) >= cwnd_epoch.
    assert!(cubic_offset_bytes(C_MSS, k) <= 30_000);
    assert!(cubic_offset_bytes(C_MSS, k + 1000) > 30_000);
}

#[test]
fn curve_passes_through_w_max_at_k() {
    let k = cubic_k_us(C_MSS, 30_000);
    assert_eq!(w_cubic_bytes(C_MSS, 100_000, k, k), 100_000);
    // At t = 0 the curve starts at cwnd_epoch = 70000, never below. K > 2.64 s is
    // kept in whole ms (K = 4217 ms): 400 · 4.217³ = 29995.9 -> 29995 B, so
    // W_cubic(0) = 100000 - 29995 = 70005 with the ms floor of K; the error bound is
    // 3·C·MSS·K²·1 ms = 3 · 400 · 17.8 · 0.001 = 21 bytes.
    let w0 = w_cubic_bytes(C_MSS, 100_000, k, 0);
    assert!((70_000..=70_021).contains(&w0), "{w0}");
}

#[test]
#[cfg(target_pointer_width = "64")]
fn the_offset_found_with_k_is_the_offset_of_k() {
    // Differences that land in each of the three tiers, with C·MSS small and large.
    for c_mss in [400_000u64, 480_000, 1, 100_000 * 65_535] {
        for diff in [
            1u64,
            999,
            30_000,
            360_000,
            1 << 30,
            1 << 45,
            u64::MAX / 3,
            u64::MAX,
        ] {
            let (k, offset) = cubic_k_and_offset(c_mss, diff);
            assert_eq!(k, cubic_k_us(c_mss, diff));
            assert_eq!(
                offset,
                cubic_offset_bytes(c_mss, k),
                "c_mss {c_mss} diff {diff}"
            );
            assert!(offset <= diff);
        }
    }
}

/// `K` with the µs tier chosen by the earlier, tighter test (`diff · 1000 ≤ 19 · c_mss
/// + 18`, then the exact `!= u64::MAX`): the shift test must choose the same tier.
fn k_by_the_tight_test(c_mss: u64, diff: u64) -> u64 {
    if let Some(diff_milli) = diff.checked_mul(1_000) {
        if diff_milli <= 19 * c_mss + 18 {
            let cube = mul_div_floor(diff_milli, 1_000_000_000_000_000_000, c_mss);
            if cube != u64::MAX {
                return exact_cube_root(cube);
            }
        }
    }
    let cube = mul_div_floor(diff, 1_000_000_000_000, c_mss);
    if cube != u64::MAX {
        return exact_cube_root(cube) * MICROS_PER_MILLI;
    }
    exact_cube_root(mul_div_floor(diff, 1_000, c_mss)) * MICROS_PER_SEC
}

#[test]
fn the_shift_test_chooses_the_tier_the_exact_test_chooses() {
    // Around the µs tier's true limit (diff ≈ 0.01845 · c_mss) and across the band up
    // to c_mss / 32 that the shift test lets through and the division then rejects.
    for c_mss in [
        1u64,
        31,
        32,
        400,
        400_000,
        480_000,
        1_200_000,
        100_000 * 65_535,
    ] {
        let limit = c_mss * 1845 / 100_000;
        let band_end = (c_mss >> 5) + 2;
        let near_limit = limit.saturating_sub(3)..limit + 4;
        let across_band = (0..64).map(|i| limit + (band_end - limit.min(band_end)) * i / 63);
        let edges = [1, 2, band_end - 1, band_end, c_mss, u64::MAX];
        for diff in near_limit.chain(across_band).chain(edges) {
            let want = k_by_the_tight_test(c_mss, diff);
            assert_eq!(cubic_k_us(c_mss, diff), want, "c_mss {c_mss} diff {diff}");
            #[cfg(target_pointer_width = "64")]
            assert_eq!(
                cubic_k_and_offset(c_mss, diff).0,
                want,
                "c_mss {c_mss} diff {diff}"
            );
        }
    }
}

#[test]
fn the_cube_base_bound_is_the_largest_that_fits() {
    let m = MAX_CUBE_BASE;
    assert!(m.checked_mul(m).and_then(|sq| sq.checked_mul(m)).is_some());
    assert!(
        (m + 1)
            .checked_mul(m + 1)
            .and_then(|sq| sq.checked_mul(m + 1))
            .is_none()
    );
    // Each tier's own boundary: the µs tier up to MAX_CUBE_BASE µs, the ms tier above.
    // 400 B/s³ · 2.642245³ s³ = 7378.7 B; 400 · 2.642³ = 7376.6 B (d truncated to ms).
    assert_eq!(cubic_offset_bytes(C_MSS, m), 7_378);
    assert_eq!(cubic_offset_bytes(C_MSS, m + 1), 7_376);
}

#[test]
fn thirty_days_saturates_instead_of_overflowing() {
    let d = 30 * 86_400 * 1_000_000u64;
    // (2592000 s)^3 · 400 B/s³ = 6.97e21 B > u64::MAX: saturated.
    assert_eq!(cubic_offset_bytes(C_MSS, d), u64::MAX);
    assert_eq!(cubic_offset_bytes(C_MSS, u64::MAX), u64::MAX);
    // (2^64 - 1) · 1000 / 400000 = 46116860184273879 s³ -> K = 358_607 s (floor root).
    assert_eq!(
        cubic_k_us(C_MSS, u64::MAX),
        exact_cube_root(u64::MAX / 400) * 1_000_000
    );
    assert_eq!(w_cubic_bytes(C_MSS, 1 << 40, 0, d), u64::MAX);
}
