//! Where a Linux-mode flow keeps its fields: one 64-byte line of what every
//! congestion-avoidance ACK and the send after it read or write, and one line of the rest.
//!
//! Fields are grouped by how often they are touched, not as the kernel's structs are;
//! the rare paths gather [`LinuxCubic`] and [`LinuxHystart`] from both lines and scatter
//! them back. Three values are lazy, so the common ACK and send stay on the hot line:
//! - `snd_nxt` is `snd_una + packets_out` unless [`SND_NXT_AHEAD`] says the cold copy
//!   holds it (after losses or discards left the flight, or a stack's own `snd_nxt` or
//!   cumulative ACK was not where the flight put it);
//! - the window clamp is applied on an ACK only while [`CLAMP_PENDING`] says cwnd may lie
//!   above it, or when the window grows;
//! - the pacing rate's `packets_out` input is cwnd unless [`FLIGHT_ABOVE_CWND`] says the
//!   last event left more in flight than cwnd (its value then in the cold slot).

use crate::cubic::{BictcpFields, LinuxCubic};
use crate::hystart::{HystartExit, LinuxHystart};
use crate::linux::state::LinuxCubicState;

/// The kernel's congestion-avoidance state machine (`icsk_ca_state`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum CaState {
    /// `TCP_CA_Open`: normal operation.
    #[default]
    Open = 0,
    /// `TCP_CA_Disorder`: reordering or SACKs seen (the glue never enters it itself).
    Disorder = 1,
    /// `TCP_CA_CWR`: window reduced for ECN.
    Cwr = 2,
    /// `TCP_CA_Recovery`: fast recovery.
    Recovery = 3,
    /// `TCP_CA_Loss`: recovery after a retransmission timeout.
    Loss = 4,
}

/// The last transmit was limited by cwnd (`is_cwnd_limited`).
pub(crate) const IS_CWND_LIMITED: u16 = 1 << 0;
/// A loss or ECN-CE reduction set `high_seq` and no RTO or undo has ended its period.
pub(crate) const LOSS_RECOVERY: u16 = 1 << 1;
/// The pacing slot holds `sk_pacing_rate` itself (computed eagerly, or frozen by a setter).
pub(crate) const PACING_FRESH: u16 = 1 << 2;
/// The last event left more in flight than cwnd; the pacing slot holds that flight.
pub(crate) const FLIGHT_ABOVE_CWND: u16 = 1 << 3;
/// `snd_nxt` is the cold copy, not `snd_una + packets_out`.
pub(crate) const SND_NXT_AHEAD: u16 = 1 << 4;
/// Something may have taken segments out of the stack's flight since its `snd_nxt` was
/// last compared: the next send compares it (cold path). In [`SND_NXT_AHEAD`]'s byte.
pub(crate) const COMPARE_SND_NXT: u16 = 1 << 5;
/// A loss, ECN-CE or RTO reduction has begun a recovery period at least once.
pub(crate) const RECOVERY_ARMED: u16 = 1 << 6;
/// cwnd may lie above the clamp: the next ACK that runs `cong_avoid` applies it.
pub(crate) const CLAMP_PENDING: u16 = 1 << 7;
/// `icsk_ca_state` ([`CaState`]), three bits: nonzero in every state but Open, so one
/// test of the flags sees both it and [`LOSS_RECOVERY`].
pub(crate) const CA_STATE_SHIFT: u16 = 8;
pub(crate) const CA_STATE_MASK: u16 = 0b111 << CA_STATE_SHIFT;
/// The flow does not model `sk_pacing_rate` (`model_pacing` off when it was initialised
/// or last reconfigured): the rate keeps its last value, in the pacing slot.
pub(crate) const PACING_NOT_MODELLED: u16 = 1 << 11;
/// The current recovery period began with an ECN-CE reduction (the kernel's CWR), which
/// the kernel holds while `snd_una` is at `high_seq`, one ACK longer than a loss's.
pub(crate) const CWR_PERIOD: u16 = 1 << 12;
/// A reduction armed undo (`undo_marker`); read only by the rare paths.
pub(crate) const UNDO_MARKER: u16 = 1 << 13;

// HyStart's byte: sample_cnt (0..=8) in the low nibble, then found, then the exit.
const SAMPLES_MASK: u8 = 0x0f;
const FOUND: u8 = 1 << 4;
const EXIT_SHIFT: u8 = 5;
const EXIT_MASK: u8 = 0b11 << EXIT_SHIFT;

/// The line a congestion-avoidance ACK and the send after it touch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub(crate) struct Hot {
    // CUBIC, the fields read on every ACK (the rest are in `Cold::curve`); first, so that
    // an RTO's reset clears an 8-aligned block, as init does.
    pub cnt: u32,
    pub ack_cnt: u32,
    pub last_cwnd: u32,
    pub last_time: u32,
    pub delay_min: u32,
    pub epoch_start: u32,
    pub cwnd: u32,
    pub ssthresh: u32,
    pub cwnd_cnt: u32,
    // The socket glue.
    pub snd_una: u32,
    pub packets_out: u32,
    pub max_packets_out: u32,
    pub cwnd_usage_seq: u32,
    pub last_send_jiffies: u32,
    pub srtt_us_x8: u32,
    /// The flag bits above, [`CaState`] among them.
    pub flags: u16,
    /// `icsk_retransmits`, a `u8` in the kernel too (it wraps as the kernel's does).
    pub retransmits: u8,
    /// HyStart's `sample_cnt`, `found` and which detector fired.
    pub hystart: u8,
}

/// CUBIC's curve: read when it is recomputed (a cwnd change, or every 1/32 s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub(crate) struct Curve {
    pub last_max_cwnd: u32,
    pub origin_point: u32,
    pub bic_k: u32,
    pub tcp_cwnd: u32,
}

/// HyStart's round, read only in slow start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub(crate) struct Round {
    pub round_start: u32,
    pub end_seq: u32,
    pub last_ack: u32,
    pub curr_rtt: u32,
}

/// Everything else: the curve, HyStart's round, the clamp, undo and recovery records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub(crate) struct Cold {
    pub curve: Curve,
    pub round: Round,
    pub clamp: u32,
    pub prior_cwnd: u32,
    pub prior_ssthresh: u32,
    pub high_seq: u32,
    /// When the current recovery period began, the kernel's 32-bit µs clock.
    pub recovery_start_us32: u32,
    /// `snd_nxt` while [`SND_NXT_AHEAD`] is set.
    pub snd_nxt: u32,
    /// `sk_pacing_rate` while [`PACING_FRESH`] is set; else, while [`FLIGHT_ABOVE_CWND`]
    /// is set, the `packets_out` the last event left.
    pub pacing: u64,
}

/// The per-flow state of Linux mode, without its parameters: two cache lines.
///
/// [`Cubic`](crate::linux::Cubic) pairs it with [`LinuxParams`](crate::linux::LinuxParams);
/// a stack with many flows and one parameter block (the C ABI, firmware) can store this
/// alone. The first, 64-byte-aligned line holds what a congestion-avoidance ACK and the
/// next send touch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C, align(64))]
pub struct LinuxFlowState {
    pub(crate) hot: Hot,
    pub(crate) cold: Cold,
}

const _: () = assert!(core::mem::size_of::<Hot>() <= 64);
const _: () = assert!(core::mem::size_of::<LinuxFlowState>() <= 128);
const _: () = assert!(core::mem::align_of::<LinuxFlowState>() == 64);

/// `bictcp_update` and `recalc_ssthresh` run on the fields where they are: six on the hot
/// line, the curve's four on the cold one.
impl BictcpFields for LinuxFlowState {
    fn cnt(&self) -> u32 {
        self.hot.cnt
    }
    fn set_cnt(&mut self, v: u32) {
        self.hot.cnt = v;
    }
    fn last_max_cwnd(&self) -> u32 {
        self.cold.curve.last_max_cwnd
    }
    fn set_last_max_cwnd(&mut self, v: u32) {
        self.cold.curve.last_max_cwnd = v;
    }
    fn set_last_cwnd(&mut self, v: u32) {
        self.hot.last_cwnd = v;
    }
    fn last_time(&self) -> u32 {
        self.hot.last_time
    }
    fn set_last_time(&mut self, v: u32) {
        self.hot.last_time = v;
    }
    fn origin_point(&self) -> u32 {
        self.cold.curve.origin_point
    }
    fn set_origin_point(&mut self, v: u32) {
        self.cold.curve.origin_point = v;
    }
    fn bic_k(&self) -> u32 {
        self.cold.curve.bic_k
    }
    fn set_bic_k(&mut self, v: u32) {
        self.cold.curve.bic_k = v;
    }
    fn delay_min(&self) -> u32 {
        self.hot.delay_min
    }
    fn epoch_start(&self) -> u32 {
        self.hot.epoch_start
    }
    fn set_epoch_start(&mut self, v: u32) {
        self.hot.epoch_start = v;
    }
    fn ack_cnt(&self) -> u32 {
        self.hot.ack_cnt
    }
    fn set_ack_cnt(&mut self, v: u32) {
        self.hot.ack_cnt = v;
    }
    fn tcp_cwnd(&self) -> u32 {
        self.cold.curve.tcp_cwnd
    }
    fn set_tcp_cwnd(&mut self, v: u32) {
        self.cold.curve.tcp_cwnd = v;
    }
}

impl LinuxFlowState {
    /// Bytes of the line a congestion-avoidance ACK and its send touch.
    pub const HOT_BYTES: usize = core::mem::size_of::<Hot>();

    #[inline(always)]
    pub(crate) const fn has(&self, flag: u16) -> bool {
        self.hot.flags & flag != 0
    }

    #[inline(always)]
    pub(crate) fn set(&mut self, flag: u16, on: bool) {
        if on {
            self.hot.flags |= flag;
        } else {
            self.hot.flags &= !flag;
        }
    }

    /// `snd_nxt`, segments.
    #[inline(always)]
    pub(crate) const fn snd_nxt(&self) -> u32 {
        if self.has(SND_NXT_AHEAD) {
            self.cold.snd_nxt
        } else {
            self.hot.snd_una.wrapping_add(self.hot.packets_out)
        }
    }

    /// Store `snd_nxt`, in the cold copy only when it is not `snd_una + packets_out`.
    pub(crate) fn store_snd_nxt(&mut self, snd_nxt: u32) {
        let derived = self.hot.snd_una.wrapping_add(self.hot.packets_out);
        self.set(SND_NXT_AHEAD, snd_nxt != derived);
        self.cold.snd_nxt = snd_nxt;
    }

    /// Change `packets_out` without moving `snd_nxt` (a loss, a discard, an RTO).
    pub(crate) fn set_packets_out(&mut self, packets_out: u32) {
        let snd_nxt = self.snd_nxt();
        self.hot.packets_out = packets_out;
        self.store_snd_nxt(snd_nxt);
    }

    /// The window clamp, segments.
    pub const fn clamp(&self) -> u32 {
        self.cold.clamp
    }

    /// After cwnd or the clamp changed outside window growth: must the next ACK clamp?
    pub(crate) fn note_cwnd_or_clamp_written(&mut self) {
        let above = self.hot.cwnd > self.cold.clamp;
        self.set(CLAMP_PENDING, above);
    }

    /// HyStart's `found`.
    #[inline(always)]
    pub(crate) const fn hystart_found(&self) -> bool {
        self.hot.hystart & FOUND != 0
    }

    /// Which HyStart detector ended slow start, since init or the last RTO.
    pub const fn hystart_exit(&self) -> Option<HystartExit> {
        match (self.hot.hystart & EXIT_MASK) >> EXIT_SHIFT {
            1 => Some(HystartExit::AckTrain),
            2 => Some(HystartExit::DelayIncrease),
            _ => None,
        }
    }

    pub(crate) fn set_hystart_exit(&mut self, exit: Option<HystartExit>) {
        let code = match exit {
            None => 0,
            Some(HystartExit::AckTrain) => 1,
            Some(HystartExit::DelayIncrease) => 2,
        };
        self.hot.hystart = (self.hot.hystart & !EXIT_MASK) | (code << EXIT_SHIFT);
    }

    /// The kernel's `struct bictcp` CUBIC half, gathered from both lines.
    pub(crate) const fn cubic(&self) -> LinuxCubic {
        let h = &self.hot;
        let c = &self.cold.curve;
        LinuxCubic {
            cnt: h.cnt,
            last_max_cwnd: c.last_max_cwnd,
            last_cwnd: h.last_cwnd,
            last_time: h.last_time,
            origin_point: c.origin_point,
            bic_k: c.bic_k,
            delay_min: h.delay_min,
            epoch_start: h.epoch_start,
            ack_cnt: h.ack_cnt,
            tcp_cwnd: c.tcp_cwnd,
        }
    }

    pub(crate) fn set_cubic(&mut self, c: &LinuxCubic) {
        let h = &mut self.hot;
        h.cnt = c.cnt;
        h.last_cwnd = c.last_cwnd;
        h.last_time = c.last_time;
        h.delay_min = c.delay_min;
        h.epoch_start = c.epoch_start;
        h.ack_cnt = c.ack_cnt;
        self.cold.curve = Curve {
            last_max_cwnd: c.last_max_cwnd,
            origin_point: c.origin_point,
            bic_k: c.bic_k,
            tcp_cwnd: c.tcp_cwnd,
        };
    }

    /// HyStart's half of `struct bictcp`, gathered from both lines.
    pub(crate) const fn hystart(&self) -> LinuxHystart {
        let r = &self.cold.round;
        LinuxHystart {
            round_start: r.round_start,
            end_seq: r.end_seq,
            last_ack: r.last_ack,
            curr_rtt: r.curr_rtt,
            sample_cnt: self.hot.hystart & SAMPLES_MASK,
            found: self.hystart_found(),
        }
    }

    pub(crate) fn set_hystart(&mut self, h: &LinuxHystart) {
        self.cold.round = Round {
            round_start: h.round_start,
            end_seq: h.end_seq,
            last_ack: h.last_ack,
            curr_rtt: h.curr_rtt,
        };
        // sample_cnt never exceeds HYSTART_MIN_SAMPLES (8); clamped to the nibble anyway.
        let samples = if h.sample_cnt > SAMPLES_MASK {
            SAMPLES_MASK
        } else {
            h.sample_cnt
        };
        let found = if h.found { FOUND } else { 0 };
        self.hot.hystart = (self.hot.hystart & EXIT_MASK) | found | samples;
    }

    /// The CUBIC + HyStart + window state, as the kernel would hold it (72 bytes).
    pub const fn state(&self) -> LinuxCubicState {
        LinuxCubicState {
            cubic: self.cubic(),
            hystart: self.hystart(),
            cwnd: self.hot.cwnd,
            ssthresh: self.hot.ssthresh,
            cwnd_cnt: self.hot.cwnd_cnt,
        }
    }

    /// The kernel's `icsk_ca_state`.
    #[inline(always)]
    pub const fn ca_state(&self) -> CaState {
        match (self.hot.flags & CA_STATE_MASK) >> CA_STATE_SHIFT {
            0 => CaState::Open,
            1 => CaState::Disorder,
            2 => CaState::Cwr,
            3 => CaState::Recovery,
            _ => CaState::Loss,
        }
    }

    pub(crate) fn set_ca_state(&mut self, state: CaState) {
        let bits = (state as u16) << CA_STATE_SHIFT;
        self.hot.flags = (self.hot.flags & !CA_STATE_MASK) | bits;
    }
}

#[cfg(test)]
mod tests;
