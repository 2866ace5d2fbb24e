use super::*;

fn at(ms: u64) -> Instant {
    Instant::from_micros(ms * 1000)
}

#[test]
fn the_minimum_is_u32_max_before_any_sample_and_tracks_lower_samples() {
    let mut f = MinRttFilter::new();
    assert_eq!(f.get_us(), u32::MAX);
    assert_eq!(f.update(at(0), 20_000, MIN_RTT_WINDOW_MS), 20_000);
    assert_eq!(f.update(at(10), 25_000, MIN_RTT_WINDOW_MS), 20_000);
    assert_eq!(f.update(at(20), 18_000, MIN_RTT_WINDOW_MS), 18_000);
    assert_eq!(f.update(at(30), 0, MIN_RTT_WINDOW_MS), 1);
}

#[test]
fn an_old_minimum_expires_and_a_later_candidate_takes_over() {
    let w = 1_000;
    let mut f = MinRttFilter::new();
    f.update(at(0), 10_000, w);
    // 300 ms later (> w/4): becomes the second candidate.
    assert_eq!(f.update(at(300), 30_000, w), 10_000);
    // 600 ms (> w/2 since the best): a third candidate.
    assert_eq!(f.update(at(600), 40_000, w), 10_000);
    // 1100 ms: the 10 ms sample is older than 1 s; 30 ms (taken at 300) takes over.
    assert_eq!(f.update(at(1_100), 50_000, w), 30_000);
    // 1400 ms: the 300 ms sample is out too; 40 ms (taken at 600) is the minimum.
    assert_eq!(f.update(at(1_400), 60_000, w), 40_000);
}

#[test]
fn a_sample_after_a_silent_window_restarts_the_filter() {
    let mut f = MinRttFilter::new();
    f.update(at(0), 10_000, 1_000);
    assert_eq!(f.update(at(5_000), 90_000, 1_000), 90_000);
}
