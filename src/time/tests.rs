use super::*;

#[test]
fn std_durations_convert_in_whole_microseconds_and_saturate() {
    assert_eq!(
        Duration::from(core::time::Duration::from_millis(20)).as_micros(),
        20_000
    );
    // 1.5 µs -> 1 µs (floor).
    assert_eq!(
        Duration::from(core::time::Duration::from_nanos(1_500)).as_micros(),
        1
    );
    assert_eq!(
        Duration::from(core::time::Duration::MAX).as_micros(),
        u64::MAX
    );
}

#[test]
fn jiffies_and_micros_truncate_to_32_bits_like_the_kernel() {
    // 2^32 ms + 5 ms: jiffies wrapped to 5.
    let t = Instant::from_micros(((1u64 << 32) + 5) * 1000 + 999);
    assert_eq!(t.jiffies32(), 5);
    // 2^32 us + 7 us: the microsecond clock wrapped to 7.
    assert_eq!(Instant::from_micros((1u64 << 32) + 7).micros32(), 7);
}

#[test]
fn jiffies_by_32_bit_halves_equal_the_64_bit_division() {
    // Edges of each 16-bit digit and of the high word, then a spread of values.
    let edges = [
        0,
        999,
        1000,
        (1 << 16) - 1,
        1 << 16,
        (1 << 32) - 1,
        1 << 32,
        (1 << 32) * 1000 - 1,
        (1 << 32) * 1000,
        (1 << 48) + 12_345,
        u64::MAX - 1,
        u64::MAX,
    ];
    let spread = (0..4096u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    for us in edges.into_iter().chain(spread) {
        assert_eq!(
            super::jiffies32_by_halves(us),
            (us / LINUX_HZ) as u32,
            "{us}"
        );
    }
}

#[test]
fn durations_saturate_instead_of_overflowing() {
    let late = Instant::from_micros(10);
    assert_eq!(
        late.saturating_duration_since(Instant::from_micros(20)),
        Duration::ZERO
    );
    assert_eq!(
        Instant::from_micros(u64::MAX)
            .saturating_add(Duration::from_secs(1))
            .as_micros(),
        u64::MAX
    );
    assert_eq!(Duration::from_secs(u64::MAX).as_micros(), u64::MAX);
}
