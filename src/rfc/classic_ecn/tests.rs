use super::*;

#[test]
fn log2_in_256ths() {
    // log2(750) = 9.5507 → 2444.99, rounded down; log2(2000) = 10.9658 → 2807.24.
    assert_eq!(log2_q8(750), LG_V0);
    assert_eq!(log2_q8(2_000), LG_D0);
    // Exact powers of two, and the small end: log2(3) = 1.585 → 405.7.
    assert_eq!(log2_q8(1_024), 10 * 256);
    assert_eq!(
        (log2_q8(0), log2_q8(1), log2_q8(2), log2_q8(3)),
        (0, 0, 256, 405)
    );
    // The top: log2(2^64 − 1) just under 64.
    assert_eq!(log2_q8(u64::MAX), 63 * 256 + 255);
}

#[test]
fn a_deep_queue_turns_it_classic_in_four_rounds() {
    let mut d = ClassicEcnDetector::new();
    // A round at the base RTT, 20 ms, before any CE: measured, the score stays.
    d.on_round(20_000);
    assert_eq!((d.score(), d.degree()), (0, 0));
    d.note_ce();
    // Then 35 ms: a 15 ms standing queue.
    // Round 1: dev = 15000, mdev = 15000/4 = 3750; log2(3750) → 3039, so the
    // variation term is (3039 − 2444)/2 = 297; log2(15000) → 3551, the depth term
    // (3551 − 2807)/2 = 372. Score 669.
    d.on_round(35_000);
    assert_eq!((d.mdev_us(), d.score()), (3_750, 669));
    // avg = 20000 − 2500 + 4375 = 21875. Round 2: dev = 13125, mdev = 3750 − 937 +
    // 3281 = 6094 → log2 3218, term (3218 − 2444)/2 = 387; 669 + 387 + 372 = 1428.
    // avg = 21875 − 2734 + 4375 = 23516. Round 3: dev = 11484, mdev = 6094 − 1523 +
    // 2871 = 7442 → 3292, term 424; 1428 + 424 + 372 = 2224 (degree 2224 − 2048 = 176
    // of 256). Round 4: mdev 8094 → 3323, term 439; 2224 + 439 + 372 = 3035 ≥ 2304:
    // fully classic.
    d.on_round(35_000);
    assert_eq!(d.score(), 1_428);
    d.on_round(35_000);
    assert_eq!((d.score(), d.degree()), (2_224, 176));
    assert_eq!(d.alpha_floor(), 176 << 12);
    d.on_round(35_000);
    assert_eq!(
        (d.score(), d.degree(), d.is_classic()),
        (3_035, DEGREE_ONE, true)
    );
    assert_eq!(d.alpha_floor(), 1 << 20);
    // It saturates at 17 units and stays classic while the queue stands.
    for _ in 0..40 {
        d.on_round(35_000);
    }
    assert_eq!((d.score(), d.is_classic()), (SCORE_MAX, true));
}

#[test]
fn a_shallow_still_queue_stays_scalable_and_a_classic_one_comes_back() {
    let mut d = ClassicEcnDetector::new();
    d.on_round(20_000);
    d.note_ce();
    // An L4S queue: 0.3–0.5 ms, moving by 0.2 ms a round. mdev stays below 250 µs, so
    // the variation term is at its floor or near it (−256 … −213 a round) and the
    // depth term is 0 (below 2 ms): the score stays at 0.
    for r in 0..50 {
        d.on_round(if r % 2 == 0 { 20_500 } else { 20_300 });
        assert_eq!(d.score(), 0);
    }
    // Classic at the ceiling, then the queue empties. The fall from 35 to 20 ms is
    // itself variation: against the slow average (33965 µs then) mdev rises to 8169 µs
    // by round 5 and stays above 750 µs until round 28, while the average settles; only
    // then does the score fall, at most one unit a round (the variation term's floor):
    // below the scalable threshold after 41 rounds (about a second at 25 ms rounds).
    // Slow to come back, on purpose: the paper's "classic sticky" region.
    let mut d = ClassicEcnDetector::new();
    d.on_round(20_000);
    d.note_ce();
    for _ in 0..20 {
        d.on_round(35_000);
    }
    assert_eq!(d.score(), SCORE_MAX);
    let mut rounds = 0;
    while d.degree() != 0 {
        d.on_round(20_000);
        rounds += 1;
    }
    assert_eq!(rounds, 41);
}

#[test]
fn odd_inputs_are_clamped() {
    let mut d = ClassicEcnDetector::new();
    d.on_round(0);
    assert_eq!(d, ClassicEcnDetector::new());
    d.note_ce();
    d.on_round(u64::MAX);
    d.on_round(1);
    d.on_round(u64::MAX);
    assert!(d.score() <= SCORE_MAX);
}
