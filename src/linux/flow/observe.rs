//! What a Linux-mode flow decided, for an [`Observer`]: the snapshot the reducing
//! calls report from, and the observed ACK, which wraps the plain one.

use super::LinuxFlowState;
use crate::hystart::HystartExit;
use crate::linux::params::LinuxParams;
use crate::linux::state::TCP_INFINITE_SSTHRESH;
use crate::observe::{ExitDetector, Observer, PhaseSnapshot};
use crate::time::Instant;

impl LinuxFlowState {
    /// Phase, cwnd and ssthresh now; ssthresh `u64::MAX` for the kernel's "none yet",
    /// `TCP_INFINITE_SSTHRESH` (as the trait's `ssthresh()` gives `None`).
    pub(super) fn snapshot(&self) -> PhaseSnapshot {
        let s = self.hot.ssthresh;
        PhaseSnapshot {
            phase: self.phase(),
            cwnd: u64::from(self.hot.cwnd),
            ssthresh: if s >= TCP_INFINITE_SSTHRESH {
                u64::MAX
            } else {
                u64::from(s)
            },
        }
    }

    /// [`ack`](Self::ack), reporting to `o` what it decided: HyStart's or ssthresh's
    /// end of slow start, the end of a recovery period. The plain ACK runs unchanged;
    /// the decisions are read from the state before and after it.
    #[doc(hidden)]
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
    /// `i32::MAX` µs.
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
    pub(crate) fn ack_with_cumulative_observed<O: Observer>(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        acked: u32,
        rtt_us: Option<u32>,
        cumulative_ack: Option<u64>,
        o: &mut O,
    ) {
        let before = self.snapshot();
        let exit_before = self.hystart_exit();
        self.ack_with_cumulative(p, now, acked, rtt_us, cumulative_ack);
        // HyStart's exit is kept until the next RTO: one found now was not there before.
        let detector = match (exit_before, self.hystart_exit()) {
            (None, Some(HystartExit::AckTrain)) => Some(ExitDetector::HystartAckTrain),
            (None, Some(HystartExit::DelayIncrease)) => Some(ExitDetector::HystartDelay),
            _ => None,
        };
        before.report_ack(&self.snapshot(), detector, now, o);
    }
}
