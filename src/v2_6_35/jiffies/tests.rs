use super::*;

#[test]
fn jiffies_truncate_and_wrap_at_every_hz() {
    // T = 1000.0039 s: 1,000,003 ticks at 1000, 250,000 at 250 (4 ms each), 100,000 at 100.
    let t = Instant::from_micros(1_000_003_900);
    assert_eq!(jiffies_at(t, 1000), 1_000_003);
    assert_eq!(jiffies_at(t, 250), 250_000);
    assert_eq!(jiffies_at(t, 100), 100_000);
    // 2^32 ms after the origin, jiffies at HZ=1000 wrap to 0.
    assert_eq!(
        jiffies_at(Instant::from_micros((1u64 << 32) * 1000), 1000),
        0
    );
}

#[test]
fn conversions_round_as_the_kernel_does() {
    // 18 jiffies at HZ=1000 = 18,000 us; at HZ=250, 4 jiffies = 16,000 us.
    assert_eq!(jiffies_to_usecs(18, 1000), 18_000);
    assert_eq!(jiffies_to_usecs(4, 250), 16_000);
    // 10,000 us * 429,497 jiffies at HZ=100 wraps: 4,294,970,000 - 2^32 = 2704.
    assert_eq!(jiffies_to_usecs(429_497, 100), 2704);
    // Rounded up: 18,001 us is 19 jiffies at 1000 and 5 at 250; 16,000 is exactly 4.
    assert_eq!(usecs_to_jiffies(18_001, 1000), 19);
    assert_eq!(usecs_to_jiffies(18_001, 250), 5);
    assert_eq!(usecs_to_jiffies(16_000, 250), 4);
    assert_eq!(usecs_to_jiffies(0, 1000), 0);
    // Limit at HZ=1000: (u32)(1000 * (2^62 - 2)) = 2^32 - 2000.
    assert_eq!(usecs_to_jiffies(4_294_965_296, 1000), 4_294_966);
    assert_eq!(usecs_to_jiffies(4_294_965_297, 1000), MAX_JIFFY_OFFSET);
    // msecs_to_jiffies(2): (2 + 0)/1 = 2, (2 + 3)/4 = 1, (2 + 9)/10 = 1.
    assert_eq!(msecs_to_jiffies(2, 1000), 2);
    assert_eq!(msecs_to_jiffies(2, 250), 1);
    assert_eq!(msecs_to_jiffies(2, 100), 1);
}

#[test]
fn an_unsupported_hz_never_divides_by_zero() {
    assert_eq!(jiffies_at(Instant::from_micros(5), 7), 5);
    assert_eq!(usecs_to_jiffies(5, 0), 5);
    assert_eq!(msecs_to_jiffies(2, 3000), 2);
    assert!(!is_supported_hz(300));
}
