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

mod exact_tests {
    use super::super::{bitwise_cube_root, exact_cube_root, newton_cube_root, newton_step};

    #[test]
    fn a_capped_quotient_gives_the_saturating_steps_result() {
        // The step as first written: saturating sum, then the clamp.
        let reference = |x: u64, r: u64, max: u64| {
            let q = match r * r {
                0 => x,
                sq => x / sq,
            };
            ((2 * r).saturating_add(q) / 3).min(max)
        };
        const MAX_ROOT: u64 = 2_642_245;
        // Small and zero guesses for huge x put the quotient far above 3·max; guesses
        // near the root and up to 2^32 - 1 do not.
        for x in [8u64, 1000, 1 << 40, u64::MAX / 3, u64::MAX - 1, u64::MAX] {
            for r in [0u64, 1, 2, 3, 1000, 2_642_245, 4_194_303, (1 << 32) - 1] {
                let got = newton_step(x, r, MAX_ROOT);
                assert_eq!(got, reference(x, r, MAX_ROOT), "{x} {r}");
            }
        }
    }

    #[test]
    fn the_fast_root_equals_the_digit_by_digit_root_over_wide_ranges() {
        // Every x below 2^20, then strides across every bit length up to 2^64.
        for x in 0..(1u64 << 20) {
            assert_eq!(newton_cube_root(x), bitwise_cube_root(x), "x = {x}");
        }
        for bits in 20..64u32 {
            let base = 1u64 << bits;
            let stride = (base >> 12).max(1);
            let mut x = base;
            for _ in 0..8192u32 {
                assert_eq!(newton_cube_root(x), bitwise_cube_root(x), "x = {x}");
                x = match x.checked_add(stride) {
                    Some(n) => n,
                    None => break,
                };
            }
        }
    }

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
