//! What a Linux-mode flow decided, for an [`Observer`]: the snapshot the reducing
//! calls report from, and the observed ACK, which wraps the plain one.

use super::LinuxFlowState;
use crate::controller::Phase;
use crate::hystart::HystartExit;
use crate::linux::layout::LOSS_RECOVERY;
use crate::linux::params::LinuxParams;
use crate::linux::state::TCP_INFINITE_SSTHRESH;
use crate::observe::{ExitDetector, Observer, PhaseSnapshot, report_ack};
use crate::time::Instant;

impl LinuxFlowState {
    /// Phase, cwnd and ssthresh now; ssthresh `u64::MAX` for the kernel's "none yet",
    /// `TCP_INFINITE_SSTHRESH` (as the trait's `ssthresh()` gives `None`).
    #[inline(always)]
    pub(super) fn snapshot(&self) -> PhaseSnapshot {
        Self::snapshot_of(self.phase(), self.hot.cwnd, self.hot.ssthresh)
    }

    /// The snapshot of `phase`, `cwnd` and `ssthresh` (segments).
    #[inline(always)]
    fn snapshot_of(phase: Phase, cwnd: u32, ssthresh: u32) -> PhaseSnapshot {
        PhaseSnapshot {
            phase,
            cwnd: u64::from(cwnd),
            ssthresh: if ssthresh >= TCP_INFINITE_SSTHRESH {
                u64::MAX
            } else {
                u64::from(ssthresh)
            },
        }
    }

    /// [`ack`](Self::ack), reporting to `o` what it decided: HyStart's or ssthresh's
    /// end of slow start, the end of a recovery period. The plain ACK runs unchanged;
    /// the decisions are read from the state before and after it.
    #[doc(hidden)]
    #[inline(always)]
    pub fn ack_observed<O: Observer>(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        acked: u32,
        rtt_us: Option<u32>,
        o: &mut O,
    ) {
        let rtt_us = rtt_us.map(|rtt| rtt.min(i32::MAX as u32));
        self.ack_with_s32_rtt_observed(p, now, acked, rtt_us, o);
    }

    /// [`ack_observed`](Self::ack_observed) with the sample already at most
    /// `i32::MAX` µs. Always inlined, as the plain ACK is.
    #[inline(always)]
    pub(crate) fn ack_with_s32_rtt_observed<O: Observer>(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        acked: u32,
        rtt_us: Option<u32>,
        o: &mut O,
    ) {
        self.ack_with_cumulative_observed(p, now, acked, rtt_us, None, o);
    }

    /// [`ack_with_cumulative`](Self::ack_with_cumulative), reporting as
    /// [`ack_observed`](Self::ack_observed) does.
    #[inline(always)]
    pub(crate) fn ack_with_cumulative_observed<O: Observer>(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        acked: u32,
        rtt_us: Option<u32>,
        cumulative_ack: Option<u64>,
        o: &mut O,
    ) {
        // What the phase depends on, in one byte: the recovery flag, slow start and
        // HyStart's exit; the phase itself is worked out only when it changed.
        let before = self.ack_key() | (u8::from(self.hystart_found()) << 2);
        let snd_una_before = self.hot.snd_una;
        self.ack_with_cumulative(p, now, acked, rtt_us, cumulative_ack);
        // Every decision an ACK makes changes the phase, and a phase change changes
        // slow start or the recovery flag: an ACK that leaves `high_seq` behind clears
        // the flag in the same call, and one that does not leaves the flow in recovery.
        if (before ^ self.ack_key()) & 0b11 != 0 {
            self.report_ack(before, snd_una_before, now, o);
        }
    }

    /// Bit 0: the recovery flag; bit 1: slow start (`cwnd < ssthresh`).
    #[inline(always)]
    fn ack_key(&self) -> u8 {
        let h = &self.hot;
        u8::from(h.flags & LOSS_RECOVERY != 0) | (u8::from(h.cwnd < h.ssthresh) << 1)
    }

    /// After an ACK that may have changed the phase from what `before` (an
    /// [`ack_key`](Self::ack_key) with HyStart's `found` in bit 2) says, `snd_una` being
    /// where the ACK found it: report what it decided.
    #[cold]
    #[inline(never)]
    fn report_ack<O: Observer>(&self, before: u8, snd_una: u32, now: Instant, o: &mut O) {
        let below_ssthresh = before & 0b10 != 0;
        // The phase as `phase()` had it: an ACK does not move `high_seq`; cwnd against
        // ssthresh is all the rest reads.
        let flags = if before & 0b01 != 0 { LOSS_RECOVERY } else { 0 };
        let (cwnd, ssthresh) = if below_ssthresh { (0, 1) } else { (1, 0) };
        let phase = self.phase_at(flags, snd_una, cwnd, ssthresh);
        // HyStart's exit is kept until the next RTO (as `found`): one there now and not
        // before was found now.
        let detector = match (before & 0b100 != 0, self.hystart_exit()) {
            (false, Some(HystartExit::AckTrain)) => Some(ExitDetector::HystartAckTrain),
            (false, Some(HystartExit::DelayIncrease)) => Some(ExitDetector::HystartDelay),
            _ => None,
        };
        report_ack(phase, below_ssthresh, &self.snapshot(), detector, now, o);
    }
}
