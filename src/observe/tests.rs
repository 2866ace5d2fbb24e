use super::*;

#[test]
fn every_bbr_mode_code_reads_back_as_its_mode() {
    for code in 0..=u8::MAX {
        match BbrMode::from_code(code) {
            Some(mode) => assert_eq!(mode.code(), code),
            None => assert!(code > 7),
        }
    }
}

#[test]
fn a_pair_tells_both_observers_in_order() {
    struct Last(u64);
    impl Observer for Last {
        fn on_decision(&mut self, now: Instant, _: &Decision) {
            self.0 = self.0 * 10 + now.as_micros();
        }
    }
    let mut pair = (Last(0), Counters::new());
    let d = Decision::RecoveryEnd {
        phase: Phase::CongestionAvoidance,
        cwnd: 10,
    };
    pair.on_decision(Instant::from_micros(3), &d);
    // Through `&mut O`, as a stack passes its sink.
    let mut by_ref = &mut pair;
    Observer::on_decision(&mut by_ref, Instant::from_micros(4), &d);
    assert_eq!(pair.0.0, 34);
    assert_eq!(pair.1.recovery_ends, 2);
    NoObserver.on_decision(Instant::ZERO, &d);
}
