//! Decisions reported by the state-machine controllers (Linux-mode BBR v1 and v3,
//! RFC-mode BBRv3, DCTCP, Prague) through `Observed` and `AnyController`: BBR's mode
//! changes in order, BBRv3's ProbeBW phases (one reported by a send), one ECN
//! reduction per CE round, losses, recovery ends, undos and timeouts. Each observed
//! run also equals the same run unobserved (an observer sees, it never steers).

use congestion::linux::dctcp::DctcpConfig;
use congestion::linux::tcp::TcpSysctl;
use congestion::linux::{
    Bbr3Config as LinuxBbr3Config, Bbr3Controller, BbrConfig, BbrController, DctcpController,
    RandomFn, TcpSocketConfig,
};
use congestion::observe::{BbrMode, Counters, Decision, Observed, Observer, ReductionCause};
use congestion::rfc::{Bbr3Config, Bbr3Controller as RfcBbr3Controller};
use congestion::{
    AckEvent, AckedPacket, AnyController, CongestionController, Duration, Instant, SentEvent,
    TxSnapshot, WindowUnit,
};
use std::collections::VecDeque;

/// Every decision, in order, with its time.
#[derive(Default)]
struct Log(Vec<(Instant, Decision)>);

impl Observer for Log {
    fn on_decision(&mut self, now: Instant, decision: &Decision) {
        self.0.push((now, *decision));
    }
}

impl Log {
    fn modes(&self) -> Vec<(BbrMode, BbrMode)> {
        self.0
            .iter()
            .filter_map(|(_, d)| match d {
                Decision::ModeChange { from, to } => Some((*from, *to)),
                _ => None,
            })
            .collect()
    }
}

/// A deterministic "random" draw for every flow: the same for every run.
fn draw(ceil: u32) -> u32 {
    7 % ceil.max(1)
}

const BASE_RTT_US: u64 = 10_000;
/// The bottleneck serves one packet per 500 µs (20 packets per base RTT).
const SERVICE_US: u64 = 500;

/// One packet on the path: when its ACK arrives, and what the stack kept.
struct InFlight {
    pn: u64,
    sent: Instant,
    ack_at: u64,
    tx: TxSnapshot,
}

/// An ACK-clocked transfer over a FIFO bottleneck (20 packets per 10 ms base RTT)
/// until `end_us`: after each ACK the sender fills cwnd. Every packet is acknowledged
/// by its own ACK.
fn bottleneck<C: CongestionController>(c: &mut C, end_us: u64) {
    bottleneck_until(c, end_us, |_| false);
}

/// As [`bottleneck`], but once `stop` holds the sender sends nothing more and the
/// path drains; returns the time of the last ACK, µs.
fn bottleneck_until<C: CongestionController>(
    c: &mut C,
    end_us: u64,
    stop: impl Fn(&C) -> bool,
) -> u64 {
    let unit = if c.unit() == WindowUnit::Segments {
        1
    } else {
        c.mss_bytes()
    };
    let mut path: VecDeque<InFlight> = VecDeque::new();
    let mut next_pn = 0u64;
    let mut last_ack = 0u64;
    let mut now_us = 0u64;
    let mut stopped = false;
    loop {
        stopped = stopped || stop(c);
        while !stopped && c.in_flight() + unit <= c.cwnd() {
            let now = Instant::from_micros(now_us);
            let tx = c.on_packet_sent(now, &SentEvent::new(c.in_flight() + unit, next_pn));
            // FIFO: served after the packet ahead of it, at the earliest a base RTT out.
            let ack_at = (now_us + BASE_RTT_US).max(last_ack + SERVICE_US);
            last_ack = ack_at;
            path.push_back(InFlight {
                pn: next_pn,
                sent: now,
                ack_at,
                tx,
            });
            next_pn += 1;
        }
        let Some(p) = path.pop_front() else {
            break;
        };
        if p.ack_at > end_us {
            break;
        }
        now_us = p.ack_at;
        let rtt = Duration::from_micros(now_us - p.sent.as_micros());
        let ack = AckEvent::new(unit, p.pn, Some(rtt));
        c.on_ack_sampled(
            Instant::from_micros(now_us),
            &ack,
            &AckedPacket::new(p.sent, p.tx),
        );
    }
    now_us
}

fn linux_bbr() -> BbrController<RandomFn> {
    let mut config = BbrConfig::new();
    config.initial_rtt_us = BASE_RTT_US as u32;
    BbrController::new(config, Instant::ZERO, RandomFn(draw)).unwrap()
}

#[test]
fn bbr_v1_reports_startup_drain_probe_bw_probe_rtt_in_order() {
    let mut observed = Observed::new(linux_bbr(), (Counters::new(), Log::default()));
    // 11.5 s: past the 10 s min-RTT window, so PROBE_RTT runs once.
    bottleneck(&mut observed, 11_500_000);
    let (flow, (counters, log)) = observed.into_parts();
    use BbrMode::*;
    assert_eq!(
        log.modes(),
        [
            (Startup, Drain),
            (Drain, ProbeBw),
            (ProbeBw, ProbeRtt),
            (ProbeRtt, ProbeBw)
        ]
    );
    assert_eq!(counters.mode_changes, 4);
    // Nothing was lost: no other decision.
    assert_eq!(log.0.len(), 4);
    assert_eq!(counters.reductions(), 0);
    // PROBE_RTT began about 10 s after the first RTT sample and lasted at least 200 ms.
    let at = |to: BbrMode| {
        log.0
            .iter()
            .find(|(_, d)| matches!(d, Decision::ModeChange { to: t, .. } if *t == to))
            .unwrap()
            .0
            .as_micros()
    };
    let probe_rtt = at(ProbeRtt);
    assert!((10_000_000..10_100_000).contains(&probe_rtt), "{probe_rtt}");
    let back = log.0.last().unwrap().0.as_micros();
    assert!(back >= probe_rtt + 200_000, "{back}");
    // The same events unobserved leave the flow in the same state.
    let mut plain = linux_bbr();
    bottleneck(&mut plain, 11_500_000);
    assert_eq!(flow, plain);

    // Through AnyController: the same decisions.
    let mut any = Observed::new(AnyController::LinuxBbr(linux_bbr()), Log::default());
    bottleneck(&mut any, 11_500_000);
    assert_eq!(any.observer().0, log.0);
}

/// Whether a ModeChange between two BBRv3 modes is one v3 can make: through the
/// ProbeBW cycle DOWN → CRUISE → REFILL → UP → DOWN (DOWN may go straight to REFILL
/// when it is time to probe), into ProbeRTT from anywhere and back. A change is read
/// from the state before and after one call, so states passed within one ACK merge:
/// Drain → DOWN → CRUISE on one ACK (the flight already at the target) reads as
/// Drain → CRUISE.
fn v3_step_allowed(from: BbrMode, to: BbrMode) -> bool {
    use BbrMode::*;
    matches!(
        (from, to),
        (Startup, Drain)
            | (Startup, ProbeBwDown)
            | (Drain, ProbeBwDown)
            | (Drain, ProbeBwCruise)
            | (ProbeBwDown, ProbeBwCruise)
            | (ProbeBwDown, ProbeBwRefill)
            | (ProbeBwCruise, ProbeBwRefill)
            | (ProbeBwRefill, ProbeBwUp)
            | (ProbeBwUp, ProbeBwDown)
            | (_, ProbeRtt)
            | (ProbeRtt, _)
    )
}

fn assert_v3_cycle(log: &Log) {
    let modes = log.modes();
    assert_eq!(modes.first().map(|m| m.0), Some(BbrMode::Startup));
    for pair in modes.windows(2) {
        assert_eq!(pair[0].1, pair[1].0, "changes chain: {modes:?}");
    }
    for &(from, to) in &modes {
        assert!(v3_step_allowed(from, to), "{from:?} -> {to:?} in {modes:?}");
        // v3 reports ProbeBW by its phase, never as v1's PROBE_BW (2).
        assert_ne!(to, BbrMode::ProbeBw);
    }
    for phase in [
        BbrMode::ProbeBwDown,
        BbrMode::ProbeBwCruise,
        BbrMode::ProbeBwRefill,
        BbrMode::ProbeBwUp,
    ] {
        assert!(
            modes.iter().any(|m| m.1 == phase),
            "{phase:?} never entered: {modes:?}"
        );
        assert!((4..=7).contains(&phase.code()));
    }
}

fn linux_bbr3() -> Bbr3Controller<RandomFn> {
    let mut config = LinuxBbr3Config::new();
    config.initial_rtt_us = BASE_RTT_US as u32;
    Bbr3Controller::new(config, Instant::ZERO, RandomFn(draw)).unwrap()
}

#[test]
fn linux_bbr3_reports_its_probe_bw_phases() {
    let mut observed = Observed::new(linux_bbr3(), (Counters::new(), Log::default()));
    bottleneck(&mut observed, 8_000_000);
    let (flow, (counters, log)) = observed.into_parts();
    assert_v3_cycle(&log);
    assert_eq!(counters.mode_changes as usize, log.modes().len());
    let mut plain = linux_bbr3();
    bottleneck(&mut plain, 8_000_000);
    assert_eq!(flow, plain);

    let mut any = Observed::new(AnyController::LinuxBbr3(linux_bbr3()), Log::default());
    bottleneck(&mut any, 8_000_000);
    assert_eq!(any.observer().0, log.0);
}

fn rfc_bbr3() -> RfcBbr3Controller<RandomFn> {
    RfcBbr3Controller::new(Bbr3Config::quic(1200), Instant::ZERO, RandomFn(draw)).unwrap()
}

#[test]
fn rfc_bbr3_reports_its_probe_bw_states() {
    let mut observed = Observed::new(rfc_bbr3(), (Counters::new(), Log::default()));
    bottleneck(&mut observed, 8_000_000);
    let (flow, (counters, log)) = observed.into_parts();
    assert_v3_cycle(&log);
    assert_eq!(counters.mode_changes as usize, log.modes().len());
    let mut plain = rfc_bbr3();
    bottleneck(&mut plain, 8_000_000);
    assert_eq!(flow, plain);

    let mut any = Observed::new(AnyController::RfcBbr3(rfc_bbr3()), Log::default());
    bottleneck(&mut any, 8_000_000);
    assert_eq!(any.observer().0, log.0);
}

fn dctcp() -> DctcpController<RandomFn> {
    let p = DctcpConfig::new().validate().unwrap();
    let mut socket = TcpSocketConfig::new();
    socket.initial_srtt_us = BASE_RTT_US as u32;
    DctcpController::new(p, TcpSysctl::new(), &socket, Instant::ZERO, RandomFn(draw)).unwrap()
}

/// Rounds in lock-step: at each round's start the sender fills cwnd; 10 ms later
/// every segment is acknowledged by its own ACK, 10 µs apart. In the rounds of
/// `ce_rounds` the first two ACKs of the round each carry one CE mark. Returns the
/// time of each CE round's first marked ACK.
fn rounds<C: CongestionController>(c: &mut C, n: u64, ce_rounds: &[u64]) -> Vec<Instant> {
    let mut next_pn = 0u64;
    let mut t = 0u64;
    let mut first_marks = Vec::new();
    for round in 0..n {
        let now = Instant::from_micros(t);
        let mut out = Vec::new();
        while c.in_flight() < c.cwnd() {
            let tx = c.on_packet_sent(now, &SentEvent::new(c.in_flight() + 1, next_pn));
            out.push((next_pn, tx));
            next_pn += 1;
        }
        t += BASE_RTT_US;
        for (i, (pn, tx)) in out.into_iter().enumerate() {
            let ack_at = Instant::from_micros(t);
            let ce = u64::from(ce_rounds.contains(&round) && i < 2);
            if ce == 1 && i == 0 {
                first_marks.push(ack_at);
            }
            let rtt = Duration::from_micros(t - now.as_micros());
            let ack = AckEvent::new(1, pn, Some(rtt)).with_ce(ce);
            c.on_ack_sampled(ack_at, &ack, &AckedPacket::new(now, tx));
            t += 10;
        }
    }
    first_marks
}

const CE_ROUNDS: [u64; 6] = [6, 7, 8, 14, 15, 30];

fn assert_one_ecn_reduction_per_ce_round(log: &Log, marks: &[Instant]) {
    let reductions: Vec<Instant> = log
        .0
        .iter()
        .filter(|(_, d)| {
            matches!(
                d,
                Decision::Reduction {
                    cause: ReductionCause::Ecn,
                    ..
                }
            )
        })
        .map(|(t, _)| *t)
        .collect();
    // Each at its round's first CE mark (the second mark finds CWR under way).
    assert_eq!(reductions, marks);
    // CWR ends on the first ACK beyond high_seq (the kernel's `snd_una != high_seq`),
    // the next round's first: in a run of CE rounds that ACK is marked and starts the
    // next CWR at once, so each run of CE rounds (6-8, 14-15, 30) ends one recovery.
    let ends: Vec<Instant> = log
        .0
        .iter()
        .filter(|(_, d)| matches!(d, Decision::RecoveryEnd { .. }))
        .map(|(t, _)| *t)
        .collect();
    assert_eq!(ends.len(), 3);
    assert!(ends[0] > marks[2] && ends[0] < marks[3] && ends[2] > marks[5]);
    for (_, d) in &log.0 {
        if let Decision::Reduction {
            cwnd_before,
            ssthresh,
            ..
        } = d
        {
            assert!(*ssthresh < *cwnd_before, "{d:?}");
        }
    }
}

#[test]
fn dctcp_reports_one_ecn_reduction_per_ce_round() {
    let mut observed = Observed::new(dctcp(), (Counters::new(), Log::default()));
    let marks = rounds(&mut observed, 40, &CE_ROUNDS);
    assert_eq!(marks.len(), CE_ROUNDS.len());
    let (flow, (counters, log)) = observed.into_parts();
    assert_one_ecn_reduction_per_ce_round(&log, &marks);
    assert_eq!(counters.ecn_reductions as usize, CE_ROUNDS.len());
    assert_eq!(counters.loss_reductions, 0);
    // The first CE round was in slow start: that reduction also ended slow start.
    assert!(
        matches!(log.0[0].1, Decision::SlowStartExit { .. }),
        "{:?}",
        log.0[0]
    );
    let mut plain = dctcp();
    rounds(&mut plain, 40, &CE_ROUNDS);
    assert_eq!(flow, plain);

    let mut any = Observed::new(AnyController::LinuxDctcp(dctcp()), Log::default());
    rounds(&mut any, 40, &CE_ROUNDS);
    assert_eq!(any.observer().0, log.0);
}

#[test]
fn rfc_bbr3_reports_the_end_of_probe_rtt_on_a_send_after_idle() {
    use congestion::rfc::bbr3::State;
    let mut observed = Observed::new(rfc_bbr3(), Log::default());
    // Into ProbeRTT (about 10 s in), then the application stops and the path drains.
    let in_probe_rtt = |o: &Observed<RfcBbr3Controller<RandomFn>, Log>| {
        o.controller().flow().state() == State::ProbeRtt
    };
    let last_ack = bottleneck_until(&mut observed, 20_000_000, in_probe_rtt);
    assert_eq!(observed.controller().flow().state(), State::ProbeRtt);
    assert_eq!(observed.in_flight(), 0);
    // 300 ms idle (past ProbeRTT's 200 ms): the restart from idle on the next send
    // ends ProbeRTT (§5.4), and the send reports it.
    let t = Instant::from_micros(last_ack + 300_000);
    let decisions = observed.observer().0.len();
    observed.on_packet_sent(t, &SentEvent::new(1200, 1_000_000));
    let log = &observed.observer().0;
    assert_eq!(log.len(), decisions + 1);
    let (at, last) = log[decisions];
    assert_eq!(at, t);
    let Decision::ModeChange { from, to } = last else {
        panic!("{last:?}")
    };
    assert_eq!(from, BbrMode::ProbeRtt);
    assert!((4..=7).contains(&to.code()), "{to:?}");
    assert_v3_cycle(observed.observer());
}

/// Sends `n` segments (or packets) at `t`, numbered from `*next_pn`; their snapshots.
fn send_n<C: CongestionController>(
    c: &mut C,
    t: Instant,
    n: u64,
    next_pn: &mut u64,
) -> Vec<(u64, TxSnapshot)> {
    let unit = if c.unit() == WindowUnit::Segments {
        1
    } else {
        c.mss_bytes()
    };
    (0..n)
        .map(|_| {
            let pn = *next_pn;
            *next_pn += 1;
            (
                pn,
                c.on_packet_sent(t, &SentEvent::new(c.in_flight() + unit, pn)),
            )
        })
        .collect()
}

/// A loss, the ACK that ends its recovery, a spurious-loss undo and a timeout, each
/// reported with its cause, through `Observed` over `c`.
fn loss_undo_timeout<C: congestion::observe::ObservableController>(c: C) -> Log {
    use congestion::LossEvent;
    let mut o = Observed::new(c, Log::default());
    let mut pn = 0;
    let t0 = Instant::ZERO;
    let rtt = Some(Duration::from_micros(BASE_RTT_US));
    let first = send_n(&mut o, t0, 10, &mut pn);
    let t1 = Instant::from_micros(BASE_RTT_US);
    // Segment 0 is lost; 1..=4 are acknowledged, then 5 more are sent.
    o.on_packet_lost(t1, &LossEvent::packet(1, 0), &first[0].1);
    for &(n, tx) in &first[1..5] {
        o.on_ack_sampled(t1, &AckEvent::new(1, n, rtt), &AckedPacket::new(t0, tx));
    }
    let second = send_n(&mut o, t1, 5, &mut pn);
    // The rest of the first flight and the second: recovery ends with a segment sent
    // after it began.
    let t2 = Instant::from_micros(2 * BASE_RTT_US);
    for &(n, tx) in &first[5..] {
        o.on_ack_sampled(t2, &AckEvent::new(1, n, rtt), &AckedPacket::new(t0, tx));
    }
    for &(n, tx) in &second {
        o.on_ack_sampled(t2, &AckEvent::new(1, n, rtt), &AckedPacket::new(t1, tx));
    }
    // A second loss found spurious at once: undone.
    let third = send_n(&mut o, t2, 5, &mut pn);
    let t3 = Instant::from_micros(3 * BASE_RTT_US);
    o.on_packet_lost(t3, &LossEvent::packet(1, third[0].0), &third[0].1);
    o.on_spurious_congestion(t3);
    // A timeout.
    o.on_retransmission_timeout(Instant::from_micros(4 * BASE_RTT_US));
    o.into_parts().1
}

fn causes(log: &Log) -> Vec<&'static str> {
    log.0
        .iter()
        .filter_map(|(_, d)| match d {
            Decision::Reduction {
                cause: ReductionCause::Loss,
                ..
            } => Some("loss"),
            Decision::Reduction {
                cause: ReductionCause::Ecn,
                ..
            } => Some("ecn"),
            Decision::Reduction {
                cause: ReductionCause::RetransmissionTimeout,
                ..
            } => Some("rto"),
            Decision::RecoveryEnd { .. } => Some("end"),
            Decision::Undo { .. } => Some("undo"),
            _ => None,
        })
        .collect()
}

#[test]
fn bbr_and_dctcp_report_loss_recovery_end_undo_and_timeout() {
    let expected = ["loss", "end", "loss", "undo", "rto"];
    assert_eq!(causes(&loss_undo_timeout(linux_bbr())), expected);
    assert_eq!(causes(&loss_undo_timeout(dctcp())), expected);
    assert_eq!(causes(&loss_undo_timeout(linux_bbr3())), expected);
    assert_eq!(causes(&loss_undo_timeout(rfc_bbr3())), expected);
    // Through AnyController: the same decisions.
    let direct = loss_undo_timeout(dctcp()).0;
    assert_eq!(
        loss_undo_timeout(AnyController::LinuxDctcp(dctcp())).0,
        direct
    );
    let direct = loss_undo_timeout(linux_bbr()).0;
    assert_eq!(
        loss_undo_timeout(AnyController::LinuxBbr(linux_bbr())).0,
        direct
    );
}

#[test]
fn prague_reports_one_ecn_reduction_per_ce_round() {
    use congestion::linux::PragueController;
    use congestion::linux::prague::PragueConfig;
    let prague = || {
        let p = PragueConfig::new().validate().unwrap();
        let mut socket = TcpSocketConfig::new();
        socket.initial_srtt_us = BASE_RTT_US as u32;
        PragueController::new(p, TcpSysctl::new(), &socket, Instant::ZERO, RandomFn(draw)).unwrap()
    };
    let mut observed = Observed::new(
        AnyController::LinuxPrague(prague()),
        (Counters::new(), Log::default()),
    );
    let marks = rounds(&mut observed, 40, &CE_ROUNDS);
    let (_, (counters, log)) = observed.into_parts();
    let reductions: Vec<Instant> = log
        .0
        .iter()
        .filter(|(_, d)| {
            matches!(
                d,
                Decision::Reduction {
                    cause: ReductionCause::Ecn,
                    ..
                }
            )
        })
        .map(|(t, _)| *t)
        .collect();
    assert_eq!(reductions, marks);
    assert_eq!(counters.ecn_reductions as usize, CE_ROUNDS.len());
}
