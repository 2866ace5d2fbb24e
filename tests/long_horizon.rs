//! Long-horizon tests: weeks of simulated time and 10^8 events, fast-forwarded so each
//! runs in seconds. The test profile is optimised with overflow checks left on, so any
//! accidental overflow over these horizons panics.

use congestion::cubic::LinuxCubicConfig;
use congestion::linux::{self, LinuxSocketConfig};
use congestion::{CongestionController, Instant};

const SECOND_US: u64 = 1_000_000;
const DAY_US: u64 = 86_400 * SECOND_US;

fn linux_flow(clamp: u32, init_cwnd: u32, srtt_us: u32) -> linux::Cubic {
    let mut s = LinuxSocketConfig::new();
    s.cwnd_clamp = clamp;
    s.init_cwnd = init_cwnd;
    s.initial_srtt_us = srtt_us;
    linux::Cubic::new(
        linux::CubicConfig::from_parts(LinuxCubicConfig::new(), s),
        Instant::ZERO,
    )
    .unwrap()
}

#[test]
fn thirty_days_without_loss_at_100_gbit_per_second_in_linux_mode() {
    // 100 Gbit/s with 1448-byte segments is 8.6 million segments/s; 20 ms RTT gives a
    // BDP of 172,000 segments. The flow starts in CA at half of that and gets one
    // stretch ACK covering a whole window every RTT-sized step of 100 ms.
    let mut f = linux_flow(u32::MAX, 10, 20_000);
    f.set_ssthresh(86_000);
    f.set_cwnd(86_000);
    let mut now = 0u64;
    let mut last_cwnd = f.state().cwnd;
    let mut steps = 0u64;
    while now < 30 * DAY_US {
        now += 100_000;
        let t = Instant::from_micros(now);
        let cwnd = f.state().cwnd;
        f.transmit(t, cwnd);
        f.ack(t, cwnd.min(860_000), Some(20_000));
        assert!(
            f.state().cwnd >= last_cwnd,
            "cwnd fell without a loss at {now} us"
        );
        last_cwnd = f.state().cwnd;
        steps += 1;
    }
    // 30 days of 100 ms steps.
    assert_eq!(steps, 30 * 864_000);
    // The window kept growing the whole time and never wrapped back down.
    assert!(last_cwnd > 86_000);
    // A loss after 30 days still lands on the kernel formula.
    let cwnd = f.state().cwnd;
    f.loss(Instant::from_micros(now + 1));
    assert_eq!(
        f.ssthresh().unwrap_or(u64::MAX),
        u64::from((cwnd.wrapping_mul(717) / 1024).max(2))
    );
}

#[test]
fn a_window_near_the_top_of_u32_neither_wraps_nor_panics() {
    let mut f = linux_flow(u32::MAX, 10, 20_000);
    f.set_ssthresh(u32::MAX - 100);
    f.set_cwnd(u32::MAX - 1000);
    for i in 1..1000u64 {
        let t = Instant::from_micros(i * 20_000);
        f.transmit(t, u32::MAX);
        f.ack(t, 1 << 20, Some(20_000));
        assert!(f.state().cwnd >= u32::MAX - 1000);
    }
    assert_eq!(f.state().cwnd, u32::MAX);
    // The loss formula wraps in u32 exactly as the kernel's does; the floor of 2 holds.
    f.loss(Instant::from_micros(30 * SECOND_US));
    assert!(f.state().cwnd >= 2);
}

#[test]
fn rtts_from_one_microsecond_to_one_hour_keep_the_estimators_sane() {
    let mut f = linux_flow(u32::MAX, 10, 0);
    let mut now = 0u64;
    for rtt in [
        1u32,
        10,
        1_000,
        20_000,
        1_000_000,
        60_000_000,
        2_147_483_647,
        u32::MAX,
    ] {
        now += u64::from(rtt).max(1);
        let t = Instant::from_micros(now);
        f.transmit(t, f.state().cwnd);
        f.ack(t, 2, Some(rtt));
        assert_eq!(
            f.state().cubic.delay_min,
            1,
            "the minimum stays at the 1 us sample"
        );
        assert!(f.socket_view().srtt_us_x8 >= 1);
    }
    // An hour-long RTT: 3.6e9 us is above the kernel's s32 range and is clamped.
    let mut g = linux_flow(u32::MAX, 10, 0);
    g.ack(
        Instant::from_micros(3_600 * SECOND_US),
        1,
        Some(3_600_000_000),
    );
    assert_eq!(g.state().cubic.delay_min, i32::MAX as u32);
}

#[test]
fn a_hundred_million_events_leave_no_drift_in_the_state() {
    // A sawtooth: 20 ms RTT, an ACK of 2 segments every 40 us, a loss every 10,000 ACKs
    // (the benchmark stream). 5 * 10^7 ACKs plus as many transmits = 10^8 events.
    let mut f = linux_flow(u32::MAX, 10, 20_000);
    f.set_ssthresh(1000);
    f.set_cwnd(1000);
    let mut now = 0u64;
    let mut in_flight = 1000u32;
    let mut after_loss = Vec::new();
    for i in 1..=50_000_000u64 {
        now += 40;
        let t = Instant::from_micros(now);
        f.ack(t, 2, Some(20_000));
        in_flight = f.state().cwnd.min(in_flight + 2);
        f.transmit(t, in_flight);
        if i % 10_000 == 0 {
            f.loss(t);
            after_loss.push(f.state().cwnd);
        }
    }
    // The cycle settles: the last losses all land within one segment of each other, so
    // nothing accumulates (no counter creeping, no window drifting).
    let tail = &after_loss[after_loss.len() - 100..];
    let (lo, hi) = (tail.iter().min().unwrap(), tail.iter().max().unwrap());
    assert!(hi - lo <= 1, "post-loss windows drift: {lo}..{hi}");
    assert!(f.state().cubic.ack_cnt < 100_000);
    assert!(f.state().cwnd_cnt < f.state().cwnd.max(f.state().cubic.cnt));
}

/// A slow start, a loss and a stretch of congestion avoidance, at `base_us` onwards;
/// returns (cwnd, ssthresh) after every event.
fn windows_of<C: CongestionController>(flow: &mut C, base_us: u64, mss: u64) -> Vec<(u64, u64)> {
    use congestion::{AckEvent, Duration, LossEvent, SentEvent};
    let mut out = Vec::new();
    let mut seq = 0u64;
    for i in 1..=3000u64 {
        // An ACK every 3 ms (no ACK train for Linux HyStart), constant 20 ms RTT.
        let now = Instant::from_micros(base_us + i * 3_000);
        let cwnd = flow.cwnd();
        seq += 2;
        flow.on_sent(now, &SentEvent::new(cwnd, seq + cwnd / mss));
        let ack = AckEvent {
            acked: 2 * mss,
            rtt: Some(Duration::from_millis(20)),
            largest_acked: Some(seq),
            app_limited: false,
            ce_delta: 0,
        };
        flow.on_ack(now, &ack);
        if i == 1500 {
            flow.on_loss(now, &LossEvent::episode(0));
        }
        out.push((flow.cwnd(), flow.ssthresh().unwrap_or(u64::MAX)));
    }
    out
}

#[test]
fn linux_mode_runs_the_same_across_the_jiffies_and_microsecond_wraps() {
    // Everything the kernel compares is a difference of 32-bit clocks, so the same
    // stream gives the same windows whether or not both clocks wrap in the middle of it
    // (here 2 s in, during slow start) and whatever the upper bits of the time are.
    let wrap = (1u64 << 32) * 1000; // jiffies and the µs clock both read 0 again here
    let mut windows = Vec::new();
    for base in [0, wrap - 2_000_000, 2 * wrap - 2_000_000] {
        let mut f = linux_flow(u32::MAX, 10, 20_000);
        f.init(Instant::from_micros(base));
        windows.push(windows_of(&mut f, base, 1));
    }
    assert_eq!(windows[0], windows[1]);
    assert_eq!(windows[0], windows[2]);
    assert!(
        windows[0].iter().any(|&(c, s)| c >= s),
        "the run reached congestion avoidance"
    );
}

#[test]
fn rfc_mode_with_linux_hystart_does_not_care_where_the_32_bit_clocks_wrap() {
    use congestion::rfc::{self, SlowStartKind};
    let mut cfg = rfc::CubicConfig::new();
    cfg.cubic.mss_bytes = 1200;
    cfg.slow_start = SlowStartKind::LinuxHystart;
    // The 32-bit µs stamps Linux HyStart keeps wrap 1 s into the second run.
    let near_wrap = (1u64 << 32) - 1_000_000;
    let mut a = rfc::Cubic::new(cfg, Instant::from_micros(0)).unwrap();
    let mut b = rfc::Cubic::new(cfg, Instant::from_micros(near_wrap)).unwrap();
    assert_eq!(
        windows_of(&mut a, 0, 1200),
        windows_of(&mut b, near_wrap, 1200)
    );
}
