//! Congestion events on the kernel's terms.

use super::*;

impl LinuxFlowState {
    /// A fast-retransmit congestion event, with recovery entered and left at once
    /// (the stack runs PRR or its own recovery; CUBIC only needs the reduction).
    /// A second loss while still in recovery or CWR does not reduce again.
    // Linux net/ipv4/tcp_input.c tcp_enter_recovery(), tcp_end_cwnd_reduction()
    #[doc(hidden)]
    pub fn loss(&mut self, p: &LinuxParams, now: Instant) {
        self.loss_observed(p, now, &mut NoObserver);
    }

    /// [`loss`](Self::loss), reporting the reduction to `o`.
    #[doc(hidden)]
    pub fn loss_observed<O: Observer>(&mut self, p: &LinuxParams, now: Instant, o: &mut O) {
        let before = self.snapshot();
        self.cold.prior_ssthresh = 0;
        self.set(UNDO_MARKER, true);
        let reduces = !matches!(self.ca_state(), CaState::Cwr | CaState::Recovery);
        if reduces {
            self.cold.prior_ssthresh = self.current_ssthresh();
            self.init_cwnd_reduction(p);
            self.begin_recovery_period(now);
            self.set(CWR_PERIOD, false);
        }
        // set_state(Recovery) then set_state(Open): CUBIC reacts to neither.
        self.set_ca_state(CaState::Open);
        self.end_cwnd_reduction();
        self.pacing_inputs_changed(p);
        if reduces {
            before.report_reduction(&self.snapshot(), ReductionCause::Loss, now, o);
        }
    }

    /// An ECN-CE echo: the same reduction as a loss, through CWR, with no undo.
    // Linux net/ipv4/tcp_input.c tcp_enter_cwr(), tcp_end_cwnd_reduction()
    #[doc(hidden)]
    pub fn ecn(&mut self, p: &LinuxParams, now: Instant) {
        self.ecn_observed(p, now, &mut NoObserver);
    }

    /// [`ecn`](Self::ecn), reporting the reduction to `o`.
    #[doc(hidden)]
    pub fn ecn_observed<O: Observer>(&mut self, p: &LinuxParams, now: Instant, o: &mut O) {
        let before = self.snapshot();
        self.cold.prior_ssthresh = 0;
        let reduces = !matches!(
            self.ca_state(),
            CaState::Cwr | CaState::Recovery | CaState::Loss
        );
        if reduces {
            self.set(UNDO_MARKER, false);
            self.init_cwnd_reduction(p);
            self.begin_recovery_period(now);
            self.set(CWR_PERIOD, true);
            self.set_ca_state(CaState::Cwr);
        }
        self.end_cwnd_reduction();
        if self.ca_state() == CaState::Cwr {
            self.set_ca_state(CaState::Open);
        }
        self.pacing_inputs_changed(p);
        if reduces {
            before.report_reduction(&self.snapshot(), ReductionCause::Ecn, now, o);
        }
    }

    /// A retransmission timeout: everything outstanding is lost, cwnd drops to 1,
    /// CUBIC and HyStart reset, and `retransmitted` segments (usually 1) go out again.
    /// ssthresh is recomputed only on the first RTO of a loss episode, as the kernel does.
    // Linux net/ipv4/tcp_input.c tcp_enter_loss(); tcp_cubic.c cubictcp_state()
    #[doc(hidden)]
    pub fn rto(&mut self, p: &LinuxParams, now: Instant, retransmitted: u32) {
        let cause = ReductionCause::RetransmissionTimeout;
        self.rto_observed(p, now, retransmitted, cause, &mut NoObserver);
    }

    /// [`rto`](Self::rto), reporting the reduction to `o` with `cause` (a timeout, or
    /// persistent congestion, which Linux mode treats as one).
    #[doc(hidden)]
    pub fn rto_observed<O: Observer>(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        retransmitted: u32,
        cause: ReductionCause,
        o: &mut O,
    ) {
        let before = self.snapshot();
        self.set_packets_out(0);
        let first_rto = matches!(self.ca_state(), CaState::Open | CaState::Disorder)
            || !linux_after(self.cold.high_seq, self.hot.snd_una)
            || (self.ca_state() == CaState::Loss && self.hot.retransmits == 0);
        if first_rto {
            self.cold.prior_ssthresh = self.current_ssthresh();
            self.cold.prior_cwnd = self.hot.cwnd;
            self.hot.ssthresh = self.recalc_ssthresh(p);
            self.set(UNDO_MARKER, true);
        }
        // Everything in flight is lost: cwnd = in flight + 1.
        self.hot.cwnd = 1;
        self.hot.cwnd_cnt = 0;
        self.note_cwnd_or_clamp_written();
        self.set_ca_state(CaState::Loss);
        // bictcp_reset(): the whole CUBIC half, delay_min included.
        self.set_cubic(&crate::cubic::LinuxCubic::default());
        let mut hystart = self.hystart();
        hystart.found = false;
        self.set_hystart(&hystart);
        self.start_hystart_round(now);
        self.set_hystart_exit(None);
        self.cold.high_seq = self.snd_nxt();
        // The RTO's recovery (state Loss) reports slow start, but older losses still
        // belong to it (tcp_process_loss keeps Loss until high_seq).
        self.set(LOSS_RECOVERY, false);
        self.set(RECOVERY_ARMED, true);
        self.set(CWR_PERIOD, false);
        self.cold.recovery_start_us32 = now.micros32();
        self.set_packets_out(retransmitted);
        self.hot.flags |= COMPARE_SND_NXT;
        if retransmitted > 0 {
            self.hot.last_send_jiffies = now.jiffies32();
        }
        self.hot.retransmits = self.hot.retransmits.wrapping_add(1);
        self.pacing_inputs_changed(p);
        before.report_reduction(&self.snapshot(), cause, now, o);
    }

    /// Undo the last reduction, found spurious (DSACK, F-RTO). Ignored unless a loss
    /// or RTO armed it. CUBIC's own state is not restored: Linux does not either.
    // Linux net/ipv4/tcp_input.c tcp_undo_cwnd_reduction(); tcp_cong.c tcp_reno_undo_cwnd()
    #[doc(hidden)]
    pub fn undo(&mut self, p: &LinuxParams, now: Instant) {
        self.undo_observed(p, now, &mut NoObserver);
    }

    /// [`undo`](Self::undo), reporting it to `o` if it took place.
    #[doc(hidden)]
    pub fn undo_observed<O: Observer>(&mut self, p: &LinuxParams, now: Instant, o: &mut O) {
        if !self.has(UNDO_MARKER) {
            return;
        }
        let before = self.snapshot();
        if self.cold.prior_ssthresh != 0 {
            self.hot.cwnd = self.hot.cwnd.max(self.cold.prior_cwnd);
            self.note_cwnd_or_clamp_written();
            if self.cold.prior_ssthresh > self.hot.ssthresh {
                self.hot.ssthresh = self.cold.prior_ssthresh;
            }
        }
        self.set(UNDO_MARKER, false);
        self.set(LOSS_RECOVERY, false);
        if self.ca_state() != CaState::Open {
            self.hot.retransmits = 0;
            self.set_ca_state(CaState::Open);
        }
        self.pacing_inputs_changed(p);
        before.report_undo(&self.snapshot(), now, o);
    }

    pub(super) fn begin_recovery_period(&mut self, now: Instant) {
        self.set(LOSS_RECOVERY, true);
        self.set(RECOVERY_ARMED, true);
        self.cold.recovery_start_us32 = now.micros32();
    }

    /// An explicit `CA_EVENT_TX_START`: the epoch shifts by the idle time since the
    /// last send, then the send time is stamped now.
    // Linux net/ipv4/tcp_output.c tcp_event_data_sent(); tcp_cubic.c cubictcp_cwnd_event()
    #[doc(hidden)]
    pub fn transmit_start(&mut self, now: Instant) {
        let jiffies = now.jiffies32();
        let h = &mut self.hot;
        h.epoch_start = epoch_after_idle(h.epoch_start, jiffies, h.last_send_jiffies);
        h.last_send_jiffies = jiffies;
    }

    /// Override the time of the last send (`lsndtime`), in jiffies; for stacks whose
    /// own bookkeeping owns it, and for replaying the kernel's traces.
    #[doc(hidden)]
    pub fn set_last_send_jiffies(&mut self, jiffies: u32) {
        self.hot.last_send_jiffies = jiffies;
    }
}
