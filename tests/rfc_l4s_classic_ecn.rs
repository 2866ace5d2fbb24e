//! Prague in bytes (`rfc::Prague`) on a classic ECN bottleneck and on an L4S one: the
//! classic-ECN detector (RFC 9331 §4.3; `rfc::ClassicEcnDetector`) turns the response
//! to CE classic (a halving) on a deep single queue, and leaves it scalable on a DualQ's
//! shallow L queue. The row of `docs/compliance.md` ("fall back to a Reno-friendly
//! response on a classic-ECN bottleneck") points here; the detector's own arithmetic,
//! round by round, is in `src/rfc/classic_ecn/tests.rs`.
//!
//! The stack model is `tests/rfc_l4s.rs`'s: 1200-byte packets, an ACK frame each, ten
//! packets in flight, the ACK of packet `i` releasing packet `i + 10`; each window of
//! ten packets has its last one CE-marked (a marked fraction of 0.1, as an AQM holding
//! the flow would give), and the path's RTT is set per window.

use congestion::rfc::{ClassicConfig, DEGREE_ONE, Prague, SCORE_MAX, SlowStartKind};
use congestion::{AckEvent, CongestionController, Duration, EcnEvent, Instant, SentEvent};

const MSS: u64 = 1_200;

/// QUIC defaults at an MSS of 1200, the detector on or off, starting near where one
/// mark in ten holds the flow: alpha 0.1 (102/1024) and 13 packets in congestion
/// avoidance (a CE takes 13 · 0.05 = 0.65 packets, a round at 20 ms adds (20/25)² =
/// 0.64).
fn config(fallback: bool) -> ClassicConfig {
    let mut c = ClassicConfig::quic(MSS);
    c.slow_start = SlowStartKind::Standard;
    c.initial_window_bytes = Some(13 * MSS);
    c.initial_ssthresh_bytes = Some(13 * MSS);
    c.scalable.initial_alpha_1024 = 102;
    c.scalable.classic_ecn_fallback = fallback;
    c
}

/// A flow and its clock: ACKs of one window spread over that window's RTT.
struct Path {
    flow: Prague,
    now_us: u64,
    next_pn: u64,
}

impl Path {
    fn new(fallback: bool) -> Self {
        let mut flow = Prague::new(config(fallback), Instant::ZERO).unwrap();
        flow.on_sent(Instant::ZERO, &SentEvent::new(10 * MSS, 9));
        Path {
            flow,
            now_us: 0,
            next_pn: 0,
        }
    }

    /// One window of ten ACKs with RTT samples of `rtt_us`, the last `ce` of them
    /// CE-marked. Returns the window's first CE reduction, if it made one: cwnd before
    /// and after, and alpha and the detector's degree when the CE came.
    fn window(&mut self, rtt_us: u64, ce: u64) -> Option<Reduction> {
        let mut reduction = None;
        for i in 0..10 {
            let pn = self.next_pn;
            self.next_pn += 1;
            self.now_us += rtt_us / 10;
            let now = Instant::from_micros(self.now_us);
            let before = self.flow.cwnd();
            let alpha = self.flow.growth().alpha();
            let degree = self.flow.growth().classic_ecn().degree();
            if i >= 10 - ce {
                self.flow.on_ecn(now, &EcnEvent::new(1, pn));
            }
            let after = self.flow.cwnd();
            if after < before && reduction.is_none() {
                reduction = Some(Reduction {
                    before,
                    after,
                    alpha,
                    degree,
                });
            }
            let ack = AckEvent::new(MSS, pn, Some(Duration::from_micros(rtt_us)));
            self.flow.on_ack(now, &ack);
            self.flow.on_sent(now, &SentEvent::new(10 * MSS, pn + 10));
        }
        reduction
    }
}

/// A CE reduction and what it was made with.
struct Reduction {
    before: u64,
    after: u64,
    /// alpha × 2^20 at the CE.
    alpha: u32,
    /// The detector's degree at the CE (× `DEGREE_ONE`).
    degree: u32,
}

/// `window · (1 − alpha/2)` with alpha × 2^20, rounded as the library does (the
/// reduction floored): RFC 8257 §3.3.
fn scalable(window: u64, alpha: u32) -> u64 {
    window - window * u64::from(alpha) / (2 << 20)
}

#[test]
fn a_deep_single_queue_turns_the_response_classic() {
    // A classic AQM (one queue, RED or PIE style) holding the flow at a 15 ms standing
    // queue: a first window at the 20 ms base RTT, unmarked, then 35 ms and one CE a
    // window. Each window is a round and at least the 25 ms reference RTT, so every
    // round updates alpha and the detector.
    let mut p = Path::new(true);
    p.window(20_000, 0);
    let mut turned = None;
    for w in 1..40 {
        if let Some(r) = p.window(35_000, 1) {
            if r.degree == 0 {
                // Still scalable: cwnd · (1 − alpha/2).
                assert_eq!(r.after, scalable(r.before, r.alpha).max(MSS), "window {w}");
            } else if r.degree == DEGREE_ONE {
                // Classic: a CE halves, whatever alpha (0.1 here), as a loss does
                // (RFC 3168 §6.1.2): alpha taken as 1, the half taken away rounded
                // down.
                assert!(r.alpha < 1 << 17);
                assert_eq!(r.after, (r.before - r.before / 2).max(MSS), "window {w}");
                turned.get_or_insert(w);
            }
        }
    }
    // The smoothed RTT climbs from 20 to about 35 ms over the first rounds (the
    // driver's 1/8 gain per ACK). Each round the depth term adds up to ½·log2(15 ms /
    // 2 ms) = 1.45 units and the swing of the smoothed RTT against its slow average
    // (mdev 2 to 6 ms) ½·log2(mdev / 750 µs) = 0.7 to 1.5 more: scores 457, 1075,
    // 1753, 2456 (in 256ths) after windows 2–5, fully classic (≥ 2304) from window 5,
    // whose CE halves 12870 to 6435; then 3218, 1609, and one MSS.
    let d = p.flow.growth().classic_ecn();
    assert!(d.is_classic(), "score {}", d.score());
    assert_eq!(d.score(), SCORE_MAX);
    assert_eq!(turned, Some(5));
}

#[test]
fn with_the_fallback_off_the_same_path_stays_scalable() {
    let mut p = Path::new(false);
    p.window(20_000, 0);
    let mut reductions = 0;
    for w in 1..40 {
        if let Some(r) = p.window(35_000, 1) {
            assert_eq!(r.after, scalable(r.before, r.alpha).max(MSS), "window {w}");
            reductions += 1;
        }
    }
    // The detector never moves: score 0, not classic.
    let d = p.flow.growth().classic_ecn();
    assert_eq!((d.score(), d.degree()), (0, 0));
    assert_eq!(reductions, 39);
}

#[test]
fn a_dualq_l_queue_keeps_the_response_scalable() {
    // An L4S AQM (DualQ's L queue, step at 1 ms): the queue stays under a millisecond,
    // 20.3 or 20.5 ms of RTT on a 20 ms base, one CE a window. The swing (an mdev of at
    // most a few hundred µs, under 750 µs) makes the variation term negative every round
    // and the depth (under 2 ms) adds nothing: the score stays 0 and every reduction is
    // cwnd · (1 − alpha/2).
    let mut p = Path::new(true);
    p.window(20_000, 0);
    let mut reductions = 0;
    for w in 1..200 {
        let rtt = if w % 2 == 0 { 20_300 } else { 20_500 };
        if let Some(r) = p.window(rtt, 1) {
            assert_eq!(r.after, scalable(r.before, r.alpha).max(MSS), "window {w}");
            reductions += 1;
        }
        assert_eq!(p.flow.growth().classic_ecn().score(), 0, "window {w}");
    }
    assert!(p.flow.growth().classic_ecn().saw_ce());
    // Every window reduces until the window reaches one MSS (the model's marks come at
    // the same place in each window, so the flow is always just out of recovery when
    // the next CE comes and never grows): 52 reductions, then the floor.
    assert_eq!(reductions, 52);
}
