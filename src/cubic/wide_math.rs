//! 64×64→128-bit multiply-then-divide without `u128`, and 64-bit division, for RFC-mode
//! CUBIC.
//!
//! Products such as `d³ · C · MSS` may pass 64 bits while the quotient fits; without
//! `u128` (BPF) they are kept as two halves and divided in base 2^32. Every 64-bit
//! division goes through [`div_floor`] / [`div_rem_floor`], so that 32-bit firmware
//! never links the compiler's 64-bit division routine (~930 bytes on Cortex-M4).

use core::num::{NonZeroU32, NonZeroU64};

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

/// Linux `mul_u64_u64_shr(a, b, shift)`: the exact 128-bit product `a · b` shifted
/// right by `shift` (below 128), truncated to 64 bits as the kernel's is.
// Linux include/linux/math64.h mul_u64_u64_shr(): (u64)(((u128)a * b) >> shift)
pub const fn mul_u64_u64_shr(a: u64, b: u64, shift: u32) -> u64 {
    let (high, low) = wide_mul(a, b);
    match shift {
        0 => low,
        1..=63 => (low >> shift) | (high << (64 - shift)),
        64..=127 => high >> (shift - 64),
        _ => 0,
    }
}

/// `⌊a · b / d⌋`, exact whenever the quotient fits in a `u64`, else `u64::MAX`.
///
/// `d == 0` also returns `u64::MAX` (callers never pass it). A product past 64 bits
/// goes out of line to [`wide_div`].
#[cfg_attr(target_pointer_width = "64", inline)]
#[cfg_attr(not(target_pointer_width = "64"), inline(never))]
pub const fn mul_div_floor(a: u64, b: u64, d: u64) -> u64 {
    if d == 0 {
        return u64::MAX;
    }
    match a.checked_mul(b) {
        // 64-bit hosts: the native division.
        #[cfg(target_pointer_width = "64")]
        Some(product) => product / d,
        #[cfg(not(target_pointer_width = "64"))]
        Some(product) => match NonZeroU64::new(d) {
            Some(divisor) => narrow_div_rem(product, divisor).0,
            None => u64::MAX,
        },
        None => wide_mul_div(a, b, d),
    }
}

/// [`mul_div_floor`] for a constant `b` wider than 32 bits (`K`'s scales), the same
/// value, in fewer instructions; 64-bit targets only.
#[cfg(target_pointer_width = "64")]
#[inline]
pub(crate) const fn mul_wide_const_div_floor(a: u64, b: u64, d: u64) -> u64 {
    if d == 0 || b == 0 {
        return mul_div_floor(a, b, d);
    }
    if a <= u64::MAX / b {
        // a · b ≤ u64::MAX: no overflow.
        a * b / d
    } else {
        wide_mul_div(a, b, d)
    }
}

/// `⌊n / d⌋`.
///
/// Native on 64-bit targets, else [`narrow_div_rem`]; both exact.
#[inline]
pub const fn div_floor(n: u64, d: NonZeroU64) -> u64 {
    #[cfg(target_pointer_width = "64")]
    {
        n / d.get()
    }
    #[cfg(not(target_pointer_width = "64"))]
    {
        narrow_div_rem(n, d).0
    }
}

/// `(⌊n / d⌋, n mod d)`, as [`div_floor`] (one native division on 64-bit targets, which
/// yields both).
#[inline]
pub const fn div_rem_floor(n: u64, d: NonZeroU64) -> (u64, u64) {
    #[cfg(target_pointer_width = "64")]
    {
        (n / d.get(), n % d.get())
    }
    #[cfg(not(target_pointer_width = "64"))]
    {
        narrow_div_rem(n, d)
    }
}

/// `(⌊n / d⌋, n mod d)` with 32-bit divisions only, for targets narrower than 64 bits
/// (where `/` on `u64` is a call to a general routine of several hundred bytes).
///
/// One 32-bit division when both fit in 32 bits (nearly every call), else restoring
/// binary long division (at most 64 steps). Exact; compiled everywhere for the tests.
#[cfg_attr(not(target_pointer_width = "64"), inline(never))]
pub const fn narrow_div_rem(n: u64, d: NonZeroU64) -> (u64, u64) {
    let d = d.get();
    if n >> 32 == 0 && d >> 32 == 0 {
        // d is non-zero and fits in 32 bits: its low half is non-zero.
        if let Some(d32) = NonZeroU32::new(d as u32) {
            let n32 = n as u32;
            return ((n32 / d32.get()) as u64, (n32 % d32.get()) as u64);
        }
    }
    if n < d {
        return (0, n);
    }
    // Shift d up until doubling it would pass n (n >= d > 0): then n < 2 · divisor.
    // Doubling while divisor <= n / 2 < 2^63 never overflows and stops within 63 steps.
    let mut divisor = d;
    let mut shift = 0;
    while shift < 63 && divisor <= n >> 1 {
        divisor <<= 1;
        shift += 1;
    }
    let mut rem = n;
    let mut quotient = 0u64;
    let mut step = 0;
    // Invariant: rem < 2 · divisor before each step, so each step finds one quotient bit.
    while step <= shift {
        quotient <<= 1;
        if rem >= divisor {
            rem -= divisor;
            quotient |= 1;
        }
        divisor >>= 1;
        step += 1;
    }
    (quotient, rem)
}

/// The wide half of [`mul_div_floor`]: `a · b` overflows 64 bits, `d > 0`.
#[inline(never)]
#[cold]
const fn wide_mul_div(a: u64, b: u64, d: u64) -> u64 {
    let (high, low) = wide_mul(a, b);
    if high >= d {
        // The quotient needs more than 64 bits: saturate.
        return u64::MAX;
    }
    wide_div(high, low, d)
}

/// `⌊(high · 2^64 + low) / d⌋` for `high < d` (so the quotient fits in 64 bits);
/// `u64::MAX` if `high >= d` or `d == 0` (callers never pass either).
///
/// [`knuth_wide_div`] on 64-bit targets, [`bitwise_wide_div`] (smaller) on narrower
/// ones; both exact.
pub const fn wide_div(high: u64, low: u64, d: u64) -> u64 {
    #[cfg(target_pointer_width = "64")]
    {
        knuth_wide_div(high, low, d)
    }
    #[cfg(not(target_pointer_width = "64"))]
    {
        bitwise_wide_div(high, low, d)
    }
}

/// Restoring binary long division of `(high, low)` by `d`, one bit of `low` per step
/// (64 steps); same contract as [`wide_div`].
pub const fn bitwise_wide_div(high: u64, low: u64, d: u64) -> u64 {
    if d == 0 || high >= d {
        return u64::MAX;
    }
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

/// Long division in base 2^32 with a normalised divisor (Knuth, TAOCP vol. 2, §4.3.1,
/// Algorithm D, two quotient digits): each digit is estimated from the divisor's top
/// half with one native division and corrected at most twice. Returns `u64::MAX` if
/// `high >= d` or `d == 0` (callers never pass either).
pub const fn knuth_wide_div(high: u64, low: u64, d: u64) -> u64 {
    const B: u64 = 1 << 32;
    const MASK: u64 = B - 1;
    if d == 0 || high >= d {
        return u64::MAX;
    }
    // Normalise: shift the divisor's top bit to bit 63 (and the dividend with it; the
    // bits shifted out of `high` are zero because high < d).
    let shift = d.leading_zeros();
    let v = d << shift;
    let v_hi = v >> 32;
    let v_lo = v & MASK;
    let u_hi = if shift == 0 {
        high
    } else {
        (high << shift) | (low >> (64 - shift))
    };
    let u_lo = low << shift;
    let q1 = quotient_digit(u_hi, u_lo >> 32, v_hi, v_lo);
    // The partial remainder (u_hi · 2^32 + next digit) − q1 · v is below v < 2^64: the
    // wrapping operations drop only bits that cancel.
    let rem = (u_hi << 32)
        .wrapping_add(u_lo >> 32)
        .wrapping_sub(q1.wrapping_mul(v));
    let q0 = quotient_digit(rem, u_lo & MASK, v_hi, v_lo);
    (q1 << 32) | q0
}

/// One base-2^32 quotient digit of `(u · 2^32 + next) / (v_hi · 2^32 + v_lo)`, where
/// `u < v` and `v_hi >= 2^31` (normalised): the estimate `u / v_hi` is at most 2 too
/// large (Knuth's Theorem B), so two corrections suffice.
const fn quotient_digit(u: u64, next: u64, v_hi: u64, v_lo: u64) -> u64 {
    const B: u64 = 1 << 32;
    // v_hi >= 2^31 here; the guard only keeps the division provably safe.
    if v_hi == 0 {
        return 0;
    }
    let mut q = u / v_hi;
    let mut r = u - q * v_hi;
    let mut step = 0;
    while step < 2 {
        step += 1;
        // q · v_lo fits: q < B is checked first; r < B keeps r · B + next below 2^64.
        if q >= B || q * v_lo > r * B + next {
            q -= 1;
            r += v_hi;
            if r < B {
                continue;
            }
        }
        break;
    }
    q
}

#[cfg(test)]
mod tests;
