//! [`CongestionController`] for the 2.6.35 profile, in segments.

use super::flow::Linux2635Flow;
use crate::controller::{
    AckEvent, CongestionController, CongestionEvent, Phase, SentEvent, WindowUnit,
};
use crate::linux::CaState;
use crate::time::Instant;

/// Saturating conversion from the trait's `u64` amounts to the kernel's `u32` segments.
fn segments(amount: u64) -> u32 {
    u32::try_from(amount).unwrap_or(u32::MAX)
}

/// The trait in segments, mapped as [`crate::linux::LinuxFlow`] maps it: `on_sent` is
/// the transmit step, `on_ack` an ACK (its `rtt` the path RTT of the newest covered
/// segment), a loss or ECN mark or RTO the matching event (persistent congestion as an
/// RTO with one retransmit), and `on_spurious_congestion` an undo.
impl CongestionController for Linux2635Flow {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Segments
    }

    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.transmit(now, segments(sent.in_flight_after));
    }

    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        self.ack(now, segments(ack.acked), ack.rtt);
    }

    fn on_congestion_event(&mut self, now: Instant, event: CongestionEvent) {
        match event {
            CongestionEvent::Loss => self.loss(now),
            CongestionEvent::Ecn => self.ecn(now),
            CongestionEvent::RetransmissionTimeout | CongestionEvent::PersistentCongestion => {
                self.rto(now, 1)
            }
        }
    }

    fn on_spurious_congestion(&mut self, now: Instant) {
        self.undo(now);
    }

    /// Does nothing: 2.6.35 CUBIC has no `cwnd_event` hook, so `CA_EVENT_TX_START`
    /// reached nothing and the kernel of that era counted idle time as growth time (the
    /// epoch was not shifted; a 2015 kernel added the shift). This profile keeps that.
    fn on_transmit_start(&mut self, _now: Instant) {}

    fn cwnd(&self) -> u64 {
        u64::from(self.state.cwnd)
    }

    fn ssthresh(&self) -> u64 {
        u64::from(self.state.ssthresh)
    }

    /// Loss (after an RTO) is Recovery; otherwise slow start while cwnd is below
    /// ssthresh, congestion avoidance from ssthresh on. The era's own test,
    /// `cwnd <= ssthresh`, also gives the ACK that finds cwnd exactly at ssthresh one
    /// slow-start step (after every loss and on HyStart's exit ACK); the phase already
    /// counts that window as having reached the threshold. Unlike today's kernel, an
    /// ACK in Disorder can move the flow back to slow start: `tcp_moderate_cwnd` may cut
    /// cwnd below ssthresh.
    fn phase(&self) -> Phase {
        match self.ca_state {
            CaState::Cwr | CaState::Recovery | CaState::Loss => Phase::Recovery,
            CaState::Open | CaState::Disorder if self.state.cwnd < self.state.ssthresh => {
                Phase::SlowStart
            }
            CaState::Open | CaState::Disorder => Phase::CongestionAvoidance,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v2_6_35::{Linux2635Config, TCP_INFINITE_SSTHRESH_2635};

    fn at_us(us: u64) -> Instant {
        Instant::from_micros(us)
    }

    #[test]
    fn the_trait_maps_onto_the_kernel_steps() {
        let start = at_us(1_000_000_000);
        let mut f = Linux2635Flow::new(Linux2635Config::new(), start).unwrap();
        assert_eq!(f.unit(), WindowUnit::Segments);
        f.on_sent(
            start,
            &SentEvent {
                in_flight_after: 2,
                largest_sent: 2,
            },
        );
        assert_eq!(f.socket_view().snd_nxt, 2);
        assert_eq!(f.phase(), Phase::SlowStart);
        // Idle restart does nothing in 2.6.35.
        let before = f;
        f.on_transmit_start(at_us(2_000_000_000));
        assert_eq!(f, before);
        // RTO: cwnd 1, Loss (reported as recovery), one segment resent.
        f.on_congestion_event(at_us(1_000_300_000), CongestionEvent::RetransmissionTimeout);
        assert_eq!(
            (f.cwnd(), f.ssthresh(), f.ca_state()),
            (1, 2, CaState::Loss)
        );
        assert_eq!(f.phase(), Phase::Recovery);
        assert_eq!(f.socket_view().packets_out, 1);
        // Undo after an RTO: Wmax was reset, so cwnd stays 1, but Loss ends.
        f.on_spurious_congestion(at_us(1_000_400_000));
        assert_eq!((f.cwnd(), f.ca_state()), (1, CaState::Open));
        assert_eq!(f.ssthresh(), u64::from(TCP_INFINITE_SSTHRESH_2635));
    }
}
