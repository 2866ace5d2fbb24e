//! The 2.6.35 recovery glue: loss, CWR, RTO, undo and the era's window moderation.

use core::borrow::Borrow;

use super::flow::Cubic;
use super::params::Linux2635Params;
use crate::linux::CaState;
use crate::time::Instant;

impl<P: Borrow<Linux2635Params>> Cubic<P> {
    /// `tcp_try_keep_open`: with an undo still possible, stay in Disorder until the
    /// ACKs pass what is in flight now.
    // Linux 2.6.35 tcp_input.c tcp_try_keep_open()
    pub(super) fn try_keep_open(&mut self) {
        if self.undo_marker && self.ca_state != CaState::Disorder {
            self.ca_state = CaState::Disorder;
            self.high_seq = self.snd_nxt;
        }
    }

    /// `tcp_moderate_cwnd`: no more than `in_flight + tcp_max_burst` (reordering, at
    /// least 1), so a reduced flow does not burst. The sum saturates where the kernel's
    /// `u32` would wrap on an impossible flight.
    // Linux 2.6.35 tcp_input.c tcp_moderate_cwnd()
    pub(super) fn moderate_cwnd(&mut self) {
        let limit = self.packets_out.saturating_add(self.cfg().reordering);
        if self.state.cwnd > limit {
            self.state.cwnd = limit;
        }
    }

    /// `tcp_current_ssthresh` outside CWR/Recovery: `max(ssthresh, 3/4 cwnd)`.
    // Linux 2.6.35 include/net/tcp.h tcp_current_ssthresh()
    const fn current_ssthresh(&self) -> u32 {
        let cwnd = self.state.cwnd;
        let three_quarters = (cwnd >> 1) + (cwnd >> 2);
        if self.state.ssthresh > three_quarters {
            self.state.ssthresh
        } else {
            three_quarters
        }
    }

    /// A fast-retransmit congestion event, recovery entered and completed at once.
    ///
    /// Arms undo; from Open or Disorder, remembers `tcp_current_ssthresh` and takes
    /// CUBIC's new ssthresh (a loss in Loss keeps ssthresh and leaves nothing to
    /// restore). Then `tcp_complete_cwr` (`cwnd = min(cwnd, ssthresh)`), Disorder until
    /// the ACKs pass `snd_nxt`, and `tcp_moderate_cwnd`.
    // Linux 2.6.35 tcp_input.c tcp_fastretrans_alert(), tcp_complete_cwr(), tcp_try_keep_open()
    pub fn loss(&mut self, now: Instant) {
        self.high_seq = self.snd_nxt;
        self.loss_recovery = true;
        self.recovery_start = Some(now);
        self.recovery_seq = self.snd_nxt;
        self.prior_ssthresh = 0;
        self.undo_marker = true;
        if matches!(self.ca_state, CaState::Open | CaState::Disorder) {
            self.prior_ssthresh = self.current_ssthresh();
            self.state.ssthresh = self.recalc_ssthresh();
        }
        self.state.cwnd_cnt = 0;
        // Recovery, then at once Open with the reduction complete.
        self.complete_cwr();
        self.ca_state = CaState::Open;
        self.try_keep_open();
        self.moderate_cwnd();
    }

    /// An ECN-CE echo: `tcp_enter_cwr(sk, 1)` and its completion at once: from Open or
    /// Disorder, no undo, CUBIC's ssthresh, `cwnd = min(cwnd, in_flight + 1)`, then
    /// `cwnd = min(cwnd, ssthresh)` and Open. Not covered by the reference traces.
    // Linux 2.6.35 tcp_input.c tcp_enter_cwr(), tcp_complete_cwr()
    pub fn ecn(&mut self, now: Instant) {
        self.prior_ssthresh = 0;
        if matches!(self.ca_state, CaState::Open | CaState::Disorder) {
            self.loss_recovery = true;
            self.recovery_start = Some(now);
            self.recovery_seq = self.snd_nxt;
            self.undo_marker = false;
            self.state.ssthresh = self.recalc_ssthresh();
            let limit = self.packets_out.saturating_add(1);
            if self.state.cwnd > limit {
                self.state.cwnd = limit;
            }
            self.state.cwnd_cnt = 0;
            self.high_seq = self.snd_nxt;
            self.complete_cwr();
            self.ca_state = CaState::Open;
        }
    }

    /// `tcp_complete_cwr`: the window lands at or below ssthresh.
    // Linux 2.6.35 tcp_input.c tcp_complete_cwr()
    fn complete_cwr(&mut self) {
        if self.state.cwnd > self.state.ssthresh {
            self.state.cwnd = self.state.ssthresh.max(1);
        }
    }

    /// CUBIC's `ssthresh` hook on the current cwnd.
    fn recalc_ssthresh(&mut self) -> u32 {
        let cwnd = self.state.cwnd;
        let cfg = *self.cfg();
        self.state.bictcp.recalc_ssthresh(&cfg, cwnd)
    }

    /// A retransmission timeout, `tcp_enter_loss(sk, 0)` plus the head retransmit:
    /// ssthresh is recomputed only on the first RTO of an episode (from Open/Disorder,
    /// with `snd_una == high_seq`, or in Loss before any retransmit), cwnd drops to 1,
    /// undo stays possible only if nothing was retransmitted before, and the Loss state
    /// resets all of CUBIC (Wmax, `delay_min`, HyStart's `found`) and starts a HyStart
    /// round. Then `retransmitted` segments are in flight (`snd_nxt` does not move).
    // Linux 2.6.35 tcp_input.c tcp_enter_loss(); tcp_cubic.c bictcp_state()
    pub fn rto(&mut self, now: Instant, retransmitted: u32) {
        let first = matches!(self.ca_state, CaState::Open | CaState::Disorder)
            || self.snd_una == self.high_seq
            || (self.ca_state == CaState::Loss && self.retransmits == 0);
        if first {
            self.prior_ssthresh = self.current_ssthresh();
            self.state.ssthresh = self.recalc_ssthresh();
        }
        self.state.cwnd = 1;
        self.state.cwnd_cnt = 0;
        self.undo_marker = self.retransmits == 0;
        self.packets_out = 0;
        self.ca_state = CaState::Loss;
        let jiffies = self.jiffies(now);
        self.state.bictcp.reset();
        self.state.bictcp.hystart_reset(jiffies, self.snd_nxt);
        self.hystart_exit = None;
        self.high_seq = self.snd_nxt;
        self.loss_recovery = false;
        self.recovery_start = Some(now);
        self.recovery_seq = self.snd_nxt;
        self.packets_out = retransmitted;
        self.retransmits = self.retransmits.wrapping_add(1);
    }

    /// Undo the last reduction, found spurious (`tcp_undo_cwr(sk, 1)` as the era's
    /// `tcp_try_undo_loss`/`tcp_try_undo_dsack` call it). Ignored unless a loss or RTO
    /// armed it. With a remembered ssthresh, cwnd returns to `max(cwnd, Wmax)` (nothing
    /// after an RTO, which cleared Wmax) and ssthresh to the remembered one if higher;
    /// without, cwnd rises to ssthresh. Then `tcp_moderate_cwnd` caps it at the flight
    /// plus `reordering`; a Loss state ends. CUBIC's own state is not restored.
    // Linux 2.6.35 tcp_input.c tcp_undo_cwr(); tcp_cubic.c bictcp_undo_cwnd()
    pub fn undo(&mut self, _now: Instant) {
        if !self.undo_marker {
            return;
        }
        if self.prior_ssthresh != 0 {
            self.state.cwnd = self.state.bictcp.undo_cwnd(self.state.cwnd);
            if self.prior_ssthresh > self.state.ssthresh {
                self.state.ssthresh = self.prior_ssthresh;
            }
        } else if self.state.ssthresh > self.state.cwnd {
            self.state.cwnd = self.state.ssthresh;
        }
        self.moderate_cwnd();
        self.undo_marker = false;
        self.loss_recovery = false;
        if self.ca_state == CaState::Loss {
            self.retransmits = 0;
            self.ca_state = CaState::Open;
        }
    }
}
