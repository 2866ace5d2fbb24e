//! The 64-bit division RFC mode uses (`div_floor`, `div_rem_floor`) and the 32-bit-only
//! algorithm behind it on firmware targets (`narrow_div_rem`), checked against the
//! native `/` and `%`: exhaustively on small operands, at every power-of-two boundary
//! where the algorithm changes path, and on random 64-bit operands.

use congestion::cubic::{div_floor, div_rem_floor, narrow_div_rem};
use core::num::NonZeroU64;
use proptest::prelude::*;

fn nz(d: u64) -> NonZeroU64 {
    NonZeroU64::new(d).expect("test divisors are non-zero")
}

/// Checks all three functions against `/` and `%` for one pair.
fn check(n: u64, d: u64) {
    let want = (n / d, n % d);
    assert_eq!(narrow_div_rem(n, nz(d)), want, "narrow {n} / {d}");
    assert_eq!(div_rem_floor(n, nz(d)), want, "div_rem {n} / {d}");
    assert_eq!(div_floor(n, nz(d)), want.0, "div_floor {n} / {d}");
}

#[test]
fn every_small_dividend_and_divisor() {
    for n in 0..2_048u64 {
        for d in 1..=300u64 {
            check(n, d);
        }
    }
}

#[test]
fn operands_around_every_power_of_two() {
    // The 32-bit path ends at 2^32, and the long division's step count changes at every
    // power of two: test each boundary's neighbours against each other.
    let mut edges = vec![0u64, u64::MAX];
    for bit in 0..64 {
        let p = 1u64 << bit;
        edges.extend([p - 1, p, p + 1, p.wrapping_mul(3), (p - 1).wrapping_mul(7)]);
    }
    for &n in &edges {
        for &d in &edges {
            if d != 0 {
                check(n, d);
            }
        }
    }
}

#[test]
fn the_constants_and_windows_rfc_mode_divides_by() {
    // 1e3, 1e6 (µs to ms and s), 1e18 (the curve's µs tier), MSS values, windows.
    let divisors = [
        1_000,
        1_000_000,
        1_000_000_000_000_000_000,
        1_200,
        1_460,
        65_535,
    ];
    let dividends = [
        0,
        999,
        1_000,
        4_294_967_295,
        4_294_967_296,
        2_642_245_000_000,
        18_446_744_073_709_551_615,
        12_345_678_901_234_567,
    ];
    for d in divisors {
        for n in dividends {
            check(n, d);
        }
    }
}

proptest! {
    #[test]
    fn agrees_with_native_division(n: u64, d in 1u64..) {
        check(n, d);
    }

    #[test]
    fn agrees_on_32_bit_divisors(n: u64, d in 1u64..=u64::from(u32::MAX)) {
        check(n, d);
    }

    #[test]
    fn agrees_on_quotients_of_every_length(n: u64, shift in 0u32..64, d in 1u64..) {
        // d shifted down so that n / d takes from 1 to 64 quotient bits.
        let d = (d >> shift).max(1);
        check(n, d);
    }
}
