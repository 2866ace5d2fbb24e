//! Integer cube roots, without floating point or 128-bit arithmetic.

/// First-guess table of Linux `cubic_root`: for `x` in `0..64`, about `cbrt(x << 18) - 1`.
// Linux net/ipv4/tcp_cubic.c cubic_root(): the table is part of the reference behaviour.
const LINUX_CBRT_TABLE: [u8; 64] = [
    0, 54, 54, 54, 118, 118, 118, 118, //
    123, 129, 134, 138, 143, 147, 151, 156, //
    157, 161, 164, 168, 170, 173, 176, 179, //
    181, 185, 187, 190, 192, 194, 197, 199, //
    200, 202, 204, 206, 209, 211, 213, 215, //
    217, 219, 221, 222, 224, 225, 227, 229, //
    231, 232, 234, 236, 237, 239, 240, 242, //
    244, 245, 246, 248, 250, 251, 252, 254, //
];

/// Table lookup for the Linux first guess; the mask keeps the index provably in range
/// (the kernel's own arithmetic already keeps it below 64, a test checks every case).
const fn table(index: u64) -> u32 {
    LINUX_CBRT_TABLE[(index & 63) as usize] as u32
}

/// The kernel's cube root, bit for bit: a table guess then one Newton-Raphson step.
///
/// Average error about 0.2 %; Linux mode must reproduce its exact (rounded) answers,
/// so it is kept as the kernel wrote it, u32 wrap-around of `x * 341` included.
// Linux net/ipv4/tcp_cubic.c cubic_root()
pub const fn linux_cubic_root(a: u64) -> u32 {
    let bits = 64 - a.leading_zeros(); // fls64(a)
    if bits < 7 {
        // a in 0..64: answer straight from the table.
        return (table(a) + 35) >> 6;
    }
    let b = ((bits * 84) >> 8) - 1;
    let shift = a >> (b * 3);
    let mut x = ((table(shift) + 10) << b) >> 6;
    // One Newton-Raphson step: x = (2x + a / x^2) / 3, with x*(x-1) for x^2 and
    // 341/1024 for 1/3, as the kernel does. x >= 4 here, so the divisor is non-zero;
    // the guard only keeps the division provably safe.
    let divisor = (x as u64) * (x.wrapping_sub(1) as u64);
    let quotient = match a.checked_div(divisor) {
        Some(q) => q,
        None => 0,
    };
    x = (2 * x).wrapping_add(quotient as u32);
    x.wrapping_mul(341) >> 10
}

#[cfg(test)]
mod tests;

/// Exact integer cube root for RFC mode: the largest `r` with `r³ ≤ x`.
///
/// The kernel's table guess, one or two Newton-Raphson steps and an exact floor
/// correction, falling back on [`bitwise_cube_root`] (so exact by construction); on
/// targets narrower than 64 bits, [`bitwise_cube_root`] alone (smaller code).
#[cfg(target_pointer_width = "64")]
// RFC 9438 §4.2 needs K = cubic_root(...); Newton's method for x^(1/3): r' = (2r + x/r²)/3
#[inline(always)] // cheaper than a call here
pub const fn exact_cube_root(x: u64) -> u64 {
    newton_cube_root(x)
}

/// Exact integer cube root for RFC mode: the largest `r` with `r³ ≤ x` (on this target,
/// the digit-by-digit root; 64-bit targets use Newton's method, with the same answers).
#[cfg(not(target_pointer_width = "64"))]
// RFC 9438 §4.2 needs K = cubic_root(...) exactly
pub const fn exact_cube_root(x: u64) -> u64 {
    bitwise_cube_root(x)
}

/// The table-and-Newton root behind [`exact_cube_root`] on 64-bit targets (public so that
/// every target's tests can compare it with [`bitwise_cube_root`]).
// Newton's method for x^(1/3): r' = (2r + x/r²)/3, then an exact floor correction
#[cfg_attr(target_pointer_width = "64", inline(always))]
pub const fn newton_cube_root(x: u64) -> u64 {
    // The floor cube root of u64::MAX: every root lies in 0..=MAX_ROOT, and
    // MAX_ROOT³ < 2^64, so cubes of candidates never overflow.
    const MAX_ROOT: u64 = 2_642_245;
    if x < 8 {
        return if x == 0 { 0 } else { 1 };
    }
    // The kernel's guess is a u32, so its square fits in 64 bits and the step needs no
    // clamp first (a guess of 0 is handled by the step's guard).
    let guess = linux_cubic_root(x) as u64;
    // One step usually lands within two of the root; then a second, then digit by digit.
    let once = newton_step(x, guess, MAX_ROOT);
    if let Some(root) = settle_down(x, once) {
        return root;
    }
    match settle_down(x, newton_step(x, once, MAX_ROOT)) {
        Some(root) => root,
        None => bitwise_cube_root(x),
    }
}

/// One Newton-Raphson step for `cbrt(x)` from `r` (`r < 2^32`, so `r²` fits), kept at
/// most `max`; for `x >= 8` the result is at least `⌊cbrt(x)⌋ >= 2`.
// Newton's method for x^(1/3): r' = (2r + x/r²)/3
const fn newton_step(x: u64, r: u64, max: u64) -> u64 {
    // r = 0 would have no quotient; the step from it is then ⌊x/3⌋, still at least
    // ⌊cbrt(x)⌋ for x >= 8 (x/3 >= cbrt(x) exactly when x² >= 27).
    let x_over_r_sq = match core::num::NonZeroU64::new(r * r) {
        Some(sq) => x / sq.get(),
        None => x,
    };
    // (2r + ⌊x/r²⌋)/3 = ⌊(2r + x/r²)/3⌋ >= ⌊cbrt(x)⌋ (AM-GM), so only the upper clamp
    // is needed; capping the quotient at 3·max first keeps the sum below 2^34.
    let capped = if x_over_r_sq > 3 * max {
        3 * max
    } else {
        x_over_r_sq
    };
    let next = (2 * r + capped) / 3;
    if next > max { max } else { next }
}

/// The floor cube root of `x` from `r >= ⌊cbrt(x)⌋` (a Newton step's result, clamped to
/// the floor root of `u64::MAX`, so `r³` never overflows) if it is at most two below
/// `r`: the first `r` going down with `r³ <= x`; `None` otherwise.
const fn settle_down(x: u64, r: u64) -> Option<u64> {
    let mut r = r;
    let mut fix = 0;
    while fix < 2 && r * r * r > x {
        r -= 1;
        fix += 1;
    }
    if r * r * r <= x { Some(r) } else { None }
}

/// Exact integer cube root, digit by digit: the largest `r` with `r³ ≤ x`.
///
/// Three bits per step, 22 steps, no division; `r < 2^22`, so `r²` and `3·(r² + r)`
/// never overflow.
// The classic binary cube-root recurrence: (2r + 1)³ − (2r)³ = 3·(4r² + 2r) + 1.
pub const fn bitwise_cube_root(x: u64) -> u64 {
    let mut rem = x;
    let mut root = 0u64;
    let mut root_sq = 0u64;
    let mut step = 22u32;
    while step > 0 {
        step -= 1;
        let shift = 3 * step;
        root_sq <<= 2;
        root <<= 1;
        // (2r + 1)^3 - (2r)^3 = 3·(4r² + 2r) + 1 = 3·(root_sq + root) + 1 after doubling.
        let b = 3 * (root_sq + root) + 1;
        // Comparing rem >> shift with b avoids shifting b left out of range.
        if (rem >> shift) >= b {
            rem -= b << shift;
            root_sq += 2 * root + 1;
            root += 1;
        }
    }
    root
}
