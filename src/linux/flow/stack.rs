//! What a TCP stack's own facts and events do to a Linux-mode flow, through the trait:
//! its `snd_nxt` on a send, its cumulative ACK, and the losses, CE marks and discards it
//! names, judged against the recovery point `high_seq` as the kernel's
//! `tcp_fastretrans_alert` judges them.

use super::{LinuxFlowState, segments};
use crate::controller::{EcnEvent, LossEvent, SentPacket};
use crate::cubic::linux_after;
use crate::linux::layout::{
    COMPARE_SND_NXT, CWR_PERIOD, CaState, LOSS_RECOVERY, RECOVERY_ARMED, SND_NXT_AHEAD,
};
use crate::linux::params::LinuxParams;
use crate::observe::{NoObserver, Observer, ReductionCause};
use crate::time::Instant;

impl LinuxFlowState {
    /// [`transmit`](Self::transmit) with the stack's own `snd_nxt` (see the trait's
    /// `on_sent` on [`Cubic`](crate::linux::Cubic)). Compared in the cold path only after
    /// an event that may have taken segments out of flight, and while ahead.
    #[inline(always)]
    pub(crate) fn transmit_with_snd_nxt(
        &mut self,
        now: Instant,
        in_flight: u32,
        stack_snd_nxt: u32,
    ) {
        self.transmit_up_to(now, in_flight, Some(stack_snd_nxt));
    }

    /// [`ack`](Self::ack) for a stack that may name its cumulative ACK (`snd_una` after
    /// it, low 32 bits wrapping): when that is not `snd_una + acked`, `snd_una` takes it
    /// first, so recovery ends exactly when it reaches `high_seq`.
    ///
    /// Odd input: a cumulative ACK before the previous `snd_una` (an old, reordered ACK)
    /// leaves it there, as the kernel's `tcp_ack` does; one beyond `snd_nxt` takes
    /// `snd_nxt` with it (the stack acknowledges only what it sent), where the kernel
    /// would drop the ACK.
    // Linux net/ipv4/tcp_input.c tcp_ack(): snd_una = ack, never back
    #[inline(always)]
    pub(crate) fn ack_with_cumulative(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        acked: u32,
        rtt_us: Option<u32>,
        cumulative_ack: Option<u64>,
    ) {
        // Truncation to the kernel's 32-bit sequence space, on purpose.
        self.ack_to(p, now, acked, rtt_us, cumulative_ack.map(|ack| ack as u32));
    }

    /// [`ack_with_cumulative`](Self::ack_with_cumulative) when the stack's cumulative ACK
    /// is not where `acked` put `snd_una`: `snd_nxt` stays where it was (pinned in the
    /// cold line, as the flight no longer gives it) and `snd_una` moves to the
    /// cumulative ACK, never before where it was before this ACK.
    #[cold]
    #[inline(never)]
    pub(super) fn move_snd_una_to(&mut self, ack: u32, acked: u32) {
        // snd_una + packets_out is still the snd_nxt from before the ACK (both moved by
        // `acked`), unless the ACK emptied the flight and pinned it already.
        let snd_nxt = self.snd_nxt();
        // Wrapping: sequence numbers, as the kernel's.
        let before = self.hot.snd_una.wrapping_sub(acked);
        // Linux net/ipv4/tcp_input.c tcp_ack(): an ACK before snd_una is old
        let snd_una = if linux_after(before, ack) {
            before
        } else {
            ack
        };
        let snd_nxt = if linux_after(snd_una, snd_nxt) {
            snd_una
        } else {
            snd_nxt
        };
        self.cold.snd_nxt = snd_nxt;
        self.hot.flags |= SND_NXT_AHEAD | COMPARE_SND_NXT;
        self.hot.snd_una = snd_una;
    }

    /// Whether `packet` was sent before the current recovery period began: a sequence
    /// before `high_seq` (32-bit wrap-around, as the kernel's `before()`), or a send time
    /// at or before the reduction (on the 32-bit µs clock, with wrap-around). Never for
    /// [`SentPacket::Unknown`], nor before the first reduction.
    // Linux net/ipv4/tcp_input.c tcp_fastretrans_alert(): no new recovery before high_seq
    pub(super) fn sent_before_recovery(&self, packet: SentPacket) -> bool {
        if !self.has(RECOVERY_ARMED) {
            return false;
        }
        let in_period = self.has(LOSS_RECOVERY) || self.ca_state() == CaState::Loss;
        match packet {
            // Truncation to the kernel's 32-bit sequence space, on purpose. Only while the
            // period lasts (an RTO's Loss state, or a loss/ECN period): once `high_seq` is
            // acknowledged every loss is of a packet sent after it.
            SentPacket::Number(seq) => in_period && linux_after(self.cold.high_seq, seq as u32),
            // At or before the start: not after it, on the 32-bit µs clock.
            SentPacket::SentAt(sent) => {
                in_period && !linux_after(sent.micros32(), self.cold.recovery_start_us32)
            }
            SentPacket::Unknown => false,
        }
    }

    /// The trait's `on_loss`: the lost segments leave `packets_out`; persistent
    /// congestion is an RTO with one retransmit; otherwise a loss of a segment at or after
    /// `high_seq` (or of an unknown one) is a fast-retransmit reduction
    /// (`tcp_enter_recovery`).
    // Cold: rare, and inlined it would cost the ACK loop registers.
    #[cold]
    #[inline(never)]
    pub fn on_loss(&mut self, p: &LinuxParams, now: Instant, loss: &LossEvent) {
        self.on_loss_observed(p, now, loss, &mut NoObserver);
    }

    /// [`on_loss`](Self::on_loss), reporting what it decided to `o`.
    #[inline(always)]
    pub fn on_loss_observed<O: Observer>(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        loss: &LossEvent,
        o: &mut O,
    ) {
        self.set_packets_out(self.hot.packets_out.saturating_sub(segments(loss.lost)));
        self.hot.flags |= COMPARE_SND_NXT;
        if loss.persistent_congestion {
            // The kernel retransmits the head at once on an RTO.
            self.rto_observed(p, now, 1, ReductionCause::PersistentCongestion, o);
        } else if !self.sent_before_recovery(loss.newest_lost) {
            self.loss_observed(p, now, o);
        } else {
            self.pacing_inputs_changed(p);
        }
    }

    /// The trait's `on_ecn`: `tcp_enter_cwr` for a CE rise above 0 on a segment at or
    /// after `high_seq`; the kernel's own rule also ignores CE during an RTO's recovery
    /// (state Loss).
    #[cold]
    #[inline(never)]
    pub fn on_ecn(&mut self, p: &LinuxParams, now: Instant, ecn: &EcnEvent) {
        self.on_ecn_observed(p, now, ecn, &mut NoObserver);
    }

    /// [`on_ecn`](Self::on_ecn), reporting what it decided to `o`.
    #[inline(always)]
    pub fn on_ecn_observed<O: Observer>(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        ecn: &EcnEvent,
        o: &mut O,
    ) {
        // tcp_enter_cwr() does nothing in state Loss (an RTO's recovery): no reduction,
        // and no end of a CWR that never began (the kernel-style `ecn` models the
        // harness, which ends CWR whatever the state).
        if self.ca_state() == CaState::Loss {
            return;
        }
        if ecn.ce_increase > 0
            && !self.sent_before_recovery(ecn.newest_acked)
            && !self.cwr_held(ecn.newest_acked)
        {
            self.ecn_observed(p, now, o);
        }
    }

    /// Whether a CE report naming `packet` by sequence finds the kernel still in CWR,
    /// which lasts until the cumulative ACK is beyond `high_seq` (one ACK longer than a
    /// loss's Recovery).
    // Linux net/ipv4/tcp_input.c tcp_fastretrans_alert(): CWR held until snd_una != high_seq
    fn cwr_held(&self, packet: SentPacket) -> bool {
        matches!(packet, SentPacket::Number(_))
            && self.has(CWR_PERIOD)
            && self.hot.snd_una == self.cold.high_seq
    }

    /// The trait's `on_discarded`: the amount leaves `packets_out`.
    #[cold]
    #[inline(never)]
    pub fn on_discarded(&mut self, p: &LinuxParams, amount: u64) {
        self.set_packets_out(self.hot.packets_out.saturating_sub(segments(amount)));
        self.hot.flags |= COMPARE_SND_NXT;
        self.pacing_inputs_changed(p);
    }
}
