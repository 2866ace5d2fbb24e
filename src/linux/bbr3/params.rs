//! BBRv3's constants (`bbr_param(sk, x)` is the compiled-in `bbr_x`: v3 has no module
//! parameters) and the two kernel build/sysctl values its TSO budget reads.

use crate::ConfigError;
use crate::hystart::PacingStatus;
use crate::linux::bbr::flow_sock::SockSettings;

/// `BW_SCALE`: bandwidth is packets per µs scaled by 2^24.
pub const BW_SCALE: u32 = 24;
/// `BW_UNIT`: one packet per µs.
pub const BW_UNIT: u64 = 1 << BW_SCALE;
/// `BBR_SCALE`: gains and fractions are scaled by 2^8.
pub const BBR_SCALE: u32 = 8;
/// `BBR_UNIT`: a gain of 1.0.
pub const BBR_UNIT: u32 = 1 << BBR_SCALE;

/// `bbr_min_rtt_win_sec`: the min_rtt filter window, seconds.
pub const MIN_RTT_WIN_SEC: u32 = 10;
/// `bbr_probe_rtt_mode_ms`: least time in PROBE_RTT, ms.
pub const PROBE_RTT_MODE_MS: u32 = 200;
/// `bbr_probe_rtt_win_ms`: the probe_rtt_min filter window, ms.
pub const PROBE_RTT_WIN_MS: u32 = 5000;
/// `bbr_probe_rtt_cwnd_gain`: cwnd in PROBE_RTT as a fraction of the BDP (0.5).
pub const PROBE_RTT_CWND_GAIN: u32 = BBR_UNIT / 2;
/// `bbr_tso_rtt_shift`: halve the RTT-based TSO allowance every 2^9 µs of min_rtt.
pub const TSO_RTT_SHIFT: u32 = 9;
/// `bbr_pacing_margin_percent`: pace 1 % below the estimate.
pub const PACING_MARGIN_PERCENT: u32 = 1;
/// `bbr_startup_pacing_gain`: 2.77 (4 ln 2, rounded up).
pub const STARTUP_PACING_GAIN: u32 = BBR_UNIT * 277 / 100 + 1;
/// `bbr_startup_cwnd_gain`: 2.0.
pub const STARTUP_CWND_GAIN: u32 = BBR_UNIT * 2;
/// `bbr_drain_gain`: 1/2.885.
pub const DRAIN_GAIN: u32 = BBR_UNIT * 1000 / 2885;
/// `bbr_cwnd_gain`: 2.0 in PROBE_BW.
pub const CWND_GAIN: u32 = BBR_UNIT * 2;
/// `bbr_pacing_gain[]` by PROBE_BW phase: UP 1.25, DOWN 0.91, CRUISE 1.0, REFILL 1.0.
pub const PACING_GAIN: [u32; 4] = [BBR_UNIT * 5 / 4, BBR_UNIT * 91 / 100, BBR_UNIT, BBR_UNIT];
/// `bbr_cwnd_min_target`: the smallest cwnd BBR aims for, packets.
pub const CWND_MIN_TARGET: u32 = 4;
/// `bbr_full_bw_thresh`: bandwidth growth below 1.25x counts toward a plateau.
pub const FULL_BW_THRESH: u32 = BBR_UNIT * 5 / 4;
/// `bbr_full_bw_cnt`: rounds of plateau that mean the pipe is full.
pub const FULL_BW_CNT: u32 = 3;
/// `bbr_extra_acked_gain`: weight of the ACK-aggregation allowance (1.0).
pub const EXTRA_ACKED_GAIN: u32 = BBR_UNIT;
/// `bbr_extra_acked_win_rtts`: the aggregation filter window, rounds.
pub const EXTRA_ACKED_WIN_RTTS: u32 = 5;
/// `bbr_ack_epoch_acked_reset_thresh`: restart an aggregation epoch after 2^20 packets.
pub const ACK_EPOCH_ACKED_RESET_THRESH: u32 = 1 << 20;
/// `bbr_extra_acked_max_us`: the aggregation allowance is at most 100 ms of bandwidth.
pub const EXTRA_ACKED_MAX_US: u64 = 100 * 1000;
/// `bbr_ecn_max_rtt_us`: ECN is used only with a min_rtt of at most 5 ms.
pub const ECN_MAX_RTT_US: u32 = 5000;
/// `bbr_beta`: multiplicative cut on loss (0.3).
pub const BETA: u32 = BBR_UNIT * 30 / 100;
/// `bbr_ecn_alpha_gain`: EWMA gain of the CE fraction (1/16).
pub const ECN_ALPHA_GAIN: u32 = BBR_UNIT / 16;
/// `bbr_ecn_alpha_init`: `ecn_alpha` starts at 1.0.
pub const ECN_ALPHA_INIT: u16 = BBR_UNIT as u16;
/// `bbr_ecn_factor`: ECN cuts `inflight_lo` by `ecn_alpha / 3`.
pub const ECN_FACTOR: u32 = BBR_UNIT / 3;
/// `bbr_ecn_thresh`: a CE fraction above 0.5 means the flight is too high.
pub const ECN_THRESH: u32 = BBR_UNIT / 2;
/// `bbr_ecn_reprobe_gain`: first re-probe step after ECN clears, as a fraction of inflight_hi.
pub const ECN_REPROBE_GAIN: u32 = BBR_UNIT / 2;
/// `bbr_loss_thresh`: a loss rate above 2 % means the flight is too high.
pub const LOSS_THRESH: u32 = BBR_UNIT * 2 / 100;
/// `bbr_full_loss_cnt`: loss-marking ACKs in a STARTUP recovery round that end STARTUP.
pub const FULL_LOSS_CNT: u8 = 6;
/// `bbr_full_ecn_cnt`: rounds of high CE fraction that end STARTUP.
pub const FULL_ECN_CNT: u8 = 2;
/// `bbr_inflight_headroom`: headroom left below inflight_hi (0.15).
pub const INFLIGHT_HEADROOM: u32 = BBR_UNIT * 15 / 100;
/// `bbr_bw_probe_cwnd_gain`: extra cwnd gain in PROBE_UP, in units of 1/4.
pub const BW_PROBE_CWND_GAIN: u32 = 1;
/// `bbr_bw_probe_max_rounds`: the Reno-coexistence bound on rounds between probes.
pub const BW_PROBE_MAX_ROUNDS: u32 = 63;
/// `bbr_bw_probe_rand_rounds`: random rounds added to that count.
pub const BW_PROBE_RAND_ROUNDS: u32 = 2;
/// `bbr_bw_probe_base_us`: least wall-clock time between probes, µs.
pub const BW_PROBE_BASE_US: u32 = 2_000_000;
/// `bbr_bw_probe_rand_us`: random wall-clock time added to that, µs.
pub const BW_PROBE_RAND_US: u32 = 1_000_000;
/// `bbr_fast_path`: skip model and control updates on uneventful app-limited ACKs.
pub const FAST_PATH: bool = true;
/// `GSO_LEGACY_MAX_SIZE`: the largest TSO/GSO burst BBR budgets for, bytes.
pub use crate::linux::tcp::GSO_LEGACY_MAX_SIZE;

/// The x86-64 distribution kernels' `MAX_TCP_HEADER`, bytes.
pub const DEFAULT_MAX_TCP_HEADER: u32 = 320;

/// What a BBRv3 flow is built with. BBRv3 has no module parameters: these are the
/// socket's settings, what ECN the handshake and the route allow, and what BBR reads
/// from outside `tcp_bbr.c` (the `MAX_TCP_HEADER` build constant and the
/// `tcp_min_tso_segs` sysctl, which only shape the TSO budget). See [`Bbr3`](super::Bbr3)'s example.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct Bbr3Config {
    /// `mss_cache`: bytes per segment (at least 1).
    pub mss: u32,
    /// The initial window, segments (`TCP_INIT_CWND` 10; at least 1, at most the
    /// clamp). BBR remembers at most 127 of it (`init_cwnd:7`).
    pub init_cwnd: u32,
    /// `snd_cwnd_clamp`: cwnd never exceeds it (at least 1).
    pub cwnd_clamp: u32,
    /// The handshake RTT, µs, or 0 if none: seeds `srtt`, `tcp_min_rtt()` and the
    /// initial pacing rate (1 ms is assumed without one).
    pub initial_rtt_us: u32,
    /// `sk_max_pacing_rate`, bytes/s (`u64::MAX`: no cap).
    pub max_pacing_rate: u64,
    /// `sk_pacing_status` before BBR starts; BBR asks for internal pacing if it is none.
    pub pacing_status: PacingStatus,
    /// `sk_pacing_shift`: the TSO goal is 1/2^shift s of the pacing rate (10; below 64).
    pub pacing_shift: u8,
    /// `MAX_TCP_HEADER`, bytes: the TSO goal's byte cap is `65535 - it` (below 65535).
    pub max_tcp_header: u32,
    /// `net.ipv4.tcp_min_tso_segs`: the least TSO goal, segments (default 2).
    pub min_tso_segs: u32,
    /// ECN was negotiated (`TCP_ECN_OK`): ECE marks count `delivered_ce` and cause CWR.
    pub ecn: bool,
    /// The route is a shallow-threshold ECN path (`TCP_ECN_LOW`): with `ecn`, BBR uses
    /// CE marks as a congestion signal once min_rtt is at most 5 ms.
    pub ecn_low: bool,
}

impl Bbr3Config {
    /// The kernel's defaults: mss 1448, IW10, no clamp, no handshake RTT, no pacing
    /// cap, pacing none (BBR turns on internal pacing), shift 10, header 320, TSO
    /// minimum 2, no ECN.
    pub const fn new() -> Self {
        Bbr3Config {
            mss: 1448,
            init_cwnd: 10,
            cwnd_clamp: u32::MAX,
            initial_rtt_us: 0,
            max_pacing_rate: u64::MAX,
            pacing_status: PacingStatus::None,
            pacing_shift: 10,
            max_tcp_header: DEFAULT_MAX_TCP_HEADER,
            min_tso_segs: 2,
            ecn: false,
            ecn_low: false,
        }
    }

    /// Checks every setting once.
    pub const fn validate(&self) -> Result<Bbr3Params, ConfigError> {
        // v3 shifts a u64 pacing rate
        if let Err(e) = self.sock_settings().validate(64) {
            return Err(e);
        }
        Ok(Bbr3Params { config: *self })
    }
}

impl Bbr3Config {
    /// The settings the flow's socket is built from.
    pub(crate) const fn sock_settings(&self) -> SockSettings {
        SockSettings {
            mss: self.mss,
            init_cwnd: self.init_cwnd,
            cwnd_clamp: self.cwnd_clamp,
            initial_rtt_us: self.initial_rtt_us,
            max_pacing_rate: self.max_pacing_rate,
            pacing_status: self.pacing_status,
            pacing_shift: self.pacing_shift,
            max_tcp_header: self.max_tcp_header,
        }
    }
}

impl Default for Bbr3Config {
    fn default() -> Self {
        Self::new()
    }
}

/// A validated [`Bbr3Config`], shared by every flow (and the `Params` of
/// [`super::TcpBbr3`]); see [`Bbr3`](super::Bbr3)'s example.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bbr3Params {
    config: Bbr3Config,
}

impl Bbr3Params {
    /// The kernel's defaults ([`Bbr3Config::new`]).
    pub const DEFAULT: Self = Bbr3Params {
        config: Bbr3Config::new(),
    };

    /// The settings these parameters were validated from.
    pub const fn config(&self) -> &Bbr3Config {
        &self.config
    }

    /// `MAX_TCP_HEADER`, bytes (below 65535).
    pub const fn max_tcp_header(&self) -> u32 {
        self.config.max_tcp_header
    }

    /// `tcp_min_tso_segs`, segments.
    pub const fn min_tso_segs(&self) -> u32 {
        self.config.min_tso_segs
    }
}

impl Default for Bbr3Params {
    fn default() -> Self {
        Self::DEFAULT
    }
}
