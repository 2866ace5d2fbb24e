//! quinn-proto 0.11 `congestion::Cubic`, called as quinn's `on_ack_received` and
//! `on_sent` call it (as `perf/src/quinn.rs` does). Every call into quinn is here.

use crate::cold::{Ack, ColdFlow, Send};
use crate::common::{PACKET_BYTES, RTT_US, START_US};
use crate::quinn::rtt_estimator;
use quinn_proto::RttEstimator;
use quinn_proto::congestion::{Controller, Cubic, CubicConfig};
use std::sync::Arc;
use std::time::{Duration, Instant};

const MTU: u64 = PACKET_BYTES as u64;

/// What quinn keeps outside the controller: the path's RTT estimator (every flow here
/// would hold the same one: 20 ms, never changing) and the clock's origin.
pub struct QuinnShared {
    epoch: Instant,
    rtt: RttEstimator,
    config: Arc<CubicConfig>,
}

impl QuinnShared {
    #[inline(always)]
    fn at(&self, us: u64) -> Instant {
        self.epoch + Duration::from_micros(us)
    }
}

/// quinn's `Cubic` (72 bytes, its config behind an `Arc` shared by every flow).
#[derive(Clone)]
pub struct Quinn(pub Cubic);

impl ColdFlow for Quinn {
    const NAME: &'static str = "quinn";
    type Shared = QuinnShared;
    fn shared() -> QuinnShared {
        QuinnShared {
            epoch: Instant::now(),
            rtt: rtt_estimator(Duration::from_micros(RTT_US)),
            config: Arc::new(CubicConfig::default()),
        }
    }
    fn fresh(sh: &QuinnShared) -> Self {
        Quinn(Cubic::new(
            sh.config.clone(),
            sh.at(START_US),
            PACKET_BYTES as u16,
        ))
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &QuinnShared) -> u32 {
        (self.0.window() / MTU) as u32
    }
    #[inline(always)]
    fn on_ack(&mut self, sh: &QuinnShared, a: &Ack) {
        let now = sh.at(a.now_us);
        let sent = sh.at(a.now_us - RTT_US);
        for _ in 0..a.packets {
            self.0.on_ack(now, sent, MTU, false, &sh.rtt);
        }
        let in_flight = u64::from(a.in_flight_after) * MTU;
        self.0
            .on_end_acks(now, in_flight, false, Some(a.largest_acked));
    }
    #[inline(always)]
    fn on_send(&mut self, sh: &QuinnShared, s: &Send) -> bool {
        let now = sh.at(s.now_us);
        let first = s.largest_sent + 1 - u64::from(s.packets);
        for pn in first..=s.largest_sent {
            self.0.on_sent(now, MTU, pn);
        }
        true
    }
    fn on_loss(&mut self, sh: &QuinnShared, now_us: u64, _lost_pn: u64, _in_flight_after: u32) {
        let now = sh.at(now_us);
        let sent = sh.at(now_us - RTT_US);
        self.0.on_congestion_event(now, sent, false, MTU);
    }
    /// quinn's `Cubic` says nothing public about its state; its `Debug` output has
    /// `ssthresh` and `recovery_start_time`: in congestion avoidance when the window
    /// is at or above ssthresh (quinn's own test) and a recovery period was entered
    /// (the warm-up's loss).
    fn in_congestion_avoidance(&self, _: &QuinnShared) -> bool {
        let text = format!("{:?}", self.0);
        let ssthresh: u64 = text
            .split("ssthresh: ")
            .nth(1)
            .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|d| d.parse().ok())
            .unwrap_or(u64::MAX);
        self.0.window() >= ssthresh
    }
}
