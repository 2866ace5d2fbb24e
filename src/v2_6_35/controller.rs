//! [`CongestionController`] for the 2.6.35 profile, in segments.

use super::config::TCP_INFINITE_SSTHRESH_2635;
use core::borrow::Borrow;

use super::flow::{Cubic, linux_before};
use super::params::Linux2635Params;
use crate::controller::{
    AckEvent, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, SentPacket, WindowUnit,
};
use crate::linux::CaState;
use crate::pacing::Rate;
use crate::time::Instant;

fn segments(amount: u64) -> u32 {
    u32::try_from(amount).unwrap_or(u32::MAX)
}

impl<P: Borrow<Linux2635Params>> Cubic<P> {
    /// Whether `packet` was sent before the current recovery period began: a sequence
    /// before `high_seq` (32-bit wrap-around), or a send time at or before the
    /// reduction. Never for [`SentPacket::Unknown`], nor before the first reduction.
    pub(super) fn sent_before_recovery(&self, packet: SentPacket) -> bool {
        let Some(start) = self.recovery_start else {
            return false;
        };
        // Only while the period lasts: a loss/ECN period until its mark is acknowledged,
        // or an RTO's Loss state.
        let live = self.loss_recovery || self.ca_state == CaState::Loss;
        match packet {
            // Truncation to the kernel's 32-bit sequence space, on purpose.
            SentPacket::Number(seq) => live && linux_before(seq as u32, self.recovery_seq),
            SentPacket::SentAt(sent) => live && sent <= start,
            SentPacket::Unknown => false,
        }
    }
}

/// The trait in segments, mapped as [`crate::linux::Cubic`] maps it: `on_sent` is
/// the transmit step, `on_ack` an ACK (its `rtt` the path RTT of the newest covered
/// segment), a loss of a segment at or after `high_seq` (or of an unknown one) a fast
/// retransmit, an ECN rise a CWR, persistent congestion and RTO an RTO with one
/// retransmit, and `on_spurious_congestion` an undo.
impl<P: Borrow<Linux2635Params>> CongestionController for Cubic<P> {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Segments
    }

    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.transmit(now, segments(sent.in_flight_after));
    }

    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        self.ack(now, segments(ack.acked), ack.rtt);
    }

    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.packets_out = self.packets_out.saturating_sub(segments(loss.lost));
        if loss.persistent_congestion {
            self.rto(now, 1);
        } else if !self.sent_before_recovery(loss.newest_lost) {
            self.loss(now);
        }
    }

    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        if ecn.ce_increase > 0 && !self.sent_before_recovery(ecn.newest_acked) {
            self.ecn(now);
        }
    }

    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.rto(now, 1);
    }

    fn on_discarded(&mut self, _now: Instant, amount: u64) {
        self.packets_out = self.packets_out.saturating_sub(segments(amount));
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

    /// `None` while ssthresh is the era's "infinite" value or above.
    fn ssthresh(&self) -> Option<u64> {
        let s = self.state.ssthresh;
        if s >= TCP_INFINITE_SSTHRESH_2635 {
            None
        } else {
            Some(u64::from(s))
        }
    }

    /// Recovery after a loss or ECN-CE reduction until `snd_una` reaches `high_seq`;
    /// otherwise slow start while cwnd is below ssthresh, congestion avoidance from
    /// ssthresh on (after an RTO too, whose state Loss grows by slow start). The era's
    /// own test, `cwnd <= ssthresh`, also gives the ACK that finds cwnd exactly at
    /// ssthresh one slow-start step (after every loss and on HyStart's exit ACK); the
    /// phase already counts that window as having reached the threshold. Unlike today's
    /// kernel, an ACK in Disorder can move the flow back to slow start:
    /// `tcp_moderate_cwnd` may cut cwnd below ssthresh.
    fn phase(&self) -> Phase {
        if self.loss_recovery && linux_before(self.snd_una, self.recovery_seq) {
            Phase::Recovery
        } else if self.state.cwnd < self.state.ssthresh {
            Phase::SlowStart
        } else {
            Phase::CongestionAvoidance
        }
    }

    fn in_flight(&self) -> u64 {
        u64::from(self.packets_out)
    }

    /// [`Rate::UNLIMITED`]: 2.6.35 did not pace (`sk_pacing_rate` came with 3.12).
    fn pacing_rate(&self) -> Rate {
        Rate::UNLIMITED
    }

    fn mss_bytes(&self) -> u64 {
        u64::from(self.cfg().mss)
    }

    /// With GSO, the whole segments of one `gso_max_size` burst (at least one), as the
    /// era's TSO sent without autosizing; without, one segment.
    fn send_quantum_bytes(&self) -> u64 {
        let cfg = self.cfg();
        let mss = u64::from(cfg.mss);
        if !cfg.gso || mss == 0 {
            return mss;
        }
        let segs = (u64::from(cfg.gso_max_size) / mss).max(1);
        segs * mss
    }
}

#[cfg(test)]
mod tests;
