use super::*;

#[test]
fn a_gigabit_sends_128_kib_in_about_one_millisecond() {
    // TSQ seed: 128 KB is about 1 ms of buffering on a Gbit link.
    // 131072 B * 8 = 1048576 bit / 1e9 bit/s = 1.048576 ms.
    let gbit = Rate::from_bits_per_second(1_000_000_000);
    assert_eq!(gbit.transmit_time_ns(131_072), Some(1_048_576));
    assert_eq!(gbit.as_bytes_per_second(), 125_000_000);
}

#[test]
fn byte_rates_time_packets_exactly_as_the_kernel() {
    // 1448 B at 965333 B/s: 1448e9 / 965333 = 1500000.5 -> 1500000 ns.
    let r = Rate::from_bytes_per_second(965_333);
    assert_eq!(r.transmit_time_ns(1448), Some(1_500_000));
}

#[test]
fn zero_and_unlimited_rates_do_not_pace() {
    assert_eq!(Rate::ZERO.transmit_time_ns(1500), None);
    assert_eq!(Rate::UNLIMITED.transmit_time_ns(1500), None);
    assert_eq!(Rate::from_bytes_per_second(u64::MAX), Rate::UNLIMITED);
    assert_eq!(Rate::UNLIMITED.as_bytes_per_second(), u64::MAX);
}

#[test]
fn one_bit_per_second_times_the_largest_burst_without_overflow() {
    // 2^31 B * 8e9 / 1 = 17179869184000000000 ns (544 years), below 2^64.
    let r = Rate::from_bits_per_second(1);
    assert_eq!(
        r.transmit_time_ns(u64::MAX),
        Some(17_179_869_184_000_000_000)
    );
    // 1 Tbit/s: 1500 B = 12000 bit / 1e12 = 12 ns.
    let t = Rate::from_bits_per_second(1_000_000_000_000);
    assert_eq!(t.transmit_time_ns(1500), Some(12));
}
