//! `struct bbr`: BBR's private per-flow state, within the kernel's 104-byte
//! `icsk_ca_priv`, with the kernel's field widths.

use crate::linux::CaState;
use crate::linux::tcp::Minmax;

/// `enum bbr_mode`: how fast BBR sends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum BbrMode {
    /// `BBR_STARTUP`: ramp up quickly to fill the pipe.
    #[default]
    Startup = 0,
    /// `BBR_DRAIN`: drain the queue STARTUP built.
    Drain = 1,
    /// `BBR_PROBE_BW`: cycle the pacing gain around the estimated bandwidth.
    ProbeBw = 2,
    /// `BBR_PROBE_RTT`: cut the flight to 4 segments to measure the propagation delay.
    ProbeRtt = 3,
}

/// The one-bit fields of `struct bbr`, packed in [`BbrState::flags`].
mod bit {
    pub const PACKET_CONSERVATION: u16 = 1 << 0;
    pub const ROUND_START: u16 = 1 << 1;
    pub const IDLE_RESTART: u16 = 1 << 2;
    pub const PROBE_RTT_ROUND_DONE: u16 = 1 << 3;
    pub const LT_IS_SAMPLING: u16 = 1 << 4;
    pub const LT_USE_BW: u16 = 1 << 5;
    pub const FULL_BW_REACHED: u16 = 1 << 6;
    pub const HAS_SEEN_RTT: u16 = 1 << 7;
    pub const EXTRA_ACKED_WIN_IDX: u16 = 1 << 8;
}

/// `struct bbr`: the state `tcp_bbr.c` keeps per flow.
///
/// Narrow kernel bit-fields keep their widths: `lt_rtt_cnt` 7 bits, `full_bw_cnt` 2,
/// `cycle_idx` 3, `pacing_gain`/`cwnd_gain` 10, `ack_epoch_acked` 20,
/// `extra_acked_win_rtts` 5; the code that writes them masks or bounds them so.
/// The one-bit fields are packed into one word and read through methods.
///
/// `#[repr(C)]`, widest fields first, so that the layout is fixed and fills the
/// 104 bytes exactly: the BPF struct_ops `rbbr` (bpf/rops) keeps this struct in the
/// kernel's `icsk_ca_priv`, and the BTF it is described by must list members at
/// ascending offsets (the kernel refuses Rust's reordered layout).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct BbrState {
    /// `cycle_mstamp`: start of the current gain-cycle phase, µs.
    pub cycle_mstamp: u64,
    /// `ack_epoch_mstamp`: start of the ACK-aggregation sampling epoch, µs.
    pub ack_epoch_mstamp: u64,
    /// `min_rtt_us`: min RTT in the 10 s window, µs (`u32::MAX`: no sample yet).
    pub min_rtt_us: u32,
    /// `min_rtt_stamp`: jiffies when `min_rtt_us` was taken.
    pub min_rtt_stamp: u32,
    /// `probe_rtt_done_stamp`: jiffies when PROBE_RTT may end (0: not yet armed).
    pub probe_rtt_done_stamp: u32,
    /// `bw`: windowed max of delivery-rate samples, packets/µs << 24, times in rounds.
    pub bw: Minmax,
    /// `rtt_cnt`: packet-timed rounds elapsed.
    pub rtt_cnt: u32,
    /// `next_rtt_delivered`: `tp->delivered` at which the current round ends.
    pub next_rtt_delivered: u32,
    /// `lt_bw`: long-term (policed) delivery rate, packets/µs << 24.
    pub lt_bw: u32,
    /// `lt_last_delivered`: `tp->delivered` at the start of the long-term interval.
    pub lt_last_delivered: u32,
    /// `lt_last_stamp`: `delivered_mstamp` in ms (wrapping) at its start.
    pub lt_last_stamp: u32,
    /// `lt_last_lost`: `tp->lost` at its start.
    pub lt_last_lost: u32,
    /// `prior_cwnd`: cwnd saved on entering loss recovery or PROBE_RTT.
    pub prior_cwnd: u32,
    /// `full_bw`: the bandwidth STARTUP's full-pipe test compares against.
    pub full_bw: u32,
    /// `ack_epoch_acked:20`: segments (S)ACKed in the epoch.
    pub ack_epoch_acked: u32,
    /// `extra_acked[2]`: max excess data ACKed in the two halves of the window.
    pub extra_acked: [u16; 2],
    /// `pacing_gain:10`: current pacing gain, /256.
    pub pacing_gain: u16,
    /// `cwnd_gain:10`: current cwnd gain, /256.
    pub cwnd_gain: u16,
    /// The one-bit fields (see the accessor methods).
    pub(super) flags: u16,
    /// `mode:3`.
    pub mode: BbrMode,
    /// `prev_ca_state:3`: the CA state seen on the previous ACK.
    pub prev_ca_state: CaState,
    /// `lt_rtt_cnt:7`: rounds in the long-term interval.
    pub lt_rtt_cnt: u8,
    /// `full_bw_cnt:2`: rounds without a 25 % bandwidth gain.
    pub full_bw_cnt: u8,
    /// `cycle_idx:3`: phase of the PROBE_BW gain cycle.
    pub cycle_idx: u8,
    /// `extra_acked_win_rtts:5`: age of `extra_acked`, rounds.
    pub extra_acked_win_rtts: u8,
}

// The kernel's ICSK_CA_PRIV_SIZE; rbbr stores exactly these bytes there.
const _: () = assert!(core::mem::size_of::<BbrState>() == 104);

macro_rules! flag {
    ($(#[$doc:meta] $get:ident, $set:ident, $bit:ident;)*) => {
        impl BbrState {
            $(
                #[$doc]
                pub const fn $get(&self) -> bool {
                    self.flags & bit::$bit != 0
                }

                /// Sets the flag of the same name.
                pub fn $set(&mut self, on: bool) {
                    if on {
                        self.flags |= bit::$bit;
                    } else {
                        self.flags &= !bit::$bit;
                    }
                }
            )*
        }
    };
}

flag! {
    /// `packet_conservation:1`: first round of Recovery, send one per one delivered.
    packet_conservation, set_packet_conservation, PACKET_CONSERVATION;
    /// `round_start:1`: this ACK started a new packet-timed round.
    round_start, set_round_start, ROUND_START;
    /// `idle_restart:1`: restarting after idle, until the next delivery.
    idle_restart, set_idle_restart, IDLE_RESTART;
    /// `probe_rtt_round_done:1`: a round at 4 segments passed in PROBE_RTT.
    probe_rtt_round_done, set_probe_rtt_round_done, PROBE_RTT_ROUND_DONE;
    /// `lt_is_sampling:1`: taking long-term samples.
    lt_is_sampling, set_lt_is_sampling, LT_IS_SAMPLING;
    /// `lt_use_bw:1`: `lt_bw` is the bandwidth estimate (a policer was detected).
    lt_use_bw, set_lt_use_bw, LT_USE_BW;
    /// `full_bw_reached:1`: STARTUP filled the pipe.
    full_bw_reached, set_full_bw_reached, FULL_BW_REACHED;
    /// `has_seen_rtt:1`: the pacing rate was initialised from a real RTT.
    has_seen_rtt, set_has_seen_rtt, HAS_SEEN_RTT;
    /// `extra_acked_win_idx:1`: which `extra_acked` slot is current.
    extra_acked_win_idx, set_extra_acked_win_idx, EXTRA_ACKED_WIN_IDX;
}
