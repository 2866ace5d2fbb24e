//! 64×64→128-bit multiply-then-divide without `u128`, and 64-bit division, for RFC-mode
//! CUBIC.
//!
//! RFC-mode CUBIC needs products such as `d³ · C · MSS` whose intermediate values do not
//! fit in 64 bits although the final quotient does. `u128` is not allowed (BPF), so the
//! product is kept as two 64-bit halves and divided by a two-digit long division in
//! base 2^32; products that fit in 64 bits (the common case) never leave the fast path.
//!
//! Every 64-bit division in RFC mode goes through [`div_floor`] / [`div_rem_floor`]: one
//! native instruction on 64-bit targets, and on 32-bit ones (Cortex-M, RISC-V firmware)
//! [`narrow_div_rem`], which uses the core's 32-bit divide when both operands fit in 32
//! bits and a short shift-and-subtract loop otherwise, so that the firmware does not link
//! the compiler's general 64-bit division routine (`__aeabi_uldivmod`, about 930 bytes of
//! flash on Cortex-M4).

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
/// `d == 0` also returns `u64::MAX` (callers pass validated, non-zero divisors; the
/// guard only keeps the division provably safe). A product that fits in 64 bits takes
/// one multiplication and one native division (inlined); a wider one goes out of line
/// to [`wide_div`]: four limb products and a two-digit long division. On targets narrower
/// than 64 bits, where the 64-bit multiply and divide are themselves several instructions
/// and a library call, it stays out of line so that flash holds one copy.
#[cfg_attr(target_pointer_width = "64", inline)]
#[cfg_attr(not(target_pointer_width = "64"), inline(never))]
pub const fn mul_div_floor(a: u64, b: u64, d: u64) -> u64 {
    if d == 0 {
        return u64::MAX;
    }
    match a.checked_mul(b) {
        // 64-bit hosts: the native division as written (the NonZeroU64 detour of the
        // narrow path costs x86-64 three instructions per ACK, scripts/instructions.sh).
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

/// [`mul_div_floor`] for a constant `b` wider than 32 bits (1e12, 1e18: `K`'s scales),
/// the same value. The product is tested against `u64::MAX / b` (folded to a constant)
/// and then formed as a plain multiplication: x86-64 compilers take a product with
/// such a constant as certainly wider than 32 bits and divide it with one 64-bit
/// `div`, without the test for a 32-bit shortcut they put before a division of an
/// unknown size (four instructions, measured with callgrind on the epoch start).
/// 64-bit targets only (narrower ones keep the one shared routine, flash counts more).
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
/// One native division on 64-bit targets; on narrower ones [`narrow_div_rem`], which
/// needs no 64-bit division routine. Both are exact (tested equal to `/`).
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
/// When `n` and `d` both fit in 32 bits (windows below 4 GiB, times below 71 minutes:
/// nearly every call) this is one 32-bit division (`udiv` on Cortex-M3/M4, `divu` on
/// RISC-V M, a small compiler helper on Cortex-M0). Otherwise it is restoring binary
/// long division: `d` is shifted up to `n`'s leading bit and one quotient bit is found per
/// step, at most 64 steps (as many as the quotient has bits). Exact for every input;
/// compiled on every target so that the host tests check it against `/`.
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
    // (A loop, not `leading_zeros`: Cortex-M0 and RISC-V without Zbb have no count-
    // leading-zeros instruction, and its expansion is larger than this loop.)
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
/// On 64-bit targets this is [`knuth_wide_div`] (two native divisions); on narrower ones,
/// where a 64-bit division is itself a library call and flash counts more,
/// [`bitwise_wide_div`] (shifts and subtractions, smaller code). Both are exact, and
/// tested equal to a 128-bit reference.
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
