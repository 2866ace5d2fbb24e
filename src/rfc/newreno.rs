//! NewReno window adjustment in bytes, as RFC 9002 §7.3 and Appendix B specify it for
//! QUIC: one maximum datagram size per window of acknowledged bytes in congestion
//! avoidance, and the window halved on a congestion event.

use super::adjustment::WindowAdjustment;
use crate::cubic::RfcCubicParams;
use crate::time::Instant;
use core::num::NonZeroU64;

/// NewReno's congestion-avoidance state: the bytes acknowledged towards the next
/// one-MSS increase. Plain `Copy` data, 16 bytes; `repr(C)`, the count an ACK updates
/// first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct NewRenoWindow {
    /// Bytes acknowledged in congestion avoidance since the window last grew.
    pub bytes_acked: u64,
    /// The window when the last reduction began (what an undo may restore).
    pub cwnd_prior_bytes: u64,
}

impl NewRenoWindow {
    /// No bytes counted, no reduction yet.
    pub const fn new() -> Self {
        NewRenoWindow {
            bytes_acked: 0,
            cwnd_prior_bytes: 0,
        }
    }
}

impl WindowAdjustment for NewRenoWindow {
    type Undo = NewRenoWindow;

    const ZEROED: Self = NewRenoWindow::new();
    const UNDO_NONE: NewRenoWindow = NewRenoWindow::new();

    const HOT_BYTES: usize = core::mem::offset_of!(NewRenoWindow, cwnd_prior_bytes);

    fn finish_fresh(&mut self) {}

    #[inline(always)]
    fn on_ack(
        &mut self,
        _p: &RfcCubicParams,
        mss: NonZeroU64,
        _now: Instant,
        cwnd: u64,
        acked: u64,
        _srtt_us: u64,
    ) -> u64 {
        // RFC 9002 §7.3.3: cwnd += max_datagram_size * acked / cwnd, counted exactly:
        // one MSS each time a whole window of bytes has been acknowledged.
        self.bytes_acked = self.bytes_acked.saturating_add(acked);
        if cwnd == 0 || self.bytes_acked < cwnd {
            return cwnd;
        }
        // A single ACK can cover more than a window (a stack that acks rarely): every
        // whole window in it earns one MSS, without a loop.
        let windows = self.bytes_acked / cwnd;
        self.bytes_acked %= cwnd;
        cwnd.saturating_add(windows.saturating_mul(mss.get()))
    }

    fn on_congestion(&mut self, _p: &RfcCubicParams, cwnd: u64, _ecn: bool) -> u64 {
        self.cwnd_prior_bytes = cwnd;
        self.bytes_acked = 0;
        // RFC 9002 Appendix B.6: ssthresh = congestion_window * kLossReductionFactor (0.5)
        cwnd / 2
    }

    fn on_slow_start_exit(&mut self, cwnd: u64) {
        self.cwnd_prior_bytes = cwnd;
        self.bytes_acked = 0;
    }

    fn cwnd_prior(&self) -> u64 {
        self.cwnd_prior_bytes
    }

    fn save_undo_into(&self, saved: &mut NewRenoWindow) {
        *saved = *self;
    }

    fn restore_undo_from(&mut self, saved: &NewRenoWindow) {
        *self = *saved;
    }
}

#[cfg(test)]
mod tests;
