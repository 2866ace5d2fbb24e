//! A Linux-mode flow's events (see [`Cubic`](super::Cubic)).
//!
//! The glue decides when CUBIC's hooks run and with what: `tcp_cwnd_validate`,
//! `tcp_rtt_estimator`, `tcp_update_pacing_rate`, recovery and CWR entered and ended at
//! once (PRR is the stack's), `tcp_enter_loss` and `tcp_undo_cwnd_reduction`, in
//! segments. Methods of [`LinuxFlowState`] take the [`LinuxParams`]; [`Cubic`](super::Cubic)
//! pairs the two; hidden methods are kernel-style calls for the replay, `ffi/` and
//! `embedded/`.

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

mod ack;
mod events;
mod observe;
mod pacing;
mod stack;
mod transmit;

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

    /// Override cwnd directly, as a stack writing `snd_cwnd` would; at least 1.
    #[doc(hidden)]
    pub fn set_cwnd(&mut self, p: &LinuxParams, cwnd: u32) {
        self.freeze_pacing_rate(p);
        self.hot.cwnd = cwnd.max(1);
        self.note_cwnd_or_clamp_written();
    }

    /// Override ssthresh directly; at least 1.
    #[doc(hidden)]
    pub fn set_ssthresh(&mut self, p: &LinuxParams, ssthresh: u32) {
        self.freeze_pacing_rate(p);
        self.hot.ssthresh = ssthresh.max(1);
    }

    /// Override the window clamp directly; at least 1. cwnd is not cut until it next grows.
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
