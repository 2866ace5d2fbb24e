//! `congestion::linux::LinuxFlow` (segments), alone and with our send path. Every call
//! into `congestion` for Linux mode is here.

use crate::cold::{Ack, ColdFlow, Send};
use crate::common::{PACKET_BYTES, RTT_US, START_US};
use congestion::hystart::PacingStatus;
use congestion::linux::{LinuxFlow, LinuxFlowConfig};
use congestion::pacing::{
    Rate, SendContext, SendPath, SendPathConfig, SendPathParams, SendVerdict,
};
use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, Phase, SentEvent};

fn fresh_flow() -> LinuxFlow {
    let mut config = LinuxFlowConfig::new();
    config.socket.mss = PACKET_BYTES;
    LinuxFlow::new(config, Instant::from_micros(START_US)).expect("kernel defaults are valid")
}

#[inline(always)]
fn ack(flow: &mut LinuxFlow, a: &Ack) {
    let ev = AckEvent::new(
        u64::from(a.packets),
        a.largest_acked,
        Some(Duration::from_micros(RTT_US)),
    );
    flow.on_ack(Instant::from_micros(a.now_us), &ev);
}

#[inline(always)]
fn sent(flow: &mut LinuxFlow, s: &Send) {
    let ev = SentEvent::new(u64::from(s.in_flight_after), s.largest_sent);
    flow.on_sent(Instant::from_micros(s.now_us), &ev);
}

fn loss(flow: &mut LinuxFlow, now_us: u64) {
    flow.on_loss(Instant::from_micros(now_us), &LossEvent::episode(0));
}

/// `LinuxFlow` as a TCP stack drives it: `on_ack` per ACK, `on_sent` per refill.
#[derive(Clone)]
pub struct Linux(pub LinuxFlow);

impl ColdFlow for Linux {
    const NAME: &'static str = "linux";
    type Shared = ();
    fn shared() {}
    fn fresh(_: &()) -> Self {
        Linux(fresh_flow())
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &()) -> u32 {
        self.0.state().cwnd
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

/// The send path's settings: Linux defaults, paced as `status` says (the warm-up runs
/// unpaced, the measured stream self-paced: `PacingStatus::Needed`).
pub fn send_path_params(status: PacingStatus) -> SendPathParams {
    let mut config = SendPathConfig::new();
    config.pacing_status = status;
    config.validate().expect("Linux defaults are valid")
}

/// Sends `s.packets` through `path` as a self-paced stack does: `poll`, then for each
/// burst it allows `on_send` (pacer stamp, TSQ charge), the controller's `on_sent`, and
/// the burst's TX completion (here at once: the stream has no qdisc). False if the path
/// held any packet back.
#[inline(always)]
pub fn send_through<C: CongestionController>(
    path: &mut SendPath,
    cc: &mut C,
    rate: Rate,
    s: &Send,
    sent: impl Fn(&mut C, &Send),
) -> bool {
    let now = Instant::from_micros(s.now_us);
    let mut in_flight = s.in_flight_after - s.packets;
    while in_flight < s.in_flight_after {
        let ctx = SendContext {
            now,
            in_flight: in_flight_unit(cc, in_flight),
            mss: PACKET_BYTES,
            pacing_rate: rate,
            retransmit: false,
            rtx_queue_at_most_one: false,
        };
        let SendVerdict::Send { segments } = path.poll(cc, &ctx) else {
            return false;
        };
        let segments = segments.min(s.in_flight_after - in_flight);
        let len = segments * PACKET_BYTES;
        path.on_send(now, len, segments, rate);
        in_flight += segments;
        sent(
            cc,
            &Send {
                packets: segments,
                in_flight_after: in_flight,
                largest_sent: s.largest_sent - u64::from(s.in_flight_after - in_flight),
                ..*s
            },
        );
        path.on_tx_completion(len);
    }
    true
}

/// Packets in the controller's unit.
#[inline(always)]
fn in_flight_unit<C: CongestionController>(cc: &C, packets: u32) -> u64 {
    match cc.unit() {
        congestion::WindowUnit::Segments => u64::from(packets),
        congestion::WindowUnit::Bytes => u64::from(packets) * u64::from(PACKET_BYTES),
    }
}

/// `LinuxFlow` and its `SendPath`, side by side in one slot; the RTT sample of every ACK
/// also feeds the path's minimum-RTT filter (TSO autosizing reads it).
#[derive(Clone)]
pub struct LinuxSendPath {
    /// The controller.
    pub flow: LinuxFlow,
    /// Its send path.
    pub path: SendPath,
}

impl ColdFlow for LinuxSendPath {
    const NAME: &'static str = "linux+sp";
    type Shared = ();
    fn shared() {}
    fn fresh(_: &()) -> Self {
        let mut path = SendPath::new(send_path_params(PacingStatus::None));
        path.on_rtt_sample(
            Instant::from_micros(START_US),
            Duration::from_micros(RTT_US),
        );
        LinuxSendPath {
            flow: fresh_flow(),
            path,
        }
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &()) -> u32 {
        self.flow.state().cwnd
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
        let rate = self.flow.pacing_rate();
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
