//! Fuzz body for Linux mode: a `Cubic` (CUBIC + HyStart + socket glue) under any
//! event sequence of a TCP-like stack that keeps its own books in segments.
//!
//! The stack model (`SeqModel`, shared with the 2.6.35 body) tracks `snd_una`,
//! `snd_nxt` and `packets_out` as the kernel does (32-bit sequences, wrap-around), and
//! which segments each send put out and when. Losses are reported segment by segment,
//! burst by burst (newest sequence or send time), as unnamed episodes, at the recovery
//! period's very edge, or with sequences out of nowhere; ECN as CE-count increases;
//! persistent congestion, RTOs and discards too; sends as the stack's count
//! ([`SentEvent::new`]) or for the flow to count (`on_sent_counted`).

use super::bytes::Bytes;
use super::period::{Numbers, Period, before32};
use super::phase::{Kind, legal};
use super::send::Send;
use congestion::cubic::{HystartDetect, LinuxCubicConfig};
use congestion::hystart::PacingStatus;
use congestion::linux::{CaState, Cubic, CubicConfig, LinuxSocketConfig};
use congestion::recorder::FlightRecorder;
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase, SentEvent,
    SentPacket,
};

/// Builds a configuration from the first bytes; `None` when it is (rightly) refused.
fn flow_from(b: &mut Bytes<'_>, now: Instant) -> Option<(Cubic, u32)> {
    let mut c = LinuxCubicConfig::new();
    c.beta = u32::from(b.u16()) % 1100; // includes refused values >= 1024 and 0
    c.bic_scale = u32::from(b.u16());
    let flags = b.u8();
    c.fast_convergence = flags & 1 != 0;
    c.tcp_friendliness = flags & 2 != 0;
    c.hystart = flags & 4 != 0;
    c.hystart_detect = HystartDetect::from_bits((flags >> 3) & 3).ok()?;
    c.hystart_low_window = u32::from(b.u8());
    c.initial_ssthresh = u32::from(b.u8());
    let mut s = LinuxSocketConfig::new();
    s.cwnd_clamp = match b.u8() % 4 {
        0 => u32::MAX,
        1 => b.u32(),
        _ => u32::from(b.u16()),
    };
    s.init_cwnd = u32::from(b.u8());
    s.initial_srtt_us = u32::from(b.u16()) * 8;
    s.pacing_status =
        [PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq][usize::from(b.u8() % 3)];
    s.mss = u32::from(b.u16());
    // The initial sequence: near the 32-bit wrap when the fuzzer wants it.
    s.iss = b.u32();
    let flow = Cubic::new(CubicConfig::from_parts(c, s), now).ok()?;
    Some((flow, s.cwnd_clamp))
}

/// Saturating `u64` → `u32` segments, as the flow converts the trait's amounts.
pub fn segments(amount: u64) -> u32 {
    u32::try_from(amount).unwrap_or(u32::MAX)
}

/// A TCP sender's books in segments, kept as the kernel keeps them (32-bit `snd_una`,
/// `snd_nxt`, `packets_out`) and also unwrapped in 64 bits, as the stack knows how far
/// it really got.
pub struct SeqModel {
    pub snd_una: u32,
    pub snd_nxt: u32,
    pub packets_out: u32,
    /// `snd_una` and `snd_nxt` unwrapped: the 32-bit values are their low bits.
    pub una64: u64,
    pub nxt64: u64,
    /// `(first, last, sent at)` of the unwrapped sequences each send put out, newest
    /// last; a range is forgotten once declared lost.
    pub sends: Vec<(u64, u64, Instant)>,
    pub ce_count: u64,
    pub period: Period,
    /// Known finding F2 (`known.rs`): `snd_una` went 2^31 or more past the period's
    /// mark, so the flow's stale `high_seq` may misjudge; no judging by sequence until
    /// a fresh period.
    pub stale: bool,
    /// Since the period began, the window (`snd_nxt - snd_una`) reached 2^31 segments or
    /// an ACK took `snd_una` beyond `snd_nxt` (hostile stacks only): 32-bit sequence
    /// comparisons with `high_seq` are ambiguous for the flow itself, so an ACK may find
    /// `snd_una` "before" it again.
    pub wide: bool,
    /// The current period began with a CE reduction (Linux mode: the kernel's CWR, held
    /// while `snd_una` is at `high_seq` against CE reports named by sequence).
    pub cwr: bool,
}

impl SeqModel {
    /// A fresh stack at `iss`; `time32`: the flow compares send times on the 32-bit µs
    /// clock (today's Linux mode), else in full (2.6.35).
    pub fn new(iss: u32, time32: bool) -> Self {
        SeqModel {
            snd_una: iss,
            snd_nxt: iss,
            packets_out: 0,
            // From 2^32 on, so that unwrapping never goes below zero.
            una64: (1 << 32) + u64::from(iss),
            nxt64: (1 << 32) + u64::from(iss),
            sends: Vec::new(),
            ce_count: 0,
            period: Period::with_time32(Numbers::Linux64, time32),
            stale: false,
            wide: false,
            cwr: false,
        }
    }

    /// The transmit step: `in_flight` segments outstanding afterwards; `snd_nxt`
    /// moves to `snd_una + in_flight` if that is after it.
    pub fn sent(&mut self, now: Instant, in_flight: u32) {
        self.packets_out = in_flight;
        let top = self.snd_una.wrapping_add(in_flight);
        if before32(self.snd_nxt, top) {
            // Forward by less than 2^31: the unwrapped count moves the same way.
            let moved = u64::from(top.wrapping_sub(self.snd_nxt));
            self.sends.push((self.nxt64, self.nxt64 + moved - 1, now));
            if self.sends.len() > 32 {
                self.sends.remove(0);
            }
            self.snd_nxt = top;
            self.nxt64 += moved;
            if self.nxt64.saturating_sub(self.una64) >= 1 << 31 {
                self.wide = true;
            }
        }
    }

    /// An ACK of `acked` segments.
    pub fn acked(&mut self, acked: u32) {
        self.snd_una = self.snd_una.wrapping_add(acked);
        self.una64 += u64::from(acked);
        self.packets_out = self.packets_out.saturating_sub(acked);
        if self.una64 > self.nxt64 {
            self.wide = true;
        }
        if let Some((mark, _)) = self.period.current() {
            if super::known::F2_STALE_HIGH_SEQ && self.una64 >= mark + (1 << 31) {
                self.stale = true;
            }
        }
    }

    /// Whether `packet` was sent before the current period (see `Period::sent_before_seq`).
    pub fn sent_before(&self, packet: SentPacket) -> Option<bool> {
        // A stale high_seq (F2), or sequences too far apart for 32 bits: the flow may
        // judge either way (whether the period is over is itself a 32-bit comparison).
        if self.stale || self.wide {
            return None;
        }
        self.period.sent_before_seq(packet, self.una64, self.nxt64)
    }

    /// A period begins now, at `snd_nxt`.
    pub fn begin(&mut self, now: Instant) {
        self.period.begin(self.nxt64, now);
        self.wide = self.una64.abs_diff(self.nxt64) >= 1 << 31 || self.una64 > self.nxt64;
    }

    /// Whether an ACK may put the flow back in `Recovery`: a stale `high_seq` (F2), a
    /// window too wide for 32-bit comparisons, or a period the body is in doubt about
    /// (so it cannot tell whether `high_seq` is stale).
    pub fn ambiguous(&self) -> bool {
        self.stale || self.wide || !self.period.is_known()
    }

    /// An RTO or persistent congestion: a period begins in the flow whatever it knew,
    /// so the body's record is exact again.
    pub fn begin_fresh(&mut self, now: Instant) {
        self.begin(now);
        self.stale = false;
        self.cwr = false;
    }

    /// Whether a CE report of `packet` finds the flow holding CWR: a CE reduction's
    /// period, `snd_una` at its `high_seq`, the packet named by sequence.
    pub fn cwr_held(&self, packet: SentPacket) -> bool {
        self.cwr
            && matches!(packet, SentPacket::Number(_))
            && self
                .period
                .current()
                .is_some_and(|(mark, _)| self.snd_una == mark as u32)
    }

    /// The loss reports of one episode, decoded from the input.
    pub fn loss_reports(&mut self, b: &mut Bytes<'_>, now: Instant) -> Vec<LossEvent> {
        let shape = b.u8();
        let per_segment = if shape & 0x80 != 0 { b.amount(1) } else { 1 };
        let persistent = (shape >> 3) & 7 == 7;
        let mut reports = Vec::new();
        let form = if self.sends.is_empty() && shape % 8 >= 3 {
            0
        } else {
            shape % 8
        };
        match form {
            0 => reports.push(LossEvent::episode(b.amount(1))),
            1 => {
                // The period's edge: the last segment sent before it (ignored), the
                // first one after (a new period), its start and one µs later.
                let (mark, start) = self.period.current().unwrap_or((self.nxt64, now));
                let t = Instant::from_micros(start.as_micros().saturating_add(1));
                reports.push(match b.u8() % 4 {
                    0 => LossEvent::packet(per_segment, mark.wrapping_sub(1)),
                    1 => LossEvent::packet(per_segment, mark),
                    2 => LossEvent::sent_at(per_segment, start),
                    _ => LossEvent::sent_at(per_segment, t),
                });
            }
            2 => reports.push(match b.u8() % 4 {
                // Truncated to 32 bits by the flow: a high word means nothing.
                0 => LossEvent::packet(per_segment, u64::MAX),
                1 => LossEvent::packet(
                    per_segment,
                    u64::from(b.u32()) << 32 | u64::from(self.snd_una),
                ),
                2 => LossEvent::packet(per_segment, u64::from(b.u32())),
                _ => LossEvent::sent_at(per_segment, Instant::from_micros(u64::from(b.u32()))),
            }),
            _ => {
                let i = usize::from(b.u8()) % self.sends.len();
                let (first, last, at) = self.sends.remove(i);
                let count = last - first + 1;
                let total = per_segment.saturating_mul(count);
                match form {
                    3 | 4 => reports.push(LossEvent::packet(total, last)),
                    5 => reports.push(LossEvent::sent_at(total, at)),
                    _ => {
                        // Segment by segment, the first eight of the burst.
                        for seq in first..first + count.min(8) {
                            reports.push(LossEvent::packet(per_segment, seq));
                        }
                    }
                }
            }
        }
        if persistent {
            if let Some(last) = reports.last_mut() {
                *last = last.with_persistent_congestion(true);
            }
        }
        reports
    }

    /// A CE-count increase, and the segment its ACK covered.
    pub fn ecn_event(&mut self, b: &mut Bytes<'_>, now: Instant) -> EcnEvent {
        let raised = match b.u8() % 8 {
            0 => 0,
            1 => u64::MAX,
            2 => u64::from(b.u32()),
            n => u64::from(n - 2),
        };
        let old = self.ce_count;
        self.ce_count = self.ce_count.saturating_add(raised);
        let (mark, start) = self.period.current().unwrap_or((self.una64, now));
        let newest = match b.u8() % 6 {
            0 => SentPacket::Unknown,
            1 => SentPacket::Number(mark.wrapping_sub(1)),
            2 => SentPacket::Number(mark),
            3 => SentPacket::SentAt(start),
            4 => SentPacket::Number(u64::from(b.u32())),
            _ => SentPacket::Number(self.una64.wrapping_sub(1)),
        };
        EcnEvent {
            ce_increase: self.ce_count - old,
            newest_acked: newest,
        }
    }

    /// The send for op `mode`: the stack's own count of what is in flight afterwards,
    /// or an amount sent for the flow to count.
    pub fn sent_event(&self, amount: u64, mode: u8) -> Send {
        let largest_sent = self.nxt64;
        match mode % 4 {
            0 => Send::Counted {
                sent: amount,
                largest_sent,
            },
            _ => Send::Stack(SentEvent::new(amount, largest_sent)),
        }
    }
}

/// Runs one fuzz input. Panics (with the flight recorder's story) if an invariant breaks.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mut now_us: u64 = 1 << 40;
    let Some((flow, clamp)) = flow_from(&mut b, Instant::from_micros(now_us)) else {
        return;
    };
    let mut m = SeqModel::new(flow.socket_view().snd_una, true);
    let mut rec: FlightRecorder<Cubic, 32> = FlightRecorder::new(flow);
    while !b.is_empty() {
        now_us = now_us.saturating_add_signed(b.time_step_us());
        let now = Instant::from_micros(now_us);
        let before = *rec.inner();
        match b.u8() % 16 {
            0..=5 => {
                let acked = b.amount(1);
                let rtt = b.rtt_us().map(Duration::from_micros);
                // `largest_acked` is the cumulative ACK after this ACK (Linux mode's
                // `snd_una`), as the model moves it.
                let cumulative = m.snd_una.wrapping_add(segments(acked));
                rec.on_ack(now, &AckEvent::new(acked, u64::from(cumulative), rtt));
                m.acked(segments(acked));
                check(&rec, &m, clamp, Kind::Ack, &before, false);
            }
            6..=8 => {
                let amount = b.amount(1);
                let sent = m.sent_event(amount, b.u8());
                sent.apply(&mut rec, now);
                m.sent(
                    now,
                    segments(sent.in_flight_after(u64::from(m.packets_out))),
                );
                check(&rec, &m, clamp, Kind::Sent, &before, false);
            }
            9 | 10 => {
                for loss in m.loss_reports(&mut b, now) {
                    let before = *rec.inner();
                    let judged = m.sent_before(loss.newest_lost);
                    rec.on_loss(now, &loss);
                    let kind = if loss.persistent_congestion {
                        // An RTO with the head retransmitted.
                        m.packets_out = 1;
                        m.begin_fresh(now);
                        Kind::PersistentCongestion
                    } else {
                        m.packets_out = m.packets_out.saturating_sub(segments(loss.lost));
                        judge(&rec, &mut m, &before, judged, now, "loss");
                        Kind::Loss
                    };
                    check(&rec, &m, clamp, kind, &before, judged == Some(false));
                }
            }
            11 => {
                let ecn = m.ecn_event(&mut b, now);
                // A report of a segment sent before the period, or of no rise, is not
                // even looked at; the kernel's tcp_enter_cwr does not reduce during an
                // RTO's recovery (state Loss), though it forgets prior_ssthresh there.
                let untouched = ecn.ce_increase == 0
                    || m.sent_before(ecn.newest_acked) == Some(true)
                    || (before.ca_state() != CaState::Loss && m.cwr_held(ecn.newest_acked));
                if super::known::F1_ECN_IN_LOSS_RAISES_CWND
                    && !untouched
                    && before.ca_state() == CaState::Loss
                {
                    continue;
                }
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
                check(&rec, &m, clamp, Kind::Ecn, &before, judged == Some(false));
            }
            12 => {
                rec.on_retransmission_timeout(now);
                m.packets_out = 1;
                m.begin_fresh(now);
                check(&rec, &m, clamp, Kind::RetransmissionTimeout, &before, false);
            }
            13 => {
                let amount = b.amount(1);
                rec.on_discarded(now, amount);
                m.packets_out = m.packets_out.saturating_sub(segments(amount));
                check(&rec, &m, clamp, Kind::Discarded, &before, false);
            }
            14 => {
                // Back to Open: reports of packets sent before the period are the
                // flow's to judge (see `Period::lapse`).
                rec.on_spurious_congestion(now);
                m.period.lapse();
                check(&rec, &m, clamp, Kind::Undo, &before, false);
            }
            _ => {
                rec.on_transmit_start(now);
                check(&rec, &m, clamp, Kind::TransmitStart, &before, false);
            }
        }
    }
}

/// A loss or CE report judged by the body's period (see `classic::judge`): one sent
/// before `high_seq` or the period's start changes neither cwnd nor ssthresh nor the
/// phase; a new one lands cwnd on ssthresh and is in `Recovery` exactly while something
/// beyond `snd_una` is outstanding.
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
                    "a {what} of a segment sent before the recovery period {:?} (or in state \
                     {:?}) changed cwnd/ssthresh/phase",
                    m.period.current(),
                    before.ca_state()
                ));
            }
        }
        Some(false) => {
            let outstanding = before32(m.snd_una, m.snd_nxt);
            let expected = if outstanding {
                Phase::Recovery
            } else {
                Phase::CongestionAvoidance
            };
            if f.phase() != expected
                || f.ssthresh() != Some(f.cwnd())
                || u64::from(f.socket_view().prior_cwnd) != before.cwnd()
            {
                fail(format!(
                    "a new {what} remembers cwnd {} in prior_cwnd and lands cwnd on ssthresh in \
                     {expected:?} (snd_una {}, snd_nxt {})",
                    before.cwnd(),
                    m.snd_una,
                    m.snd_nxt
                ));
            }
            m.begin(now);
            m.cwr = what == "CE mark";
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

/// The invariants of Linux mode after every event.
fn check(
    rec: &FlightRecorder<Cubic, 32>,
    m: &SeqModel,
    clamp: u32,
    kind: Kind,
    before: &Cubic,
    new_reduction: bool,
) {
    let f = rec.inner();
    let s = f.state();
    let v = f.socket_view();
    let fail = |what: &str| -> ! { panic!("invariant broken: {what} (on {kind:?})\n{rec:?}") };
    if s.cwnd < 1 || s.cwnd > clamp {
        fail("cwnd within [1, clamp]");
    }
    if s.ssthresh < 1 {
        fail("ssthresh at least 1");
    }
    if s.cubic.cnt == 1 {
        fail("CUBIC cnt is 0 (not computed) or at least 2");
    }
    // The stack's books and the flow's agree: in flight never underflows, and a loss
    // or discard takes exactly min(amount, in flight) segments out (u32, saturating).
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
    let window = (f.cwnd(), f.ssthresh(), f.phase());
    let window_before = (before.cwnd(), before.ssthresh(), before.phase());
    match kind {
        Kind::Sent | Kind::TransmitStart | Kind::Discarded if window != window_before => {
            fail("a send, a restart or a discard changed cwnd, ssthresh or the phase")
        }
        Kind::Ack if f.cwnd() < before.cwnd() => fail("an ACK lowered cwnd"),
        Kind::RetransmissionTimeout | Kind::PersistentCongestion if f.cwnd() != 1 => {
            fail("an RTO restarts from one segment")
        }
        Kind::Loss | Kind::Ecn if new_reduction && f.cwnd() > before.cwnd().max(2) => {
            fail("a reduction does not raise cwnd above max(cwnd, 2)")
        }
        _ => {}
    }
    let stale_recovery = m.ambiguous() && kind == Kind::Ack && f.phase() == Phase::Recovery;
    if !legal(kind, before.phase(), f.phase()) && !stale_recovery {
        fail(&format!(
            "phase {:?} -> {:?} (stack: snd_una {} snd_nxt {} unwrapped, period {:?}, stale {})",
            before.phase(),
            f.phase(),
            m.una64,
            m.nxt64,
            m.period.current(),
            m.stale
        ));
    }
    // The send quantum: Linux's TSO autosizing, one segment at least, a 64 KB burst or
    // two segments at most.
    let mss = f.mss_bytes().clamp(1, 65_535);
    let quantum = f.send_quantum_bytes();
    if quantum < mss || quantum > (2 * mss).max(65_536) {
        fail(&format!(
            "send quantum {quantum} outside [MSS, max(2 MSS, 64 KB)]"
        ));
    }
    if v.srtt_us_x8 == 0 && f.socket_config().initial_srtt_us != 0 {
        fail("srtt never returns to zero");
    }
}
