//! The kernel's 64-bit division helpers (`include/linux/math64.h`) with their exact
//! argument widths: `div_u64` and the `DIV_U64_*` macros take a **`u32`** divisor (a
//! wider value is truncated, as the C conversion does), the `div64_u64` family a `u64`.
//!
//! A zero divisor would trap in the kernel; Prague's divisors are MTUs, RTTs and
//! windows that its own rules keep above zero, but a hostile configuration (an MSS and
//! header length summing to a multiple of 2^32, an RTT target of 0 with no RTT sample)
//! could reach one. Then the divisor counts as 1, so that no input panics.

/// A `u32` divisor as the kernel's conversion leaves it, 0 taken as 1.
const fn narrow(d: u64) -> u64 {
    // Truncation on purpose: the kernel's `u32 divisor` parameter.
    let d = d as u32;
    if d == 0 { 1 } else { d as u64 }
}

/// A `u64` divisor, 0 taken as 1.
const fn wide(d: u64) -> u64 {
    if d == 0 { 1 } else { d }
}

/// `div_u64(n, d)`: `d` truncated to `u32`.
// Linux include/linux/math64.h div_u64()
pub(crate) const fn div_u64(n: u64, d: u64) -> u64 {
    n / narrow(d)
}

/// `div64_u64(n, d)`.
// Linux include/linux/math64.h div64_u64()
pub(crate) const fn div64_u64(n: u64, d: u64) -> u64 {
    n / wide(d)
}

/// `DIV_U64_ROUND_UP(n, d)`: `(n + d - 1) / d` with `d` truncated to `u32`, the sum
/// wrapping as the kernel's `u64` does.
// Linux include/linux/math64.h DIV_U64_ROUND_UP()
pub(crate) const fn div_u64_round_up(n: u64, d: u64) -> u64 {
    let d = narrow(d);
    n.wrapping_add(d - 1) / d
}

/// `DIV64_U64_ROUND_UP(n, d)`: `(n + d - 1) / d`, wrapping.
// Linux include/linux/math64.h DIV64_U64_ROUND_UP()
pub(crate) const fn div64_u64_round_up(n: u64, d: u64) -> u64 {
    let d = wide(d);
    n.wrapping_add(d - 1) / d
}

/// `DIV_U64_ROUND_CLOSEST(n, d)`: `(n + d/2) / d` with `d` truncated to `u32`.
// Linux include/linux/math64.h DIV_U64_ROUND_CLOSEST()
pub(crate) const fn div_u64_round_closest(n: u64, d: u64) -> u64 {
    let d = narrow(d);
    n.wrapping_add(d / 2) / d
}

/// `DIV64_U64_ROUND_CLOSEST(n, d)`: `(n + d/2) / d`, wrapping.
// Linux include/linux/math64.h DIV64_U64_ROUND_CLOSEST()
pub(crate) const fn div64_u64_round_closest(n: u64, d: u64) -> u64 {
    let d = wide(d);
    n.wrapping_add(d / 2) / d
}

#[cfg(test)]
mod tests;

/// `mul_u64_u64_shr(a, b, shift)` ([`mul_u64_u64_shr`](crate::cubic::mul_u64_u64_shr))
/// with a fast path: when the product fits in 64 bits (Prague's rates of bytes per
/// second times windows of 2^20 units or RTTs in µs, below 2^64 but for rates above
/// tens of Gbit/s) it is one multiplication and one shift, where the kernel's 128-bit
/// product is one instruction and ours without `u128` four limb products; a wider
/// product takes that exact path. The same result either way.
// Linux include/linux/math64.h mul_u64_u64_shr(): (u64)(((u128)a * b) >> shift)
#[inline(always)]
pub(crate) const fn mul_shr(a: u64, b: u64, shift: u32) -> u64 {
    match a.checked_mul(b) {
        Some(product) if shift < 64 => product >> shift,
        _ => crate::cubic::mul_u64_u64_shr(a, b, shift),
    }
}
