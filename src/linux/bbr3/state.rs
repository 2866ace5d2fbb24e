//! `struct bbr`: the per-flow private state of BBRv3 (what the kernel keeps in
//! `icsk_ca_priv`), with the kernel's field names and bit-field widths.
//!
//! The kernel packs its flags and small counters into bit-fields. Here each gets the
//! smallest Rust integer that holds it, and every write that could leave the kernel's
//! width masks or saturates exactly where the kernel's field would wrap or saturate
//! (the comment on each field says how wide the kernel's field is). The receiver-side
//! fields `ce_state`/`prior_rcv_nxt` (DCTCP-style CE echo) and the PLB state are left
//! out: this is a sender, and `tcp_plb_enabled` defaults to 0.

use crate::linux::CaState;

/// `enum bbr_mode`: how fast BBR sends (`mode:2`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Mode {
    /// `BBR_STARTUP`: ramp up the sending rate quickly to fill the pipe.
    #[default]
    Startup = 0,
    /// `BBR_DRAIN`: drain the queue STARTUP built.
    Drain = 1,
    /// `BBR_PROBE_BW`: pace around the estimated bandwidth, probing it in cycles.
    ProbeBw = 2,
    /// `BBR_PROBE_RTT`: cut the flight to re-measure the path's minimum RTT.
    ProbeRtt = 3,
}

/// `enum bbr_pacing_gain_phase`: the PROBE_BW phase, BBR's `cycle_idx` (`cycle_idx:2`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum CyclePhase {
    /// `BBR_BW_PROBE_UP`: push the flight up to probe for more bandwidth.
    #[default]
    Up = 0,
    /// `BBR_BW_PROBE_DOWN`: drain what the probe queued.
    Down = 1,
    /// `BBR_BW_PROBE_CRUISE`: use the pipe, leaving headroom.
    Cruise = 2,
    /// `BBR_BW_PROBE_REFILL`: refill the pipe to the estimate before probing.
    Refill = 3,
}

/// `enum bbr_ack_phase`: how the incoming ACKs relate to bandwidth probing (`ack_phase:3`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum AckPhase {
    /// `BBR_ACKS_INIT`: not probing, no probe feedback.
    #[default]
    Init = 0,
    /// `BBR_ACKS_REFILLING`: sending at the estimate to fill the pipe.
    Refilling = 1,
    /// `BBR_ACKS_PROBE_STARTING`: the flight is rising to probe.
    ProbeStarting = 2,
    /// `BBR_ACKS_PROBE_FEEDBACK`: ACKs of the probe are arriving.
    ProbeFeedback = 3,
    /// `BBR_ACKS_PROBE_STOPPING`: probing stopped; its feedback still arrives.
    ProbeStopping = 4,
}

/// `struct bbr` of Google's BBRv3 `tcp_bbr.c`: one flow's private state.
///
/// Bandwidths are packets per µs scaled by 2^24 ([`super::BW_UNIT`]), gains are
/// scaled by 256 ([`super::BBR_UNIT`]), flights are packets, stamps are jiffies
/// (`*_stamp`) or µs (`*_mstamp`). `u32::MAX` in a `*_lo`/`*_hi` bound means "unset".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bbr {
    /// Minimum RTT in the 10 s `min_rtt_win_sec` window, µs (`u32::MAX`: none yet).
    pub min_rtt_us: u32,
    /// Jiffies when `min_rtt_us` was taken.
    pub min_rtt_stamp: u32,
    /// Jiffies when PROBE_RTT may end (0: not yet scheduled).
    pub probe_rtt_done_stamp: u32,
    /// Minimum RTT in the 5 s `probe_rtt_win_ms` window, µs.
    pub probe_rtt_min_us: u32,
    /// Jiffies when `probe_rtt_min_us` was taken.
    pub probe_rtt_min_stamp: u32,
    /// `tp->delivered` that ends the current packet-timed round.
    pub next_rtt_delivered: u32,
    /// µs when the current PROBE_BW phase began.
    pub cycle_mstamp: u64,
    /// `mode:2`.
    pub mode: Mode,
    /// `prev_ca_state:3`: the CA state at the previous ACK.
    pub prev_ca_state: CaState,
    /// `bw_probe_up_rounds:5`: cwnd-limited rounds spent in PROBE_UP (0..=31).
    pub bw_probe_up_rounds: u8,
    /// `init_cwnd:7`: the cwnd at `init`, at most 127.
    pub init_cwnd: u8,
    /// `pacing_gain:10`.
    pub pacing_gain: u16,
    /// `cwnd_gain:10`.
    pub cwnd_gain: u16,
    /// `full_bw_cnt:2`: rounds without large bandwidth growth.
    pub full_bw_cnt: u8,
    /// `cycle_idx:2`.
    pub cycle_idx: CyclePhase,
    /// cwnd before loss recovery or PROBE_RTT cut it.
    pub prior_cwnd: u32,
    /// Recent bandwidth the full-pipe detector compares against.
    pub full_bw: u32,
    /// µs when the current ACK-aggregation epoch began.
    pub ack_epoch_mstamp: u64,
    /// Largest excess of ACKed data in each of the two aggregation windows.
    pub extra_acked: [u16; 2],
    /// `ack_epoch_acked:20`: packets (S)ACKed in this epoch.
    pub ack_epoch_acked: u32,
    /// `extra_acked_win_rtts:5`: age of the current `extra_acked` slot, rounds.
    pub extra_acked_win_rtts: u8,
    /// `extra_acked_win_idx:1`: which `extra_acked` slot is current.
    pub extra_acked_win_idx: u8,
    /// `startup_ecn_rounds:2`: consecutive STARTUP rounds with a high CE ratio.
    pub startup_ecn_rounds: u8,
    /// `tp->delivered` that ends the current loss round.
    pub loss_round_delivered: u32,
    /// `bw_lo` saved by `bbr_ssthresh` for undo.
    pub undo_bw_lo: u32,
    /// `inflight_lo` saved by `bbr_ssthresh` for undo.
    pub undo_inflight_lo: u32,
    /// `inflight_hi` saved by `bbr_ssthresh` for undo.
    pub undo_inflight_hi: u32,
    /// Largest delivery-rate sample of the latest round.
    pub bw_latest: u32,
    /// Lower bound on the sending rate (`u32::MAX`: unset).
    pub bw_lo: u32,
    /// The two-slot max filter of bandwidth samples, one slot per PROBE_BW cycle.
    pub bw_hi: [u32; 2],
    /// Largest amount delivered in the latest round, packets.
    pub inflight_latest: u32,
    /// Lower bound on the flight (`u32::MAX`: unset).
    pub inflight_lo: u32,
    /// Upper bound on the flight (`u32::MAX`: unset).
    pub inflight_hi: u32,
    /// Packets to deliver per `inflight_hi` increment in PROBE_UP (`u32::MAX`: not growing).
    pub bw_probe_up_cnt: u32,
    /// Packets (S)ACKed since the last `inflight_hi` increment.
    pub bw_probe_up_acks: u32,
    /// Random wall-clock wait in PROBE_DOWN/CRUISE before the next probe, µs.
    pub probe_wait_us: u32,
    /// `ecn_alpha:9`: EWMA of the CE fraction, 0..=256.
    pub ecn_alpha: u16,
    /// `rounds_since_probe:8`: packet-timed rounds since the last probe, saturating.
    pub rounds_since_probe: u8,
    /// `ack_phase:3`.
    pub ack_phase: AckPhase,
    /// `loss_events_in_round:4`: loss-marking ACKs in this STARTUP round, saturating at 15.
    pub loss_events_in_round: u8,
    /// `tp->delivered` at the last `ecn_alpha` update.
    pub alpha_last_delivered: u32,
    /// `tp->delivered_ce` at the last `ecn_alpha` update.
    pub alpha_last_delivered_ce: u32,
    /// The kernel's one-bit fields, one bit each ([`Flag`]); read and written through
    /// the accessors below, so that the struct stays within the kernel's 152 bytes.
    pub(super) flags: u32,
}

/// The one-bit fields of `struct bbr`, as bit positions in `Bbr::flags`.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Flag {
    /// `round_start:1`.
    RoundStart,
    /// `try_fast_path:1`.
    TryFastPath,
    /// `idle_restart:1`.
    IdleRestart,
    /// `probe_rtt_round_done:1`.
    ProbeRttRoundDone,
    /// `full_bw_reached:1`.
    FullBwReached,
    /// `has_seen_rtt:1`.
    HasSeenRtt,
    /// `full_bw_now:1`.
    FullBwNow,
    /// `loss_in_cycle:1`.
    LossInCycle,
    /// `ecn_in_cycle:1`.
    EcnInCycle,
    /// `ecn_eligible:1`.
    EcnEligible,
    /// `bw_probe_samples:1`.
    BwProbeSamples,
    /// `prev_probe_too_high:1`.
    PrevProbeTooHigh,
    /// `stopped_risky_probe:1`.
    StoppedRiskyProbe,
    /// `loss_round_start:1`.
    LossRoundStart,
    /// `loss_in_round:1`.
    LossInRound,
    /// `ecn_in_round:1`.
    EcnInRound,
    /// `initialized:1`.
    Initialized,
}

/// One getter and one setter per one-bit field.
macro_rules! flag_accessors {
    ($($get:ident / $set:ident = $flag:ident: $doc:literal;)*) => {
        impl Bbr {
            $(
                #[doc = $doc]
                pub const fn $get(&self) -> bool {
                    self.flags & (1 << Flag::$flag as u32) != 0
                }

                #[doc = concat!("Sets `", stringify!($get), "`.")]
                pub fn $set(&mut self, value: bool) {
                    let bit = 1 << Flag::$flag as u32;
                    if value {
                        self.flags |= bit;
                    } else {
                        self.flags &= !bit;
                    }
                }
            )*
        }
    };
}

flag_accessors! {
    round_start / set_round_start = RoundStart: "`round_start:1`: this ACK starts a new packet-timed round.";
    try_fast_path / set_try_fast_path = TryFastPath: "`try_fast_path:1`.";
    idle_restart / set_idle_restart = IdleRestart: "`idle_restart:1`: restarting after idle.";
    probe_rtt_round_done / set_probe_rtt_round_done = ProbeRttRoundDone: "`probe_rtt_round_done:1`: a PROBE_RTT round at the low flight has passed.";
    full_bw_reached / set_full_bw_reached = FullBwReached: "`full_bw_reached:1`: STARTUP estimated the pipe full.";
    has_seen_rtt / set_has_seen_rtt = HasSeenRtt: "`has_seen_rtt:1`.";
    full_bw_now / set_full_bw_now = FullBwNow: "`full_bw_now:1`: a bandwidth plateau was seen recently.";
    loss_in_cycle / set_loss_in_cycle = LossInCycle: "`loss_in_cycle:1`.";
    ecn_in_cycle / set_ecn_in_cycle = EcnInCycle: "`ecn_in_cycle:1`.";
    ecn_eligible / set_ecn_eligible = EcnEligible: "`ecn_eligible:1`: the sender uses ECN (negotiated, low-threshold route, short RTT).";
    bw_probe_samples / set_bw_probe_samples = BwProbeSamples: "`bw_probe_samples:1`: rate samples now reflect bandwidth probing.";
    prev_probe_too_high / set_prev_probe_too_high = PrevProbeTooHigh: "`prev_probe_too_high:1`: the last PROBE_UP found the flight too high.";
    stopped_risky_probe / set_stopped_risky_probe = StoppedRiskyProbe: "`stopped_risky_probe:1`: the last PROBE_UP stopped at `inflight_hi`.";
    loss_round_start / set_loss_round_start = LossRoundStart: "`loss_round_start:1`.";
    loss_in_round / set_loss_in_round = LossInRound: "`loss_in_round:1`.";
    ecn_in_round / set_ecn_in_round = EcnInRound: "`ecn_in_round:1`.";
    initialized / set_initialized = Initialized: "`initialized:1`: `bbr_init` has run.";
}

// The kernel's `struct bbr` of 001a430b is 152 bytes (gcc, x86-64): ours stays within it.
const _: () = assert!(core::mem::size_of::<Bbr>() <= 152);
