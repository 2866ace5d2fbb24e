//! The draft's constants (draft-ietf-ccwg-bbr-06 §2.5–§2.16), in the kernel's fixed
//! point (gains /256), and the validated configuration of a flow.
//!
//! Where the draft and Google's v3 kernel pick the same value, the constant is the
//! kernel's (`crate::linux::bbr3::shared`), imported, not restated; where they differ
//! the draft's value is used and the difference is written next to it.

use crate::ConfigError;
use crate::linux::bbr3::shared as kernel;

/// Bandwidth in RFC mode: bytes per µs scaled by 2^16 (`u32`, so at most 65,535
/// bytes/µs, 524 Gbit/s; faster samples saturate). The kernel counts packets per µs
/// scaled by 2^24; bytes need 8 bits more of integer range, so 8 fewer of fraction
/// (the resolution, 1/65,536 byte per µs, is 15 bytes/s).
pub const BW_SCALE: u32 = 16;
/// One byte per µs at [`BW_SCALE`].
pub const BW_UNIT: u64 = 1 << BW_SCALE;
/// A gain of 1.0 (gains are /256, as the kernel's `BBR_UNIT`).
pub const GAIN_UNIT: u32 = kernel::BBR_UNIT;

/// `BBR.StartupPacingGain` 2.77 (§2.5): the kernel's `bbr_startup_pacing_gain`.
pub const STARTUP_PACING_GAIN: u32 = kernel::STARTUP_PACING_GAIN;
/// `BBR.DrainPacingGain` 0.5 (§2.5). The kernel's `bbr_drain_gain` is 1/2.885 (88/256).
pub const DRAIN_PACING_GAIN: u32 = GAIN_UNIT / 2;
/// `BBR.DefaultCwndGain` 2 (§2.6): the kernel's `bbr_cwnd_gain`.
pub const DEFAULT_CWND_GAIN: u32 = kernel::CWND_GAIN;
/// ProbeBW_UP's cwnd gain 2.25 (§5.3.3.5): the kernel's `bbr_cwnd_gain` plus
/// `bbr_bw_probe_cwnd_gain`/4.
pub const PROBE_UP_CWND_GAIN: u32 = kernel::CWND_GAIN + GAIN_UNIT * kernel::BW_PROBE_CWND_GAIN / 4;
/// ProbeBW_UP's pacing gain 1.25 (§5.3.3.5): the kernel's `bbr_pacing_gain[BBR_BW_PROBE_UP]`.
pub const PROBE_UP_PACING_GAIN: u32 = kernel::PACING_GAIN[0];
/// ProbeBW_DOWN's pacing gain 0.90 (§5.3.3.1), 230/256. The kernel's is 0.91 (232/256).
pub const PROBE_DOWN_PACING_GAIN: u32 = GAIN_UNIT * 90 / 100;
/// `BBR.ProbeRTTCwndGain` 0.5 (§2.16.2): the kernel's `bbr_probe_rtt_cwnd_gain`.
pub const PROBE_RTT_CWND_GAIN: u32 = kernel::PROBE_RTT_CWND_GAIN;
/// `BBR.PacingMarginPercent` 1 (§2.5): the kernel's `bbr_pacing_margin_percent`.
pub const PACING_MARGIN_PERCENT: u32 = kernel::PACING_MARGIN_PERCENT;
/// `BBR.MinRTTFilterLen` 10 s (§2.16.1), µs: the kernel's `bbr_min_rtt_win_sec`.
pub const MIN_RTT_FILTER_LEN_US: u64 = kernel::MIN_RTT_WIN_SEC as u64 * 1_000_000;
/// `BBR.ProbeRTTInterval` 5 s (§2.16.2), µs: the kernel's `bbr_probe_rtt_win_ms`.
pub const PROBE_RTT_INTERVAL_US: u64 = kernel::PROBE_RTT_WIN_MS as u64 * 1000;
/// `BBR.ProbeRTTDuration` 200 ms (§2.16.2), µs: the kernel's `bbr_probe_rtt_mode_ms`.
pub const PROBE_RTT_DURATION_US: u64 = kernel::PROBE_RTT_MODE_MS as u64 * 1000;
/// Rounds of plateau that fill the pipe (§5.3.1.2): the kernel's `bbr_full_bw_cnt`.
pub const FULL_BW_COUNT: u8 = kernel::FULL_BW_CNT as u8;
/// Growth below 1.25x is a plateau (§5.3.1.2): the kernel's `bbr_full_bw_thresh`.
pub const FULL_BW_THRESH: u32 = kernel::FULL_BW_THRESH;
/// `BBRStartupFullLossCnt` 6 (§5.3.1.3): the kernel's `bbr_full_loss_cnt`.
pub const STARTUP_FULL_LOSS_COUNT: u8 = kernel::FULL_LOSS_CNT;
/// Rounds of a high CE ratio that end Startup: the kernel's `bbr_full_ecn_cnt` (the
/// draft specifies no ECN exit, §3.7).
pub const STARTUP_FULL_ECN_COUNT: u8 = kernel::FULL_ECN_CNT;
/// Rounds after which Drain ends even with a queue left (§5.3.2); the kernel has no
/// such limit.
pub const DRAIN_MAX_ROUNDS: u64 = 3;
/// The Reno-coexistence bound on rounds between probes, 63 (§5.3.3.8.2): the
/// kernel's `bbr_bw_probe_max_rounds`.
pub const BW_PROBE_MAX_ROUNDS: u32 = kernel::BW_PROBE_MAX_ROUNDS;
/// Rounds per slot of the two-slot `extra_acked` filter. The draft asks a 10-round
/// windowed max after Startup (`BBR.ExtraAckedFilterLen`, §2.12); the kernel's two
/// slots, swapped every `bbr_extra_acked_win_rtts` = 5 rounds, keep the max of the last
/// 5 to 10 rounds: the draft's window is their upper end. Used as the kernel does.
pub const EXTRA_ACKED_SLOT_ROUNDS: u8 = kernel::EXTRA_ACKED_WIN_RTTS as u8;
/// `BBR.MinPipeCwnd` is 4 SMSS (§2.8): the kernel's `bbr_cwnd_min_target` in packets.
pub const MIN_PIPE_CWND_PACKETS: u32 = kernel::CWND_MIN_TARGET;
/// The send quantum's ceiling, 64 KB (§5.6.3).
pub const SEND_QUANTUM_MAX: u32 = 64 * 1024;

/// What a [`super::Bbr3`] flow is built with.
///
/// ```
/// use congestion::rfc::Bbr3Config;
///
/// let mut config = Bbr3Config::quic(1350);
/// assert_eq!(config.initial_cwnd, 13_500); // min(10 × 1,350, max(14,720, 2 × 1,350))
/// config.pacing_offload_bytes = 64 * 1024;
/// let params = config.validate()?;
/// assert_eq!(params.min_pipe_cwnd(), 4 * 1350);
/// assert!(Bbr3Config::quic(0).validate().is_err());
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct Bbr3Config {
    /// `C.SMSS` (§2.2): for QUIC the maximum datagram size, bytes (1..=65,535).
    pub smss: u32,
    /// `C.InitialCwnd` (§2.2), bytes: at least one SMSS (RFC 9002 §7.2: 10 × SMSS,
    /// at most 14,720 bytes, is the usual choice).
    pub initial_cwnd: u32,
    /// `C.has_selective_acks` (§2.2): true for every QUIC connection (ACK ranges).
    pub has_selective_acks: bool,
    /// Bytes a pacing offload may hold scheduled ahead (§5.5.8.2: the offload budget
    /// SHOULD include them); 0 without pacing offload.
    pub pacing_offload_bytes: u32,
}

impl Bbr3Config {
    /// QUIC defaults for a maximum datagram size `smss`: initial window
    /// `min(10 × smss, max(14,720, 2 × smss))` (RFC 9002 §7.2), selective ACKs, no
    /// pacing offload.
    pub const fn quic(smss: u32) -> Self {
        let ten = smss.saturating_mul(10);
        let cap = if 14_720 > smss.saturating_mul(2) {
            14_720
        } else {
            smss.saturating_mul(2)
        };
        Bbr3Config {
            smss,
            initial_cwnd: if ten < cap { ten } else { cap },
            has_selective_acks: true,
            pacing_offload_bytes: 0,
        }
    }

    /// Checks every setting once: `smss` in 1..=65,535 ([`ConfigError::MssOutOfRange`]),
    /// `initial_cwnd` at least `smss` and below 2^30
    /// ([`ConfigError::InitialWindowOutOfRange`]), `pacing_offload_bytes` below 2^30
    /// ([`ConfigError::ParamOutOfRange`]).
    pub const fn validate(&self) -> Result<Bbr3Params, ConfigError> {
        if self.smss == 0 || self.smss > 65_535 {
            return Err(ConfigError::MssOutOfRange);
        }
        if self.initial_cwnd < self.smss || self.initial_cwnd >= 1 << 30 {
            return Err(ConfigError::InitialWindowOutOfRange);
        }
        if self.pacing_offload_bytes >= 1 << 30 {
            return Err(ConfigError::ParamOutOfRange {
                field: "pacing_offload_bytes",
                min: 0,
                max: (1 << 30) - 1,
            });
        }
        Ok(Bbr3Params { config: *self })
    }
}

impl Default for Bbr3Config {
    /// [`Bbr3Config::quic`] for 1,200-byte datagrams.
    fn default() -> Self {
        Self::quic(1200)
    }
}

/// A validated [`Bbr3Config`], shared by every flow (`Bbr3Config::validate`).
///
/// ```
/// let params = congestion::rfc::Bbr3Config::default().validate()?;
/// assert_eq!(params.smss(), 1200);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bbr3Params {
    config: Bbr3Config,
}

impl Bbr3Params {
    /// The settings these parameters were validated from.
    pub const fn config(&self) -> &Bbr3Config {
        &self.config
    }

    /// `C.SMSS`, bytes.
    pub const fn smss(&self) -> u32 {
        self.config.smss
    }

    /// `BBR.MinPipeCwnd` = 4 × SMSS (§2.8), bytes.
    pub const fn min_pipe_cwnd(&self) -> u32 {
        // draft-ietf-ccwg-bbr §2.8 BBR.MinPipeCwnd: 4 * C.SMSS
        MIN_PIPE_CWND_PACKETS * self.config.smss
    }
}
