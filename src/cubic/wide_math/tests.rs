use super::*;

#[test]
fn wide_mul_matches_hand_values() {
    // (2^64 - 1)^2 = 2^128 - 2^65 + 1: high = 2^64 - 2, low = 1.
    assert_eq!(wide_mul(u64::MAX, u64::MAX), (u64::MAX - 1, 1));
    // 2^32 · 2^32 = 2^64: high 1, low 0.
    assert_eq!(wide_mul(1 << 32, 1 << 32), (1, 0));
    assert_eq!(wide_mul(12345, 678), (0, 12345 * 678));
}

#[test]
fn mul_div_is_exact_beyond_64_bit_products() {
    // 10^12 · 10^12 / 10^6 = 10^18: the product 10^24 does not fit in 64 bits.
    assert_eq!(
        mul_div_floor(1_000_000_000_000, 1_000_000_000_000, 1_000_000),
        1_000_000_000_000_000_000
    );
    // 7 · 3 / 2 = 10.5 -> 10.
    assert_eq!(mul_div_floor(7, 3, 2), 10);
    // (2^64 - 1)^2 / (2^64 - 1) = 2^64 - 1.
    assert_eq!(mul_div_floor(u64::MAX, u64::MAX, u64::MAX), u64::MAX);
}

#[test]
fn the_native_fast_path_and_the_long_division_agree_at_the_boundary() {
    // 2^32 · (2^32 - 1) = 2^64 - 2^32 fits in 64 bits: the fast path.
    assert_eq!(
        mul_div_floor(1 << 32, (1 << 32) - 1, 3),
        ((1u64 << 32) * ((1 << 32) - 1)) / 3
    );
    // 2^32 · 2^32 = 2^64 does not: the long division, 2^64 / 3 = 6148914691236517205.
    assert_eq!(
        mul_div_floor(1 << 32, 1 << 32, 3),
        6_148_914_691_236_517_205
    );
    // 2^64 / 2 = 2^63.
    assert_eq!(mul_div_floor(1 << 32, 1 << 32, 2), 1 << 63);
}

#[test]
fn long_division_matches_hand_values() {
    // (2^64 + 5) / 3 = 6148914691236517207 (2^64 = 3 · 6148914691236517205 + 1).
    assert_eq!(wide_div(1, 5, 3), 6_148_914_691_236_517_207);
    // (2^127) / (2^64 - 1) = 2^63 + 0 remainder 2^63 -> 2^63 (floor).
    assert_eq!(wide_div(1 << 63, 0, u64::MAX), 1 << 63);
    // 10^24 / 10^18 = 10^6: 10^24 = 54210 · 2^64 + 2003764205206896640.
    assert_eq!(
        wide_div(54_210, 2_003_764_205_206_896_640, 1_000_000_000_000_000_000),
        1_000_000
    );
    assert_eq!(wide_div(5, 0, 5), u64::MAX);
    assert_eq!(wide_div(0, 5, 0), u64::MAX);
}

#[test]
fn mul_div_saturates_instead_of_wrapping() {
    assert_eq!(mul_div_floor(u64::MAX, 2, 1), u64::MAX);
    assert_eq!(mul_div_floor(5, 5, 0), u64::MAX);
}

mod mul_shr_tests {
    use super::super::mul_u64_u64_shr;

    #[test]
    fn the_shift_keeps_the_bits_above_64() {
        // 2^40 * 2^40 = 2^80; >> 20 = 2^60, beyond any 64-bit product.
        assert_eq!(mul_u64_u64_shr(1 << 40, 1 << 40, 20), 1 << 60);
        // (2^64 - 1)^2 >> 64 = 2^64 - 2.
        assert_eq!(mul_u64_u64_shr(u64::MAX, u64::MAX, 64), u64::MAX - 1);
        assert_eq!(mul_u64_u64_shr(6, 7, 0), 42);
        assert_eq!(mul_u64_u64_shr(6, 7, 1), 21);
        // Truncated to 64 bits like the kernel's cast: 2^100 >> 20 = 2^80 -> 0.
        assert_eq!(mul_u64_u64_shr(1 << 50, 1 << 50, 20), 0);
        assert_eq!(mul_u64_u64_shr(3, 1 << 63, 127), 0);
        assert_eq!(mul_u64_u64_shr(u64::MAX, 2, 127), 0);
        assert_eq!(mul_u64_u64_shr(u64::MAX, 4, 65), 1);
    }
}

mod wide_const_tests {
    use super::*;

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn the_wide_constant_form_is_mul_div_floor() {
        let bs = [1_000_000_000_000u64, 1_000_000_000_000_000_000];
        let ds = [1u64, 7, 400_000, 480_000, 100_000 * 65_535, u64::MAX, 0];
        let mut a = 0u64;
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for i in 0..20_000u32 {
            for &b in &bs {
                for &d in &ds {
                    assert_eq!(mul_wide_const_div_floor(a, b, d), mul_div_floor(a, b, d));
                }
                // Around the overflow limit of the product.
                let edge = u64::MAX / b;
                for x in [edge - 1, edge, edge + 1] {
                    for &d in &ds {
                        assert_eq!(mul_wide_const_div_floor(x, b, d), mul_div_floor(x, b, d));
                    }
                }
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            a = state >> (i % 64);
        }
    }
}
