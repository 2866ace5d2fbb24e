//! Cubic behaviour through the `CongestionController` trait: HyStart++ (RFC 9406 §4)
//! at flow level, Linux HyStart in bytes, congestion events, undo, MSS change.

use congestion::hystart::{CSS_ROUNDS, L};
use congestion::rfc::{Cubic, CubicConfig, SlowStartKind};
use congestion::{
    AckEvent, AnyController, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase,
    SentEvent, WindowUnit,
};

const MSS: u64 = 1000;

fn config(slow_start: SlowStartKind) -> CubicConfig {
    let mut cfg = CubicConfig::new();
    cfg.cubic.mss_bytes = MSS;
    cfg.slow_start = slow_start;
    cfg.initial_window_bytes = Some(10 * MSS);
    cfg
}

/// A sender that keeps its window full and acknowledges one MSS per ACK; it counts
/// rounds exactly as RFC 9406 §4.2 does (a round ends when everything sent at its start
/// is acknowledged).
struct Sender {
    flow: Cubic,
    snd_una: u64,
    snd_nxt: u64,
    round: u32,
    round_end: u64,
    t_us: u64,
    gap_us: u64,
}

impl Sender {
    fn new(cfg: CubicConfig) -> Self {
        let mut flow = Cubic::new(cfg, Instant::ZERO).expect("valid");
        let w = flow.cwnd();
        flow.on_sent(Instant::ZERO, &SentEvent::new(w, w));
        Sender {
            flow,
            snd_una: 0,
            snd_nxt: w,
            round: 0,
            round_end: 0,
            t_us: 0,
            gap_us: 1000,
        }
    }

    /// One ACK of `acked` bytes; `rtt_of_round` picks the RTT for the round the ACK
    /// lands in. Returns the round number.
    fn ack(&mut self, acked: u64, rtt_of_round: &dyn Fn(u32) -> u64) -> u32 {
        self.snd_una += acked;
        if self.snd_una >= self.round_end {
            self.round += 1;
            self.round_end = self.snd_nxt;
        }
        let rtt = rtt_of_round(self.round);
        self.t_us += self.gap_us;
        let now = Instant::from_micros(self.t_us);
        let ack = AckEvent {
            acked,
            rtt: Some(Duration::from_micros(rtt)),
            largest_acked: Some(self.snd_una),
            app_limited: false,
            ce_delta: 0,
        };
        self.flow.on_ack(now, &ack);
        self.snd_nxt = self.snd_nxt.max(self.snd_una + self.flow.cwnd());
        let sent = SentEvent::new(self.snd_nxt - self.snd_una, self.snd_nxt);
        self.flow.on_sent(now, &sent);
        self.round
    }

    /// ACKs one MSS at a time until round `last` ends; records the phase at each ACK.
    fn run_until_round(
        &mut self,
        last: u32,
        rtt_of_round: &dyn Fn(u32) -> u64,
    ) -> Vec<(u32, Phase, u64)> {
        let mut log = Vec::new();
        while self.round <= last {
            let r = self.ack(MSS, rtt_of_round);
            log.push((r, self.flow.phase(), self.flow.cwnd()));
            if self.flow.phase() == Phase::CongestionAvoidance {
                break;
            }
        }
        log
    }
}

#[test]
fn an_rtt_step_enters_css_and_css_grows_a_quarter() {
    let mut s = Sender::new(config(SlowStartKind::HystartPlusPlus));
    // Rounds 1-3 at 50 ms, from round 4 on 60 ms: 60 >= 50 + max(4, min(50/8, 16)) = 56.25.
    let rtt = |r: u32| if r < 4 { 50_000 } else { 60_000 };
    let log = s.run_until_round(4, &rtt);
    let first_css = log
        .iter()
        .position(|(_, p, _)| *p == Phase::ConservativeSlowStart)
        .expect("CSS");
    let (round, _, _) = log[first_css];
    assert_eq!(round, 4);
    // CSS starts at the 8th sample (N_RTT_SAMPLE) of round 4.
    assert_eq!(
        log.iter()
            .filter(|(r, _, _)| *r == 4)
            .position(|(_, p, _)| *p == Phase::ConservativeSlowStart),
        Some(7)
    );
    // In CSS one MSS acked grows cwnd by 1000 / CSS_GROWTH_DIVISOR = 250 bytes.
    let (_, _, a) = log[first_css];
    let (_, p, b) = log[first_css + 1];
    assert_eq!(p, Phase::ConservativeSlowStart);
    assert_eq!(b - a, 250);
    assert_eq!(s.flow.hystart_pp().css_baseline_min_rtt_us(), 60_000);
}

#[test]
fn a_lower_rtt_in_css_returns_to_slow_start() {
    let mut s = Sender::new(config(SlowStartKind::HystartPlusPlus));
    // Round 4 steps up to 60 ms (CSS), round 5 drops back to 50 ms < baseline 60 ms.
    let rtt = |r: u32| match r {
        4 => 60_000,
        _ => 50_000,
    };
    let log = s.run_until_round(5, &rtt);
    assert!(
        log.iter()
            .any(|(r, p, _)| *r == 4 && *p == Phase::ConservativeSlowStart)
    );
    // Resumed after the 8th sample of round 5; slow start grows a full MSS per MSS again.
    let r5: Vec<_> = log.iter().filter(|(r, _, _)| *r == 5).collect();
    assert_eq!(r5[6].1, Phase::ConservativeSlowStart);
    assert_eq!(r5[7].1, Phase::SlowStart);
    assert_eq!(r5[9].2 - r5[8].2, MSS);
    assert_eq!(s.flow.hystart_pp().css_baseline_min_rtt_us(), u64::MAX);
}

#[test]
fn css_rounds_of_css_end_in_congestion_avoidance_with_ssthresh_at_cwnd() {
    let mut s = Sender::new(config(SlowStartKind::HystartPlusPlus));
    let rtt = |r: u32| if r < 4 { 50_000 } else { 60_000 };
    let log = s.run_until_round(20, &rtt);
    let last = log.last().unwrap();
    assert_eq!(last.1, Phase::CongestionAvoidance);
    // CSS began in round 4 (partial round counts), so rounds 4..=8 are the CSS_ROUNDS
    // rounds and the ACK that ends round 8 (starting round 9) exits.
    assert_eq!(last.0, 4 + CSS_ROUNDS);
    assert_eq!(s.flow.ssthresh().unwrap_or(u64::MAX), s.flow.cwnd());
    // RFC 9438 §4.10: no loss yet, so cwnd_prior = cwnd and the first epoch has K = 0.
    assert_eq!(s.flow.cubic().cwnd_prior_bytes, s.flow.cwnd());
    s.ack(MSS, &rtt);
    assert_eq!(s.flow.cubic().k_us, 0);
    assert_eq!(s.flow.cubic().w_max_bytes, s.flow.cubic().cwnd_epoch_bytes);
}

#[test]
fn per_ack_growth_is_limited_to_l_mss_unless_paced() {
    for (paced, want) in [(false, L * MSS), (true, 20 * MSS)] {
        let mut cfg = config(SlowStartKind::HystartPlusPlus);
        cfg.paced = paced;
        cfg.initial_window_bytes = Some(20 * MSS);
        let mut s = Sender::new(cfg);
        // One stretch ACK for 20 segments: +min(20, L=8) MSS unpaced, +20 MSS paced.
        s.ack(20 * MSS, &|_| 50_000);
        assert_eq!(s.flow.cwnd(), 20 * MSS + want, "paced {paced}");
    }
    // Standard slow start has no L.
    let mut cfg = config(SlowStartKind::Standard);
    cfg.initial_window_bytes = Some(20 * MSS);
    let mut s = Sender::new(cfg);
    s.ack(20 * MSS, &|_| 50_000);
    assert_eq!(s.flow.cwnd(), 40 * MSS);
}

#[test]
fn linux_hystart_in_bytes_exits_on_a_delay_increase() {
    let mut cfg = config(SlowStartKind::LinuxHystart);
    cfg.initial_window_bytes = Some(16 * MSS);
    let mut s = Sender::new(cfg);
    // ACKs 3 ms apart: more than hystart_ack_delta (2 ms), so no ACK train ever forms.
    s.gap_us = 3000;
    // delay_min 20 ms; a round minimum above 20 + max(4, 20/8) = 24 ms after 8 samples
    // exits (Linux HYSTART_DELAY).
    let rtt = |r: u32| if r < 3 { 20_000 } else { 30_000 };
    let log = s.run_until_round(10, &rtt);
    let last = log.last().unwrap();
    assert_eq!(last.1, Phase::CongestionAvoidance);
    assert_eq!(last.0, 3);
    assert_eq!(s.flow.ssthresh().unwrap_or(u64::MAX), s.flow.cwnd());
}

#[test]
fn linux_hystart_in_bytes_exits_on_a_long_ack_train() {
    let mut cfg = config(SlowStartKind::LinuxHystart);
    cfg.initial_window_bytes = Some(16 * MSS);
    let mut s = Sender::new(cfg);
    // ACKs 1 ms apart at a 20 ms RTT. The round starts at the first ACK (t = 1 ms); the
    // train passes delay_min/2 = 10 ms (unpaced) on the ACK at t = 12 ms (11 ms > 10 ms),
    // the 12th ACK, still in round 1.
    let log = s.run_until_round(10, &|_| 20_000);
    let last = log.last().unwrap();
    assert_eq!((last.0, last.1), (1, Phase::CongestionAvoidance));
    assert_eq!(log.len(), 12);
}

#[test]
fn loss_ecn_and_rto_reductions() {
    let mut cfg = config(SlowStartKind::Standard);
    cfg.initial_window_bytes = Some(100 * MSS);
    cfg.cubic.ecn_beta_permille = congestion::cubic::ABE_BETA_PERMILLE;
    let mut f = Cubic::new(cfg, Instant::ZERO).unwrap();
    assert_eq!(f.unit(), WindowUnit::Bytes);
    // ECN-CE with RFC 8511's β = 0.85: 100000 -> 85000.
    f.on_ecn(Instant::ZERO, &EcnEvent::episode(1));
    assert_eq!(
        (f.cwnd(), f.ssthresh().unwrap_or(u64::MAX), f.phase()),
        (85_000, 85_000, Phase::Recovery)
    );
    // Loss with β = 0.7: 85000 -> 59500; fast convergence: W_max = 85000·0.85 = 72250.
    f.on_loss(Instant::ZERO, &LossEvent::episode(0));
    assert_eq!(
        (f.cwnd(), f.ssthresh().unwrap_or(u64::MAX)),
        (59_500, 59_500)
    );
    assert_eq!(f.cubic().w_max_bytes, 72_250);
    // RTO: ssthresh = 0.7 · 59500 = 41650, cwnd = 1 MSS, slow start.
    f.on_retransmission_timeout(Instant::ZERO);
    assert_eq!(
        (f.cwnd(), f.ssthresh().unwrap_or(u64::MAX), f.phase()),
        (1000, 41_650, Phase::SlowStart)
    );
    // Persistent congestion: cwnd = 2 MSS, ssthresh = max(0.7 · 1000, 2 MSS) = 2000.
    f.on_loss(
        Instant::ZERO,
        &LossEvent::episode(0).with_persistent_congestion(true),
    );
    assert_eq!((f.cwnd(), f.ssthresh().unwrap_or(u64::MAX)), (2000, 2000));
    // Minimum window: a loss at 2 MSS stays at 2 MSS.
    f.on_loss(Instant::ZERO, &LossEvent::episode(0));
    assert_eq!((f.cwnd(), f.ssthresh().unwrap_or(u64::MAX)), (2000, 2000));
    // RFC 9438 §4.6: ECE keeps reducing cwnd down to 1 MSS (ssthresh stays >= 2 MSS):
    // 2000 -> 1700 -> 1445 -> 1228 -> 1043 -> 1000 (floor), ⌊0.85 · x⌋ each time.
    for want in [1700, 1445, 1228, 1043, 1000, 1000] {
        f.on_ecn(Instant::ZERO, &EcnEvent::episode(1));
        assert_eq!((f.cwnd(), f.ssthresh().unwrap_or(u64::MAX)), (want, 2000));
    }
}

#[test]
fn undo_is_skipped_once_cwnd_has_regrown_past_cwnd_prior() {
    let mut cfg = config(SlowStartKind::Standard);
    cfg.initial_window_bytes = Some(20 * MSS);
    let mut s = Sender::new(cfg);
    // Loss in slow start at 20000: cwnd 14000, cwnd_prior 20000, ssthresh 14000.
    s.flow.on_loss(Instant::ZERO, &LossEvent::episode(0));
    // Recovery ends, CA grows the window past 20000 (large ACKs, long time).
    for _ in 0..400 {
        s.gap_us = 50_000;
        s.ack(5 * MSS, &|_| 50_000);
    }
    assert!(s.flow.cwnd() > 20_000, "cwnd {}", s.flow.cwnd());
    let now = s.flow;
    // RFC 9438 §4.9.2: cwnd >= cwnd_prior, so the late undo keeps the current state.
    s.flow.on_spurious_congestion(Instant::from_micros(s.t_us));
    assert_eq!(s.flow.cwnd(), now.cwnd());
    assert_eq!(s.flow.ssthresh().unwrap_or(u64::MAX), 14_000);
    assert_eq!(s.flow.cubic(), now.cubic());
}

#[test]
fn undo_restores_cwnd_ssthresh_w_max_k_and_the_epoch() {
    let mut cfg = config(SlowStartKind::Standard);
    cfg.initial_window_bytes = Some(100 * MSS);
    cfg.initial_ssthresh_bytes = Some(100 * MSS);
    let mut s = Sender::new(cfg);
    s.flow.on_loss(Instant::ZERO, &LossEvent::episode(0));
    for _ in 0..300 {
        s.ack(MSS, &|_| 50_000);
    }
    let before = s.flow;
    assert_eq!(before.phase(), Phase::CongestionAvoidance);
    assert!(before.cubic().k_us > 0 && before.cubic().epoch_start().is_some());
    s.flow
        .on_loss(Instant::from_micros(s.t_us), &LossEvent::episode(0));
    assert_ne!(s.flow.cwnd(), before.cwnd());
    assert_ne!(s.flow.cubic(), before.cubic());
    s.flow.on_spurious_congestion(Instant::from_micros(s.t_us));
    assert_eq!(s.flow.cwnd(), before.cwnd());
    assert_eq!(
        s.flow.ssthresh().unwrap_or(u64::MAX),
        before.ssthresh().unwrap_or(u64::MAX)
    );
    assert_eq!(s.flow.phase(), before.phase());
    assert_eq!(s.flow.cubic(), before.cubic());
    // A second undo has nothing to restore.
    let after = s.flow;
    s.flow.on_spurious_congestion(Instant::from_micros(s.t_us));
    assert_eq!(s.flow, after);
}

#[test]
fn a_new_flow_starts_from_fresh_cubic_and_hystart_pp_state() {
    // Cubic::new assembles these from zeroed constants plus a few fields (a firmware
    // size measure): the result must be exactly the constructors' values, and an undo
    // with nothing saved must change nothing.
    for kind in [
        SlowStartKind::Standard,
        SlowStartKind::LinuxHystart,
        SlowStartKind::HystartPlusPlus,
    ] {
        let mut f = Cubic::new(config(kind), Instant::from_micros(7)).unwrap();
        assert_eq!(*f.cubic(), congestion::cubic::RfcCubic::new());
        assert_eq!(*f.hystart_pp(), congestion::hystart::HystartPlusPlus::new());
        assert_eq!(f.cwnd(), 10 * MSS);
        let fresh = f;
        f.on_spurious_congestion(Instant::from_micros(8));
        assert_eq!(f, fresh);
    }
}

#[test]
fn no_growth_while_not_cwnd_limited() {
    let mut f = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).unwrap();
    // 2 MSS in flight against a 10 MSS window: 2000 + 1000 < 10000, not cwnd-limited.
    f.on_sent(Instant::ZERO, &SentEvent::new(2000, 2000));
    let ack = AckEvent {
        acked: 1000,
        rtt: Some(Duration::from_millis(10)),
        largest_acked: Some(1000),
        app_limited: false,
        ce_delta: 0,
    };
    f.on_ack(Instant::from_micros(10_000), &ack);
    assert_eq!(f.cwnd(), 10_000);
    assert!(!f.last_ack_cwnd_limited());
    // 9 MSS in flight: 9000 + 1000 >= 10000, cwnd-limited: slow start adds 1000.
    f.on_sent(Instant::ZERO, &SentEvent::new(9000, 10_000));
    f.on_ack(
        Instant::from_micros(20_000),
        &AckEvent {
            largest_acked: Some(2000),
            ..ack
        },
    );
    assert_eq!(f.cwnd(), 11_000);
    // The stack's app_limited flag wins.
    f.on_sent(Instant::ZERO, &SentEvent::new(11_000, 12_000));
    f.on_ack(
        Instant::from_micros(30_000),
        &AckEvent {
            largest_acked: Some(3000),
            app_limited: true,
            ..ack
        },
    );
    assert_eq!(f.cwnd(), 11_000);
}

#[test]
fn mss_change_keeps_bytes_raises_the_floor_and_restarts_the_epoch() {
    let mut cfg = config(SlowStartKind::Standard);
    cfg.initial_window_bytes = Some(2 * MSS);
    cfg.initial_ssthresh_bytes = Some(2 * MSS);
    let mut f = Cubic::new(cfg, Instant::ZERO).unwrap();
    f.set_mss(1500).unwrap();
    // 2 · 1500 = 3000 is the new minimum window.
    assert_eq!((f.cwnd(), f.ssthresh().unwrap_or(u64::MAX)), (3000, 3000));
    assert_eq!(f.params().mss(), 1500);
    assert!(f.set_mss(0).is_err());
    assert_eq!(f.params().mss(), 1500);
}

#[test]
fn any_controller_forwards_to_the_rfc_flow() {
    let f = Cubic::new(config(SlowStartKind::HystartPlusPlus), Instant::ZERO).unwrap();
    let mut any = AnyController::RfcCubic(f);
    assert_eq!(any.unit(), WindowUnit::Bytes);
    any.on_loss(Instant::ZERO, &LossEvent::episode(0));
    assert_eq!(any.cwnd(), 7000);
}

#[test]
fn default_initial_window_is_rfc_9002s() {
    // min(10 · 1200, max(14720, 2 · 1200)) = 12000 bytes.
    let f = Cubic::new(CubicConfig::new(), Instant::ZERO).unwrap();
    assert_eq!(f.cwnd(), 12_000);
    assert_eq!(f.ssthresh().unwrap_or(u64::MAX), u64::MAX);
    let mut bad = CubicConfig::new();
    bad.initial_window_bytes = Some(100);
    assert!(Cubic::new(bad, Instant::ZERO).is_err());
}

#[test]
fn without_fast_convergence_w_max_is_the_window_before_reduction() {
    let mut cfg = config(SlowStartKind::Standard);
    cfg.initial_window_bytes = Some(100 * MSS);
    cfg.cubic.fast_convergence = false;
    let mut f = Cubic::new(cfg, Instant::ZERO).unwrap();
    f.on_loss(Instant::ZERO, &LossEvent::episode(0));
    // Second loss at 70000 < W_max 100000: W_max = 70000, not 70000 · 0.85 = 59500.
    f.on_loss(Instant::ZERO, &LossEvent::episode(0));
    assert_eq!((f.cubic().w_max_bytes, f.cwnd()), (70_000, 49_000));
}

#[test]
fn first_ca_stage_after_a_timeout_has_k_zero_and_w_est_at_cwnd_epoch() {
    let mut cfg = config(SlowStartKind::HystartPlusPlus);
    cfg.initial_window_bytes = Some(40 * MSS);
    let mut s = Sender::new(cfg);
    s.flow.on_loss(Instant::ZERO, &LossEvent::episode(0));
    // RTO at cwnd 28000: ssthresh = 0.7 · 28000 = 19600, cwnd = 1 MSS.
    s.flow.on_retransmission_timeout(Instant::ZERO);
    assert_eq!(
        (s.flow.cwnd(), s.flow.ssthresh().unwrap_or(u64::MAX)),
        (1000, 19_600)
    );
    // RFC 9406 §4.3: standard slow start after the initial one: a 20-segment stretch
    // ACK adds all 20 MSS (no L), capped at ssthresh.
    s.ack(20 * MSS, &|_| 50_000);
    assert_eq!(
        (s.flow.cwnd(), s.flow.phase()),
        (19_600, Phase::CongestionAvoidance)
    );
    s.ack(MSS, &|_| 50_000);
    // RFC 9438 §4.8: K = 0, W_max = cwnd_epoch, W_est starts at cwnd_epoch.
    let c = s.flow.cubic();
    assert_eq!(
        (c.k_us, c.w_max_bytes, c.cwnd_epoch_bytes),
        (0, 19_600, 19_600)
    );
    // W_est = 19600 + α · 1000 · 1000 / 19600 with α = 0.529 (W_est < cwnd_prior 28000):
    // ⌊1000 · 900 · 1000 / 1700⌋ = 529411; 529411 / 19600 = 27.
    assert_eq!(c.w_est_bytes, 19_627);
}

#[test]
fn loss_during_css_ends_slow_start_for_good() {
    let mut s = Sender::new(config(SlowStartKind::HystartPlusPlus));
    let rtt = |r: u32| if r < 4 { 50_000 } else { 60_000 };
    let log = s.run_until_round(4, &rtt);
    assert!(
        log.iter()
            .any(|(_, p, _)| *p == Phase::ConservativeSlowStart)
    );
    let before = s.flow.cwnd();
    s.flow
        .on_loss(Instant::from_micros(s.t_us), &LossEvent::episode(0));
    assert_eq!(s.flow.phase(), Phase::Recovery);
    assert_eq!(s.flow.ssthresh().unwrap_or(u64::MAX), before * 7 / 10);
    assert!(!s.flow.hystart_pp().in_css());
}

#[test]
fn hystart_pp_constants_are_the_rfc_recommendations() {
    use congestion::hystart::{
        CSS_GROWTH_DIVISOR, MAX_RTT_THRESH, MIN_RTT_DIVISOR, MIN_RTT_THRESH, N_RTT_SAMPLE,
    };
    assert_eq!(MIN_RTT_THRESH, Duration::from_millis(4));
    assert_eq!(MAX_RTT_THRESH, Duration::from_millis(16));
    assert_eq!((MIN_RTT_DIVISOR, N_RTT_SAMPLE, CSS_ROUNDS, L), (8, 8, 5, 8));
    // RFC 9406 §4.3: CSS_GROWTH_DIVISOR MUST be at least 2.
    assert_eq!(CSS_GROWTH_DIVISOR, 4);
    const { assert!(CSS_GROWTH_DIVISOR >= 2) };
}

/// Fuzzing found it: a loss, then an RTO during that recovery, then ACKs beyond the
/// loss's recovery point, then an undo of the RTO. The undo restored the phase of the
/// moment before the RTO, `Recovery`, although that recovery had ended meanwhile.
#[test]
fn undoing_a_timeout_does_not_reopen_a_recovery_that_has_ended() {
    let mut flow = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).expect("valid");
    let t = Instant::from_micros;
    flow.on_sent(t(0), &SentEvent::new(10 * MSS, 10));
    flow.on_loss(t(1), &LossEvent::episode(0)); // recovery ends after packet 10
    flow.on_retransmission_timeout(t(2));
    assert_eq!(flow.phase(), Phase::SlowStart);
    flow.on_sent(t(3), &SentEvent::new(MSS, 11));
    let ack = AckEvent {
        acked: MSS,
        rtt: None,
        largest_acked: Some(11),
        app_limited: false,
        ce_delta: 0,
    };
    flow.on_ack(t(4), &ack); // acks a packet sent after the loss
    flow.on_spurious_congestion(t(5));
    assert_ne!(flow.phase(), Phase::Recovery);
    assert_eq!(flow.recovery_end(), None);
}

#[test]
fn undoing_a_timeout_inside_an_open_recovery_returns_to_it() {
    let mut flow = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).expect("valid");
    let t = Instant::from_micros;
    flow.on_sent(t(0), &SentEvent::new(10 * MSS, 10));
    flow.on_loss(t(1), &LossEvent::episode(0));
    flow.on_retransmission_timeout(t(2));
    flow.on_spurious_congestion(t(3));
    // Nothing sent after the loss was acked: the loss's recovery is still open.
    assert_eq!(
        (flow.phase(), flow.recovery_end()),
        (Phase::Recovery, Some(10))
    );
}

/// Found by fuzzing: with fast convergence and the 2·MSS floor, W_max can fall below
/// the reduced window. The curve must still start at the stage's own window
/// (W_cubic(0) = cwnd_epoch, as Linux's origin_point = cwnd), not stall below it.
#[test]
fn a_w_max_below_the_reduced_window_still_starts_the_curve_at_cwnd() {
    let mut cfg = config(SlowStartKind::Standard);
    cfg.initial_window_bytes = Some(4 * MSS);
    let mut flow = Cubic::new(cfg, Instant::ZERO).expect("valid");
    let t = Instant::from_micros;
    // Losses at 4000 (W_max 4000), 2800 (W_max 2800·0.85 = 2380), 2000 (W_max 1700).
    for (i, seq) in [(1u64, 10u64), (2, 20), (3, 30)] {
        flow.on_sent(t(i), &SentEvent::new(flow.cwnd(), seq));
        flow.on_loss(t(i), &LossEvent::episode(0));
    }
    assert_eq!((flow.cwnd(), flow.cubic().w_max_bytes), (2 * MSS, 1_700));
    let mut now = 1_000u64;
    for seq in 31..231u64 {
        now += 10_000;
        let cwnd = flow.cwnd();
        flow.on_sent(t(now), &SentEvent::new(cwnd, seq));
        let ack = AckEvent {
            acked: MSS,
            rtt: Some(Duration::from_millis(10)),
            largest_acked: Some(seq),
            app_limited: false,
            ce_delta: 0,
        };
        flow.on_ack(t(now), &ack);
        let c = flow.cubic();
        assert!(
            c.w_cubic(&flow.params(), 0) >= c.cwnd_epoch_bytes,
            "curve starts below cwnd_epoch"
        );
    }
    // 2 s of cwnd-limited ACKs: the curve C·t³ from 2000 bytes has grown the window.
    assert!(flow.cwnd() > 2 * MSS, "cwnd stalled at {}", flow.cwnd());
}

/// Found by fuzzing: an undo after an MSS change restored an epoch whose K was computed
/// with the old C·MSS, so the curve no longer started at cwnd_epoch.
#[test]
fn an_undo_after_an_mss_change_starts_a_fresh_epoch() {
    let mut flow = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).expect("valid");
    let t = Instant::from_micros;
    flow.on_sent(t(0), &SentEvent::new(10 * MSS, 10));
    flow.on_loss(t(1), &LossEvent::episode(0));
    flow.on_sent(t(2), &SentEvent::new(flow.cwnd(), 20));
    let ack = AckEvent {
        acked: MSS,
        rtt: Some(Duration::from_millis(10)),
        largest_acked: Some(11),
        app_limited: false,
        ce_delta: 0,
    };
    flow.on_ack(t(3), &ack); // ends recovery and starts an epoch with MSS 1000
    assert!(flow.cubic().epoch_start().is_some());
    flow.on_loss(t(4), &LossEvent::episode(0)); // saves that epoch for undo
    flow.set_mss(1500).expect("valid MSS");
    flow.on_spurious_congestion(t(5));
    assert!(
        flow.cubic().epoch_start().is_none(),
        "a stale epoch came back"
    );
}

/// Trap 1: a stack that builds its ACKs as the README's Linux example does
/// (`..AckEvent::default()`, so `largest_acked` stays 0) must still leave recovery.
#[test]
fn recovery_ends_without_packet_numbers_once_the_flight_at_the_event_is_acked() {
    let mut f = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).unwrap();
    f.on_sent(Instant::ZERO, &SentEvent::new(10_000, 10));
    f.on_loss(Instant::from_micros(5_000), &LossEvent::episode(0));
    assert_eq!(f.phase(), Phase::Recovery);
    // 10 MSS were in flight at the loss; β = 0.7 -> cwnd 7000.
    assert_eq!(f.cwnd(), 7_000);
    let ack = AckEvent {
        acked: 1_000,
        rtt: Some(Duration::from_millis(10)),
        ..AckEvent::default()
    };
    let mut t = 10_000;
    // Nine ACKs of 1000 bytes: 1000 bytes of the event's flight are still unacked.
    for _ in 0..9 {
        f.on_ack(Instant::from_micros(t), &ack);
        t += 1_000;
        assert_eq!(f.phase(), Phase::Recovery);
        assert_eq!(f.cwnd(), 7_000, "no growth in recovery");
    }
    // The tenth covers the whole flight at the event: recovery is over and this ACK
    // already counts for congestion avoidance.
    f.on_sent(Instant::from_micros(t), &SentEvent::new(7_000, 20));
    f.on_ack(Instant::from_micros(t), &ack);
    assert_eq!(f.phase(), Phase::CongestionAvoidance);
    assert_eq!(f.recovery_end(), None);
    // Later ACKs grow the window again: the flow is not frozen.
    for _ in 0..200 {
        t += 1_000;
        f.on_sent(Instant::from_micros(t), &SentEvent::new(f.cwnd(), 20));
        f.on_ack(Instant::from_micros(t), &ack);
    }
    assert!(f.cwnd() > 7_000, "cwnd {}", f.cwnd());
}

/// With packet numbers, the packet-number rule alone ends recovery: acknowledging as
/// many bytes as were in flight does not end it early.
#[test]
fn with_packet_numbers_recovery_waits_for_a_packet_sent_after_the_event() {
    let mut f = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).unwrap();
    f.on_sent(Instant::ZERO, &SentEvent::new(10_000, 10));
    f.on_loss(Instant::from_micros(5_000), &LossEvent::episode(0));
    // 12 ACKs of 1000 bytes, all for packets 1..=10 (the stack coalesced them): more
    // bytes than were in flight, but no packet above 10.
    for i in 0..12u64 {
        let pn = (i + 1).min(10);
        let now = Instant::from_micros(10_000 + i * 1_000);
        f.on_ack(
            now,
            &AckEvent::new(1_000, pn, Some(Duration::from_millis(10))),
        );
        assert_eq!(f.phase(), Phase::Recovery);
    }
    f.on_ack(
        Instant::from_micros(30_000),
        &AckEvent::new(1_000, 11, Some(Duration::from_millis(10))),
    );
    assert_eq!(f.phase(), Phase::CongestionAvoidance);
}

/// A stack that sends a window, then processes each of its ACKs before sending again
/// (as quinn does per packet), once per round.
fn batch_round(f: &mut Cubic, t_us: &mut u64, pn: &mut u64, packets_per_ack: u64) {
    let window = f.cwnd();
    let packets = window / MSS;
    let first = *pn + 1;
    *pn += packets;
    f.on_sent(Instant::from_micros(*t_us), &SentEvent::new(window, *pn));
    *t_us += 20_000;
    let mut acked_pn = first - 1;
    while acked_pn < *pn {
        let n = packets_per_ack.min(*pn - acked_pn);
        acked_pn += n;
        let ack = AckEvent::new(n * MSS, acked_pn, Some(Duration::from_millis(20)));
        f.on_ack(Instant::from_micros(*t_us), &ack);
    }
}

/// Trap 2: window use judged per round, so batch ACK processing doubles the window per
/// round in slow start (RFC 9002 §7.3.1), as a send after every ACK would.
#[test]
fn slow_start_doubles_per_round_when_acks_are_processed_before_sending() {
    for packets_per_ack in [1, 2] {
        let mut f = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).unwrap();
        let (mut t, mut pn) = (0, 0);
        let mut want = 10 * MSS;
        for _ in 0..4 {
            batch_round(&mut f, &mut t, &mut pn, packets_per_ack);
            want *= 2;
            assert_eq!(f.cwnd(), want, "{packets_per_ack} packets per ACK");
            assert_eq!(f.phase(), Phase::SlowStart);
        }
    }
}

/// Without packet numbers the round is the last send: the same batch stack still
/// doubles, since its last send filled the window.
#[test]
fn batch_processing_doubles_without_packet_numbers_too() {
    let mut f = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).unwrap();
    let mut t = 0;
    for round in 1..=3u32 {
        let window = f.cwnd();
        f.on_sent(Instant::from_micros(t), &SentEvent::new(window, 0));
        t += 20_000;
        for _ in 0..window / MSS {
            let ack = AckEvent {
                acked: MSS,
                rtt: Some(Duration::from_millis(20)),
                ..AckEvent::default()
            };
            f.on_ack(Instant::from_micros(t), &ack);
        }
        assert_eq!(f.cwnd(), (10 * MSS) << round);
    }
}

/// An application that never fills the window does not grow it, round after round
/// (RFC 9438 §5.8, RFC 9002 §7.8), whether it sends after each ACK or in batches.
#[test]
fn an_application_limited_flow_does_not_grow_with_per_round_window_use() {
    let mut f = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).unwrap();
    let mut t = 0;
    let mut pn = 0;
    for _ in 0..5 {
        // Half the window, then its ACKs one by one.
        let first = pn + 1;
        pn += 5;
        f.on_sent(Instant::from_micros(t), &SentEvent::new(5 * MSS, pn));
        t += 20_000;
        for acked_pn in first..=pn {
            let ack = AckEvent::new(MSS, acked_pn, Some(Duration::from_millis(20)));
            f.on_ack(Instant::from_micros(t), &ack);
            assert!(!f.last_ack_cwnd_limited());
        }
    }
    assert_eq!(f.cwnd(), 10 * MSS);
    // One round that fills the window grows it again, for that round only.
    let window = f.cwnd();
    f.on_sent(Instant::from_micros(t), &SentEvent::new(window, pn + 10));
    let ack = AckEvent::new(MSS, pn + 1, Some(Duration::from_millis(20)));
    f.on_ack(Instant::from_micros(t + 20_000), &ack);
    assert_eq!(f.cwnd(), 11 * MSS);
}

/// A stack that numbers its sends but leaves `largest_acked` at 0: rounds can never end
/// by packet number, so the last send decides, and a flow that stopped filling its
/// window stops growing.
#[test]
fn without_acked_packet_numbers_an_application_limited_flow_still_does_not_grow() {
    let mut f = Cubic::new(config(SlowStartKind::Standard), Instant::ZERO).unwrap();
    // One full window, then its ACKs: slow start doubles.
    f.on_sent(Instant::ZERO, &SentEvent::new(10 * MSS, 10));
    let ack = AckEvent {
        acked: MSS,
        rtt: Some(Duration::from_millis(20)),
        ..AckEvent::default()
    };
    for _ in 0..10 {
        f.on_ack(Instant::from_micros(20_000), &ack);
    }
    assert_eq!(f.cwnd(), 20 * MSS);
    // From now on the application sends 3 MSS at a time against a 20 MSS window.
    let mut pn = 10;
    for round in 0..5u64 {
        pn += 3;
        let t = 40_000 + round * 20_000;
        f.on_sent(Instant::from_micros(t), &SentEvent::new(3 * MSS, pn));
        for _ in 0..3 {
            f.on_ack(Instant::from_micros(t + 20_000), &ack);
            assert!(!f.last_ack_cwnd_limited());
        }
    }
    assert_eq!(f.cwnd(), 20 * MSS);
}
