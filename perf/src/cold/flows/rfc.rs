//! `congestion::rfc::Cubic` (bytes), alone and in a `PacedFlow` with its send path.
//! Every call into `congestion` for RFC mode is here (the event builders and the send
//! loop are shared with Linux mode's module).

use super::linux::{ack_event, loss, send_path_params, send_through, sent_event};
use crate::cold::{Ack, ColdFlow, Send};
use crate::common::{PACKET_BYTES, START_US};
use congestion::cubic::RfcCubic;
use congestion::hystart::PacingStatus;
use congestion::pacing::{PacedFlow, SendPath, SendPathParams, SendPathState};
use congestion::rfc::{
    BoundClassic, ClassicState, CubicConfig, KeepUndo, NoUndo, RfcParams, UndoStorage,
};
use congestion::{CongestionController, Instant, LossEvent, Phase};
use std::cell::Cell;

const MSS: u64 = PACKET_BYTES as u64;

/// The parameters every flow of the run shares: RFC defaults, the stream's MSS.
fn params() -> RfcParams {
    let mut config = CubicConfig::new();
    config.cubic.mss_bytes = MSS;
    RfcParams::new(&config).expect("RFC defaults are valid")
}

/// `Cubic` as a QUIC stack with many connections keeps it: the bare per-flow state
/// (`ClassicState<RfcCubic, U>`) in the array and `RfcParams` once, passed with every
/// call; `on_ack` per ACK frame, `on_sent` per refill. `U` is where the state keeps its
/// undo snapshot: `rfc` keeps one (the default), `rfc-noundo` none (`NoUndo`, for
/// stacks that never report a spurious congestion event, as quinn and s2n-quic).
#[derive(Clone)]
pub struct Rfc<U: UndoStorage<RfcCubic> = KeepUndo<RfcCubic>>(pub ClassicState<RfcCubic, U>);

/// The `rfc-noundo` column.
pub type RfcNoUndo = Rfc<NoUndo>;

impl<U: UndoStorage<RfcCubic>> ColdFlow for Rfc<U> {
    const NAME: &'static str = if size_of::<U>() == 0 {
        "rfc-noundo"
    } else {
        "rfc"
    };
    type Shared = RfcParams;
    fn shared() -> RfcParams {
        params()
    }
    fn fresh(p: &RfcParams) -> Self {
        Rfc(ClassicState::with_undo_storage(
            p,
            Instant::from_micros(START_US),
        ))
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &RfcParams) -> u32 {
        (self.0.cwnd() / MSS) as u32
    }
    #[inline(always)]
    fn on_ack(&mut self, p: &RfcParams, a: &Ack) {
        self.0
            .on_ack(p, Instant::from_micros(a.now_us), &ack_event(a, MSS));
    }
    #[inline(always)]
    fn on_send(&mut self, p: &RfcParams, s: &Send) -> bool {
        self.0
            .on_sent(p, Instant::from_micros(s.now_us), &sent_event(s, MSS));
        true
    }
    fn on_loss(&mut self, p: &RfcParams, now_us: u64, lost_pn: u64, _in_flight_after: u32) {
        self.0.on_loss(
            p,
            Instant::from_micros(now_us),
            &LossEvent::packet(MSS, lost_pn),
        );
    }
    fn in_congestion_avoidance(&self, _: &RfcParams) -> bool {
        self.0.phase() == Phase::CongestionAvoidance
    }
}

/// What every `rfc+sp` flow shares: RFC mode's parameters and the send path's, the
/// latter unpaced for the warm-up and self-paced once it has ended.
pub struct RfcSendShared {
    rfc: RfcParams,
    unpaced: SendPathParams,
    paced: SendPathParams,
    warmed: Cell<bool>,
}

impl RfcSendShared {
    fn send(&self) -> &SendPathParams {
        if self.warmed.get() {
            &self.paced
        } else {
            &self.unpaced
        }
    }
}

/// `PacedFlow` over RFC mode as a stack with many flows keeps it (see `LinuxSendPath`):
/// per flow the bare state and the send path's line, the parameters once; each event
/// binds both states in place (`ClassicState::bind`, `SendPath::bind`) into one
/// `PacedFlow`, fed once per event. The pacing rate is the flow's own.
#[derive(Clone)]
#[repr(C)]
pub struct RfcSendPath {
    flow: ClassicState<RfcCubic>,
    send: SendPathState,
}

/// The paced flow one event works on: both states bound where the table keeps them.
type BoundRfcPaced<'a> =
    PacedFlow<BoundClassic<'a, RfcCubic>, &'a SendPathParams, &'a mut SendPathState>;

impl RfcSendPath {
    /// Runs `f` on the flow and its send path bound to the shared parameters; both
    /// states change in place.
    #[inline(always)]
    fn paced<R>(&mut self, sh: &RfcSendShared, f: impl FnOnce(&mut BoundRfcPaced<'_>) -> R) -> R {
        let mut flow = PacedFlow::from_parts(
            self.flow.bind(&sh.rfc),
            SendPath::bind(&mut self.send, sh.send()),
        );
        f(&mut flow)
    }
}

impl ColdFlow for RfcSendPath {
    const NAME: &'static str = "rfc+sp";
    type Shared = RfcSendShared;
    fn shared() -> RfcSendShared {
        RfcSendShared {
            rfc: params(),
            unpaced: send_path_params(PacingStatus::None),
            paced: send_path_params(PacingStatus::Needed),
            warmed: Cell::new(false),
        }
    }
    fn fresh(sh: &RfcSendShared) -> Self {
        RfcSendPath {
            flow: ClassicState::new(&sh.rfc, Instant::from_micros(START_US)),
            send: SendPathState::new(),
        }
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &RfcSendShared) -> u32 {
        (self.flow.cwnd() / MSS) as u32
    }
    #[inline(always)]
    fn on_ack(&mut self, sh: &RfcSendShared, a: &Ack) {
        self.paced(sh, |f| {
            f.on_ack(Instant::from_micros(a.now_us), &ack_event(a, MSS))
        });
    }
    #[inline(always)]
    fn on_send(&mut self, sh: &RfcSendShared, s: &Send) -> bool {
        self.paced(sh, |f| send_through(f, s))
    }
    fn on_loss(&mut self, sh: &RfcSendShared, now_us: u64, lost_pn: u64, _in_flight_after: u32) {
        self.paced(sh, |f| loss(f, now_us, lost_pn, MSS));
    }
    fn warmed(&mut self, sh: &RfcSendShared) {
        sh.warmed.set(true);
    }
    fn in_congestion_avoidance(&self, _: &RfcSendShared) -> bool {
        self.flow.phase() == Phase::CongestionAvoidance
    }
}
