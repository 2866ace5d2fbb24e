//! The RFC-mode stack model shared by the CUBIC (`rfc.rs`) and NewReno (`newreno.rs`)
//! bodies: a QUIC-like sender that numbers its packets, remembers when it sent them,
//! and reports losses packet by packet, burst by burst or as whole episodes, ECN as
//! CE-count increases, persistent congestion, RTOs and discards, counting bytes in
//! flight itself ([`SentEvent::new`]) or letting the flow count (`on_sent_counted`).
//! Hostile values stay: time backwards, huge gaps, absurd amounts, packet numbers out
//! of nowhere.
//!
//! After every event the driver checks what holds for every [`Classic`] flow, then
//! hands a [`Step`] to the algorithm's own checks.

use super::bytes::Bytes;
use super::period::{Numbers, Period};
use super::phase::{Kind, legal};
use super::send::Send;
use congestion::pacing::{BytesPacingInput, GSO_MAX_SIZE, PacingFormula, pacing_rate_bytes};
use congestion::recorder::FlightRecorder;
use congestion::rfc::{Classic, CubicConfig, SlowStartKind, WindowAdjustment};
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase, SentEvent,
    SentPacket,
};

/// The packets the body remembers having sent (a lost one is forgotten).
const HISTORY: usize = 64;

/// Builds a configuration from the first bytes, refused ones included (the flow's
/// constructor must refuse them).
pub fn config_from(b: &mut Bytes<'_>) -> CubicConfig {
    let mut c = CubicConfig::new();
    c.cubic.mss_bytes = u64::from(b.u16());
    c.cubic.beta_permille = u32::from(b.u16()) % 1100;
    c.cubic.ecn_beta_permille = u32::from(b.u16()) % 1100;
    c.cubic.c_permille = b.u32() % 200_000;
    let flags = b.u8();
    c.cubic.fast_convergence = flags & 1 != 0;
    c.cubic.reno_friendly = flags & 2 != 0;
    c.paced = flags & 4 != 0;
    c.slow_start = [
        SlowStartKind::Standard,
        SlowStartKind::LinuxHystart,
        SlowStartKind::HystartPlusPlus,
    ][usize::from((flags >> 3) % 3)];
    if flags & 0x40 != 0 {
        c.initial_window_bytes = Some(u64::from(b.u32()));
    }
    if flags & 0x80 != 0 {
        // Includes refused values (below 2 MSS) and RFC 9002 §7.7 pacing with any N.
        c.initial_ssthresh_bytes = Some(u64::from(b.u32()));
        c.pacing.formula = PacingFormula::Rfc9002 {
            n_percent: u32::from(b.u16()),
        };
    }
    c
}

/// One event as the algorithm's checks see it.
pub struct Step<'a, W: WindowAdjustment> {
    /// What kind of event.
    pub kind: Kind,
    /// The flow just before it.
    pub before: &'a Classic<W>,
    /// The flow just after it.
    pub after: &'a Classic<W>,
    /// The event started a new recovery period with a reduction (a loss or ECN-CE
    /// report judged new; not an RTO or persistent congestion).
    pub new_reduction: bool,
    /// Bytes the ACK acknowledged (0 for other events).
    pub acked: u64,
    /// The ACK was flagged application-limited.
    pub app_limited: bool,
}

/// The sender's own books.
struct Stack {
    now_us: u64,
    /// The next packet number the body gives a packet.
    next_pn: u64,
    /// The largest `largest_sent` passed in any `SentEvent` (the flow keeps the max).
    largest_sent: u64,
    largest_acked: u64,
    /// `(packet number, send time)` of packets sent and not yet declared lost.
    history: Vec<(u64, Instant)>,
    /// Bytes in flight as the flow must count them.
    flight: u64,
    /// The cumulative ECN-CE count the peer reported.
    ce_count: u64,
    period: Period,
}

/// Runs one fuzz input on a `Classic<W>` flow; `algo` adds the algorithm's checks and
/// returns a description of what broke, if anything.
pub fn run<W: WindowAdjustment>(data: &[u8], algo: &mut dyn FnMut(&Step<'_, W>) -> Option<String>) {
    let mut b = Bytes::new(data);
    let start = 1u64 << 40;
    let config = config_from(&mut b);
    let Ok(flow) = Classic::<W>::new(config, Instant::from_micros(start)) else {
        return;
    };
    let mut rec: FlightRecorder<Classic<W>, 32> = FlightRecorder::new(flow);
    let mut s = Stack {
        now_us: start,
        next_pn: 1,
        largest_sent: 0,
        largest_acked: 0,
        history: Vec::new(),
        flight: 0,
        ce_count: 0,
        period: Period::new(Numbers::Rfc),
    };
    while !b.is_empty() {
        s.now_us = s.now_us.saturating_add_signed(b.time_step_us());
        let now = Instant::from_micros(s.now_us);
        let mss = rec.inner().params().mss();
        match b.u8() % 16 {
            0..=4 => ack(&mut rec, &mut s, &mut b, now, mss, algo),
            5..=7 => send(&mut rec, &mut s, &mut b, now, mss, algo),
            8 | 9 => loss_episode(&mut rec, &mut s, &mut b, now, mss, algo),
            10 => ecn(&mut rec, &mut s, &mut b, now, algo),
            11 => {
                let before = *rec.inner();
                rec.on_retransmission_timeout(now);
                s.period.begin(s.largest_sent, now);
                check(&rec, &s, Kind::RetransmissionTimeout, &before, false, algo);
            }
            12 => {
                let amount = b.amount(mss);
                let before = *rec.inner();
                rec.on_discarded(now, amount);
                s.flight = s.flight.saturating_sub(amount);
                check(&rec, &s, Kind::Discarded, &before, false, algo);
            }
            13 => {
                let before = *rec.inner();
                rec.on_spurious_congestion(now);
                // An undo may bring back the recovery period of the undone event.
                s.period.forget();
                check(&rec, &s, Kind::Undo, &before, false, algo);
            }
            14 => {
                // A new MSS (PMTU change): invalid ones are refused and change nothing.
                let before = *rec.inner();
                if rec.inner_mut().set_mss(u64::from(b.u16())).is_err() && *rec.inner() != before {
                    panic!("a refused MSS changed the flow\n{rec:?}");
                }
                check(&rec, &s, Kind::MssChange, &before, false, algo);
            }
            _ => {
                let before = *rec.inner();
                rec.on_transmit_start(now);
                check(&rec, &s, Kind::TransmitStart, &before, false, algo);
            }
        }
    }
}

type Rec<W> = FlightRecorder<Classic<W>, 32>;
type Algo<'a, W> = &'a mut dyn FnMut(&Step<'_, W>) -> Option<String>;

fn ack<W: WindowAdjustment>(
    rec: &mut Rec<W>,
    s: &mut Stack,
    b: &mut Bytes<'_>,
    now: Instant,
    mss: u64,
    algo: Algo<'_, W>,
) {
    let step = b.u8();
    s.largest_acked = match step >> 5 {
        // A hostile packet number: anything, even backwards (the flow keeps the max).
        0 => u64::from(b.u32()),
        // Beyond anything sent.
        1 => s.largest_acked.saturating_add(u64::from(step % 8)),
        _ => s
            .largest_acked
            .saturating_add(u64::from(step % 8))
            .min(s.largest_sent)
            .max(s.largest_acked.min(s.largest_sent)),
    };
    let ack = AckEvent::new(
        b.amount(mss),
        s.largest_acked,
        b.rtt_us().map(Duration::from_micros),
    )
    .with_app_limited(b.u8() % 4 == 0);
    let before = *rec.inner();
    rec.on_ack(now, &ack);
    s.flight = s.flight.saturating_sub(ack.acked);
    let mut step = Step {
        kind: Kind::Ack,
        before: &before,
        after: rec.inner(),
        new_reduction: false,
        acked: ack.acked,
        app_limited: ack.app_limited,
    };
    common(rec, s, &mut step, algo);
}

fn send<W: WindowAdjustment>(
    rec: &mut Rec<W>,
    s: &mut Stack,
    b: &mut Bytes<'_>,
    now: Instant,
    mss: u64,
    algo: Algo<'_, W>,
) {
    let packets = u64::from(b.u8() % 8);
    for i in 0..packets {
        s.history.push((s.next_pn.saturating_add(i), now));
    }
    if s.history.len() > HISTORY {
        s.history.drain(..s.history.len() - HISTORY);
    }
    let largest = s.next_pn.saturating_add(packets).saturating_sub(1);
    s.next_pn = s.next_pn.saturating_add(packets);
    let bytes = packets.saturating_mul(mss);
    let counted = |sent: u64, largest_sent: u64| Send::Counted { sent, largest_sent };
    let sent = match b.u8() % 8 {
        // The stack's own count, absurd or not.
        0 => Send::Stack(SentEvent::new(b.amount(mss), largest)),
        // An absurd amount for the flow to count.
        1 => counted(b.amount(mss), largest),
        // A hostile largest packet number, backwards or far ahead.
        2 => counted(bytes, u64::from(b.u32())),
        3..=5 => Send::Stack(SentEvent::new(s.flight.saturating_add(bytes), largest)),
        _ => counted(bytes, largest),
    };
    let before = *rec.inner();
    sent.apply(rec, now);
    s.flight = sent.in_flight_after(s.flight);
    s.largest_sent = s.largest_sent.max(sent.largest_sent());
    s.next_pn = s.next_pn.max(s.largest_sent.saturating_add(1));
    check(rec, s, Kind::Sent, &before, false, algo);
}

/// One loss episode: some packets of the history (contiguous in sending order) declared
/// lost, reported as one burst, packet by packet, by send time, at the recovery
/// period's very edge, as an unnamed episode, or with a packet number out of nowhere;
/// sometimes with persistent congestion on the last report.
fn loss_episode<W: WindowAdjustment>(
    rec: &mut Rec<W>,
    s: &mut Stack,
    b: &mut Bytes<'_>,
    now: Instant,
    mss: u64,
    algo: Algo<'_, W>,
) {
    let shape = b.u8();
    let persistent = b.u8() % 16 == 0;
    let per_packet = if shape & 0x80 != 0 {
        b.amount(mss)
    } else {
        mss
    };
    let mut reports: Vec<LossEvent> = Vec::new();
    if s.history.is_empty() || shape % 8 == 7 {
        reports.push(match b.u8() % 5 {
            0 => LossEvent::packet(per_packet, u64::MAX),
            1 => LossEvent::packet(per_packet, 0),
            2 => LossEvent::packet(per_packet, u64::from(b.u32())),
            3 => LossEvent::sent_at(per_packet, Instant::from_micros(u64::from(b.u32()))),
            _ => LossEvent::episode(b.amount(mss)),
        });
    } else if shape % 8 == 6 {
        // The edges of the current period: its mark (sent before: ignored) and the
        // packet after it (a new period), its start and one µs later.
        let (mark, start) = s
            .period
            .current()
            .unwrap_or((s.largest_sent, Instant::from_micros(s.now_us)));
        let t = |us: u64| Instant::from_micros(us);
        reports.push(match b.u8() % 4 {
            0 => LossEvent::packet(per_packet, mark),
            1 => LossEvent::packet(per_packet, mark.saturating_add(1)),
            2 => LossEvent::sent_at(per_packet, start),
            _ => LossEvent::sent_at(per_packet, t(start.as_micros().saturating_add(1))),
        });
    } else {
        let first = usize::from(b.u8()) % s.history.len();
        let count = (1 + usize::from(b.u8() % 8)).min(s.history.len() - first);
        let lost: Vec<(u64, Instant)> = s.history.drain(first..first + count).collect();
        let newest_pn = lost.iter().map(|p| p.0).max().unwrap_or(0);
        let newest_at = lost.iter().map(|p| p.1).max().unwrap_or(now);
        let total = per_packet.saturating_mul(lost.len() as u64);
        match shape % 8 {
            0 | 1 => reports.push(LossEvent::packet(total, newest_pn)),
            2 => reports.push(LossEvent::sent_at(total, newest_at)),
            3 | 4 => reports.extend(lost.iter().map(|p| LossEvent::packet(per_packet, p.0))),
            _ => reports.extend(lost.iter().map(|p| LossEvent::sent_at(per_packet, p.1))),
        }
    }
    if persistent {
        if let Some(last) = reports.last_mut() {
            *last = last.with_persistent_congestion(true);
        }
    }
    for loss in reports {
        let before = *rec.inner();
        let judged = s.period.sent_before(loss.newest_lost);
        rec.on_loss(now, &loss);
        s.flight = s.flight.saturating_sub(loss.lost);
        let kind = if loss.persistent_congestion {
            s.period.begin(s.largest_sent, now);
            Kind::PersistentCongestion
        } else {
            judge(rec, s, &before, judged, now, "loss");
            Kind::Loss
        };
        check(
            rec,
            s,
            kind,
            &before,
            judged == Some(false) && kind == Kind::Loss,
            algo,
        );
    }
}

/// A loss or CE report judged by the body's period: one sent before it changes neither
/// cwnd nor ssthresh nor the phase; a new one reduces into `Recovery` with the period's
/// end at the largest packet number sent.
fn judge<W: WindowAdjustment>(
    rec: &Rec<W>,
    s: &mut Stack,
    before: &Classic<W>,
    judged: Option<bool>,
    now: Instant,
    what: &str,
) {
    let f = rec.inner();
    let fail = |m: String| -> ! { panic!("invariant broken: {m}\n{rec:?}") };
    match judged {
        Some(true) => {
            if (f.cwnd(), f.ssthresh(), f.phase())
                != (before.cwnd(), before.ssthresh(), before.phase())
            {
                fail(format!(
                    "a {what} of a packet sent before the recovery period {:?} changed \
                     cwnd/ssthresh/phase",
                    s.period.current()
                ));
            }
        }
        Some(false) => {
            if f.phase() != Phase::Recovery || f.recovery_end() != Some(s.largest_sent) {
                fail(format!(
                    "a new {what} did not start a recovery period ending at {} (phase {:?}, \
                     end {:?})",
                    s.largest_sent,
                    f.phase(),
                    f.recovery_end()
                ));
            }
            s.period.begin(s.largest_sent, now);
        }
        // The flow may have begun a period here: reports are new only above it too.
        None => s.period.maybe_begun(s.largest_sent, now),
    }
}

fn ecn<W: WindowAdjustment>(
    rec: &mut Rec<W>,
    s: &mut Stack,
    b: &mut Bytes<'_>,
    now: Instant,
    algo: Algo<'_, W>,
) {
    let raised = match b.u8() % 8 {
        0 => 0,
        1 => u64::MAX,
        2 => u64::from(b.u32()),
        n => u64::from(n - 2),
    };
    let old = s.ce_count;
    s.ce_count = s.ce_count.saturating_add(raised);
    let increase = s.ce_count - old;
    let (mark, start) = s
        .period
        .current()
        .unwrap_or((s.largest_acked, Instant::from_micros(s.now_us)));
    let newest = match b.u8() % 8 {
        0 => SentPacket::Unknown,
        1 => SentPacket::Number(mark),
        2 => SentPacket::Number(mark.saturating_add(1)),
        3 => SentPacket::SentAt(start),
        4 => match s.history.get(usize::from(b.u8()) % s.history.len().max(1)) {
            Some(&(_, at)) => SentPacket::SentAt(at),
            None => SentPacket::SentAt(now),
        },
        5 => SentPacket::Number(u64::from(b.u32())),
        _ => SentPacket::Number(s.largest_acked),
    };
    let event = EcnEvent {
        ce_increase: increase,
        newest_acked: newest,
    };
    let before = *rec.inner();
    let judged = if increase == 0 {
        Some(true)
    } else {
        s.period.sent_before(newest)
    };
    rec.on_ecn(now, &event);
    if judged == Some(true) && *rec.inner() != before {
        panic!(
            "invariant broken: a CE rise of {increase} on {newest:?}, sent before the recovery \
             period {:?} (or no rise), changed the flow\n{rec:?}",
            s.period.current()
        );
    }
    judge(rec, s, &before, judged, now, "CE mark");
    check(rec, s, Kind::Ecn, &before, judged == Some(false), algo);
}

fn check<W: WindowAdjustment>(
    rec: &Rec<W>,
    s: &Stack,
    kind: Kind,
    before: &Classic<W>,
    new_reduction: bool,
    algo: Algo<'_, W>,
) {
    let mut step = Step {
        kind,
        before,
        after: rec.inner(),
        new_reduction,
        acked: 0,
        app_limited: false,
    };
    common(rec, s, &mut step, algo);
}

/// The invariants of every classic flow after every event.
fn common<W: WindowAdjustment>(rec: &Rec<W>, s: &Stack, step: &mut Step<'_, W>, algo: Algo<'_, W>) {
    let (f, before, kind) = (step.after, step.before, step.kind);
    let mss = f.params().mss();
    let fail = |what: &str| -> ! { panic!("invariant broken: {what} (on {kind:?})\n{rec:?}") };
    // The flow's in-flight count is the stack's: sends set or add, ACKs, losses and
    // discards subtract exactly what they name, down to zero and never below.
    if f.in_flight() != s.flight {
        fail(&format!(
            "in flight {} where the stack counts {}",
            f.in_flight(),
            s.flight
        ));
    }
    // RFC 9438 §4.6/§4.8: cwnd never below 1 MSS (ECN and RTO floors), ssthresh never
    // below 2 MSS (RFC 9002 kMinimumWindow).
    if f.cwnd() < mss {
        fail("cwnd at least 1 MSS");
    }
    let ssthresh = f.ssthresh().unwrap_or(u64::MAX);
    if ssthresh < 2 * mss {
        fail("ssthresh at least 2 MSS");
    }
    if f.ssthresh() == Some(u64::MAX) {
        fail("no ssthresh is None, never Some(u64::MAX)");
    }
    // The steady-ACK path relies on it: congestion avoidance only at or above ssthresh
    // (RFC 5681 §3.1: slow start while cwnd < ssthresh).
    if f.phase() == Phase::CongestionAvoidance && f.cwnd() < ssthresh {
        fail("congestion avoidance below ssthresh");
    }
    // The pacing rate is the formula on the flow's own window, ssthresh, flight and
    // SRTT (the flow does not read ssthresh in congestion avoidance, where it cannot
    // change the ratio).
    let formula = pacing_rate_bytes(
        f.pacing_params(),
        &BytesPacingInput {
            cwnd_bytes: f.cwnd(),
            ssthresh_bytes: ssthresh,
            in_flight_bytes: f.in_flight(),
            srtt_us: f.srtt_us(),
        },
    );
    if f.pacing_rate() != formula {
        fail("the pacing rate is not the formula on the flow's own state");
    }
    let window = (f.cwnd(), f.ssthresh(), f.phase());
    let window_before = (before.cwnd(), before.ssthresh(), before.phase());
    match kind {
        Kind::Sent | Kind::TransmitStart | Kind::Discarded if window != window_before => {
            fail("a send, a restart or a discard changed cwnd, ssthresh or the phase")
        }
        Kind::Ack => {
            if f.cwnd() < before.cwnd() {
                fail("an ACK lowered cwnd");
            }
            if step.app_limited && f.cwnd() != before.cwnd() {
                fail("an application-limited ACK grew cwnd (RFC 9002 §7.8)");
            }
            if before.phase() == Phase::Recovery
                && f.phase() == Phase::Recovery
                && f.cwnd() != before.cwnd()
            {
                fail("cwnd grew during recovery");
            }
            let slow_start =
                |p: Phase| matches!(p, Phase::SlowStart | Phase::ConservativeSlowStart);
            // Slow start grows by at most the acked bytes and stops at ssthresh; it
            // runs while cwnd is below ssthresh (at ssthresh, as after persistent
            // congestion from a 2-MSS ssthresh, the ACK is congestion avoidance's).
            let below = before.cwnd() < before.ssthresh().unwrap_or(u64::MAX);
            if below
                && (slow_start(before.phase())
                    || (before.phase() == Phase::Recovery && slow_start(f.phase())))
            {
                let cap = before
                    .cwnd()
                    .max(before.ssthresh().unwrap_or(u64::MAX))
                    .min(before.cwnd().saturating_add(step.acked));
                if f.cwnd() > cap {
                    fail("slow start grew by more than the acked bytes or past ssthresh");
                }
            }
        }
        Kind::Loss if step.new_reduction => {
            // β < 1 for both algorithms: at most the old window (or the 2 MSS floor),
            // and cwnd lands on ssthresh.
            if f.cwnd() < 2 * mss || f.cwnd() > before.cwnd().max(2 * mss) {
                fail("a loss reduction gives cwnd in [2 MSS, max(cwnd before, 2 MSS)]");
            }
            if f.ssthresh() != Some(f.cwnd()) {
                fail("a loss reduction sets ssthresh = cwnd");
            }
        }
        Kind::Ecn if step.new_reduction && (f.cwnd() > before.cwnd() || f.cwnd() > ssthresh) => {
            fail("an ECN reduction gives cwnd at most the old window and ssthresh")
        }
        Kind::RetransmissionTimeout if f.cwnd() != mss => {
            fail("an RTO restarts from 1 MSS (RFC 5681 §3.1)")
        }
        Kind::PersistentCongestion if f.cwnd() != 2 * mss => {
            fail("persistent congestion restarts from 2 MSS (RFC 9002 §7.6.2)")
        }
        _ => {}
    }
    // Every mode gives a send quantum (v0.2): Linux's TSO autosizing, at least one
    // segment and at most a 64 KB burst or two segments. (The pacing rate may round
    // down to 0 bytes/s with an RTT of an hour and a small window: the kernel reads a
    // rate of 0 as "do not pace".)
    let quantum = f.send_quantum_bytes();
    if quantum < mss || quantum > (2 * mss).max(GSO_MAX_SIZE.into()) {
        fail(&format!(
            "send quantum {quantum} outside [MSS, max(2 MSS, 64 KB)]"
        ));
    }
    let past_recovery_end = f
        .recovery_end()
        .is_some_and(|end| f.largest_acked().is_some_and(|acked| acked > end));
    if kind == Kind::Ack && past_recovery_end {
        fail("still in recovery after an ACK beyond the recovery's end");
    }
    if kind == Kind::Undo && before.phase() != Phase::Recovery && past_recovery_end {
        fail("an undo re-entered a recovery that had already ended");
    }
    if !legal(kind, before.phase(), f.phase()) {
        fail(&format!("phase {:?} -> {:?}", before.phase(), f.phase()));
    }
    if let Some(what) = algo(step) {
        fail(&what);
    }
}
