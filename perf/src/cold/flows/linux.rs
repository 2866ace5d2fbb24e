//! `congestion::linux::Cubic` (segments), alone and in a `PacedFlow` with its send
//! path. Every call into `congestion` for Linux mode is here.

use crate::cold::{Ack, ColdFlow, Send};
use crate::common::{PACKET_BYTES, RTT_US, START_US};
use congestion::hystart::PacingStatus;
use congestion::linux::{Cubic, CubicConfig, LinuxFlowState, LinuxParams};
use congestion::pacing::{
    NextPacket, PacedFlow, SendPath, SendPathConfig, SendPathParams, SendPathState, SendVerdict,
};
use congestion::{
    AckEvent, CongestionController, Duration, Instant, LossEvent, Phase, SentEvent, WindowUnit,
};
use std::cell::Cell;

/// The parameters every flow of the run shares: kernel defaults, the stream's MSS.
fn params() -> LinuxParams {
    let mut config = CubicConfig::new();
    config.socket.mss = PACKET_BYTES;
    LinuxParams::new(config).expect("kernel defaults are valid")
}

/// The ACK event of the stream, in the controller's unit.
#[inline(always)]
pub(super) fn ack_event(a: &Ack, unit_bytes: u64) -> AckEvent {
    AckEvent::new(
        u64::from(a.packets) * unit_bytes,
        a.largest_acked,
        Some(Duration::from_micros(RTT_US)),
    )
}

/// The send event: the stack's count after the send, in the controller's unit.
#[inline(always)]
pub(super) fn sent_event(s: &Send, unit_bytes: u64) -> SentEvent {
    SentEvent::new(u64::from(s.in_flight_after) * unit_bytes, s.largest_sent)
}

/// One packet lost, `lost_pn` the newest.
pub(super) fn loss<C: CongestionController>(
    cc: &mut C,
    now_us: u64,
    lost_pn: u64,
    unit_bytes: u64,
) {
    cc.on_loss(
        Instant::from_micros(now_us),
        &LossEvent::packet(unit_bytes, lost_pn),
    );
}

/// `Cubic` as a TCP stack with many flows drives it: the bare per-flow state
/// (`LinuxFlowState`, two cache lines) in the array, the parameters once, bound per
/// call; `on_ack` per ACK, `on_sent` per refill.
#[derive(Clone)]
pub struct Linux(pub LinuxFlowState);

impl ColdFlow for Linux {
    const NAME: &'static str = "linux";
    type Shared = LinuxParams;
    fn shared() -> LinuxParams {
        params()
    }
    fn fresh(p: &LinuxParams) -> Self {
        Linux(LinuxFlowState::new(p, Instant::from_micros(START_US)))
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &LinuxParams) -> u32 {
        self.0.snd_cwnd()
    }
    #[inline(always)]
    fn on_ack(&mut self, p: &LinuxParams, a: &Ack) {
        Cubic::bind(&mut self.0, p).on_ack(Instant::from_micros(a.now_us), &ack_event(a, 1));
    }
    #[inline(always)]
    fn on_send(&mut self, p: &LinuxParams, s: &Send) -> bool {
        Cubic::bind(&mut self.0, p).on_sent(Instant::from_micros(s.now_us), &sent_event(s, 1));
        true
    }
    fn on_loss(&mut self, p: &LinuxParams, now_us: u64, lost_pn: u64, _in_flight_after: u32) {
        loss(&mut Cubic::bind(&mut self.0, p), now_us, lost_pn, 1);
    }
    fn in_congestion_avoidance(&self, _: &LinuxParams) -> bool {
        self.0.phase() == Phase::CongestionAvoidance
    }
}

/// The send path's settings: Linux defaults, paced as `status` says (the warm-up runs
/// unpaced, the measured stream self-paced: `PacingStatus::Needed`).
pub fn send_path_params(status: PacingStatus) -> SendPathParams {
    let mut config = SendPathConfig::new();
    config.pacing_status = status;
    config.validate().expect("Linux defaults are valid")
}

/// Sends `s.packets` as a self-paced stack does with a `PacedFlow`: `poll`, and for
/// each burst it allows `on_sent` (the controller, the pacer's stamp, the TSQ charge)
/// and the burst's TX completion (here at once: the stream has no qdisc). False if
/// the flow held any packet back.
#[inline(always)]
pub(super) fn send_through<
    C: CongestionController,
    P: core::borrow::Borrow<SendPathParams>,
    S: core::borrow::BorrowMut<SendPathState>,
>(
    flow: &mut PacedFlow<C, P, S>,
    s: &Send,
) -> bool {
    let now = Instant::from_micros(s.now_us);
    let unit = match flow.unit() {
        WindowUnit::Segments => 1,
        WindowUnit::Bytes => u64::from(PACKET_BYTES),
    };
    let mut in_flight = s.in_flight_after - s.packets;
    while in_flight < s.in_flight_after {
        let SendVerdict::Send { segments } = flow.poll(now, &NextPacket::default()) else {
            return false;
        };
        let segments = segments.min(s.in_flight_after - in_flight);
        in_flight += segments;
        let burst = Send {
            packets: segments,
            in_flight_after: in_flight,
            largest_sent: s.largest_sent - u64::from(s.in_flight_after - in_flight),
            ..*s
        };
        flow.on_sent(now, &sent_event(&burst, unit));
        flow.on_tx_completion(segments * PACKET_BYTES);
    }
    true
}

/// What every `linux+sp` flow shares: Linux mode's parameters and the send path's, the
/// latter unpaced for the warm-up and self-paced once it has ended.
pub struct LinuxSendShared {
    linux: LinuxParams,
    unpaced: SendPathParams,
    paced: SendPathParams,
    warmed: Cell<bool>,
}

impl LinuxSendShared {
    fn send(&self) -> &SendPathParams {
        if self.warmed.get() {
            &self.paced
        } else {
            &self.unpaced
        }
    }
}

/// `PacedFlow<Cubic>` as a stack with many flows keeps it: per flow the bare
/// Linux-mode state (two lines) and the send path's (one line), the parameters once;
/// each event binds them in place (`Cubic::bind`, `SendPath::bind`) into one
/// `PacedFlow`, fed once per event (the ACK's RTT sample also feeds the path's
/// minimum-RTT filter).
#[derive(Clone)]
#[repr(C)]
pub struct LinuxSendPath {
    flow: LinuxFlowState,
    send: SendPathState,
}

/// The paced flow one event works on: both states bound where the table keeps them.
type BoundLinuxPaced<'a> = PacedFlow<
    Cubic<&'a LinuxParams, &'a mut LinuxFlowState>,
    &'a SendPathParams,
    &'a mut SendPathState,
>;

impl LinuxSendPath {
    /// Runs `f` on the flow and its send path bound to the shared parameters; both
    /// states change in place.
    #[inline(always)]
    fn paced<R>(
        &mut self,
        sh: &LinuxSendShared,
        f: impl FnOnce(&mut BoundLinuxPaced<'_>) -> R,
    ) -> R {
        let mut flow = PacedFlow::from_parts(
            Cubic::bind(&mut self.flow, &sh.linux),
            SendPath::bind(&mut self.send, sh.send()),
        );
        f(&mut flow)
    }
}

impl ColdFlow for LinuxSendPath {
    const NAME: &'static str = "linux+sp";
    type Shared = LinuxSendShared;
    fn shared() -> LinuxSendShared {
        LinuxSendShared {
            linux: params(),
            unpaced: send_path_params(PacingStatus::None),
            paced: send_path_params(PacingStatus::Needed),
            warmed: Cell::new(false),
        }
    }
    fn fresh(sh: &LinuxSendShared) -> Self {
        LinuxSendPath {
            flow: LinuxFlowState::new(&sh.linux, Instant::from_micros(START_US)),
            send: SendPathState::new(),
        }
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &LinuxSendShared) -> u32 {
        self.flow.snd_cwnd()
    }
    #[inline(always)]
    fn on_ack(&mut self, sh: &LinuxSendShared, a: &Ack) {
        self.paced(sh, |f| {
            f.on_ack(Instant::from_micros(a.now_us), &ack_event(a, 1))
        });
    }
    #[inline(always)]
    fn on_send(&mut self, sh: &LinuxSendShared, s: &Send) -> bool {
        self.paced(sh, |f| send_through(f, s))
    }
    fn on_loss(&mut self, sh: &LinuxSendShared, now_us: u64, lost_pn: u64, _in_flight_after: u32) {
        self.paced(sh, |f| loss(f, now_us, lost_pn, 1));
    }
    fn warmed(&mut self, sh: &LinuxSendShared) {
        sh.warmed.set(true);
    }
    fn in_congestion_avoidance(&self, _: &LinuxSendShared) -> bool {
        self.flow.phase() == Phase::CongestionAvoidance
    }
}
