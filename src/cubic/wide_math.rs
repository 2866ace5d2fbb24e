//! 64×64→128-bit multiply-then-divide without `u128`, for RFC-mode CUBIC.
//!
//! RFC-mode CUBIC needs products such as `d³ · C · MSS` whose intermediate values do not
//! fit in 64 bits although the final quotient does. `u128` is not allowed (BPF), so the
//! product is kept as two 64-bit halves and divided by a bounded shift-subtract loop.

/// Splits `x` into its high and low 32-bit halves.
const fn halves(x: u64) -> (u64, u64) {
    (x >> 32, x & 0xFFFF_FFFF)
}

/// The full 128-bit product `a · b` as `(high, low)` 64-bit words.
// Schoolbook multiplication on 32-bit limbs: a·b = (ah·2^32 + al)(bh·2^32 + bl).
pub const fn wide_mul(a: u64, b: u64) -> (u64, u64) {
    let (ah, al) = halves(a);
    let (bh, bl) = halves(b);
    // Each limb product is below 2^64: (2^32 - 1)^2 < 2^64.
    let ll = al * bl;
    let lh = al * bh;
    let hl = ah * bl;
    let hh = ah * bh;
    // Middle column: at most 3·(2^32 - 1) < 2^34, no overflow.
    let mid = (ll >> 32) + (lh & 0xFFFF_FFFF) + (hl & 0xFFFF_FFFF);
    let low = (ll & 0xFFFF_FFFF) | (mid << 32);
    // The high word of a 64×64 product never exceeds 2^64 - 2: no overflow.
    let high = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    (high, low)
}

/// `⌊a · b / d⌋`, exact whenever the quotient fits in a `u64`, else `u64::MAX`.
///
/// `d == 0` also returns `u64::MAX` (callers pass validated, non-zero divisors; the
/// guard only keeps the division provably safe). The loop runs exactly 64 times.
pub const fn mul_div_floor(a: u64, b: u64, d: u64) -> u64 {
    if d == 0 {
        return u64::MAX;
    }
    let (high, low) = wide_mul(a, b);
    if high >= d {
        // The quotient needs more than 64 bits: saturate.
        return u64::MAX;
    }
    // Restoring long division of (high, low) by d, one bit of `low` at a time.
    // Invariant: rem < d before each step, so 2·rem + 1 < 2·d fits in 65 bits; the bit
    // shifted out (`carry`) stands for the 65th.
    let mut rem = high;
    let mut quotient = 0u64;
    let mut i = 64u32;
    while i > 0 {
        i -= 1;
        let carry = rem >> 63;
        rem = (rem << 1) | ((low >> i) & 1);
        quotient <<= 1;
        if carry == 1 || rem >= d {
            // When carry is set the true remainder is rem + 2^64 > d, and the wrapping
            // subtraction yields exactly (rem + 2^64) - d < d.
            rem = rem.wrapping_sub(d);
            quotient |= 1;
        }
    }
    quotient
}

#[cfg(test)]
mod tests {
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
    fn mul_div_saturates_instead_of_wrapping() {
        assert_eq!(mul_div_floor(u64::MAX, 2, 1), u64::MAX);
        assert_eq!(mul_div_floor(5, 5, 0), u64::MAX);
    }
}
