//! `congestion::rfc::RfcFlow` (bytes), alone and with our send path. Every call into
//! `congestion` for RFC mode is here (the send path's loop is shared with Linux mode's).

use super::linux::{send_path_params, send_through};
use crate::cold::{Ack, ColdFlow, Send};
use crate::common::{PACKET_BYTES, RTT_US, START_US};
use congestion::hystart::PacingStatus;
use congestion::pacing::{Rate, SendPath};
use congestion::rfc::{RfcFlow, RfcFlowConfig};
use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, Phase, SentEvent};

const MSS: u64 = PACKET_BYTES as u64;

fn fresh_flow() -> RfcFlow {
    let mut config = RfcFlowConfig::new();
    config.cubic.mss_bytes = MSS;
    RfcFlow::new(config, Instant::from_micros(START_US)).expect("RFC defaults are valid")
}

#[inline(always)]
fn cwnd_packets(flow: &RfcFlow) -> u32 {
    (flow.cwnd() / MSS) as u32
}

#[inline(always)]
fn ack(flow: &mut RfcFlow, a: &Ack) {
    let ev = AckEvent::new(
        u64::from(a.packets) * MSS,
        a.largest_acked,
        Some(Duration::from_micros(RTT_US)),
    );
    flow.on_ack(Instant::from_micros(a.now_us), &ev);
}

#[inline(always)]
fn sent(flow: &mut RfcFlow, s: &Send) {
    let ev = SentEvent::new(u64::from(s.in_flight_after) * MSS, s.largest_sent);
    flow.on_sent(Instant::from_micros(s.now_us), &ev);
}

fn loss(flow: &mut RfcFlow, now_us: u64) {
    flow.on_loss(Instant::from_micros(now_us), &LossEvent::episode(0));
}

/// RFC mode's own pacing rate (Linux's rule in bytes, the default).
#[inline(always)]
fn pacing_rate(flow: &RfcFlow) -> Rate {
    flow.pacing_rate()
}

/// `RfcFlow` as a QUIC stack drives it: `on_ack` per ACK frame, `on_sent` per refill.
#[derive(Clone)]
pub struct Rfc(pub RfcFlow);

impl ColdFlow for Rfc {
    const NAME: &'static str = "rfc";
    type Shared = ();
    fn shared() {}
    fn fresh(_: &()) -> Self {
        Rfc(fresh_flow())
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &()) -> u32 {
        cwnd_packets(&self.0)
    }
    #[inline(always)]
    fn on_ack(&mut self, _: &(), a: &Ack) {
        ack(&mut self.0, a);
    }
    #[inline(always)]
    fn on_send(&mut self, _: &(), s: &Send) -> bool {
        sent(&mut self.0, s);
        true
    }
    fn on_loss(&mut self, _: &(), now_us: u64, _lost_pn: u64, _in_flight_after: u32) {
        loss(&mut self.0, now_us);
    }
    fn in_congestion_avoidance(&self, _: &()) -> bool {
        self.0.phase() == Phase::CongestionAvoidance
    }
}

/// `RfcFlow` and its `SendPath` in one slot (see `LinuxSendPath`).
#[derive(Clone)]
pub struct RfcSendPath {
    /// The controller.
    pub flow: RfcFlow,
    /// Its send path.
    pub path: SendPath,
}

impl ColdFlow for RfcSendPath {
    const NAME: &'static str = "rfc+sp";
    type Shared = ();
    fn shared() {}
    fn fresh(_: &()) -> Self {
        let mut path = SendPath::new(send_path_params(PacingStatus::None));
        path.on_rtt_sample(
            Instant::from_micros(START_US),
            Duration::from_micros(RTT_US),
        );
        RfcSendPath {
            flow: fresh_flow(),
            path,
        }
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &()) -> u32 {
        cwnd_packets(&self.flow)
    }
    #[inline(always)]
    fn on_ack(&mut self, _: &(), a: &Ack) {
        ack(&mut self.flow, a);
        self.path.on_rtt_sample(
            Instant::from_micros(a.now_us),
            Duration::from_micros(RTT_US),
        );
    }
    #[inline(always)]
    fn on_send(&mut self, _: &(), s: &Send) -> bool {
        let rate = pacing_rate(&self.flow);
        send_through(&mut self.path, &mut self.flow, rate, s, sent)
    }
    fn on_loss(&mut self, _: &(), now_us: u64, _lost_pn: u64, _in_flight_after: u32) {
        loss(&mut self.flow, now_us);
    }
    fn warmed(&mut self, _: &()) {
        self.path.set_params(send_path_params(PacingStatus::Needed));
    }
    fn in_congestion_avoidance(&self, _: &()) -> bool {
        self.flow.phase() == Phase::CongestionAvoidance
    }
}
