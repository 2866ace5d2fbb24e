//! The decision sink (`congestion::observe`): a scripted flow through slow start and its
//! exit by HyStart, loss, the end of recovery, ECN, a timeout, an undo, slow start back
//! to ssthresh, persistent congestion and a loss in slow start, in Linux mode and in RFC
//! mode (CUBIC and NewReno), with the exact decisions each step must report.
//!
//! Every step runs on two copies of the flow: one through the plain calls, one through
//! the `_observed` calls. The two must stay equal after every step (an observer sees,
//! it never steers), and each decision's numbers must be what the flow shows before and
//! after the call.

use congestion::linux;
use congestion::observe::{
    Counters, Decision, ExitDetector, NoObserver, ObservableController, Observed, Observer,
    ReductionCause,
};
use congestion::rfc::{self, SlowStartKind};
use congestion::v2_6_35;
use congestion::{
    AckEvent, AnyController, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase,
    SentEvent,
};

/// Every decision, in order, with its time.
#[derive(Default)]
struct Recorder(Vec<(Instant, Decision)>);

impl Observer for Recorder {
    fn on_decision(&mut self, now: Instant, decision: &Decision) {
        self.0.push((now, *decision));
    }
}

/// What a step may report, by kind, for the order checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Reduction(ReductionCause),
    Exit(ExitDetector),
    Css(bool),
    RecoveryEnd,
    Undo,
}

fn kind(d: &Decision) -> Kind {
    match *d {
        Decision::Reduction { cause, .. } => Kind::Reduction(cause),
        Decision::SlowStartExit { detector, .. } => Kind::Exit(detector),
        Decision::ConservativeSlowStart { entered, .. } => Kind::Css(entered),
        Decision::RecoveryEnd { .. } => Kind::RecoveryEnd,
        Decision::Undo { .. } => Kind::Undo,
        other => panic!("no controller here reports {other:?}"),
    }
}

/// ssthresh as decisions give it: `u64::MAX` for none.
fn ssthresh_of<C: CongestionController>(c: &C) -> u64 {
    c.ssthresh().unwrap_or(u64::MAX)
}

/// A window-filling sender in the flow's unit (`unit`: 1 segment, or the MSS in
/// bytes), ACKing one unit per ACK, `gap_us` apart, with the RTT the script sets. The
/// same events go to `plain` (plain calls) and `observed` (`_observed` calls).
struct Script<C> {
    plain: C,
    observed: C,
    rec: Recorder,
    /// Decisions already checked by a step.
    seen: usize,
    unit: u64,
    snd_una: u64,
    snd_nxt: u64,
    t_us: u64,
    gap_us: u64,
    rtt_us: u64,
}

impl<C: ObservableController + Clone + PartialEq + core::fmt::Debug> Script<C> {
    fn new(flow: C, unit: u64, gap_us: u64) -> Self {
        let mut s = Script {
            plain: flow.clone(),
            observed: flow,
            rec: Recorder::default(),
            seen: 0,
            unit,
            snd_una: 0,
            snd_nxt: 0,
            t_us: 1_000_000,
            gap_us,
            rtt_us: 50_000,
        };
        s.fill();
        s
    }

    fn now(&self) -> Instant {
        Instant::from_micros(self.t_us)
    }

    /// Sends what the window allows (on both copies, which have the same window).
    fn fill(&mut self) {
        assert_eq!(self.plain, self.observed, "observing changed the flow");
        let top = self.snd_una + self.plain.cwnd().max(self.unit);
        if top > self.snd_nxt {
            self.snd_nxt = top;
        }
        let sent = SentEvent::new(self.snd_nxt - self.snd_una, self.snd_nxt);
        let now = self.now();
        self.plain.on_sent(now, &sent);
        self.observed.on_sent(now, &sent);
    }

    /// Runs `plain` and `observed` for one event and returns what it reported, after
    /// checking that both copies agree and that the numbers are the flow's own.
    fn step(
        &mut self,
        plain: impl FnOnce(&mut C, Instant),
        observed: impl FnOnce(&mut C, Instant, &mut Recorder),
    ) -> Vec<Decision> {
        let now = self.now();
        let cwnd_before = self.observed.cwnd();
        plain(&mut self.plain, now);
        observed(&mut self.observed, now, &mut self.rec);
        assert_eq!(self.plain, self.observed, "observing changed the flow");
        let new: Vec<Decision> = self.rec.0[self.seen..].iter().map(|(_, d)| *d).collect();
        assert!(self.rec.0[self.seen..].iter().all(|(t, _)| *t == now));
        self.seen = self.rec.0.len();
        let (cwnd, ssthresh) = (self.observed.cwnd(), ssthresh_of(&self.observed));
        for d in &new {
            match *d {
                Decision::Reduction {
                    cwnd_before: b,
                    cwnd_after: a,
                    ssthresh: s,
                    ..
                } => assert_eq!((b, a, s), (cwnd_before, cwnd, ssthresh), "{d:?}"),
                Decision::Undo {
                    cwnd_before: b,
                    cwnd_after: a,
                    ssthresh: s,
                    phase,
                } => assert_eq!(
                    (b, a, s, phase),
                    (cwnd_before, cwnd, ssthresh, self.observed.phase()),
                    "{d:?}"
                ),
                Decision::SlowStartExit {
                    cwnd: c,
                    ssthresh: s,
                    ..
                } => assert_eq!((c, s), (cwnd, ssthresh), "{d:?}"),
                Decision::RecoveryEnd { phase, cwnd: c } => {
                    assert_eq!((phase, c), (self.observed.phase(), cwnd), "{d:?}")
                }
                Decision::ConservativeSlowStart { cwnd: c, .. } => assert_eq!(c, cwnd),
                _ => {}
            }
        }
        new
    }

    /// One ACK of one unit, then the sends it allows.
    fn ack(&mut self) -> Vec<Decision> {
        self.t_us += self.gap_us;
        self.snd_una = (self.snd_una + self.unit).min(self.snd_nxt);
        let ack = AckEvent::new(
            self.unit,
            self.snd_una,
            Some(Duration::from_micros(self.rtt_us)),
        );
        let out = self.step(
            |c, now| c.on_ack(now, &ack),
            |c, now, r| c.on_ack_observed(now, &ack, r),
        );
        self.fill();
        out
    }

    /// ACKs until `stop` says so (at most `limit` ACKs); the decisions on the way.
    fn ack_until(&mut self, limit: usize, stop: impl Fn(&C, &[Decision]) -> bool) -> Vec<Decision> {
        let mut all = Vec::new();
        for _ in 0..limit {
            let out = self.ack();
            all.extend(out);
            if stop(&self.observed, &all) {
                return all;
            }
        }
        panic!(
            "not reached in {limit} ACKs: {all:?}, flow {:?}",
            self.observed
        );
    }

    /// A loss of the oldest outstanding unit (an episode of its own: no packet named).
    fn loss(&mut self, persistent: bool) -> Vec<Decision> {
        self.t_us += self.gap_us;
        let loss = LossEvent::episode(self.unit).with_persistent_congestion(persistent);
        self.step(
            |c, now| c.on_loss(now, &loss),
            |c, now, r| c.on_loss_observed(now, &loss, r),
        )
    }

    /// A loss of a unit sent at `sent_at`.
    fn loss_sent_at(&mut self, sent_at: Instant) -> Vec<Decision> {
        self.t_us += self.gap_us;
        let loss = LossEvent::sent_at(self.unit, sent_at);
        self.step(
            |c, now| c.on_loss(now, &loss),
            |c, now, r| c.on_loss_observed(now, &loss, r),
        )
    }

    fn ecn(&mut self) -> Vec<Decision> {
        self.t_us += self.gap_us;
        let ecn = EcnEvent::episode(1);
        self.step(
            |c, now| c.on_ecn(now, &ecn),
            |c, now, r| c.on_ecn_observed(now, &ecn, r),
        )
    }

    fn rto(&mut self) -> Vec<Decision> {
        self.t_us += self.gap_us;
        let out = self.step(
            |c, now| c.on_retransmission_timeout(now),
            |c, now, r| c.on_retransmission_timeout_observed(now, r),
        );
        // Everything outstanding is lost: the stack resends from the first.
        self.snd_nxt = self.snd_una;
        self.fill();
        out
    }

    fn undo(&mut self) -> Vec<Decision> {
        self.t_us += self.gap_us;
        self.step(
            |c, now| c.on_spurious_congestion(now),
            |c, now, r| c.on_spurious_congestion_observed(now, r),
        )
    }

    /// Counters fed the whole record.
    fn counters(&self) -> Counters {
        let mut c = Counters::new();
        for (t, d) in &self.rec.0 {
            c.on_decision(*t, d);
        }
        c
    }
}

fn kinds(ds: &[Decision]) -> Vec<Kind> {
    ds.iter().map(kind).collect()
}

fn ends_slow_start<C: CongestionController>(c: &C, _: &[Decision]) -> bool {
    c.phase() == Phase::CongestionAvoidance
}

fn ends_recovery<C: CongestionController>(c: &C, _: &[Decision]) -> bool {
    c.phase() != Phase::Recovery
}

/// The whole script on one flow. `delay_exit` is what the first slow start's RTT step
/// must end it with; `css` whether the flow passes through Conservative Slow Start.
/// Returns the script, for its record.
fn run<C: ObservableController + Clone + PartialEq + core::fmt::Debug>(
    flow: C,
    unit: u64,
    delay_exit: ExitDetector,
    css: bool,
) -> Script<C> {
    use ExitDetector as X;
    use Kind::*;
    use ReductionCause as R;
    // ACKs 5 ms apart: no ACK train ever forms (Linux's delta is 2 ms).
    let mut s = Script::new(flow, unit, 5_000);

    // 1. Slow start at 50 ms, then the RTT steps to 80 ms: a delay detector ends it.
    for _ in 0..40 {
        assert!(s.ack().is_empty());
    }
    assert_eq!(s.observed.phase(), Phase::SlowStart);
    s.rtt_us = 80_000;
    let out = s.ack_until(5_000, ends_slow_start);
    let mut want = Vec::new();
    if css {
        want.push(Css(true));
    }
    want.push(Exit(delay_exit));
    assert_eq!(kinds(&out), want);

    // 2. Congestion avoidance, then a loss: one reduction; a second loss of a packet
    // sent before it (a second ago) is of the same period and reports nothing.
    for _ in 0..20 {
        assert!(s.ack().is_empty());
    }
    assert_eq!(kinds(&s.loss(false)), [Reduction(R::Loss)]);
    let old = Instant::from_micros(s.t_us - 1_000_000);
    assert_eq!(kinds(&s.loss_sent_at(old)), []);
    assert_eq!(s.observed.phase(), Phase::Recovery);
    let out = s.ack_until(400, ends_recovery);
    assert_eq!(kinds(&out), [RecoveryEnd]);

    // 3. An ECN-CE rise: a reduction, its recovery ends.
    assert_eq!(kinds(&s.ecn()), [Reduction(R::Ecn)]);
    let out = s.ack_until(400, ends_recovery);
    assert_eq!(kinds(&out), [RecoveryEnd]);

    // 4. A timeout, found spurious: reduction, then undo.
    for _ in 0..5 {
        assert!(s.ack().is_empty());
    }
    assert_eq!(kinds(&s.rto()), [Reduction(R::RetransmissionTimeout)]);
    assert_eq!(s.observed.cwnd(), unit);
    assert_eq!(kinds(&s.undo()), [Undo]);
    // A second undo has nothing to undo.
    assert_eq!(kinds(&s.undo()), []);

    // 5. Another timeout, not undone: slow start (RTT steady) back up to ssthresh.
    for _ in 0..5 {
        assert!(s.ack().is_empty());
    }
    assert_eq!(kinds(&s.rto()), [Reduction(R::RetransmissionTimeout)]);
    let out = s.ack_until(400, ends_slow_start);
    assert_eq!(kinds(&out), [Exit(X::Ssthresh)]);

    // 6. Persistent congestion: a collapse; slow start again.
    for _ in 0..5 {
        assert!(s.ack().is_empty());
    }
    assert_eq!(kinds(&s.loss(true)), [Reduction(R::PersistentCongestion)]);
    assert_eq!(s.observed.phase(), Phase::SlowStart);

    // 7. A loss in that slow start ends it, and reduces; undone.
    for _ in 0..3 {
        assert!(s.ack().is_empty());
    }
    assert_eq!(kinds(&s.loss(false)), [Exit(X::Loss), Reduction(R::Loss)]);
    assert_eq!(kinds(&s.undo()), [Undo]);

    // 8. The undo put the flow back in slow start: an ECN-CE rise ends it too.
    assert_eq!(s.observed.phase(), Phase::SlowStart);
    assert_eq!(kinds(&s.ecn()), [Exit(X::Ecn), Reduction(R::Ecn)]);

    // The whole record, counted.
    let c = s.counters();
    assert_eq!(
        (
            c.loss_reductions,
            c.ecn_reductions,
            c.timeouts,
            c.persistent_congestions
        ),
        (2, 2, 2, 1)
    );
    assert_eq!(c.reductions(), 7);
    assert_eq!((c.slow_start_exits, c.hystart_exits), (4, 1));
    assert_eq!(c.css_entries, u32::from(css));
    assert_eq!((c.recovery_ends, c.undos, c.mode_changes), (2, 2, 0));
    s
}

fn rfc_config(slow_start: SlowStartKind) -> rfc::CubicConfig {
    let mut cfg = rfc::CubicConfig::quic(1000);
    cfg.slow_start = slow_start;
    cfg
}

#[test]
fn linux_mode_reports_each_decision_once_and_exactly() {
    let flow = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap();
    let s = run(flow, 1, ExitDetector::HystartDelay, false);
    assert_eq!(s.rec.0.len(), 15);
}

#[test]
fn rfc_cubic_with_hystart_plus_plus_reports_css_and_its_exit() {
    let flow = rfc::Cubic::new(rfc_config(SlowStartKind::HystartPlusPlus), Instant::ZERO).unwrap();
    let s = run(flow, 1000, ExitDetector::HystartPlusPlus, true);
    assert_eq!(s.rec.0.len(), 16);
    assert_eq!(
        s.observed.slow_start_detector(),
        Some(ExitDetector::HystartPlusPlus)
    );
}

#[test]
fn rfc_cubic_with_linux_hystart_reports_the_delay_test() {
    let flow = rfc::Cubic::new(rfc_config(SlowStartKind::LinuxHystart), Instant::ZERO).unwrap();
    let s = run(flow, 1000, ExitDetector::HystartDelay, false);
    assert_eq!(s.rec.0.len(), 15);
}

#[test]
fn rfc_newreno_reports_as_cubic_does() {
    let flow =
        rfc::NewReno::new(rfc_config(SlowStartKind::HystartPlusPlus), Instant::ZERO).unwrap();
    run(flow, 1000, ExitDetector::HystartPlusPlus, true);
}

#[test]
fn any_controller_forwards_the_observer() {
    let flow = rfc::Cubic::new(rfc_config(SlowStartKind::HystartPlusPlus), Instant::ZERO).unwrap();
    run(
        AnyController::RfcCubic(flow),
        1000,
        ExitDetector::HystartPlusPlus,
        true,
    );
    let flow = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap();
    run(
        AnyController::LinuxCubic(flow),
        1,
        ExitDetector::HystartDelay,
        false,
    );
}

#[test]
fn an_ack_train_ends_linux_slow_start_with_its_own_detector() {
    // ACKs 1 ms apart: within the 2 ms delta, so a round is one train, which at 32
    // segments (32 ms) outlasts half the 50 ms minimum delay.
    let flow = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap();
    let mut s = Script::new(flow, 1, 1_000);
    let out = s.ack_until(400, ends_slow_start);
    assert_eq!(kinds(&out), [Kind::Exit(ExitDetector::HystartAckTrain)]);
    assert!(s.observed.hystart_exit().is_some());
}

#[test]
fn the_2_6_35_profile_reports_its_decisions_too() {
    // The era's HyStart: an ACK train (ACKs 1 ms apart) ends its slow start.
    let start = Instant::from_micros(1_000_000);
    let flow = v2_6_35::Cubic::new(v2_6_35::CubicConfig::new(), start).unwrap();
    let mut s = Script::new(flow, 1, 1_000);
    let out = s.ack_until(2000, ends_slow_start);
    let exit = kinds(&out);
    assert!(
        matches!(
            exit[..],
            [Kind::Exit(
                ExitDetector::HystartAckTrain | ExitDetector::HystartDelay
            )]
        ),
        "{exit:?}"
    );
    for _ in 0..10 {
        s.ack();
    }
    use ReductionCause as R;
    assert_eq!(kinds(&s.loss(false)), [Kind::Reduction(R::Loss)]);
    let out = s.ack_until(400, ends_recovery);
    assert_eq!(kinds(&out), [Kind::RecoveryEnd]);
    assert_eq!(kinds(&s.ecn()), [Kind::Reduction(R::Ecn)]);
    assert_eq!(kinds(&s.rto()), [Kind::Reduction(R::RetransmissionTimeout)]);
    assert_eq!(kinds(&s.undo()), [Kind::Undo]);
    assert_eq!(
        kinds(&s.loss(true)),
        [Kind::Reduction(R::PersistentCongestion)]
    );
}

#[test]
fn observed_wraps_a_flow_and_its_counters_as_one_controller() {
    let flow = rfc::Cubic::new(rfc_config(SlowStartKind::HystartPlusPlus), Instant::ZERO).unwrap();
    let mut plain = Script::new(flow, 1000, 5_000);
    let mut wrapped = Observed::new(flow, Counters::new());
    wrapped.on_sent(plain.now(), &SentEvent::new(plain.snd_nxt, plain.snd_nxt));
    // The same script as `run` step 2, through the wrapper's plain calls.
    let loss = LossEvent::episode(1000);
    wrapped.on_loss(plain.now(), &loss);
    plain.loss(false);
    wrapped.on_retransmission_timeout(plain.now());
    plain.rto();
    wrapped.on_spurious_congestion(plain.now());
    plain.undo();
    assert_eq!(wrapped.observer(), &plain.counters());
    assert_eq!(wrapped.observer().reductions(), 2);
    assert_eq!(wrapped.controller().cwnd(), plain.observed.cwnd());
    // And the same calls with no observer at all report nowhere and change nothing.
    let mut silent = flow;
    silent.on_sent(Instant::ZERO, &SentEvent::new(10_000, 10_000));
    silent.on_loss_observed(Instant::ZERO, &loss, &mut NoObserver);
    let mut twin = flow;
    twin.on_sent(Instant::ZERO, &SentEvent::new(10_000, 10_000));
    twin.on_loss(Instant::ZERO, &loss);
    assert_eq!(silent, twin);
}

/// One event of a random sequence.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// ACK of this many units with this RTT (ms).
    Ack(u8, u8),
    Loss,
    OldLoss,
    Ecn,
    Rto,
    Undo,
    Persistent,
}

fn step_strategy() -> impl proptest::strategy::Strategy<Value = Step> {
    use proptest::prelude::*;
    prop_oneof![
        20 => (1u8..4, 20u8..120).prop_map(|(n, r)| Step::Ack(n, r)),
        2 => Just(Step::Loss),
        1 => Just(Step::OldLoss),
        1 => Just(Step::Ecn),
        1 => Just(Step::Rto),
        1 => Just(Step::Undo),
        1 => Just(Step::Persistent),
    ]
}

/// Any event sequence: an ACK reports something exactly when the phase moved (what the
/// `_observed` ACKs rely on to stay cheap), and the observed flow stays equal to the
/// plain one (checked by `Script::step`). `moderation`: the 2.6.35 profile's ACKs may
/// also cut cwnd below ssthresh (`tcp_moderate_cwnd` leaving Loss or Disorder), which
/// is no congestion decision and is not reported.
fn every_ack_that_moves_the_phase_reports_it<C>(
    flow: C,
    unit: u64,
    steps: &[Step],
    moderation: bool,
) where
    C: ObservableController + Clone + PartialEq + core::fmt::Debug,
{
    let mut s = Script::new(flow, unit, 3_000);
    for step in steps {
        match *step {
            Step::Ack(n, rtt_ms) => {
                s.rtt_us = u64::from(rtt_ms) * 1000;
                for _ in 0..n {
                    let (before, cwnd) = (s.observed.phase(), s.observed.cwnd());
                    let out = s.ack();
                    let after = s.observed.phase();
                    let moderated = moderation
                        && (before, after) == (Phase::CongestionAvoidance, Phase::SlowStart)
                        && s.observed.cwnd() < cwnd;
                    if !moderated {
                        assert_eq!(!out.is_empty(), after != before, "{before:?} -> {out:?}");
                    }
                }
            }
            Step::Loss => {
                s.loss(false);
            }
            Step::OldLoss => {
                let old = Instant::from_micros(s.t_us.saturating_sub(10_000_000));
                s.loss_sent_at(old);
            }
            Step::Ecn => {
                s.ecn();
            }
            Step::Rto => {
                s.rto();
            }
            Step::Undo => {
                s.undo();
            }
            Step::Persistent => {
                s.loss(true);
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    #[test]
    fn linux_acks_report_exactly_when_the_phase_moves(
        steps in proptest::collection::vec(step_strategy(), 1..200)
    ) {
        let flow = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap();
        every_ack_that_moves_the_phase_reports_it(flow, 1, &steps, false);
    }

    #[test]
    fn rfc_acks_report_exactly_when_the_phase_moves(
        steps in proptest::collection::vec(step_strategy(), 1..200)
    ) {
        let flow = rfc::Cubic::new(rfc_config(SlowStartKind::HystartPlusPlus), Instant::ZERO)
            .unwrap();
        every_ack_that_moves_the_phase_reports_it(flow, 1000, &steps, false);
        let flow = rfc::NewReno::new(rfc_config(SlowStartKind::LinuxHystart), Instant::ZERO)
            .unwrap();
        every_ack_that_moves_the_phase_reports_it(flow, 1000, &steps, false);
    }

    #[test]
    fn v2_6_35_acks_report_exactly_when_the_phase_moves(
        steps in proptest::collection::vec(step_strategy(), 1..200)
    ) {
        let start = Instant::from_micros(1_000_000);
        let flow = v2_6_35::Cubic::new(v2_6_35::CubicConfig::new(), start).unwrap();
        every_ack_that_moves_the_phase_reports_it(flow, 1, &steps, true);
    }
}
