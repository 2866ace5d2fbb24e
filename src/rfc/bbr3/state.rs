//! `BBR.state` (§5.1.1) and the per-flow model variables of §2.7–§2.16, in bytes,
//! bytes per µs << 16 ([`super::BW_UNIT`]), gains /256 and [`Instant`]s.

use crate::linux::bbr3::AckPhase;
use crate::time::Instant;

/// `BBR.state`: the draft's seven states (§5.1.1). Startup, Drain and ProbeRTT are
/// the kernel's modes; the four ProbeBW states are the kernel's PROBE_BW phases.
///
/// ```
/// use congestion::rfc::bbr3::State;
///
/// assert!(State::ProbeBwCruise.is_probe_bw());
/// assert!(State::Startup.is_probing_bw() && !State::ProbeBwDown.is_probing_bw());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum State {
    /// Startup (§5.3.1): double the sending rate each round to find the bandwidth.
    #[default]
    Startup,
    /// Drain (§5.3.2): drain the queue Startup built.
    Drain,
    /// ProbeBW_DOWN (§5.3.3.1): send slower than the path to drain and leave headroom.
    ProbeBwDown,
    /// ProbeBW_CRUISE (§5.3.3.2): send at the estimate.
    ProbeBwCruise,
    /// ProbeBW_REFILL (§5.3.3.3): refill the pipe for one round before probing.
    ProbeBwRefill,
    /// ProbeBW_UP (§5.3.3.4): send faster than the estimate to probe for more.
    ProbeBwUp,
    /// ProbeRTT (§5.3.4): cut the flight to re-measure the minimum RTT.
    ProbeRtt,
}

impl State {
    /// `IsInAProbeBWState()` (§5.3.3.9).
    pub const fn is_probe_bw(self) -> bool {
        matches!(
            self,
            State::ProbeBwDown | State::ProbeBwCruise | State::ProbeBwRefill | State::ProbeBwUp
        )
    }

    /// `IsProbingBW()` (§5.3.3.9): Startup, ProbeBW_REFILL and ProbeBW_UP.
    pub const fn is_probing_bw(self) -> bool {
        matches!(
            self,
            State::Startup | State::ProbeBwRefill | State::ProbeBwUp
        )
    }
}

/// The model: every `BBR.*` variable of §2 this implementation keeps. `u32::MAX` is
/// the draft's "Infinity" for volumes and rates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(super) struct Model {
    pub state: State,
    pub pacing_gain: u32,
    pub cwnd_gain: u32,
    // §2.7 rounds
    pub round_count: u64,
    pub round_start: bool,
    pub next_round_delivered: u32,
    pub idle_restart: bool,
    pub drain_start_round: u64,
    // §2.9.1 rates
    pub max_bw_filter: [u32; 2],
    pub bw_shortterm: u32,
    pub bw: u32,
    // §2.9.2 volumes
    pub min_rtt_us: u32,
    pub min_rtt_stamp: Instant,
    pub inflight_longterm: u32,
    pub inflight_shortterm: u32,
    pub extra_acked: u32,
    // §2.10 congestion
    pub bw_latest: u32,
    pub inflight_latest: u32,
    pub loss_round_delivered: u32,
    pub loss_round_start: bool,
    pub is_loss_in_round: bool,
    // §2.12 aggregation (two slots, as the kernel)
    pub extra_acked_slots: [u32; 2],
    pub extra_acked_slot: u8,
    pub extra_acked_slot_rounds: u8,
    pub extra_acked_interval_start: Instant,
    pub extra_acked_delivered: u32,
    // §2.13 startup
    pub full_bw_reached: bool,
    pub full_bw_now: bool,
    pub full_bw: u32,
    pub full_bw_count: u8,
    pub lost_ranges_in_round: u8,
    // §2.14 ProbeBW
    pub ack_phase: AckPhase,
    pub is_bw_probe_sample: bool,
    pub bw_probe_up_acked: u32,
    pub probe_up_acked_per_inc: u32,
    pub bw_probe_up_rounds: u8,
    pub rounds_since_probe_up: u8,
    pub bw_probe_wait_us: u32,
    pub cycle_stamp: Instant,
    pub prev_probe_too_high: bool,
    pub prev_probe_precautionary: bool,
    // §2.15 undo
    pub undo_state: Option<State>,
    pub undo_bw_shortterm: u32,
    pub undo_inflight_shortterm: u32,
    pub undo_inflight_longterm: u32,
    pub prior_cwnd: u32,
    // §2.16 ProbeRTT
    pub probe_rtt_min_us: u32,
    pub probe_rtt_min_stamp: Instant,
    pub probe_rtt_done_stamp: Option<Instant>,
    pub probe_rtt_round_done: bool,
    pub probe_rtt_expired: bool,
    // ECN (the kernel's response, §3.7)
    pub ecn_alpha: u16,
    pub ecn_in_round: bool,
    pub startup_ecn_rounds: u8,
    pub alpha_acked_packets: u32,
    pub alpha_ce_packets: u32,
}
