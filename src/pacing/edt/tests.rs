use super::*;

const GBIT: Rate = Rate::from_bits_per_second(1_000_000_000);

#[test]
fn the_first_ten_segments_leave_unpaced() {
    let mut p = EdtPacer::new();
    for _ in 0..9 {
        assert_eq!(p.on_send(1_000, 1500, 1, GBIT, true), 1_000);
        assert_eq!(p.next_departure_ns(), 1_000);
    }
    // The 10th segment brings data_segs_out to 10: it is paced.
    // 1500 B at 1 Gbit/s = 12000 ns; the clock did not jump (no credit).
    assert_eq!(p.on_send(1_000, 1500, 1, GBIT, true), 1_000);
    assert_eq!(p.next_departure_ns(), 13_000);
    assert!(p.must_wait(12_999));
    assert!(!p.must_wait(13_000));
}

#[test]
fn back_to_back_packets_are_spaced_by_len_over_rate() {
    let mut p = EdtPacer::new();
    p.on_send(0, 15_000, 10, GBIT, true); // next = 0 + 120000
    assert_eq!(p.next_departure_ns(), 120_000);
    // Sent early (at 50 us): departs at 120 us, next at 120 + 12 = 132 us.
    assert_eq!(p.on_send(50_000, 1500, 1, GBIT, true), 120_000);
    assert_eq!(p.next_departure_ns(), 132_000);
}

#[test]
fn a_late_sender_is_forgiven_at_most_half_a_packet() {
    let mut p = EdtPacer::new();
    p.on_send(0, 15_000, 10, GBIT, true); // next = 120000
    // 3 us late: credit 3000 < 12000/2, so next = 123000 + 12000 - 3000 = 132000.
    assert_eq!(p.on_send(123_000, 1500, 1, GBIT, true), 123_000);
    assert_eq!(p.next_departure_ns(), 132_000);
    // 1 ms late: credit capped at 6000, so next = 1132000 + 12000 - 6000 = 1138000.
    assert_eq!(p.on_send(1_132_000, 1500, 1, GBIT, true), 1_132_000);
    assert_eq!(p.next_departure_ns(), 1_138_000);
}

#[test]
fn an_unpaced_flow_is_stamped_but_never_delayed() {
    let mut p = EdtPacer::new();
    p.on_send(0, 15_000, 10, GBIT, false);
    assert_eq!(p.on_send(5, 1500, 1, GBIT, false), 5);
    assert_eq!(p.next_departure_ns(), 5);
    // Rate zero or unlimited: no spacing either.
    assert_eq!(p.on_send(6, 1500, 1, Rate::ZERO, true), 6);
    assert_eq!(p.on_send(7, 1500, 1, Rate::UNLIMITED, true), 7);
    assert_eq!(p.next_departure_ns(), 7);
}

#[test]
fn departures_saturate_at_the_end_of_time() {
    let mut p = EdtPacer::new();
    p.on_send(
        u64::MAX - 10,
        15_000,
        10,
        Rate::from_bits_per_second(1),
        true,
    );
    assert_eq!(p.next_departure_ns(), u64::MAX);
    assert_eq!(p.on_send(0, 1500, 1, GBIT, true), u64::MAX);
}
