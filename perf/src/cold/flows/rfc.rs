//! `congestion::rfc::RfcFlow` (bytes), alone and in a `PacedFlow` with its send path.
//! Every call into `congestion` for RFC mode is here (the event builders and the send
//! loop are shared with Linux mode's module).

use super::linux::{ack_event, loss, send_path_params, send_through, sent_event};
use crate::cold::{Ack, ColdFlow, Send};
use crate::common::{PACKET_BYTES, START_US};
use congestion::cubic::RfcCubic;
use congestion::hystart::PacingStatus;
use congestion::pacing::PacedFlow;
use congestion::rfc::{ClassicState, RfcFlow, RfcFlowConfig, RfcParams};
use congestion::{CongestionController, Instant, LossEvent, Phase};

const MSS: u64 = PACKET_BYTES as u64;

fn fresh_flow() -> RfcFlow {
    let mut config = RfcFlowConfig::new();
    config.cubic.mss_bytes = MSS;
    RfcFlow::new(config, Instant::from_micros(START_US)).expect("RFC defaults are valid")
}

/// The parameters every flow of the run shares: RFC defaults, the stream's MSS.
fn params() -> RfcParams {
    let mut config = RfcFlowConfig::new();
    config.cubic.mss_bytes = MSS;
    RfcParams::new(&config).expect("RFC defaults are valid")
}

/// `RfcFlow` as a QUIC stack with many connections keeps it: the bare per-flow state
/// (`ClassicState<RfcCubic>`) in the array and `RfcParams` once, passed with every call;
/// `on_ack` per ACK frame, `on_sent` per refill.
#[derive(Clone)]
pub struct Rfc(pub ClassicState<RfcCubic>);

impl ColdFlow for Rfc {
    const NAME: &'static str = "rfc";
    type Shared = RfcParams;
    fn shared() -> RfcParams {
        params()
    }
    fn fresh(p: &RfcParams) -> Self {
        Rfc(ClassicState::new(p, Instant::from_micros(START_US)))
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

/// `PacedFlow<RfcFlow>` (see `LinuxSendPath`); the pacing rate is the flow's own.
#[derive(Clone)]
pub struct RfcSendPath(pub PacedFlow<RfcFlow>);

impl ColdFlow for RfcSendPath {
    const NAME: &'static str = "rfc+sp";
    type Shared = ();
    fn shared() {}
    fn fresh(_: &()) -> Self {
        RfcSendPath(PacedFlow::new(
            fresh_flow(),
            send_path_params(PacingStatus::None),
        ))
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &()) -> u32 {
        (self.0.cwnd() / MSS) as u32
    }
    #[inline(always)]
    fn on_ack(&mut self, _: &(), a: &Ack) {
        self.0
            .on_ack(Instant::from_micros(a.now_us), &ack_event(a, MSS));
    }
    #[inline(always)]
    fn on_send(&mut self, _: &(), s: &Send) -> bool {
        send_through(&mut self.0, s)
    }
    fn on_loss(&mut self, _: &(), now_us: u64, lost_pn: u64, _in_flight_after: u32) {
        loss(&mut self.0, now_us, lost_pn, MSS);
    }
    fn warmed(&mut self, _: &()) {
        self.0
            .send_path_mut()
            .set_params(send_path_params(PacingStatus::Needed));
    }
    fn in_congestion_avoidance(&self, _: &()) -> bool {
        self.0.phase() == Phase::CongestionAvoidance
    }
}
