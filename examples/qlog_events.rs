//! A QUIC flow's congestion decisions as qlog events, one JSON object per line.
//!
//! A stack hands its controller an [`Observer`] that turns each [`Decision`] into qlog's
//! recovery events (draft-ietf-quic-qlog-quic-events): `recovery:congestion_state_updated`
//! (old state, new state, trigger) and `recovery:metrics_updated` (`congestion_window`,
//! `ssthresh`). Here the flow is scripted: RFC-mode CUBIC with HyStart++ at 1200-byte
//! datagrams, slow start until the RTT rises (Conservative Slow Start, then congestion
//! avoidance), a loss and its recovery, an ECN-CE mark, a timeout found spurious and
//! undone, persistent congestion, and a loss in the slow start after it.
//!
//! ```text
//! cargo run --example qlog_events
//! ```
//!
//! The writer below keeps no buffer and allocates nothing; it writes to any
//! `std::io::Write` (a firmware build would write the same lines to its log, or use
//! `congestion::observe::DefmtObserver`).

use congestion::observe::{
    Counters, Decision, ExitDetector, ObservableController, Observer, ReductionCause,
};
use congestion::rfc::{Cubic, CubicConfig};
use congestion::{
    AckEvent, ConfigError, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase,
    SentEvent,
};
use std::io::Write;

/// Datagram size, bytes.
const MSS: u64 = 1200;

/// Writes each decision as qlog events to `out`, and counts them.
struct QlogWriter<W: Write> {
    out: W,
    /// The qlog congestion state the last event left.
    state: &'static str,
    counters: Counters,
}

/// qlog's name for a phase.
fn state_of(phase: Phase) -> &'static str {
    match phase {
        Phase::SlowStart => "slow_start",
        Phase::ConservativeSlowStart => "conservative_slow_start",
        Phase::CongestionAvoidance => "congestion_avoidance",
        Phase::Recovery => "recovery",
    }
}

/// A qlog trigger for what ended slow start.
fn trigger_of(detector: ExitDetector) -> &'static str {
    match detector {
        ExitDetector::HystartAckTrain => "hystart_ack_train",
        ExitDetector::HystartDelay => "hystart_delay",
        ExitDetector::HystartPlusPlus => "hystart_plus_plus",
        ExitDetector::Ssthresh => "ssthresh_reached",
        ExitDetector::Loss => "loss",
        ExitDetector::Ecn => "ECN",
        _ => "other",
    }
}

impl<W: Write> QlogWriter<W> {
    fn new(out: W) -> Self {
        QlogWriter {
            out,
            state: "slow_start",
            counters: Counters::new(),
        }
    }

    /// One qlog event line: `time` in milliseconds with µs precision.
    fn event(&mut self, now: Instant, name: &str, data: &str) {
        let us = now.as_micros();
        // A sink must not fail the flow: a write error drops the line.
        let _ = writeln!(
            self.out,
            r#"{{"time":{}.{:03},"name":"recovery:{name}","data":{{{data}}}}}"#,
            us / 1000,
            us % 1000
        );
    }

    /// A `congestion_state_updated` to `new`, if it is a change.
    fn state(&mut self, now: Instant, new: &'static str, trigger: &str) {
        if new == self.state {
            return;
        }
        let old = self.state;
        self.state = new;
        let data = format!(r#""old":"{old}","new":"{new}","trigger":"{trigger}""#);
        self.event(now, "congestion_state_updated", &data);
    }

    /// A `metrics_updated` with the window and ssthresh (none: left out).
    fn metrics(&mut self, now: Instant, cwnd: u64, ssthresh: u64) {
        let data = if ssthresh == u64::MAX {
            format!(r#""congestion_window":{cwnd}"#)
        } else {
            format!(r#""congestion_window":{cwnd},"ssthresh":{ssthresh}"#)
        };
        self.event(now, "metrics_updated", &data);
    }
}

impl<W: Write> Observer for QlogWriter<W> {
    fn on_decision(&mut self, now: Instant, decision: &Decision) {
        self.counters.on_decision(now, decision);
        match *decision {
            Decision::Reduction {
                cause,
                cwnd_after,
                ssthresh,
                ..
            } => {
                let (new, trigger) = match cause {
                    ReductionCause::Loss => ("recovery", "loss"),
                    ReductionCause::Ecn => ("recovery", "ECN"),
                    ReductionCause::RetransmissionTimeout => ("slow_start", "pto"),
                    ReductionCause::PersistentCongestion => ("slow_start", "persistent_congestion"),
                    _ => ("recovery", "other"),
                };
                self.state(now, new, trigger);
                self.metrics(now, cwnd_after, ssthresh);
            }
            // A loss or CE mark that ends slow start is told by its reduction, next.
            Decision::SlowStartExit {
                detector: ExitDetector::Loss | ExitDetector::Ecn,
                ..
            } => {}
            Decision::SlowStartExit {
                detector,
                cwnd,
                ssthresh,
            } => {
                self.state(now, "congestion_avoidance", trigger_of(detector));
                self.metrics(now, cwnd, ssthresh);
            }
            Decision::ConservativeSlowStart { entered, .. } => {
                let new = if entered {
                    "conservative_slow_start"
                } else {
                    "slow_start"
                };
                self.state(now, new, "hystart_plus_plus");
            }
            Decision::RecoveryEnd { phase, .. } => {
                self.state(now, state_of(phase), "recovery_end");
            }
            Decision::Undo {
                cwnd_after,
                ssthresh,
                phase,
                ..
            } => {
                self.state(now, state_of(phase), "spurious_congestion");
                self.metrics(now, cwnd_after, ssthresh);
            }
            _ => {}
        }
    }
}

/// A QUIC sender that keeps its window full, one datagram per ACK frame, ACKs `gap`
/// apart; packet numbers count datagrams.
struct Sender<W: Write> {
    flow: Cubic,
    qlog: QlogWriter<W>,
    largest_acked: u64,
    largest_sent: u64,
    /// Datagrams above `largest_acked` declared lost.
    lost_ahead: u64,
    now: Instant,
    rtt: Duration,
}

impl<W: Write> Sender<W> {
    fn in_flight(&self) -> u64 {
        (self.largest_sent - self.largest_acked - self.lost_ahead) * MSS
    }

    /// Sends what the window allows.
    fn fill(&mut self) {
        while self.in_flight() + MSS <= self.flow.cwnd() {
            self.largest_sent += 1;
        }
        let sent = SentEvent::new(self.in_flight(), self.largest_sent);
        self.flow.on_sent(self.now, &sent);
    }

    /// `n` ACK frames, one datagram each.
    fn acks(&mut self, n: u32) {
        for _ in 0..n {
            self.now = self.now.saturating_add(Duration::from_micros(2_000));
            if self.largest_acked < self.largest_sent {
                self.largest_acked += 1;
            }
            let ack = AckEvent::new(MSS, self.largest_acked, Some(self.rtt));
            self.flow.on_ack_observed(self.now, &ack, &mut self.qlog);
            self.fill();
        }
    }

    /// The oldest datagram in flight is declared lost.
    fn lose_oldest(&mut self) {
        let pn = self.largest_acked + 1;
        let loss = LossEvent::packet(MSS, pn);
        self.flow.on_loss_observed(self.now, &loss, &mut self.qlog);
        self.largest_acked = pn; // gone from flight, as an ACK would take it
    }

    /// Everything in flight is declared lost, and the losses span more than the
    /// persistent-congestion period (RFC 9002 §7.6); then the window allows a send.
    fn persistent_congestion(&mut self) {
        let loss =
            LossEvent::packet(self.in_flight(), self.largest_sent).with_persistent_congestion(true);
        self.flow.on_loss_observed(self.now, &loss, &mut self.qlog);
        (self.largest_acked, self.lost_ahead) = (self.largest_sent, 0);
        self.fill();
    }

    /// The newest datagram in flight is declared lost.
    fn lose_newest(&mut self) {
        let loss = LossEvent::packet(MSS, self.largest_sent);
        self.flow.on_loss_observed(self.now, &loss, &mut self.qlog);
        self.lost_ahead += 1;
    }
}

/// The script; returns what the writer counted.
fn run<W: Write>(out: W) -> Result<Counters, ConfigError> {
    let now = Instant::from_micros(1_000_000);
    let mut s = Sender {
        flow: Cubic::new(CubicConfig::quic(MSS), now)?,
        qlog: QlogWriter::new(out),
        largest_acked: 0,
        largest_sent: 0,
        lost_ahead: 0,
        now,
        rtt: Duration::from_millis(40),
    };
    s.fill();
    // Slow start at 40 ms; the RTT then rises to 60 ms: HyStart++ enters CSS and, the
    // rise lasting, ends slow start.
    s.acks(60);
    s.rtt = Duration::from_millis(60);
    s.acks(2_000);
    // A loss in congestion avoidance; its recovery ends a round later.
    s.lose_oldest();
    s.acks(400);
    // An ECN-CE mark.
    let ce = EcnEvent::new(1, s.largest_acked);
    s.flow.on_ecn_observed(s.now, &ce, &mut s.qlog);
    s.acks(400);
    // A timeout, then an ACK for a packet declared lost: undo.
    s.flow
        .on_retransmission_timeout_observed(s.now, &mut s.qlog);
    s.flow.on_spurious_congestion_observed(s.now, &mut s.qlog);
    s.acks(50);
    // Persistent congestion, and a loss in the slow start after it (of a datagram sent
    // since: those sent before belong to the collapse's recovery period).
    s.persistent_congestion();
    s.acks(4);
    s.lose_newest();
    Ok(s.qlog.counters)
}

fn main() -> Result<(), ConfigError> {
    let counters = run(std::io::stdout().lock())?;
    eprintln!("{counters:?}");
    Ok(())
}

#[test]
fn the_scripted_flow_prints_each_decision_as_qlog() {
    let mut out = Vec::new();
    let c = run(&mut out).expect("valid configuration");
    assert_eq!((c.loss_reductions, c.ecn_reductions, c.timeouts), (2, 1, 1));
    assert_eq!(
        (c.persistent_congestions, c.undos, c.recovery_ends),
        (1, 1, 2)
    );
    // Slow start ended twice: by HyStart++ (after Conservative Slow Start), and by the
    // loss in the slow start after persistent congestion.
    assert_eq!(
        (c.slow_start_exits, c.hystart_exits, c.css_entries),
        (2, 1, 1)
    );
    let text = String::from_utf8(out).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with(r#"{"time":"#) && l.ends_with("}}"))
    );
    let count = |needle: &str| lines.iter().filter(|l| l.contains(needle)).count();
    assert_eq!(
        count(r#""new":"conservative_slow_start","trigger":"hystart_plus_plus""#),
        1
    );
    assert_eq!(
        count(r#""new":"congestion_avoidance","trigger":"hystart_plus_plus""#),
        1
    );
    assert_eq!(count(r#""new":"recovery","trigger":"loss""#), 2);
    assert_eq!(count(r#""new":"recovery","trigger":"ECN""#), 1);
    assert_eq!(count(r#""trigger":"persistent_congestion""#), 1);
    assert_eq!(count(r#""trigger":"spurious_congestion""#), 1);
    assert_eq!(count(r#""trigger":"recovery_end""#), 2);
    assert_eq!(
        count(r#""old":"slow_start","new":"recovery","trigger":"loss""#),
        1
    );
    assert_eq!(count("recovery:metrics_updated"), 7);
}
