//! An ACK through the kernel's glue, up to `cong_avoid` and the cwnd reduction.

use super::*;

impl LinuxFlowState {
    /// An ACK for `acked` segments, with an RTT sample in µs if it gave one.
    ///
    /// Runs, in the kernel's order: `snd_una`, the smoothed RTT, CUBIC `pkts_acked`
    /// (delay_min and HyStart), the end of RTO recovery, CUBIC `cong_avoid`, and the
    /// pacing rate. Call [`transmit`](LinuxFlowState::transmit) afterwards with what is in
    /// flight once the stack has sent in response.
    ///
    /// Odd input: `acked` beyond what is in flight empties the flight (no underflow);
    /// an RTT sample of 0 counts as 1 µs for CUBIC (the kernel's rule); samples above
    /// `i32::MAX` µs (35 minutes) are clamped to it, since the kernel carries them in s32.
    ///
    /// Always inlined: the common ACK (state Open, no HyStart, CUBIC's 1/32 s skip) is
    /// a few dozen instructions on one cache line; the rare branches are calls.
    #[inline(always)]
    #[doc(hidden)]
    pub fn ack(&mut self, p: &LinuxParams, now: Instant, acked: u32, rtt_us: Option<u32>) {
        let rtt_us = rtt_us.map(|rtt| rtt.min(i32::MAX as u32));
        self.ack_with_s32_rtt(p, now, acked, rtt_us);
    }

    /// [`ack`](Self::ack) with the sample already at most `i32::MAX` µs.
    #[inline(always)]
    pub(crate) fn ack_with_s32_rtt(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        acked: u32,
        rtt_us: Option<u32>,
    ) {
        self.ack_to(p, now, acked, rtt_us, None);
    }

    /// The ACK itself; `cumulative_ack` is `None` for the kernel-style calls.
    #[inline(always)]
    pub(super) fn ack_to(
        &mut self,
        p: &LinuxParams,
        now: Instant,
        acked: u32,
        rtt_us: Option<u32>,
        cumulative_ack: Option<u32>,
    ) {
        match self.hot.packets_out.checked_sub(acked) {
            Some(left) => self.hot.packets_out = left,
            None => self.ack_beyond_the_flight(),
        }
        let snd_una = self.hot.snd_una.wrapping_add(acked);
        self.hot.snd_una = snd_una;
        // The common case costs one compare: the stack's cumulative ACK is where `acked`
        // put snd_una.
        if let Some(ack) = cumulative_ack {
            if ack != snd_una {
                self.move_snd_una_to(ack, acked);
            }
        }
        let jiffies = now.jiffies32();
        if let Some(rtt) = rtt_us {
            update_srtt(&mut self.hot, rtt);
            self.pkts_acked(p, now, jiffies, rtt);
        }
        // One test for both: a state other than Open, or a recovery period running.
        if self.hot.flags & (CA_STATE_MASK | LOSS_RECOVERY) == 0 {
            if acked > 0 {
                self.hot.retransmits = 0;
                self.cong_avoid(p, jiffies, acked);
            } else {
                // Nothing new acknowledged: a SACK may have left a segment out of the
                // stack's flight.
                self.hot.flags |= COMPARE_SND_NXT;
            }
        } else {
            self.ack_in_recovery(p, jiffies, acked);
        }
        self.pacing_inputs_changed(p);
    }

    /// More acknowledged than was in flight: the flight empties, and `snd_nxt` stays
    /// where it was (as the kernel's own `snd_nxt` would), though `snd_una` passes it.
    #[cold]
    #[inline(never)]
    pub(super) fn ack_beyond_the_flight(&mut self) {
        let snd_nxt = self.snd_nxt();
        self.cold.snd_nxt = snd_nxt;
        self.hot.flags |= SND_NXT_AHEAD;
        self.hot.packets_out = 0;
    }

    /// The rest of an ACK outside state Open or inside a recovery period: the period may
    /// end; CWR and Recovery do not grow the window (an RTO's Loss does).
    #[cold]
    #[inline(never)]
    pub(super) fn ack_in_recovery(&mut self, p: &LinuxParams, jiffies: u32, acked: u32) {
        self.end_recovery_once_acked();
        if acked > 0 {
            self.hot.retransmits = 0;
            if !matches!(self.ca_state(), CaState::Cwr | CaState::Recovery) {
                self.cong_avoid(p, jiffies, acked);
            }
        } else {
            self.hot.flags |= COMPARE_SND_NXT;
        }
    }

    /// RTO recovery (`Loss`) ends once `high_seq` is acknowledged; so does the recovery
    /// period of a loss or ECN-CE reduction, cleared here so that `high_seq` is never
    /// compared again 2^31 segments later, when 32-bit wrap-around would put it ahead
    /// once more. Out of line: it is rare, and the window growth after it stays in one
    /// copy (in `ack`).
    // Linux net/ipv4/tcp_input.c tcp_process_loss(), tcp_try_undo_recovery(): end at high_seq
    pub(super) fn end_recovery_once_acked(&mut self) {
        let high_seq_acked = !linux_after(self.cold.high_seq, self.hot.snd_una);
        if self.ca_state() == CaState::Loss && high_seq_acked {
            self.set_ca_state(CaState::Open);
        }
        if self.has(LOSS_RECOVERY) && high_seq_acked {
            self.set(LOSS_RECOVERY, false);
        }
    }

    /// CUBIC `pkts_acked`: the delay sample feeds `delay_min` and HyStart.
    // Linux net/ipv4/tcp_cubic.c cubictcp_acked()
    #[inline(always)]
    pub(super) fn pkts_acked(&mut self, p: &LinuxParams, now: Instant, jiffies: u32, rtt_us: u32) {
        if sample_blackout(self.hot.epoch_start, jiffies) {
            return;
        }
        let delay = rtt_us.max(1);
        if lowers_delay_min(self.hot.delay_min, delay) {
            self.hot.delay_min = delay;
        }
        if self.hystart_reads_the_next_sample(p) {
            self.hystart_sample(p, now, delay);
        }
    }

    /// Whether HyStart looks at delay samples now: in slow start, before it found the
    /// exit, with HyStart on. HyStart is also the one reader of the pacing rate inside
    /// an ACK (`hystart_ack_delay`).
    // Linux net/ipv4/tcp_cubic.c cubictcp_acked()
    #[inline(always)]
    pub(super) fn hystart_reads_the_next_sample(&self, p: &LinuxParams) -> bool {
        self.in_slow_start() && !self.hystart_found() && p.cubic().config().hystart
    }

    /// HyStart's half of `pkts_acked`; out of line, it runs only in slow start.
    // Linux net/ipv4/tcp_cubic.c hystart_update()
    #[inline(never)]
    pub(super) fn hystart_sample(&mut self, p: &LinuxParams, now: Instant, delay: u32) {
        let socket = p.socket();
        let input = HystartInput {
            now_us: now.micros32(),
            delay_us: delay,
            delay_min_us: self.hot.delay_min,
            snd_una: self.hot.snd_una,
            snd_nxt: self.snd_nxt(),
            cwnd: self.hot.cwnd,
            pacing_rate: self.sk_pacing_rate(p),
            pacing_status: socket.pacing_status,
            gso_max_size: socket.gso_max_size,
        };
        let mut hystart = self.hystart();
        let exit = hystart.on_delay_sample(p.cubic(), &input);
        self.set_hystart(&hystart);
        if let Some(exit) = exit {
            self.hot.ssthresh = self.hot.cwnd;
            self.set_hystart_exit(Some(exit));
        }
    }

    /// `bictcp_hystart_reset`: a new HyStart round from now, ending at `snd_nxt`.
    pub(super) fn start_hystart_round(&mut self, now: Instant) {
        let mut hystart = self.hystart();
        hystart.start_round(now.micros32(), self.snd_nxt());
        self.set_hystart(&hystart);
    }

    /// `tcp_in_slow_start`.
    // Linux include/net/tcp.h tcp_in_slow_start(): cwnd < ssthresh
    #[inline(always)]
    pub(crate) const fn in_slow_start(&self) -> bool {
        self.hot.cwnd < self.hot.ssthresh
    }

    /// `tcp_is_cwnd_limited`: was the last transmit limited by the window? In slow
    /// start, also while cwnd is below twice the largest recent flight.
    // Linux include/net/tcp.h tcp_is_cwnd_limited()
    #[inline(always)]
    pub(super) fn is_cwnd_limited(&self) -> bool {
        if self.has(IS_CWND_LIMITED) {
            return true;
        }
        self.in_slow_start() && self.hot.cwnd < self.hot.max_packets_out.wrapping_mul(2)
    }

    /// CUBIC `cong_avoid`: slow start, then the cubic update and additive increase.
    // Linux net/ipv4/tcp_cubic.c cubictcp_cong_avoid()
    #[inline(always)]
    pub(super) fn cong_avoid(&mut self, p: &LinuxParams, jiffies: u32, acked: u32) {
        if !self.is_cwnd_limited() {
            return;
        }
        let mut acked = acked;
        if self.in_slow_start() {
            acked = self.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        // Linux net/ipv4/tcp_cubic.c bictcp_update(): ack_cnt += acked, then the skip
        let h = &mut self.hot;
        h.ack_cnt = h.ack_cnt.wrapping_add(acked);
        if !recompute_skipped(h.last_cwnd, h.last_time, h.cwnd, jiffies) {
            self.recompute_cubic(p, acked, jiffies);
        }
        self.congestion_avoidance_ai(acked);
    }

    /// `bictcp_update` past its early return, on the curve in the cold line.
    /// In place on both lines, not on a gathered copy (two dozen loads and stores more).
    #[cfg_attr(not(target_arch = "bpf"), inline(never))]
    #[cfg_attr(target_arch = "bpf", inline(always))]
    pub(super) fn recompute_cubic(&mut self, p: &LinuxParams, acked: u32, jiffies: u32) {
        let cwnd = self.hot.cwnd;
        recompute_bictcp(self, p.cubic(), cwnd, acked, jiffies);
    }

    /// `tcp_slow_start`: grow by what was acked up to ssthresh, within the clamp;
    /// returns what is left for congestion avoidance.
    // Linux net/ipv4/tcp_cong.c tcp_slow_start()
    #[inline(never)]
    pub(super) fn slow_start(&mut self, acked: u32) -> u32 {
        let h = &mut self.hot;
        let (grown, left) = slow_start_growth(h.cwnd, h.ssthresh, acked);
        h.cwnd = grown.min(self.cold.clamp);
        h.flags &= !CLAMP_PENDING;
        left
    }

    /// `tcp_cong_avoid_ai` with CUBIC's `cnt`.
    // Linux net/ipv4/tcp_cong.c tcp_cong_avoid_ai()
    #[inline(always)]
    pub(super) fn congestion_avoidance_ai(&mut self, acked: u32) {
        let h = &mut self.hot;
        // Most ACKs only add credit: not a whole segment yet. (`credit < w` implies
        // `cwnd_cnt < w`, so there is no old credit to apply, and `w > 0`.) The clamp
        // cannot cut a window that did not grow unless a write put it above the clamp.
        if let Some(credit) = h.cwnd_cnt.checked_add(acked) {
            if credit < h.cnt {
                h.cwnd_cnt = credit;
                if h.flags & CLAMP_PENDING != 0 {
                    self.apply_clamp();
                }
                return;
            }
        }
        self.congestion_avoidance_ai_grow(acked);
    }

    #[cold]
    #[inline(never)]
    pub(super) fn apply_clamp(&mut self) {
        self.hot.cwnd = self.hot.cwnd.min(self.cold.clamp);
        self.hot.flags &= !CLAMP_PENDING;
    }

    // Linux net/ipv4/tcp_cong.c tcp_cong_avoid_ai()
    #[cfg_attr(not(target_arch = "bpf"), inline(never))]
    #[cfg_attr(target_arch = "bpf", inline(always))]
    pub(super) fn congestion_avoidance_ai_grow(&mut self, acked: u32) {
        let h = &mut self.hot;
        additive_increase(&mut h.cwnd, &mut h.cwnd_cnt, h.cnt, acked);
        h.cwnd = h.cwnd.min(self.cold.clamp);
        h.flags &= !CLAMP_PENDING;
    }

    /// `tcp_current_ssthresh`: the ssthresh to restore on undo.
    // Linux include/net/tcp.h tcp_current_ssthresh(): max(ssthresh, 3/4 cwnd)
    pub(super) fn current_ssthresh(&self) -> u32 {
        let cwnd = self.hot.cwnd;
        self.hot.ssthresh.max((cwnd >> 1) + (cwnd >> 2))
    }

    /// CUBIC's `recalc_ssthresh`, in place on both lines.
    pub(super) fn recalc_ssthresh(&mut self, p: &LinuxParams) -> u32 {
        let cwnd = self.hot.cwnd;
        recalc_bictcp_ssthresh(self, p.cubic(), cwnd)
    }

    /// `tcp_init_cwnd_reduction`: remember the window, take CUBIC's new ssthresh.
    // Linux net/ipv4/tcp_input.c tcp_init_cwnd_reduction()
    pub(super) fn init_cwnd_reduction(&mut self, p: &LinuxParams) {
        self.cold.high_seq = self.snd_nxt();
        self.hot.cwnd_cnt = 0;
        self.cold.prior_cwnd = self.hot.cwnd;
        self.hot.ssthresh = self.recalc_ssthresh(p);
    }

    /// `tcp_end_cwnd_reduction`: the window lands on ssthresh.
    // Linux net/ipv4/tcp_input.c tcp_end_cwnd_reduction()
    pub(super) fn end_cwnd_reduction(&mut self) {
        if self.hot.ssthresh < TCP_INFINITE_SSTHRESH
            && (self.ca_state() == CaState::Cwr || self.has(UNDO_MARKER))
        {
            self.hot.cwnd = self.hot.ssthresh;
            self.note_cwnd_or_clamp_written();
        }
    }
}

/// The srtt half of `tcp_rtt_estimator` (EWMA with gain 1/8, kept ×8).
// Linux net/ipv4/tcp_input.c tcp_rtt_estimator(): srtt += m - srtt/8
#[inline(always)]
pub(super) fn update_srtt(h: &mut Hot, rtt_us: u32) {
    let srtt = if h.srtt_us_x8 == 0 {
        rtt_us.wrapping_shl(3)
    } else {
        h.srtt_us_x8
            .wrapping_add(rtt_us)
            .wrapping_sub(h.srtt_us_x8 >> 3)
    };
    h.srtt_us_x8 = srtt.max(1);
}
