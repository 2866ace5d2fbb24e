//! What both modes share: the Rust state of each blob as one `CongestionController`,
//! the C arguments turned into the library's events, and the two helpers every entry
//! point goes through.

use crate::state::{self, Blob, Inner, RfcInner};
use crate::*;
use congestion::cubic::RfcCubic;
use congestion::linux::{Cubic, LinuxFlowState, LinuxParams, TCP_INFINITE_SSTHRESH};
use congestion::pacing::Rate;
use congestion::rfc::{ClassicState, NewRenoWindow};
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase, SentEvent,
    WindowUnit,
};

/// Runs `f` on the state behind `state`, or returns the error code.
///
/// # Safety
/// As [`state::get`].
pub(crate) unsafe fn with<B: Blob>(state: *mut B, f: impl FnOnce(&mut B::Inner)) -> i32 {
    // SAFETY: forwarded contract.
    match unsafe { state::get(state) } {
        Ok(inner) => {
            f(inner);
            CONGESTION_OK
        }
        Err(code) => code,
    }
}

/// Reads one value from the state into `*out`.
///
/// # Safety
/// `state` as [`state::get_ref`]; `out` NULL or writable.
pub(crate) unsafe fn read<B: Blob, T>(
    state: *const B,
    out: *mut T,
    f: impl FnOnce(&B::Inner) -> T,
) -> i32 {
    if out.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: forwarded contract.
    match unsafe { state::get_ref(state) } {
        Ok(inner) => {
            // SAFETY: non-null and writable per the contract.
            unsafe { out.write(f(inner)) };
            CONGESTION_OK
        }
        Err(code) => code,
    }
}

/// `now_us` as an [`Instant`].
pub(crate) const fn at(now_us: u64) -> Instant {
    Instant::from_micros(now_us)
}

/// An ACK's RTT argument: negative for none.
pub(crate) fn rtt(rtt_us: i64) -> Option<Duration> {
    u64::try_from(rtt_us).ok().map(Duration::from_micros)
}

/// `on_ack`'s arguments as the library's event: [`CONGESTION_PACKET_UNKNOWN`] names no
/// packet (0 is packet 0).
pub(crate) fn ack_event(acked: u64, largest_acked: u64, rtt_us: i64, app_limited: u8) -> AckEvent {
    let mut ack =
        AckEvent::new(acked, largest_acked, rtt(rtt_us)).with_app_limited(app_limited != 0);
    if largest_acked == CONGESTION_PACKET_UNKNOWN {
        ack.largest_acked = None;
    }
    ack
}

/// `on_loss`'s arguments: [`CONGESTION_PACKET_UNKNOWN`] makes it one congestion event.
pub(crate) const fn loss_event(lost: u64, newest_lost: u64) -> LossEvent {
    if newest_lost == CONGESTION_PACKET_UNKNOWN {
        LossEvent::episode(lost)
    } else {
        LossEvent::packet(lost, newest_lost)
    }
}

/// `on_ecn`'s arguments, judged like [`loss_event`].
pub(crate) const fn ecn_event(ce_increase: u64, largest_acked: u64) -> EcnEvent {
    if largest_acked == CONGESTION_PACKET_UNKNOWN {
        EcnEvent::episode(ce_increase)
    } else {
        EcnEvent::new(ce_increase, largest_acked)
    }
}

/// A `ssthresh()` as the C ABI gives it.
pub(crate) fn ssthresh_code(ssthresh: Option<u64>) -> u64 {
    ssthresh.unwrap_or(CONGESTION_SSTHRESH_NONE)
}

/// The `CONGESTION_PHASE_*` value of a phase.
pub(crate) const fn phase_code(phase: Phase) -> u32 {
    match phase {
        Phase::SlowStart => CONGESTION_PHASE_SLOW_START,
        Phase::ConservativeSlowStart => CONGESTION_PHASE_CONSERVATIVE_SLOW_START,
        Phase::CongestionAvoidance => CONGESTION_PHASE_CONGESTION_AVOIDANCE,
        Phase::Recovery => CONGESTION_PHASE_RECOVERY,
    }
}

/// The RFC-mode flow's state: CUBIC or NewReno, both on the library's classic driver.
#[derive(Clone, Copy)]
pub(crate) enum RfcAlgorithm {
    /// RFC 9438 CUBIC.
    Cubic(ClassicState<RfcCubic>),
    /// RFC 9002 NewReno.
    NewReno(ClassicState<NewRenoWindow>),
}

/// Forwards one call to whichever flow an [`RfcAlgorithm`] holds.
macro_rules! forward {
    ($self:expr, $f:ident => $call:expr) => {
        match $self {
            RfcAlgorithm::Cubic($f) => $call,
            RfcAlgorithm::NewReno($f) => $call,
        }
    };
}
pub(crate) use forward;

impl RfcInner {
    /// The MSS the send path takes, bytes (RFC mode's is at most 65535).
    pub(crate) fn mss(&self) -> u32 {
        u32::try_from(self.mss_bytes()).unwrap_or(u32::MAX)
    }
}

/// The RFC-mode blob as the library's controller, and one paced flow as the Linux-mode
/// blob is: its flow's state on its parameter block, the ACK's RTT sample feeding the
/// send path's windowed minimum RTT too, and the send quantum the send path's TSO burst.
impl CongestionController for RfcInner {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Bytes
    }
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        let p = &self.params().rfc;
        forward!(&mut self.flow, f => f.on_sent(p, now, sent))
    }
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        let p = self.params();
        if let Some(rtt) = ack.rtt {
            self.send.on_rtt_sample(&p.send, now, rtt);
        }
        forward!(&mut self.flow, f => f.on_ack(&p.rfc, now, ack))
    }
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        let p = &self.params().rfc;
        forward!(&mut self.flow, f => f.on_loss(p, now, loss))
    }
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        let p = &self.params().rfc;
        forward!(&mut self.flow, f => f.on_ecn(p, now, ecn))
    }
    fn on_retransmission_timeout(&mut self, now: Instant) {
        let p = &self.params().rfc;
        forward!(&mut self.flow, f => f.on_retransmission_timeout(p, now))
    }
    fn on_discarded(&mut self, now: Instant, amount: u64) {
        forward!(&mut self.flow, f => f.on_discarded(now, amount))
    }
    fn on_spurious_congestion(&mut self, now: Instant) {
        forward!(&mut self.flow, f => f.on_spurious_congestion(now))
    }
    fn on_transmit_start(&mut self, now: Instant) {
        forward!(&mut self.flow, f => f.on_transmit_start(now))
    }
    fn cwnd(&self) -> u64 {
        forward!(&self.flow, f => f.cwnd())
    }
    fn ssthresh(&self) -> Option<u64> {
        forward!(&self.flow, f => f.ssthresh())
    }
    fn phase(&self) -> Phase {
        forward!(&self.flow, f => f.phase())
    }
    fn in_flight(&self) -> u64 {
        forward!(&self.flow, f => f.in_flight())
    }
    fn pacing_rate(&self) -> Rate {
        let p = &self.params().rfc;
        forward!(&self.flow, f => f.pacing_rate(p))
    }
    fn mss_bytes(&self) -> u64 {
        forward!(&self.flow, f => f.mss_bytes())
    }
    /// `tcp_tso_segs` of the send path × MSS.
    fn send_quantum_bytes(&self) -> u64 {
        let mss = self.mss();
        let segs = self
            .send
            .tso_segs(&self.params().send, self.pacing_rate(), mss);
        u64::from(segs) * u64::from(mss)
    }
}

impl Inner {
    /// The MSS the send path takes, bytes.
    pub(crate) fn mss(&self) -> u32 {
        self.params().linux.socket().mss
    }

    /// The flow as the library's controller, on its parameter block.
    pub(crate) fn controller(&mut self) -> Cubic<&LinuxParams, &mut LinuxFlowState> {
        let params = self.params();
        Cubic::bind(&mut self.flow, &params.linux)
    }

    /// `sk_pacing_rate` as a [`Rate`].
    pub(crate) fn pacing_rate(&self) -> Rate {
        Rate::from_bytes_per_second(self.flow.sk_pacing_rate(&self.params().linux))
    }
}

/// The Linux-mode blob is one paced flow: the ACK's RTT sample feeds the send path's
/// windowed minimum RTT too, and the send quantum is the send path's TSO burst.
/// Everything else is the flow's (`Cubic`, bit-exact with the kernel).
impl CongestionController for Inner {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Segments
    }
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.controller().on_sent(now, sent);
    }
    fn on_sent_counted(&mut self, now: Instant, sent: u64, largest_sent: u64) {
        self.controller().on_sent_counted(now, sent, largest_sent);
    }
    /// The kernel's RTT is an `s32` of µs: samples above `i32::MAX` are clamped to it,
    /// for the flow and the send path alike.
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        let max = Duration::from_micros(i32::MAX as u64);
        let ack = AckEvent {
            rtt: ack.rtt.map(|r| if r > max { max } else { r }),
            ..*ack
        };
        if let Some(rtt) = ack.rtt {
            self.send.on_rtt_sample(&self.params().send, now, rtt);
        }
        self.controller().on_ack(now, &ack);
    }
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.controller().on_loss(now, loss);
    }
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        self.controller().on_ecn(now, ecn);
    }
    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.controller().on_retransmission_timeout(now);
    }
    fn on_discarded(&mut self, now: Instant, amount: u64) {
        self.controller().on_discarded(now, amount);
    }
    fn on_spurious_congestion(&mut self, now: Instant) {
        self.controller().on_spurious_congestion(now);
    }
    fn on_transmit_start(&mut self, now: Instant) {
        self.controller().on_transmit_start(now);
    }
    fn cwnd(&self) -> u64 {
        u64::from(self.flow.snd_cwnd())
    }
    fn ssthresh(&self) -> Option<u64> {
        let s = self.flow.snd_ssthresh();
        (s < TCP_INFINITE_SSTHRESH).then_some(u64::from(s))
    }
    fn phase(&self) -> Phase {
        self.flow.phase()
    }
    fn in_flight(&self) -> u64 {
        u64::from(self.flow.packets_out())
    }
    fn pacing_rate(&self) -> Rate {
        Inner::pacing_rate(self)
    }
    fn mss_bytes(&self) -> u64 {
        u64::from(self.mss())
    }
    /// `tcp_tso_segs` of the send path × MSS.
    fn send_quantum_bytes(&self) -> u64 {
        let mss = self.mss();
        u64::from(
            self.send
                .tso_segs(&self.params().send, Inner::pacing_rate(self), mss),
        ) * u64::from(mss)
    }
}
