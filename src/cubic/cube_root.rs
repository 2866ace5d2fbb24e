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
mod tests {
    use super::*;

    #[test]
    fn table_index_never_needs_the_mask() {
        // For every bit length the kernel's shift leaves at most 6 significant bits.
        for bits in 7..=64u32 {
            let b = ((bits * 84) >> 8) - 1;
            let largest = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            assert!(largest >> (b * 3) < 64, "bits {bits}");
        }
    }

    #[test]
    fn small_inputs_come_from_the_table() {
        // (v[a] + 35) >> 6: v[0]=0 -> 0, v[1]=54 -> 1, v[8]=123 -> 2, v[27]=190 -> 3.
        assert_eq!(linux_cubic_root(0), 0);
        assert_eq!(linux_cubic_root(1), 1);
        assert_eq!(linux_cubic_root(8), 2);
        assert_eq!(linux_cubic_root(27), 3);
    }

    #[test]
    fn kernel_root_is_within_a_percent_above_small_values() {
        // Exact cube roots of perfect cubes, checked against the kernel approximation.
        for r in [5u64, 10, 100, 1000, 21284, 100_000, 2_000_000] {
            let got = u64::from(linux_cubic_root(r * r * r));
            let err = got.abs_diff(r);
            assert!(err * 100 <= r + 100, "cbrt({r}^3) = {got}");
        }
    }

    #[test]
    fn hand_worked_k_for_the_reference_loss() {
        // ca_cwnd10k: Wmax 12000, cwnd 8402 after the loss.
        // cube_factor = 2^40 / 410 = 2681735677; a = 2681735677 * 3598.
        // cbrt(a) ~= 21284.5 in 1/1024 s; the kernel's rounding gives 21284.
        assert_eq!(linux_cubic_root(2_681_735_677u64 * (12000 - 8402)), 21284);
    }
}

/// Exact integer cube root for RFC mode: the largest `r` with `r³ ≤ x`.
///
/// Digit-by-digit (three bits per step, 22 steps for 64 bits), no division, no table,
/// no floating point. `r < 2^22`, so `r²` and `3·(r² + r)` never overflow.
// RFC 9438 §4.2 needs K = cbrt(...) exactly; this is the classic binary cube-root recurrence.
pub const fn exact_cube_root(x: u64) -> u64 {
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

#[cfg(test)]
mod exact_tests {
    use super::exact_cube_root;

    #[test]
    fn perfect_cubes_and_their_neighbours() {
        for r in [0u64, 1, 2, 3, 10, 1000, 21284, 2_000_000, 2_642_245] {
            let c = r * r * r;
            assert_eq!(exact_cube_root(c), r, "cbrt({c})");
            if r > 0 {
                assert_eq!(exact_cube_root(c - 1), r - 1, "cbrt({c} - 1)");
            }
        }
        // 2_642_245^3 = 18_446_724_184_312_856_125 <= u64::MAX < 2_642_246^3.
        assert_eq!(exact_cube_root(u64::MAX), 2_642_245);
    }
}
