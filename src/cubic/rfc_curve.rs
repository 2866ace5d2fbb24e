//! RFC 9438 §4.2 in integers: the cubic offset `C·(t−K)³` in bytes and `K` in µs.
//!
//! Units and scales: time in microseconds (`u64`), windows in bytes (`u64`), `C · MSS`
//! in thousandths of bytes per s³ (`c_mss`, at most 100000 · 65535 < 2^33, see
//! [`RfcCubicParams::c_mss`](super::RfcCubicParams::c_mss)).
//!
//! Overflow: `C·MSS·d³` is formed at the finest of 1 µs, 1 ms or 1 s whose cube fits in
//! 64 bits (`d = |t − K|` up to 2.64 s, 44 min, beyond), then divided through
//! [`mul_div_floor`]; it saturates only where the true offset passes `u64::MAX` bytes
//! (docs/rfc-mode.md, "Integer curve", has the table). `K` uses the same resolutions, so
//! `C·K³ ≤ W_max − cwnd_epoch` exactly: `W_cubic(0) ≥ cwnd_epoch`.

use super::cube_root::exact_cube_root;
#[cfg(target_pointer_width = "64")]
use super::wide_math::mul_wide_const_div_floor;
use super::wide_math::{div_floor, mul_div_floor};
use core::num::NonZeroU64;

const MICROS_PER_MILLI: u64 = 1_000;
const MICROS_PER_SEC: u64 = 1_000_000;

/// The constant divisors, typed non-zero so that they go through [`div_floor`] (on 32-bit
/// firmware even a division by a constant is otherwise a 64-bit division routine).
const THOUSAND: NonZeroU64 = NonZeroU64::new(MICROS_PER_MILLI).unwrap();
const MILLION: NonZeroU64 = NonZeroU64::new(MICROS_PER_SEC).unwrap();

/// The largest `d` whose cube fits in a `u64`: 2642245³ < 2^64 ≤ 2642246³ (a test
/// checks both), so `d³` is formed without overflow exactly when `d ≤ MAX_CUBE_BASE`.
// floor(cbrt(2^64 - 1)) = 2642245
const MAX_CUBE_BASE: u64 = 2_642_245;

/// `C · MSS · d³` in bytes for `d_us` microseconds (floor), saturating at `u64::MAX`.
///
/// `c_mss` is `C · MSS` in thousandths of bytes per s³.
// RFC 9438 §4.2: W_cubic(t) = C*(t-K)^3 + W_max; this is the C*(t-K)^3 term, in bytes
pub const fn cubic_offset_bytes(c_mss: u64, d_us: u64) -> u64 {
    // Tier 1, µs: d³ µs³ = d³·1e-18 s³; with C in thousandths the divisor is 1e21,
    // applied as two exact floors (⌊⌊x/a⌋/b⌋ = ⌊x/(ab)⌋). d³ fits in 64 bits exactly
    // when d ≤ MAX_CUBE_BASE: one comparison instead of two checked products.
    if d_us <= MAX_CUBE_BASE {
        let scaled = mul_div_floor(d_us * d_us * d_us, c_mss, 1_000_000_000_000_000_000);
        return div_floor(scaled, THOUSAND);
    }
    // Tier 2, ms: ms³ = 1e-9 s³, so the divisor is 1e9 · 1e3 = 1e12.
    let d_ms = div_floor(d_us, THOUSAND);
    if d_ms <= MAX_CUBE_BASE {
        return mul_div_floor(d_ms * d_ms * d_ms, c_mss, 1_000_000_000_000);
    }
    // Tier 3, s: only the thousandths of C remain to divide out.
    let d_s = div_floor(d_us, MILLION);
    let cube = d_s.saturating_mul(d_s).saturating_mul(d_s);
    mul_div_floor(cube, c_mss, 1_000)
}

/// Whether `K`'s µs-tier cube `⌊diff · 1e21 / c_mss⌋` may fit in 64 bits: a cheap
/// superset of the exact test (the cube fits only if `diff < 0.01845 · c_mss`, so
/// `diff ≤ c_mss / 32`), which the exact test after the division completes.
// RFC 9438 §4.2: K = cubic_root((W_max - cwnd_epoch)/C), here only which resolution
const fn tier1_may_fit(c_mss: u64, diff_bytes: u64) -> bool {
    diff_bytes <= c_mss >> 5
}

/// `K = cbrt((W_max − cwnd_epoch) / C)` in microseconds (floor), for a difference of
/// `diff_bytes` bytes; at most 2.64e12 µs (30.6 days) when the difference is absurd.
// RFC 9438 §4.2: K = cubic_root((W_max - cwnd_epoch)/C), in segments, so divide by C·MSS
pub const fn cubic_k_us(c_mss: u64, diff_bytes: u64) -> u64 {
    if diff_bytes == 0 || c_mss == 0 {
        return 0;
    }
    // Tier 1, µs: K³ µs³ = diff · 1e18 · 1e3 / c_mss, when it fits (see tier1_may_fit).
    if tier1_may_fit(c_mss, diff_bytes) {
        // diff ≤ c_mss / 32 < 2^28: diff · 1000 cannot overflow.
        let cube = mul_div_floor(diff_bytes * 1_000, 1_000_000_000_000_000_000, c_mss);
        if cube != u64::MAX {
            return exact_cube_root(cube);
        }
    }
    // Tier 2, ms: K³ ms³ = diff · 1e9 · 1e3 / c_mss.
    let cube = mul_div_floor(diff_bytes, 1_000_000_000_000, c_mss);
    if cube != u64::MAX {
        return exact_cube_root(cube) * MICROS_PER_MILLI;
    }
    // Tier 3, s: K³ s³ = diff · 1e3 / c_mss; below 2^64, so the root is below 2.64e6 s.
    exact_cube_root(mul_div_floor(diff_bytes, 1_000, c_mss)) * MICROS_PER_SEC
}

/// `K` as [`cubic_k_us`] and the offset `C·K³` in bytes, equal to
/// `cubic_offset_bytes(c_mss, K)` (taken in the resolution `K` was found in, where `K³`
/// fits), so `W_cubic(0) = origin − offset`. 64-bit targets only.
// RFC 9438 §4.2: K = cubic_root((W_max - cwnd_epoch)/C); W_cubic(0) = W_max - C*K^3
#[cfg(target_pointer_width = "64")]
pub const fn cubic_k_and_offset(c_mss: u64, diff_bytes: u64) -> (u64, u64) {
    if diff_bytes == 0 || c_mss == 0 {
        return (0, 0);
    }
    // Tier 1, µs, as in cubic_k_us (see tier1_may_fit).
    if tier1_may_fit(c_mss, diff_bytes) {
        // diff ≤ c_mss / 32 < 2^28: diff · 1000 cannot overflow.
        let cube = mul_wide_const_div_floor(diff_bytes * 1_000, 1_000_000_000_000_000_000, c_mss);
        if cube != u64::MAX {
            let k = exact_cube_root(cube);
            // The divisor 1e21 applied as two exact floors, as in cubic_offset_bytes.
            let scaled = mul_div_floor(k * k * k, c_mss, 1_000_000_000_000_000_000);
            return (k, div_floor(scaled, THOUSAND));
        }
    }
    // Tier 2, ms: K³ ms³ = diff · 1e9 · 1e3 / c_mss.
    let cube = mul_wide_const_div_floor(diff_bytes, 1_000_000_000_000, c_mss);
    if cube != u64::MAX {
        let k_ms = exact_cube_root(cube);
        let offset = mul_div_floor(k_ms * k_ms * k_ms, c_mss, 1_000_000_000_000);
        return (k_ms * MICROS_PER_MILLI, offset);
    }
    // Tier 3, s: K³ s³ = diff · 1e3 / c_mss; below 2^64, so the root is below 2.64e6 s.
    let k_s = exact_cube_root(mul_div_floor(diff_bytes, 1_000, c_mss));
    (
        k_s * MICROS_PER_SEC,
        mul_div_floor(k_s * k_s * k_s, c_mss, 1_000),
    )
}

/// `W_cubic(τ)` in bytes for `tau_us` microseconds after the epoch start.
// RFC 9438 §4.2: W_cubic(t) = C*(t-K)^3 + W_max
#[cfg_attr(target_pointer_width = "64", inline(always))]
pub const fn w_cubic_bytes(c_mss: u64, w_max_bytes: u64, k_us: u64, tau_us: u64) -> u64 {
    if tau_us >= k_us {
        w_max_bytes.saturating_add(cubic_offset_bytes(c_mss, tau_us - k_us))
    } else {
        w_max_bytes.saturating_sub(cubic_offset_bytes(c_mss, k_us - tau_us))
    }
}

#[cfg(test)]
mod tests;
