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
