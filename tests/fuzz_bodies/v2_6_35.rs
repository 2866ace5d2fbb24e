//! Fuzz body for the Linux 2.6.35 profile: a `Cubic` under any event sequence
//! of the TCP-like stack model of `linux.rs` (`SeqModel`: losses segment by segment,
//! burst by burst and as episodes, CE-count increases, persistent congestion, RTOs,
//! discards, both ways of counting sends) and any configuration the first bytes
//! describe.

use super::bytes::Bytes;
use super::linux::{SeqModel, segments};
use super::period::{before32, unwrap32};
use super::phase::{Kind, legal};
use congestion::cubic::HystartDetect;
use congestion::linux::CaState;
use congestion::recorder::FlightRecorder;
use congestion::v2_6_35::{Cubic, CubicConfig};
use congestion::{AckEvent, CongestionController, Duration, Instant, Phase};

/// Builds a configuration from the first bytes; `None` when it is (rightly) refused.
fn flow_from(b: &mut Bytes<'_>, now: Instant) -> Option<Cubic> {
    let mut c = CubicConfig::new();
    c.beta = u32::from(b.u16()) % 1100; // includes refused values >= 1024 and 0
    c.bic_scale = u32::from(b.u16());
    let flags = b.u8();
    c.fast_convergence = flags & 1 != 0;
    c.tcp_friendliness = flags & 2 != 0;
    c.hystart = flags & 4 != 0;
    c.hystart_detect = HystartDetect::from_bits((flags >> 3) & 3).ok()?;
    c.gso = flags & 0x20 != 0;
    c.hz = [100, 250, 1000, 300][usize::from(flags >> 6)]; // 300 is refused
    c.hystart_low_window = u32::from(b.u8());
    c.initial_ssthresh = u32::from(b.u8());
    c.cwnd_clamp = match b.u8() % 4 {
        0 => u32::MAX,
        1 => b.u32(),
        _ => u32::from(b.u16()),
    };
    c.init_cwnd = u32::from(b.u8());
    c.mss = u32::from(b.u16());
    c.reordering = u32::from(b.u8() % 8);
    c.iss = b.u32();
    Cubic::new(c, now).ok()
}

/// Runs one fuzz input. Panics (with the flight recorder's story) if an invariant breaks.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    // Start near the u32 jiffies wrap at HZ=1000 half the time: the era's HyStart is
    // blind in the upper half of jiffies.
    let mut now_us: u64 = if data.first().is_some_and(|x| x & 1 == 1) {
        ((1u64 << 32) - 6000) * 1000
    } else {
        1 << 40
    };
    let Some(flow) = flow_from(&mut b, Instant::from_micros(now_us)) else {
        return;
    };
    let mut m = SeqModel::new(flow.socket_view().snd_una, false);
    let mut rec: FlightRecorder<Cubic, 32> = FlightRecorder::new(flow);
    while !b.is_empty() {
        now_us = now_us.saturating_add_signed(b.time_step_us());
        let now = Instant::from_micros(now_us);
        let before = *rec.inner();
        match b.u8() % 16 {
            0..=5 => {
                let acked = b.amount(1);
                let rtt = b.rtt_us().map(Duration::from_micros);
                rec.on_ack(now, &AckEvent::new(acked, u64::from(m.snd_una), rtt));
                m.acked(segments(acked));
                let high_seq = rec.inner().socket_view().high_seq;
                if super::known::F3_2635_LOSS_EXIT_MOVES_HIGH_SEQ
                    && before.ca_state() == CaState::Loss
                    && before.socket_view().high_seq != high_seq
                {
                    m.period.remark(unwrap32(high_seq, m.nxt64));
                }
                check(&rec, &m, Kind::Ack, &before, false);
            }
            6..=8 => {
                let amount = b.amount(1);
                let sent = m.sent_event(amount, b.u8());
                sent.apply(&mut rec, now);
                m.sent(
                    now,
                    segments(sent.in_flight_after(u64::from(m.packets_out))),
                );
                check(&rec, &m, Kind::Sent, &before, false);
            }
            9 | 10 => {
                for loss in m.loss_reports(&mut b, now) {
                    let before = *rec.inner();
                    let judged = m.sent_before(loss.newest_lost);
                    rec.on_loss(now, &loss);
                    let kind = if loss.persistent_congestion {
                        m.packets_out = 1;
                        m.begin_fresh(now);
                        Kind::PersistentCongestion
                    } else {
                        m.packets_out = m.packets_out.saturating_sub(segments(loss.lost));
                        judge(&rec, &mut m, &before, judged, now, "loss");
                        Kind::Loss
                    };
                    check(&rec, &m, kind, &before, judged == Some(false));
                }
            }
            11 => {
                let ecn = m.ecn_event(&mut b, now);
                // A report of a segment sent before the period, or of no rise, is not
                // even looked at; the era's tcp_enter_cwr acts only from Open or
                // Disorder, though it forgets prior_ssthresh in Loss too.
                let untouched =
                    ecn.ce_increase == 0 || m.sent_before(ecn.newest_acked) == Some(true);
                let judged = if untouched || before.ca_state() == CaState::Loss {
                    Some(true)
                } else {
                    m.sent_before(ecn.newest_acked)
                };
                rec.on_ecn(now, &ecn);
                if untouched && *rec.inner() != before {
                    panic!(
                        "invariant broken: an ignored CE report ({ecn:?}, period {:?}, state \
                         {:?}) changed the flow\n{rec:?}",
                        m.period.current(),
                        before.ca_state()
                    );
                }
                judge(&rec, &mut m, &before, judged, now, "CE mark");
                check(&rec, &m, Kind::Ecn, &before, judged == Some(false));
            }
            12 => {
                rec.on_retransmission_timeout(now);
                m.packets_out = 1;
                m.begin_fresh(now);
                check(&rec, &m, Kind::RetransmissionTimeout, &before, false);
            }
            13 => {
                let amount = b.amount(1);
                rec.on_discarded(now, amount);
                m.packets_out = m.packets_out.saturating_sub(segments(amount));
                check(&rec, &m, Kind::Discarded, &before, false);
            }
            14 => {
                // Back to Open: reports of packets sent before the period are the
                // flow's to judge (see `Period::lapse`).
                rec.on_spurious_congestion(now);
                m.period.lapse();
                check(&rec, &m, Kind::Undo, &before, false);
            }
            _ => {
                let unchanged = *rec.inner();
                rec.on_transmit_start(now);
                if *rec.inner() != unchanged {
                    panic!("on_transmit_start changed a 2.6.35 flow\n{rec:?}");
                }
                check(&rec, &m, Kind::TransmitStart, &before, false);
            }
        }
    }
}

/// A loss or CE report judged by the body's period: one sent before `high_seq` or the
/// period's start changes neither cwnd nor ssthresh nor the phase; a new one sets
/// `high_seq` to `snd_nxt` and is in `Recovery` exactly while something beyond
/// `snd_una` is outstanding.
fn judge(
    rec: &FlightRecorder<Cubic, 32>,
    m: &mut SeqModel,
    before: &Cubic,
    judged: Option<bool>,
    now: Instant,
    what: &str,
) {
    let f = rec.inner();
    let fail = |msg: String| -> ! { panic!("invariant broken: {msg}\n{rec:?}") };
    match judged {
        Some(true) => {
            if (f.cwnd(), f.ssthresh(), f.phase())
                != (before.cwnd(), before.ssthresh(), before.phase())
            {
                fail(format!(
                    "a {what} of a segment sent before the recovery period {:?} changed \
                     cwnd/ssthresh/phase",
                    m.period.current()
                ));
            }
        }
        Some(false) => {
            let outstanding = before32(m.snd_una, m.snd_nxt);
            if f.socket_view().high_seq != m.snd_nxt
                || (f.phase() == Phase::Recovery) != outstanding
            {
                fail(format!(
                    "a new {what} sets high_seq = snd_nxt = {} and is in Recovery iff snd_una \
                     ({}) is before it",
                    m.snd_nxt, m.snd_una
                ));
            }
            m.begin(now);
        }
        // Undecided (a sequence the 32-bit flow cannot place, or a period in doubt):
        // no check, and the flow may have begun a period, so the body's is in doubt
        // until an RTO or persistent congestion begins one for sure.
        None => {
            m.period.maybe_begun(m.nxt64, now);
            m.period.forget();
        }
    }
}

/// The invariants of the 2.6.35 profile after every event.
fn check(
    rec: &FlightRecorder<Cubic, 32>,
    m: &SeqModel,
    kind: Kind,
    before: &Cubic,
    new_reduction: bool,
) {
    let f = rec.inner();
    let s = f.state();
    let v = f.socket_view();
    let fail = |what: &str| -> ! { panic!("invariant broken: {what} (on {kind:?})\n{rec:?}") };
    if s.cwnd < 1 || s.cwnd > f.clamp() {
        fail("cwnd within [1, clamp]");
    }
    if s.ssthresh < 1 {
        fail("ssthresh at least 1");
    }
    if s.bictcp.sample_cnt > 8 {
        fail("at most 8 HyStart samples per round");
    }
    if (v.snd_una, v.snd_nxt, v.packets_out) != (m.snd_una, m.snd_nxt, m.packets_out) {
        fail(&format!(
            "snd_una/snd_nxt/packets_out {:?} where the stack has {:?}",
            (v.snd_una, v.snd_nxt, v.packets_out),
            (m.snd_una, m.snd_nxt, m.packets_out)
        ));
    }
    if f.in_flight() != u64::from(m.packets_out) {
        fail("in_flight() is packets_out");
    }
    if kind == Kind::Undo && v.undo_marker {
        fail("an undo is used up");
    }
    if kind == Kind::Loss && new_reduction && !v.undo_marker {
        fail("a loss arms undo");
    }
    if !matches!(
        f.ca_state(),
        CaState::Open | CaState::Disorder | CaState::Loss
    ) {
        fail("recovery and CWR are left within the event");
    }
    let window = (f.cwnd(), f.ssthresh(), f.phase());
    let window_before = (before.cwnd(), before.ssthresh(), before.phase());
    match kind {
        Kind::Sent | Kind::TransmitStart | Kind::Discarded if window != window_before => {
            fail("a send, a restart or a discard changed cwnd, ssthresh or the phase")
        }
        Kind::RetransmissionTimeout | Kind::PersistentCongestion if s.cwnd != 1 => {
            fail("an RTO restarts from one segment")
        }
        Kind::Loss | Kind::Ecn if new_reduction && s.cwnd > before.state().cwnd => {
            fail("a reduction never raises cwnd")
        }
        _ => {}
    }
    // The era's send quantum: one segment, or the whole segments of a GSO burst.
    let mss = f.mss_bytes();
    let quantum = f.send_quantum_bytes();
    if quantum < mss || quantum > mss.max(u64::from(f.config().gso_max_size)) {
        fail(&format!(
            "send quantum {quantum} outside [MSS, max(MSS, gso_max_size)]"
        ));
    }
    if f.pacing_rate() != congestion::pacing::Rate::UNLIMITED {
        fail("2.6.35 does not pace");
    }
    let after = rec.phase();
    // The era's extra edge: a window cut to the flight plus `reordering` (moderation,
    // after a loss or in Disorder) or plus one (CWR) may land below ssthresh.
    let moderated = after == Phase::SlowStart
        && matches!(kind, Kind::Ack | Kind::Loss | Kind::Ecn)
        && s.cwnd <= v.packets_out.saturating_add(f.config().reordering.max(1))
        && (before.ca_state() != CaState::Open || kind != Kind::Ack);
    let stale_recovery = m.ambiguous() && kind == Kind::Ack && after == Phase::Recovery;
    if !legal(kind, before.phase(), after) && !moderated && !stale_recovery {
        fail(&format!("phase {:?} -> {after:?}", before.phase()));
    }
}
