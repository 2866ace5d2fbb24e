//! A Linux-mode flow's events: CUBIC + HyStart driven through a model of the kernel's
//! socket glue, so that a stack that is not Linux gets exactly what Linux would do.
//!
//! The glue is the part of `tcp_input.c`/`tcp_output.c` that decides *when* CUBIC's
//! hooks run and with what: the transmit step that tracks whether the flow is limited
//! by its window (`tcp_cwnd_validate`), the smoothed RTT (`tcp_rtt_estimator`), the
//! pacing rate (`tcp_update_pacing_rate`), fast recovery and CWR entered and ended at
//! once (`tcp_enter_recovery` … `tcp_end_cwnd_reduction`; PRR is the stack's business),
//! the retransmission timeout (`tcp_enter_loss`) and undo (`tcp_undo_cwnd_reduction`).
//! It counts sequence numbers in segments. Everything here is a method of
//! [`LinuxFlowState`] that takes the shared [`LinuxParams`]; [`Cubic`](super::Cubic)
//! pairs the two.

use crate::controller::Phase;
use crate::cubic::{
    epoch_after_idle, linux_after, lowers_delay_min, recalc_bictcp_ssthresh, recompute_bictcp,
    recompute_skipped, sample_blackout,
};
use crate::hystart::HystartInput;
use crate::linux::layout::{
    CA_STATE_MASK, CLAMP_PENDING, COMPARE_SND_NXT, CWR_PERIOD, FLIGHT_ABOVE_CWND, Hot,
    IS_CWND_LIMITED, LOSS_RECOVERY, PACING_FRESH, PACING_NOT_MODELLED, RECOVERY_ARMED,
    SND_NXT_AHEAD, UNDO_MARKER,
};
use crate::linux::params::LinuxParams;
use crate::linux::state::{TCP_INFINITE_SSTHRESH, additive_increase, slow_start_growth};
use crate::observe::{NoObserver, Observer, ReductionCause};
use crate::pacing::{LinuxPacingInput, linux_pacing_rate};
use crate::time::Instant;

pub use crate::linux::layout::{CaState, LinuxFlowState};

mod observe;
mod stack;

/// Saturating conversion from the trait's `u64` amounts to the kernel's `u32` segments.
pub(crate) fn segments(amount: u64) -> u32 {
    u32::try_from(amount).unwrap_or(u32::MAX)
}

impl LinuxFlowState {
    /// A flow initialised at `now` as the kernel's `tcp_init_congestion_control` would
    /// (CUBIC `init`, pacing rate). Nothing is in flight until the first transmit.
    pub fn new(p: &LinuxParams, now: Instant) -> Self {
        let mut flow = LinuxFlowState::default();
        flow.init(p, now);
        flow
    }

    /// Re-initialise the socket and CUBIC at `now`, with the settings in `p`.
    pub fn init(&mut self, p: &LinuxParams, now: Instant) {
        let s = p.socket();
        *self = LinuxFlowState::default();
        let h = &mut self.hot;
        h.cwnd = s.init_cwnd;
        h.ssthresh = s.init_ssthresh;
        // tcp_rtt_estimator keeps srtt scaled by 8, u32.
        h.srtt_us_x8 = s.initial_srtt_us.wrapping_shl(3);
        h.snd_una = s.iss;
        h.cwnd_usage_seq = s.iss;
        h.last_send_jiffies = now.jiffies32();
        self.cold.clamp = s.cwnd_clamp;
        self.set(PACING_FRESH, true);
        self.set(PACING_NOT_MODELLED, !s.model_pacing);
        // The first send through the trait takes the stack's snd_nxt.
        self.set(COMPARE_SND_NXT, true);
        // Linux cubictcp_init(): reset, HyStart round, initial_ssthresh without HyStart.
        let cfg = p.cubic().config();
        if cfg.hystart {
            self.start_hystart_round(now);
        } else if cfg.initial_ssthresh != 0 {
            self.hot.ssthresh = cfg.initial_ssthresh;
        }
        self.note_cwnd_or_clamp_written();
        self.pacing_inputs_changed(p);
    }

    /// The transmit step: after sending, `in_flight` segments are outstanding.
    ///
    /// More than before means new data left: after an empty pipe CUBIC gets
    /// `CA_EVENT_TX_START` (reading the previous send time), and the send time is
    /// stamped. Then the kernel's window-use tracking (`tcp_cwnd_validate` and the
    /// `tcp_write_xmit` rule `in_flight >= cwnd`) decides `is_cwnd_limited`.
    /// `snd_nxt` moves up to `snd_una + in_flight` if that is ahead of it.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
    // Linux net/ipv4/tcp_output.c tcp_event_data_sent(), tcp_cwnd_validate()
    #[inline(always)]
    #[doc(hidden)]
    pub fn transmit(&mut self, now: Instant, in_flight: u32) {
        self.transmit_up_to(now, in_flight, None);
    }

    /// [`transmit`](Self::transmit), with the stack's `snd_nxt` when it gave one.
    // Linux net/ipv4/tcp_output.c tcp_event_data_sent(), tcp_cwnd_validate()
    #[inline(always)]
    fn transmit_up_to(&mut self, now: Instant, in_flight: u32, stack_snd_nxt: Option<u32>) {
        let sent = in_flight.saturating_sub(self.hot.packets_out);
        let jiffies = now.jiffies32();
        if sent > 0 {
            if self.hot.packets_out == 0 {
                let h = &mut self.hot;
                h.epoch_start = epoch_after_idle(h.epoch_start, jiffies, h.last_send_jiffies);
            }
            self.hot.last_send_jiffies = jiffies;
        }
        let snd_nxt = self.advance_snd_nxt(in_flight, stack_snd_nxt);
        // tcp_write_xmit calls tcp_cwnd_validate after a send or when cwnd-limited; it
        // records the window use when cwnd-limited, when the round since the last record
        // is over, or when more is in flight than recorded. The limited case is tested
        // first: it is the common one, and the other tests then need not run.
        let h = &mut self.hot;
        let limited = in_flight >= h.cwnd;
        if limited {
            h.flags |= IS_CWND_LIMITED;
            h.max_packets_out = in_flight;
            h.cwnd_usage_seq = snd_nxt;
        } else if sent > 0
            && (!linux_after(h.cwnd_usage_seq, h.snd_una)
                || (h.flags & IS_CWND_LIMITED == 0 && in_flight > h.max_packets_out))
        {
            h.flags &= !IS_CWND_LIMITED;
            h.max_packets_out = in_flight;
            h.cwnd_usage_seq = snd_nxt;
        }
    }

    /// `packets_out = in_flight`, and `snd_nxt` moves up to `snd_una + in_flight`, and to
    /// the stack's own `snd_nxt` if it gave one, whichever is ahead of it (never back);
    /// returns it.
    #[inline(always)]
    fn advance_snd_nxt(&mut self, in_flight: u32, stack_snd_nxt: Option<u32>) -> u32 {
        let h = &mut self.hot;
        // snd_nxt is snd_una + packets_out, and snd_una + in_flight is not before it
        // (the kernel's `after() || ==`, with its wrap-around): it stays derived.
        // Two branches, not one on both tests: the flag's is not taken, and the other
        // reuses the flags of the subtraction `transmit` just made.
        // A stack's own snd_nxt is compared only after an event that may have left
        // segments out of its flight: one flag test with the other (the mask is a
        // constant once inlined).
        let cold = if stack_snd_nxt.is_some() {
            SND_NXT_AHEAD | COMPARE_SND_NXT
        } else {
            SND_NXT_AHEAD
        };
        if h.flags & cold != 0 {
            return self.advance_stored_snd_nxt(in_flight, stack_snd_nxt);
        }
        if (h.packets_out.wrapping_sub(in_flight) as i32) > 0 {
            return self.advance_stored_snd_nxt(in_flight, stack_snd_nxt);
        }
        h.packets_out = in_flight;
        h.snd_una.wrapping_add(in_flight)
    }

    /// [`advance_snd_nxt`](Self::advance_snd_nxt) when `snd_nxt` is, or is about to be,
    /// ahead of the flight (losses or discards left it, less is in flight after a send),
    /// or the stack's own `snd_nxt` is to be compared: a stack that counts SACKed or lost
    /// segments out of its flight is ahead of `snd_una + in_flight`, and its `snd_nxt`
    /// goes to the cold line; equal or behind, the flight's stands.
    #[inline(never)]
    fn advance_stored_snd_nxt(&mut self, in_flight: u32, stack_snd_nxt: Option<u32>) -> u32 {
        let before = self.snd_nxt();
        let top = self.hot.snd_una.wrapping_add(in_flight);
        self.hot.packets_out = in_flight;
        let mut snd_nxt = if linux_after(top, before) {
            top
        } else {
            before
        };
        if let Some(stack) = stack_snd_nxt {
            if linux_after(stack, snd_nxt) {
                snd_nxt = stack;
            }
        }
        self.store_snd_nxt(snd_nxt);
        self.hot.flags &= !COMPARE_SND_NXT;
        snd_nxt
    }

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
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
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
    fn ack_to(
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
    fn ack_beyond_the_flight(&mut self) {
        let snd_nxt = self.snd_nxt();
        self.cold.snd_nxt = snd_nxt;
        self.hot.flags |= SND_NXT_AHEAD;
        self.hot.packets_out = 0;
    }

    /// The rest of an ACK outside state Open or inside a recovery period: the period may
    /// end; CWR and Recovery do not grow the window (an RTO's Loss does).
    #[cold]
    #[inline(never)]
    fn ack_in_recovery(&mut self, p: &LinuxParams, jiffies: u32, acked: u32) {
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
    fn end_recovery_once_acked(&mut self) {
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
    fn pkts_acked(&mut self, p: &LinuxParams, now: Instant, jiffies: u32, rtt_us: u32) {
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
    fn hystart_reads_the_next_sample(&self, p: &LinuxParams) -> bool {
        self.in_slow_start() && !self.hystart_found() && p.cubic().config().hystart
    }

    /// HyStart's half of `pkts_acked`; out of line, it runs only in slow start.
    // Linux net/ipv4/tcp_cubic.c hystart_update()
    #[inline(never)]
    fn hystart_sample(&mut self, p: &LinuxParams, now: Instant, delay: u32) {
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
    fn start_hystart_round(&mut self, now: Instant) {
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
    fn is_cwnd_limited(&self) -> bool {
        if self.has(IS_CWND_LIMITED) {
            return true;
        }
        self.in_slow_start() && self.hot.cwnd < self.hot.max_packets_out.wrapping_mul(2)
    }

    /// CUBIC `cong_avoid`: slow start, then the cubic update and additive increase.
    // Linux net/ipv4/tcp_cubic.c cubictcp_cong_avoid()
    #[inline(always)]
    fn cong_avoid(&mut self, p: &LinuxParams, jiffies: u32, acked: u32) {
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
    fn recompute_cubic(&mut self, p: &LinuxParams, acked: u32, jiffies: u32) {
        let cwnd = self.hot.cwnd;
        recompute_bictcp(self, p.cubic(), cwnd, acked, jiffies);
    }

    /// `tcp_slow_start`: grow by what was acked up to ssthresh, within the clamp;
    /// returns what is left for congestion avoidance.
    // Linux net/ipv4/tcp_cong.c tcp_slow_start()
    #[inline(never)]
    fn slow_start(&mut self, acked: u32) -> u32 {
        let h = &mut self.hot;
        let (grown, left) = slow_start_growth(h.cwnd, h.ssthresh, acked);
        h.cwnd = grown.min(self.cold.clamp);
        h.flags &= !CLAMP_PENDING;
        left
    }

    /// `tcp_cong_avoid_ai` with CUBIC's `cnt`.
    // Linux net/ipv4/tcp_cong.c tcp_cong_avoid_ai()
    #[inline(always)]
    fn congestion_avoidance_ai(&mut self, acked: u32) {
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

    /// `snd_cwnd = min(snd_cwnd, snd_cwnd_clamp)`, once a write left cwnd above it.
    #[cold]
    #[inline(never)]
    fn apply_clamp(&mut self) {
        self.hot.cwnd = self.hot.cwnd.min(self.cold.clamp);
        self.hot.flags &= !CLAMP_PENDING;
    }

    // Linux net/ipv4/tcp_cong.c tcp_cong_avoid_ai()
    #[cfg_attr(not(target_arch = "bpf"), inline(never))]
    #[cfg_attr(target_arch = "bpf", inline(always))]
    fn congestion_avoidance_ai_grow(&mut self, acked: u32) {
        let h = &mut self.hot;
        additive_increase(&mut h.cwnd, &mut h.cwnd_cnt, h.cnt, acked);
        h.cwnd = h.cwnd.min(self.cold.clamp);
        h.flags &= !CLAMP_PENDING;
    }

    /// `tcp_current_ssthresh`: the ssthresh to restore on undo.
    // Linux include/net/tcp.h tcp_current_ssthresh(): max(ssthresh, 3/4 cwnd)
    fn current_ssthresh(&self) -> u32 {
        let cwnd = self.hot.cwnd;
        self.hot.ssthresh.max((cwnd >> 1) + (cwnd >> 2))
    }

    /// CUBIC's `recalc_ssthresh`, in place on both lines.
    fn recalc_ssthresh(&mut self, p: &LinuxParams) -> u32 {
        let cwnd = self.hot.cwnd;
        recalc_bictcp_ssthresh(self, p.cubic(), cwnd)
    }

    /// `tcp_init_cwnd_reduction`: remember the window, take CUBIC's new ssthresh.
    // Linux net/ipv4/tcp_input.c tcp_init_cwnd_reduction()
    fn init_cwnd_reduction(&mut self, p: &LinuxParams) {
        self.cold.high_seq = self.snd_nxt();
        self.hot.cwnd_cnt = 0;
        self.cold.prior_cwnd = self.hot.cwnd;
        self.hot.ssthresh = self.recalc_ssthresh(p);
    }

    /// `tcp_end_cwnd_reduction`: the window lands on ssthresh.
    // Linux net/ipv4/tcp_input.c tcp_end_cwnd_reduction()
    fn end_cwnd_reduction(&mut self) {
        if self.hot.ssthresh < TCP_INFINITE_SSTHRESH
            && (self.ca_state() == CaState::Cwr || self.has(UNDO_MARKER))
        {
            self.hot.cwnd = self.hot.ssthresh;
            self.note_cwnd_or_clamp_written();
        }
    }

    /// A fast-retransmit congestion event, with recovery entered and left at once
    /// (the stack runs PRR or its own recovery; CUBIC only needs the reduction).
    /// A second loss while still in recovery or CWR does not reduce again.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
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
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
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
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
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
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
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

    /// A loss or ECN-CE reduction just set `high_seq`: its recovery period starts.
    fn begin_recovery_period(&mut self, now: Instant) {
        self.set(LOSS_RECOVERY, true);
        self.set(RECOVERY_ARMED, true);
        self.cold.recovery_start_us32 = now.micros32();
    }

    /// An explicit `CA_EVENT_TX_START`: the epoch shifts by the idle time since the
    /// last send, then the send time is stamped now.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
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
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
    #[doc(hidden)]
    pub fn set_last_send_jiffies(&mut self, jiffies: u32) {
        self.hot.last_send_jiffies = jiffies;
    }

    /// `tcp_update_pacing_rate`, at the end of every event. The rate is a pure function
    /// of cwnd, ssthresh, srtt, `packets_out` and the socket settings, all fixed until
    /// the next event except `packets_out`: so that one is remembered (in the cold line,
    /// and only when it is above cwnd, the one case where it counts) and the rate is
    /// computed when asked for ([`sk_pacing_rate`](LinuxFlowState::sk_pacing_rate)).
    /// Eagerly only when the next ACK's HyStart will read it, since that ACK changes
    /// srtt first. Not modelled: the rate keeps its last value.
    // Linux net/ipv4/tcp_input.c tcp_update_pacing_rate()
    #[inline(always)]
    fn pacing_inputs_changed(&mut self, p: &LinuxParams) {
        if self.hystart_reads_the_next_sample(p) {
            self.freeze_pacing_rate_for_hystart(p);
        } else if self.hot.packets_out > self.hot.cwnd {
            self.remember_flight_above_cwnd();
        } else {
            self.hot.flags &= !(FLIGHT_ABOVE_CWND | PACING_FRESH);
        }
    }

    /// The last event left more in flight than cwnd: the rate takes that flight, kept in
    /// the cold line (unless the rate is not modelled, and the slot keeps it).
    #[cold]
    #[inline(never)]
    fn remember_flight_above_cwnd(&mut self) {
        if !self.has(PACING_NOT_MODELLED) {
            self.cold.pacing = u64::from(self.hot.packets_out);
            self.hot.flags = (self.hot.flags | FLIGHT_ABOVE_CWND) & !PACING_FRESH;
        }
    }

    /// The eager half of [`pacing_inputs_changed`](Self::pacing_inputs_changed); out
    /// of line, it runs only in slow start.
    #[inline(never)]
    fn freeze_pacing_rate_for_hystart(&mut self, p: &LinuxParams) {
        self.freeze_pacing_rate_at(p, self.hot.packets_out);
    }

    /// Store the rate for `packets_out` now (unless pacing is not modelled, where it
    /// keeps its last value), so that later changes to its inputs do not move it.
    fn freeze_pacing_rate_at(&mut self, p: &LinuxParams, packets_out: u32) {
        if !self.has(PACING_NOT_MODELLED) {
            self.cold.pacing = self.pacing_rate_for(p, packets_out);
        }
        self.set(PACING_FRESH, true);
        self.set(FLIGHT_ABOVE_CWND, false);
    }

    /// Whether the flow models `sk_pacing_rate` from now on (the socket setting
    /// `model_pacing`, read at init and on reconfiguration). Turned off, the rate keeps
    /// the value the last event left.
    pub(crate) fn set_pacing_modelled(&mut self, p: &LinuxParams, modelled: bool) {
        self.freeze_pacing_rate(p);
        self.set(PACING_NOT_MODELLED, !modelled);
    }

    /// `packets_out` as the last event left it, for the pacing rate: cwnd stands in for
    /// any flight at or below it, since the rate takes the larger of the two.
    const fn pacing_packets_out(&self) -> u32 {
        if self.has(FLIGHT_ABOVE_CWND) {
            self.cold.pacing as u32
        } else {
            self.hot.cwnd
        }
    }

    /// Before a setter changes an input of the pacing rate or whether HyStart reads it:
    /// the kernel's `sk_pacing_rate` stays as the last event left it.
    pub(crate) fn freeze_pacing_rate(&mut self, p: &LinuxParams) {
        if !self.has(PACING_FRESH) {
            self.freeze_pacing_rate_at(p, self.pacing_packets_out());
        }
    }

    /// `tcp_update_pacing_rate` on the current state with `packets_out`.
    // Linux net/ipv4/tcp_input.c tcp_update_pacing_rate()
    const fn pacing_rate_for(&self, p: &LinuxParams, packets_out: u32) -> u64 {
        let s = p.socket();
        linux_pacing_rate(&LinuxPacingInput {
            mss: s.mss,
            cwnd: self.hot.cwnd,
            ssthresh: self.hot.ssthresh,
            packets_out,
            srtt_us_x8: self.hot.srtt_us_x8,
            ss_ratio_percent: s.pacing_ss_ratio,
            ca_ratio_percent: s.pacing_ca_ratio,
            max_rate: s.max_pacing_rate,
        })
    }

    /// `sk_pacing_rate`, bytes per second, as the last event left it (computed here
    /// unless an event or a setter already fixed it; the transmit step does not move it).
    #[inline]
    pub fn sk_pacing_rate(&self, p: &LinuxParams) -> u64 {
        if self.hot.flags & (PACING_FRESH | PACING_NOT_MODELLED | FLIGHT_ABOVE_CWND) == 0 {
            // The common case, from the hot line alone: the flight is at most cwnd.
            self.pacing_rate_for(p, self.hot.cwnd)
        } else {
            self.sk_pacing_rate_from_the_cold_line(p)
        }
    }

    /// [`sk_pacing_rate`](Self::sk_pacing_rate) when the cold line holds the rate or the
    /// flight; out of line, so that the common case never loads it, not even
    /// speculatively.
    #[inline(never)]
    fn sk_pacing_rate_from_the_cold_line(&self, p: &LinuxParams) -> u64 {
        if self.has(PACING_FRESH) || self.has(PACING_NOT_MODELLED) {
            self.cold.pacing
        } else {
            self.pacing_rate_for(p, self.pacing_packets_out())
        }
    }

    /// Override cwnd directly, as a stack writing `snd_cwnd` would; at least 1.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
    #[doc(hidden)]
    pub fn set_cwnd(&mut self, p: &LinuxParams, cwnd: u32) {
        self.freeze_pacing_rate(p);
        self.hot.cwnd = cwnd.max(1);
        self.note_cwnd_or_clamp_written();
    }

    /// Override ssthresh directly; at least 1.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
    #[doc(hidden)]
    pub fn set_ssthresh(&mut self, p: &LinuxParams, ssthresh: u32) {
        self.freeze_pacing_rate(p);
        self.hot.ssthresh = ssthresh.max(1);
    }

    /// Override the window clamp directly; at least 1. cwnd is not cut until it next grows.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`](crate::CongestionController).
    #[doc(hidden)]
    pub fn set_clamp(&mut self, clamp: u32) {
        self.cold.clamp = clamp.max(1);
        self.note_cwnd_or_clamp_written();
    }

    /// The phase: [`Phase::Recovery`] after a loss or ECN-CE reduction until `snd_una`
    /// reaches `high_seq`; after an RTO, slow start (state Loss grows by slow start).
    pub const fn phase(&self) -> Phase {
        let h = &self.hot;
        self.phase_at(h.flags, h.snd_una, h.cwnd, h.ssthresh)
    }

    /// The phase the flow had with these hot-line fields (an ACK moves them, not
    /// `high_seq`).
    #[inline(always)]
    pub(crate) const fn phase_at(
        &self,
        flags: u16,
        snd_una: u32,
        cwnd: u32,
        ssthresh: u32,
    ) -> Phase {
        if flags & LOSS_RECOVERY != 0 && linux_after(self.cold.high_seq, snd_una) {
            Phase::Recovery
        } else if cwnd < ssthresh {
            Phase::SlowStart
        } else {
            Phase::CongestionAvoidance
        }
    }

    /// `snd_cwnd`, segments.
    pub const fn snd_cwnd(&self) -> u32 {
        self.hot.cwnd
    }

    /// `snd_ssthresh`, segments; [`TCP_INFINITE_SSTHRESH`] before the first reduction.
    pub const fn snd_ssthresh(&self) -> u32 {
        self.hot.ssthresh
    }

    /// `packets_out`, segments.
    pub const fn packets_out(&self) -> u32 {
        self.hot.packets_out
    }

    /// CUBIC's `delay_min`, µs; 0 before the first sample.
    pub const fn delay_min_us(&self) -> u32 {
        self.hot.delay_min
    }

    /// Socket sequence and window-use fields, for inspection and trace output.
    pub const fn socket_view(&self) -> LinuxSocketView {
        LinuxSocketView {
            snd_una: self.hot.snd_una,
            snd_nxt: self.snd_nxt(),
            packets_out: self.hot.packets_out,
            is_cwnd_limited: self.has(IS_CWND_LIMITED),
            max_packets_out: self.hot.max_packets_out,
            srtt_us_x8: self.hot.srtt_us_x8,
            prior_cwnd: self.cold.prior_cwnd,
            prior_ssthresh: self.cold.prior_ssthresh,
            last_send_jiffies: self.hot.last_send_jiffies,
        }
    }
}

/// The srtt half of `tcp_rtt_estimator` (EWMA with gain 1/8, kept ×8).
// Linux net/ipv4/tcp_input.c tcp_rtt_estimator(): srtt += m - srtt/8
#[inline(always)]
fn update_srtt(h: &mut Hot, rtt_us: u32) {
    let srtt = if h.srtt_us_x8 == 0 {
        rtt_us.wrapping_shl(3)
    } else {
        h.srtt_us_x8
            .wrapping_add(rtt_us)
            .wrapping_sub(h.srtt_us_x8 >> 3)
    };
    h.srtt_us_x8 = srtt.max(1);
}

/// Read-only copy of the socket fields a trace prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LinuxSocketView {
    /// First unacknowledged sequence, segments.
    pub snd_una: u32,
    /// Next sequence to send, segments.
    pub snd_nxt: u32,
    /// Segments in flight.
    pub packets_out: u32,
    /// Whether the last transmit was limited by cwnd.
    pub is_cwnd_limited: bool,
    /// Largest flight in the current window-use round.
    pub max_packets_out: u32,
    /// Smoothed RTT ×8, µs.
    pub srtt_us_x8: u32,
    /// cwnd before the last reduction.
    pub prior_cwnd: u32,
    /// ssthresh to restore on undo; 0 = none.
    pub prior_ssthresh: u32,
    /// jiffies of the last send (`lsndtime`).
    pub last_send_jiffies: u32,
}
