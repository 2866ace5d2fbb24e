//! A floating-point model of the RFC 9438 equations (tests only; the library has no
//! floats) and a property test that the library's integer window tracks it within 1 %
//! or one MSS, whichever is larger, over random cwnd-limited ACK streams with losses.
#![expect(
    clippy::float_arithmetic,
    reason = "the reference model is floating point on purpose; the library is not"
)]

use congestion::rfc::{Cubic, CubicConfig, SlowStartKind};
use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, SentEvent};
use proptest::prelude::*;

const MSS: f64 = 1000.0;
const BETA: f64 = 0.7;
const C: f64 = 0.4;

/// RFC 9438 §4 in f64, in segments and seconds, congestion avoidance only.
struct Model {
    cwnd: f64,
    w_max: f64,
    w_max_undefined: bool,
    cwnd_prior: f64,
    epoch: Option<f64>,
    k: f64,
    /// The curve's plateau: W_max, or cwnd_epoch when W_max fell below it.
    origin: f64,
    w_est: f64,
}

impl Model {
    fn new(cwnd_segments: f64) -> Self {
        Model {
            cwnd: cwnd_segments,
            w_max: 0.0,
            w_max_undefined: true,
            cwnd_prior: 0.0,
            epoch: None,
            k: 0.0,
            origin: 0.0,
            w_est: 0.0,
        }
    }

    fn w_cubic(&self, t: f64) -> f64 {
        // RFC 9438 §4.2 Figure 1
        C * (t - self.k).powi(3) + self.origin
    }

    fn ack(&mut self, now: f64, acked_segments: f64, rtt: f64) {
        if self.epoch.is_none() {
            self.epoch = Some(now);
            if self.w_max_undefined {
                self.w_max = self.cwnd;
                self.w_max_undefined = false;
            }
            // RFC 9438 §4.2 Figure 2
            self.k = ((self.w_max - self.cwnd).max(0.0) / C).cbrt();
            // With W_max below cwnd_epoch, K = 0 and the curve starts at cwnd_epoch.
            self.origin = self.w_max.max(self.cwnd);
            self.w_est = self.cwnd;
        }
        let t = now - self.epoch.unwrap_or(now);
        // RFC 9438 §4.3 Figure 4, with α switching to 1 at cwnd_prior
        let alpha = if self.w_est >= self.cwnd_prior {
            1.0
        } else {
            3.0 * (1.0 - BETA) / (1.0 + BETA)
        };
        self.w_est += alpha * acked_segments / self.cwnd;
        if self.w_cubic(t) < self.w_est {
            self.cwnd = self.cwnd.max(self.w_est);
            return;
        }
        // RFC 9438 §4.2 Figure 3: target clamped to [cwnd, 1.5 cwnd] at t + RTT
        let target = self.w_cubic(t + rtt).clamp(self.cwnd, 1.5 * self.cwnd);
        let inc = ((target - self.cwnd) * acked_segments / self.cwnd).min(target - self.cwnd);
        self.cwnd += inc;
    }

    /// A loss. `fast_convergence` is the decision `cwnd < W_max`; the caller passes the
    /// model's own unless the two windows are within the tolerance of each other, where
    /// rounding can flip this knife-edge comparison (then it passes the library's).
    fn loss(&mut self, fast_convergence: bool) {
        // RFC 9438 §4.7 fast convergence, §4.6 multiplicative decrease
        self.w_max = if fast_convergence {
            self.cwnd * (1.0 + BETA) / 2.0
        } else {
            self.cwnd
        };
        self.w_max_undefined = false;
        self.cwnd_prior = self.cwnd;
        self.cwnd = (self.cwnd * BETA).max(2.0);
        self.epoch = None;
    }
}

#[derive(Clone, Debug)]
enum Step {
    /// An ACK `gap_us` after the previous event acknowledging `segments` MSS.
    Ack { gap_us: u64, segments: u64 },
    /// A loss event.
    Loss,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        30 => (1u64..200_000, 1u64..8).prop_map(|(gap_us, segments)| Step::Ack { gap_us, segments }),
        1 => Just(Step::Loss),
    ]
}

fn flow(cwnd_bytes: u64) -> Cubic {
    let mut cfg = CubicConfig::new();
    cfg.cubic.mss_bytes = 1000;
    cfg.slow_start = SlowStartKind::Standard;
    cfg.initial_window_bytes = Some(cwnd_bytes);
    // ssthresh = initial window: congestion avoidance from the first ACK.
    cfg.initial_ssthresh_bytes = Some(cwnd_bytes);
    Cubic::new(cfg, Instant::ZERO).expect("valid config")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn integer_window_tracks_the_float_model(
        init_segments in 4u64..2000,
        rtt_us in 1_000u64..300_000,
        steps in proptest::collection::vec(step(), 1..300),
    ) {
        let mut f = flow(init_segments * 1000);
        let mut m = Model::new(init_segments as f64);
        let mut now_us = 0u64;
        let mut seq = 1u64;
        // The sender refills the window at once after every ACK (never idle), so every
        // ACK finds the whole window in flight: always cwnd-limited.
        f.on_sent(Instant::ZERO, &SentEvent::new(f.cwnd(), seq));
        for s in steps {
            match s {
                Step::Ack { gap_us, segments } => {
                    now_us += gap_us;
                    let now = Instant::from_micros(now_us);
                    let ack = AckEvent {
                        acked: segments * 1000,
                        rtt: Some(Duration::from_micros(rtt_us)),
                        largest_acked: Some(seq),
                        app_limited: false, ce_delta: 0,
                    };
                    f.on_ack(now, &ack);
                    seq += 1;
                    f.on_sent(now, &SentEvent::new(f.cwnd(), seq));
                    m.ack(now_us as f64 / 1e6, segments as f64, rtt_us as f64 / 1e6);
                }
                Step::Loss => {
                    let library_fc = f.cwnd() < f.cubic().w_max_bytes;
                    let model_fc = m.cwnd < m.w_max;
                    let near = (m.cwnd - m.w_max).abs() * MSS <= (m.cwnd * MSS * 0.01).max(MSS);
                    f.on_loss(Instant::from_micros(now_us), &LossEvent::episode(0));
                    m.loss(if near { library_fc } else { model_fc });
                    // A packet sent after the loss: its ACK (the next one) ends recovery,
                    // as the model assumes.
                    seq += 1;
                    f.on_sent(Instant::from_micros(now_us), &SentEvent::new(f.cwnd(), seq));
                }
            }
            let model_bytes = m.cwnd * MSS;
            let got = f.cwnd() as f64;
            let tolerance = (model_bytes * 0.01).max(MSS);
            prop_assert!(
                (got - model_bytes).abs() <= tolerance,
                "library {} bytes, model {:.1} bytes (tolerance {:.1})", got, model_bytes, tolerance
            );
        }
    }
}

#[test]
fn model_and_library_agree_on_a_hand_worked_epoch() {
    // cwnd 100 segments, loss: W_max 100, cwnd 70, K = cbrt(30/0.4) = 4.2172 s.
    let mut f = flow(100_000);
    let mut m = Model::new(100.0);
    f.on_loss(Instant::ZERO, &LossEvent::episode(0));
    m.loss(false);
    assert_eq!(f.cwnd(), 70_000);
    for i in 1..=400u64 {
        let now = Instant::from_micros(i * 10_000);
        let seq = i;
        f.on_sent(now, &SentEvent::new(f.cwnd(), seq));
        let ack = AckEvent {
            acked: 1000,
            rtt: Some(Duration::from_millis(50)),
            largest_acked: Some(seq),
            app_limited: false,
            ce_delta: 0,
        };
        f.on_ack(now, &ack);
        m.ack(i as f64 * 0.01, 1.0, 0.05);
    }
    assert!((m.k - 4.2172).abs() < 1e-3);
    assert_eq!(f.cubic().k_us / 1000, 4217);
    let diff = (f.cwnd() as f64 - m.cwnd * MSS).abs();
    assert!(
        diff <= 1000.0,
        "library {} model {}",
        f.cwnd(),
        m.cwnd * MSS
    );
}

/// ACKs every 40 µs for 22 s across `K`: the library reuses its target within 1 ms
/// (and `W_cubic(t)` for the Reno-friendly test), the model computes both exactly on
/// every ACK. The reuse bound (`3·C·MSS·(d + 1 ms)²·1 ms` bytes per ACK, at most 1.2 kB
/// at d = 20 s) times acked/cwnd per ACK adds well under 100 bytes over the run; the
/// comparison allows 0.1 %. Measured: the worst difference is 5.0e-4 of the window, the
/// same with the reuse switched off (`MEMO_SPAN_US = 0`): it comes from the per-ACK
/// integer floors, not from the cache.
#[test]
fn dense_acks_with_the_cached_target_track_the_model_across_k() {
    // 10000 segments, loss: W_max 10000, cwnd 7000, K = cbrt(3000/0.4) = 19.57 s.
    let mut f = flow(10_000_000);
    let mut m = Model::new(10_000.0);
    f.on_loss(Instant::ZERO, &LossEvent::episode(0));
    m.loss(false);
    for i in 1..=550_000u64 {
        let now_us = i * 40;
        let now = Instant::from_micros(now_us);
        f.on_sent(now, &SentEvent::new(f.cwnd(), i));
        f.on_ack(
            now,
            &AckEvent::new(2_000, i, Some(Duration::from_millis(20))),
        );
        m.ack(now_us as f64 / 1e6, 2.0, 0.02);
        let model_bytes = m.cwnd * MSS;
        let diff = (f.cwnd() as f64 - model_bytes).abs();
        assert!(
            diff <= model_bytes * 0.001,
            "at {now_us} µs: library {} bytes, model {model_bytes:.1}",
            f.cwnd()
        );
    }
    // The run went past K and grew beyond W_max.
    assert!(f.cwnd() > 10_000_000, "cwnd {}", f.cwnd());
}
