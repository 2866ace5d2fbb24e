//! One test per bug found in other Rust CUBICs (docs/DESIGN.md "Known failures"),
//! showing RFC mode does not have it.

use congestion::cubic::{RfcCubic, RfcCubicConfig, exact_cube_root};
use congestion::rfc::{Cubic, CubicConfig, SlowStartKind};
use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, Phase, SentEvent};

const MSS: u64 = 1000;

fn ca_flow(cwnd: u64) -> Cubic {
    let mut cfg = CubicConfig::new();
    cfg.cubic.mss_bytes = MSS;
    cfg.slow_start = SlowStartKind::Standard;
    cfg.initial_window_bytes = Some(cwnd);
    cfg.initial_ssthresh_bytes = Some(cwnd);
    Cubic::new(cfg, Instant::ZERO).expect("valid")
}

/// Driver that keeps the flow cwnd-limited (or not) and numbers packets.
struct Driver {
    flow: Cubic,
    seq: u64,
}

impl Driver {
    fn ack(&mut self, t_us: u64, acked: u64, in_flight_before: Option<u64>) {
        let now = Instant::from_micros(t_us);
        self.seq += 1;
        let in_flight = in_flight_before.unwrap_or(self.flow.cwnd());
        self.flow.on_sent(now, &SentEvent::new(in_flight, self.seq));
        let ack = AckEvent {
            acked,
            rtt: Some(Duration::from_millis(100)),
            largest_acked: Some(self.seq),
            app_limited: false,
            ce_delta: 0,
        };
        self.flow.on_ack(now, &ack);
    }
}

#[test]
fn k_after_fast_convergence_uses_w_max_minus_cwnd_epoch() {
    let p = RfcCubicConfig::new();
    let mut c = RfcCubicConfig::new();
    c.mss_bytes = MSS;
    let params = c.validate().unwrap();
    let _ = p;
    let mut cubic = RfcCubic::new();
    // First loss at 100 segments: W_max = 100 seg.
    let ss = cubic.on_congestion(&params, 100_000, 700);
    assert_eq!(ss, 70_000);
    // Second loss at 90 segments < W_max: fast convergence W_max = 90·(1+0.7)/2 = 76.5 seg,
    // cwnd = 0.7 · 90 = 63 seg.
    let ss = cubic.on_congestion(&params, 90_000, 700);
    assert_eq!(ss, 63_000);
    assert_eq!(cubic.w_max_bytes, 76_500);
    // The epoch starts at the next ACK with cwnd_epoch = 63 seg:
    // K = cbrt((76.5 − 63)/0.4) = cbrt(33.75) = 3.2317 s.
    // The peer bug, K = cbrt(W_max·(1−β)/C) = cbrt(57.375) = 3.855 s, is 600 ms off.
    cubic.on_ack(
        &params,
        Instant::from_secs_for_test(1),
        63_000,
        1000,
        100_000,
    );
    assert_eq!(
        cubic.k_us, 3_231_000,
        "K in whole ms above 2.64 s: floor(3231.7)"
    );
    assert_eq!(cubic.cwnd_epoch_bytes, 63_000);
}

/// `Instant` helper for readability.
trait FromSecs {
    fn from_secs_for_test(s: u64) -> Instant;
}
impl FromSecs for Instant {
    fn from_secs_for_test(s: u64) -> Instant {
        Instant::from_micros(s * 1_000_000)
    }
}

#[test]
fn fast_convergence_applies_beta_once() {
    let mut d = Driver {
        flow: ca_flow(100_000),
        seq: 0,
    };
    d.flow.on_loss(Instant::ZERO, &LossEvent::episode(0));
    // Get out of recovery and back to a window below W_max, then lose again.
    d.ack(1_000, 1000, None);
    assert_eq!(d.flow.phase(), Phase::CongestionAvoidance);
    let before = d.flow.cwnd();
    assert!(before < 100_000);
    d.flow
        .on_loss(Instant::from_micros(2_000), &LossEvent::episode(0));
    // cwnd = 0.7 · before (not 0.7 · 0.85 · before = 59.5 %), W_max = 0.85 · before.
    assert_eq!(d.flow.cwnd(), before * 7 / 10);
    assert_eq!(d.flow.cubic().w_max_bytes, before * 17 / 20);
    assert_eq!(d.flow.ssthresh().unwrap_or(u64::MAX), before * 7 / 10);
}

/// Runs an epoch with `gap_us` of idle (or app-limited) time injected after 2 s of
/// growth, and returns the cwnd at each of the later ACKs, on the flow's own clock.
fn cwnds_after_gap(gap_us: u64, app_limited_acks: bool) -> Vec<u64> {
    let mut d = Driver {
        flow: ca_flow(100_000),
        seq: 0,
    };
    d.flow.on_loss(Instant::ZERO, &LossEvent::episode(0));
    let mut t = 0;
    for _ in 0..200 {
        t += 10_000;
        d.ack(t, 1000, None);
    }
    if gap_us > 0 {
        if app_limited_acks {
            // ACKs every 10 ms with a nearly empty pipe: not cwnd-limited.
            let end = t + gap_us;
            while t + 10_000 < end {
                t += 10_000;
                d.ack(t, 1000, Some(1000));
            }
            t = end;
        } else {
            // Nothing in flight, then transmit start after idle.
            d.flow
                .on_sent(Instant::from_micros(t), &SentEvent::new(0, d.seq));
            t += gap_us;
            d.flow.on_transmit_start(Instant::from_micros(t));
        }
    }
    let mut out = Vec::new();
    for _ in 0..200 {
        t += 10_000;
        d.ack(t, 1000, None);
        out.push(d.flow.cwnd());
    }
    out
}

#[test]
fn idle_time_earns_no_growth() {
    let straight = cwnds_after_gap(0, false);
    let idle = cwnds_after_gap(30_000_000, false);
    // 30 s of idle: had it counted, t would be past K = 4.2 s and cwnd would jump by
    // up to 50 % per RTT. Without credit the window continues as if no time had passed
    // (within the one ACK interval the idle boundary costs).
    for (i, (a, b)) in straight.iter().zip(&idle).enumerate() {
        assert!(
            a.abs_diff(*b) <= 200,
            "ack {i}: straight {a}, after idle {b}"
        );
    }
}

#[test]
fn application_limited_time_earns_no_growth() {
    let straight = cwnds_after_gap(0, true);
    let limited = cwnds_after_gap(30_000_000, true);
    for (i, (a, b)) in straight.iter().zip(&limited).enumerate() {
        assert!(
            a.abs_diff(*b) <= 200,
            "ack {i}: straight {a}, after app-limited {b}"
        );
    }
}

#[test]
fn alpha_switches_to_one_once_w_est_reaches_cwnd_prior() {
    // C tiny so the cubic curve stays flat and the Reno-friendly region rules.
    let mut c = RfcCubicConfig::new();
    c.mss_bytes = MSS;
    c.c_permille = 1;
    let params = c.validate().unwrap();
    let mut cubic = RfcCubic::new();
    let mut cwnd = cubic.on_congestion(&params, 20_000, 700);
    assert_eq!(cwnd, 14_000);
    let mut t = 0;
    let mut increments = Vec::new();
    for _ in 0..2000 {
        t += 1000;
        let before = cubic.w_est_bytes;
        cwnd = cubic.on_ack(&params, Instant::from_micros(t), cwnd, 14_000, 0);
        increments.push((before, cubic.w_est_bytes - before));
    }
    // Below cwnd_prior = 20000: α = 3·0.3/1.7 = 0.5294; one window of ACKs (14000 B)
    // at cwnd = 14000 adds ⌊14000 · 900 · 1000 / 1700⌋ / 14000 = 7411764 / 14000 = 529 B.
    // (The first ACK starts the epoch at W_est = cwnd_epoch = 14000.)
    let (_, first) = increments[0];
    assert_eq!(first - 14_000, 529);
    // Past cwnd_prior: α = 1 → ≈ 1000 · 14000 / cwnd bytes per ACK (cwnd ≈ W_est).
    let (w, after) = *increments
        .iter()
        .find(|(w, _)| *w >= 20_000)
        .expect("reached cwnd_prior");
    let expect = 1000 * 14_000 / w;
    assert!(
        after.abs_diff(expect) <= 1,
        "increment {after} at W_est {w}, want {expect}"
    );
    assert_eq!(cubic.cwnd_prior_bytes, 20_000);
}

#[test]
fn thirty_days_without_loss_at_100_gbit_per_s() {
    // 100 Gbit/s = 12.5e9 B/s; RTT 100 ms -> BDP 1.25e9 B; MSS 1500.
    let mut cfg = CubicConfig::new();
    cfg.cubic.mss_bytes = 1500;
    cfg.slow_start = SlowStartKind::Standard;
    cfg.initial_window_bytes = Some(1_250_000_000);
    cfg.initial_ssthresh_bytes = Some(1_250_000_000);
    let mut f = Cubic::new(cfg, Instant::ZERO).unwrap();
    f.on_sent(Instant::ZERO, &SentEvent::new(f.cwnd(), 0));
    f.on_loss(Instant::ZERO, &LossEvent::episode(0));
    // Fast-forward: one ACK every 100 s for 30 days (25920 ACKs), each acknowledging
    // what 100 Gbit/s delivers in 100 s, with the window refilled at once (a real
    // sender sends on the ACK; sending later would count as restart after idle).
    let step_us = 100_000_000u64;
    let acked = 12_500_000_000u64 * 100;
    let mut prev = f.cwnd();
    let mut seq = 0;
    let mut t = 0u64;
    while t < 30 * 86_400 * 1_000_000 {
        t += step_us;
        seq += 1;
        let now = Instant::from_micros(t);
        let ack = AckEvent {
            acked,
            rtt: Some(Duration::from_millis(100)),
            largest_acked: Some(seq - 1),
            app_limited: false,
            ce_delta: 0,
        };
        f.on_ack(now, &ack);
        f.on_sent(now, &SentEvent::new(f.cwnd(), seq));
        let cwnd = f.cwnd();
        // Never shrinks without loss, never grows by more than half a window per ACK.
        assert!(
            cwnd >= prev && cwnd <= prev + prev / 2,
            "t {t}: {prev} -> {cwnd}"
        );
        prev = cwnd;
    }
    // The curve passed K = cbrt(0.375e9 B / 600 B/s³) = 85.5 s long ago, so the target
    // is 1.5·cwnd and each ACK adds (target − cwnd)·acked/cwnd = acked/2 = 6.25e11 B
    // once cwnd > 2·acked: 25920 ACKs · 6.25e11 ≈ 1.62e16 B, no wrap, no panic.
    assert!(
        (16_000_000_000_000_000..16_300_000_000_000_000).contains(&f.cwnd()),
        "{}",
        f.cwnd()
    );
    // The epoch began with the first ACK after recovery (t = 200 s): t spans 30 days.
    assert!(f.cubic().elapsed_us(Instant::from_micros(t)) >= 30 * 86_400 * 1_000_000 - 2 * step_us);
}

#[test]
fn a_week_of_curve_arithmetic_does_not_overflow() {
    // Every t up to a week (in 1-hour steps) and large W_max: saturating, monotone.
    let params = RfcCubicConfig::new().validate().unwrap();
    let mut cubic = RfcCubic::new();
    let _ = cubic.on_congestion(&params, 1 << 40, 700);
    cubic.on_ack(&params, Instant::ZERO, 7 << 37, 0, 0);
    let mut prev = 0;
    for h in 0..=168u64 {
        let w = cubic.w_cubic(&params, h * 3_600_000_000);
        assert!(w >= prev, "hour {h}");
        prev = w;
    }
    // K = cbrt(0.3 · 2^40 B / (0.4 · 1200 B/s³)) = cbrt(687194767) = 882.5 s.
    assert_eq!(
        cubic.k_us / 1_000_000,
        exact_cube_root(((1u64 << 40) - (7 << 37)) / 480)
    );
}
