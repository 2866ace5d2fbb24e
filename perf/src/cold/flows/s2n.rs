//! s2n-quic-core 0.91 `CubicCongestionController`, called as s2n-quic calls it (as
//! `perf/src/s2n.rs` does): per ACK frame `on_rtt_update` then `on_ack` with all bytes,
//! per packet `on_packet_sent`. Every call into s2n is here.

use crate::cold::{Ack, ColdFlow, Send};
use crate::common::{PACKET_BYTES, RTT_US, START_US};
use crate::s2n::{NoEvents, NoRandom, timestamp};
use core::time::Duration;
use s2n_quic_core::packet::number::PacketNumberSpace;
use s2n_quic_core::recovery::cubic::ApplicationSettings;
use s2n_quic_core::recovery::{CongestionController, CubicCongestionController, RttEstimator};

/// What s2n-quic keeps outside the controller: the path's RTT estimator (the same for
/// every flow here: 20 ms, never changing), and the one `on_packet_sent` gets.
pub struct S2nShared {
    rtt: RttEstimator,
    send_rtt: RttEstimator,
}

fn estimator(rtt: Duration) -> RttEstimator {
    let mut e = RttEstimator::new(rtt);
    e.update_rtt(
        Duration::ZERO,
        rtt,
        timestamp(START_US),
        true,
        PacketNumberSpace::ApplicationData,
    );
    e
}

/// s2n's CUBIC (192 bytes). `PACER = false`: its pacer short-circuited as in
/// `perf/src/s2n.rs` (`on_packet_sent` is given an estimator whose smoothed RTT, 1 ms,
/// is below s2n's `MINIMUM_PACING_RTT`); `true`: as s2n-quic runs it.
#[derive(Clone)]
pub struct S2n<const PACER: bool>(pub CubicCongestionController);

impl<const PACER: bool> ColdFlow for S2n<PACER> {
    const NAME: &'static str = if PACER { "s2n+pacer" } else { "s2n" };
    type Shared = S2nShared;
    fn shared() -> S2nShared {
        let rtt = estimator(Duration::from_micros(RTT_US));
        S2nShared {
            send_rtt: if PACER {
                rtt
            } else {
                estimator(Duration::from_millis(1))
            },
            rtt,
        }
    }
    fn fresh(_: &S2nShared) -> Self {
        S2n(CubicCongestionController::new(
            PACKET_BYTES as u16,
            ApplicationSettings::default(),
        ))
    }
    #[inline(always)]
    fn cwnd_packets(&self, _: &S2nShared) -> u32 {
        self.0.congestion_window() / PACKET_BYTES
    }
    #[inline(always)]
    fn on_ack(&mut self, sh: &S2nShared, a: &Ack) {
        let now = timestamp(a.now_us);
        let sent = timestamp(a.now_us - RTT_US);
        self.0.on_rtt_update(sent, now, &sh.rtt, &mut NoEvents);
        let bytes = (a.packets * PACKET_BYTES) as usize;
        self.0
            .on_ack(sent, bytes, (), &sh.rtt, &mut NoRandom, now, &mut NoEvents);
    }
    #[inline(always)]
    fn on_send(&mut self, sh: &S2nShared, s: &Send) -> bool {
        let now = timestamp(s.now_us);
        for _ in 0..s.packets {
            self.0.on_packet_sent(
                now,
                PACKET_BYTES as usize,
                Some(false),
                &sh.send_rtt,
                &mut NoEvents,
            );
        }
        true
    }
    fn on_loss(&mut self, _: &S2nShared, now_us: u64, _lost_pn: u64, _in_flight_after: u32) {
        self.0.on_packet_lost(
            PACKET_BYTES,
            (),
            false,
            true,
            &mut NoRandom,
            timestamp(now_us),
            &mut NoEvents,
        );
    }
    /// s2n's state is private; its `Debug` output names it.
    fn in_congestion_avoidance(&self, _: &S2nShared) -> bool {
        format!("{:?}", self.0).contains("state: CongestionAvoidance")
    }
}
