use super::*;

fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

/// Runs one round of `N_RTT_SAMPLE` samples at `rtt`; the round ends at `end`.
fn round(h: &mut HystartPlusPlus, end: u64, rtt: Duration) -> [HystartPpVerdict; 2] {
    let a = h.on_round_check(end, end + 10);
    let mut b = HystartPpVerdict::Continue;
    for _ in 0..N_RTT_SAMPLE {
        let v = h.on_rtt_sample(rtt);
        if v != HystartPpVerdict::Continue {
            b = v;
        }
    }
    [a, b]
}

#[test]
fn threshold_is_an_eighth_clamped_to_4_and_16_ms() {
    // 20 ms / 8 = 2.5 ms -> 4 ms; 80 ms / 8 = 10 ms; 200 ms / 8 = 25 ms -> 16 ms.
    assert_eq!(rtt_thresh_us(20_000), 4_000);
    assert_eq!(rtt_thresh_us(80_000), 10_000);
    assert_eq!(rtt_thresh_us(200_000), 16_000);
}

#[test]
fn an_rtt_step_enters_css_and_a_drop_resumes_slow_start() {
    let mut h = HystartPlusPlus::new();
    assert_eq!(round(&mut h, 0, ms(80))[1], HystartPpVerdict::Continue);
    // 80 ms + 10 ms threshold = 90 ms: 89 ms is not enough, 90 ms is.
    assert_eq!(round(&mut h, 10, ms(80))[1], HystartPpVerdict::Continue);
    assert_eq!(
        round(&mut h, 20, Duration::from_micros(89_999))[1],
        HystartPpVerdict::Continue
    );
    // last round min was 89.999 ms, threshold 11.2 ms: 101.249 ms enters CSS.
    assert_eq!(
        round(&mut h, 30, Duration::from_micros(101_249))[1],
        HystartPpVerdict::EnterCss
    );
    assert!(h.in_css);
    assert_eq!(h.css_baseline_min_rtt_us(), 101_249);
    // Next round: the minimum falls below the baseline: resume slow start.
    assert_eq!(
        round(&mut h, 40, ms(95))[1],
        HystartPpVerdict::ResumeSlowStart
    );
    assert!(!h.in_css);
    assert_eq!(h.css_baseline_min_rtt_us(), u64::MAX);
}

#[test]
fn css_ends_after_css_rounds_rounds() {
    let mut h = HystartPlusPlus::new();
    round(&mut h, 0, ms(50));
    round(&mut h, 10, ms(50));
    // 50 ms + 6.25 ms: 57 ms enters CSS in the middle of this round (partial round 1).
    assert_eq!(round(&mut h, 20, ms(57))[1], HystartPpVerdict::EnterCss);
    // Round ends 2, 3, 4, 5 stay in CSS (RTT stays at the baseline).
    for end in [30, 40, 50, 60] {
        assert_eq!(round(&mut h, end, ms(57)), [HystartPpVerdict::Continue; 2]);
    }
    // The fifth round end completes CSS_ROUNDS = 5 rounds: exit to CA.
    assert_eq!(
        h.on_round_check(70, 80),
        HystartPpVerdict::ExitToCongestionAvoidance
    );
}

#[test]
fn growth_is_limited_to_l_segments_unless_paced_and_divided_in_css() {
    let mut h = HystartPlusPlus::new();
    // 20 segments of 1000 B acked at once: L = 8 caps it at 8000 B unpaced.
    assert_eq!(h.growth_bytes(20_000, 1000, false), 8000);
    assert_eq!(h.growth_bytes(20_000, 1000, true), 20_000);
    assert_eq!(h.growth_bytes(3000, 1000, false), 3000);
    h.in_css = true;
    // CSS: 8000 / 4 = 2000; paced 20000 / 4 = 5000.
    assert_eq!(h.growth_bytes(20_000, 1000, false), 2000);
    assert_eq!(h.growth_bytes(20_000, 1000, true), 5000);
}

#[test]
fn samples_beyond_32_bits_count_as_infinity() {
    let mut h = HystartPlusPlus::new();
    round(&mut h, 0, ms(50));
    // A round of samples of 2^32 µs and more: no minimum (infinity), no exit.
    let huge = Duration::from_micros(u64::from(u32::MAX) + 1);
    assert_eq!(round(&mut h, 10, huge), [HystartPpVerdict::Continue; 2]);
    assert_eq!(h.current_round_min_rtt_us(), u64::MAX);
    let longest = Duration::from_micros(u64::MAX);
    assert_eq!(round(&mut h, 20, longest), [HystartPpVerdict::Continue; 2]);
    // Just below the clamp a sample is finite.
    let below = Duration::from_micros(u64::from(u32::MAX) - 1);
    round(&mut h, 30, below);
    assert_eq!(h.last_round_min_rtt_us(), u64::MAX);
    assert_eq!(h.current_round_min_rtt_us(), u64::from(u32::MAX) - 1);
    assert_eq!(h.rtt_sample_count(), N_RTT_SAMPLE);
}

#[test]
fn fewer_than_n_rtt_sample_samples_never_exit() {
    let mut h = HystartPlusPlus::new();
    round(&mut h, 0, ms(10));
    h.on_round_check(10, 20);
    for _ in 0..N_RTT_SAMPLE - 1 {
        assert_eq!(h.on_rtt_sample(ms(500)), HystartPpVerdict::Continue);
    }
    assert_eq!(h.on_rtt_sample(ms(500)), HystartPpVerdict::EnterCss);
}
