//! The C configuration of an RFC-mode flow (bytes), with RFC defaults from
//! [`congestion_rfc_cubic_config_default`].

use crate::send_config::{SendFields, send_fields};
use crate::*;
use congestion::pacing::{
    PacingFormula, PacingRateConfig, RFC9002_PACING_N_PERCENT, Rate, SendPathParams,
};
use congestion::rfc::{CubicConfig, SlowStartKind};

/// Slow start: standard (RFC 5681 / RFC 9002), no early exit.
pub const CONGESTION_RFC_SLOW_START_STANDARD: u8 = 0;
/// Slow start: Linux HyStart (ACK train + delay increase) adapted to bytes.
pub const CONGESTION_RFC_SLOW_START_LINUX_HYSTART: u8 = 1;
/// Slow start: RFC 9406 HyStart++ (the default).
pub const CONGESTION_RFC_SLOW_START_HYSTART_PLUS_PLUS: u8 = 2;

/// Algorithm: RFC 9438 CUBIC (the default).
pub const CONGESTION_RFC_ALGORITHM_CUBIC: u8 = 0;
/// Algorithm: RFC 9002 NewReno (§7, Appendix B): one MSS per window in congestion
/// avoidance, β = 0.5. It reads none of the CUBIC settings (β, ECN β, C, fast
/// convergence, Reno-friendliness).
pub const CONGESTION_RFC_ALGORITHM_NEWRENO: u8 = 1;

/// Pacing rate: Linux's `tcp_update_pacing_rate` in bytes, `ratio · max(cwnd, in
/// flight) / srtt` with the slow-start ratio while `cwnd < ssthresh / 2` and the
/// congestion-avoidance ratio after (the default).
pub const CONGESTION_PACING_FORMULA_LINUX: u8 = 0;
/// Pacing rate: RFC 9002 §7.7, `N · cwnd / smoothed_rtt` (`pacing_n_percent`).
pub const CONGESTION_PACING_FORMULA_RFC9002: u8 = 1;

/// An RFC-mode flow's settings, in bytes. Fill it with [`congestion_rfc_cubic_config_default`],
/// change what you need, then call `congestion_rfc_cubic_params_init`. Flags are `uint8_t`: 0
/// false, anything else true. The send-path fields mean what they mean in
/// `CongestionLinuxCubicConfig` and only matter to a stack that uses `congestion_rfc_cubic_send_*`.
/// No padding: 96 bytes on every target.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionRfcCubicConfig {
    /// Maximum datagram / segment size, bytes (1200; at most 65535).
    pub mss_bytes: u64,
    /// Initial window, bytes; 0: RFC 9002's `min(10·MSS, max(14720, 2·MSS))` (0).
    pub initial_window_bytes: u64,
    /// Initial ssthresh, bytes (`CONGESTION_SSTHRESH_NONE`, UINT64_MAX: none).
    pub initial_ssthresh_bytes: u64,
    /// Upper bound on the pacing rate, bytes/s (`CONGESTION_RATE_UNLIMITED`,
    /// UINT64_MAX: none).
    pub max_pacing_rate: u64,
    /// CUBIC β after a loss, of 1000 (700).
    pub beta_permille: u32,
    /// CUBIC β after an ECN-CE mark, of 1000 (700).
    pub ecn_beta_permille: u32,
    /// CUBIC C, of 1000 (400).
    pub c_permille: u32,
    /// Linux pacing formula: the ratio in slow start, percent (200).
    pub pacing_ss_ratio_percent: u32,
    /// Linux pacing formula: the ratio otherwise, percent (120).
    pub pacing_ca_ratio_percent: u32,
    /// RFC 9002 pacing formula: `N`, percent (125).
    pub pacing_n_percent: u32,
    /// RFC 9438 §4.7 fast convergence (1).
    pub fast_convergence: u8,
    /// RFC 9438 §4.3 Reno-friendly region (1).
    pub reno_friendly: u8,
    /// A `CONGESTION_RFC_SLOW_START_*` value (HyStart++).
    pub slow_start: u8,
    /// The sender paces its packets: HyStart++ then has no per-ACK limit `L` (0; a
    /// nonzero `pacing_status` implies it).
    pub paced: u8,
    /// A `CONGESTION_RFC_ALGORITHM_*` value (CUBIC).
    pub algorithm: u8,
    /// A `CONGESTION_PACING_FORMULA_*` value (Linux).
    pub pacing_formula: u8,
    /// Send path: who paces, `sk_pacing_status`: 0 nobody, 1 the flow itself (wait for
    /// each departure time `congestion_rfc_cubic_send_poll` gives), 2 the fq qdisc (0).
    pub pacing_status: u8,
    /// Send path: `sk_pacing_shift`, TSQ and TSO budgets are `rate >> shift` (10).
    pub pacing_shift: u8,
    /// Send path: `sk_gso_max_size`, bytes one TSO/GSO burst may carry (65536).
    pub gso_max_size: u32,
    /// Send path: `tcp_limit_output_bytes`, the TSQ cap of unpaced flows (4194304).
    pub tsq_limit_bytes: u32,
    /// Send path: bytes a queued packet costs beyond its length, its truesize
    /// overhead (0).
    pub truesize_overhead_bytes: u32,
    /// Send path: `sk_gso_max_segs` (65535).
    pub gso_max_segs: u32,
    /// Send path: `tcp_min_tso_segs` (2).
    pub min_tso_segs: u32,
    /// Send path: window of the minimum-RTT filter, ms (`tcp_min_rtt_wlen`, 300000).
    pub min_rtt_window_ms: u32,
    /// Send path: `tcp_tso_rtt_log`, TSO adds `gso_max_size >> (min_rtt >> log)` (9).
    pub tso_rtt_log: u8,
    /// Reserved, set to 0.
    pub reserved: [u8; 7],
}

const _: () = assert!(size_of::<CongestionRfcCubicConfig>() == 96);

impl CongestionRfcCubicConfig {
    /// RFC defaults: RFC 9438 CUBIC, HyStart++, unpaced, RFC 9002 initial window,
    /// Linux's pacing-rate rule.
    pub fn rfc_default() -> Self {
        let f = CubicConfig::new();
        let c = f.cubic;
        let p = f.pacing;
        let send = SendFields::linux_default();
        CongestionRfcCubicConfig {
            mss_bytes: c.mss_bytes,
            initial_window_bytes: f.initial_window_bytes.unwrap_or(0),
            initial_ssthresh_bytes: f.initial_ssthresh_bytes.unwrap_or(CONGESTION_SSTHRESH_NONE),
            max_pacing_rate: p.max_rate.as_bytes_per_second(),
            beta_permille: c.beta_permille,
            ecn_beta_permille: c.ecn_beta_permille,
            c_permille: c.c_permille,
            pacing_ss_ratio_percent: p.ss_ratio_percent,
            pacing_ca_ratio_percent: p.ca_ratio_percent,
            pacing_n_percent: RFC9002_PACING_N_PERCENT,
            fast_convergence: u8::from(c.fast_convergence),
            reno_friendly: u8::from(c.reno_friendly),
            slow_start: CONGESTION_RFC_SLOW_START_HYSTART_PLUS_PLUS,
            paced: u8::from(f.paced),
            algorithm: CONGESTION_RFC_ALGORITHM_CUBIC,
            pacing_formula: CONGESTION_PACING_FORMULA_LINUX,
            pacing_status: send.pacing_status,
            pacing_shift: send.pacing_shift,
            gso_max_size: send.gso_max_size,
            tsq_limit_bytes: send.tsq_limit_bytes,
            truesize_overhead_bytes: send.truesize_overhead_bytes,
            gso_max_segs: send.gso_max_segs,
            min_tso_segs: send.min_tso_segs,
            min_rtt_window_ms: send.min_rtt_window_ms,
            tso_rtt_log: send.tso_rtt_log,
            reserved: [0; 7],
        }
    }

    /// Whether the settings ask for NewReno, or the error code.
    pub(crate) fn newreno(&self) -> Result<bool, i32> {
        match self.algorithm {
            CONGESTION_RFC_ALGORITHM_CUBIC => Ok(false),
            CONGESTION_RFC_ALGORITHM_NEWRENO => Ok(true),
            _ => Err(CONGESTION_ERR_ALGORITHM),
        }
    }

    /// The pacing-rate settings (validated by the flow, or by [`Self::to_rust`]).
    fn pacing(&self) -> Result<PacingRateConfig, i32> {
        let mut p = PacingRateConfig::new();
        p.formula = match self.pacing_formula {
            CONGESTION_PACING_FORMULA_LINUX => PacingFormula::Linux,
            CONGESTION_PACING_FORMULA_RFC9002 => PacingFormula::Rfc9002 {
                n_percent: self.pacing_n_percent,
            },
            _ => return Err(CONGESTION_ERR_PACING_FORMULA),
        };
        p.ss_ratio_percent = self.pacing_ss_ratio_percent;
        p.ca_ratio_percent = self.pacing_ca_ratio_percent;
        p.max_rate = Rate::from_bytes_per_second(self.max_pacing_rate);
        Ok(p)
    }

    /// The send path's settings, validated, or the error code.
    pub(crate) fn send(&self) -> Result<SendPathParams, i32> {
        send_fields!(self).to_rust()
    }

    /// The flow's settings, validated, or the error code.
    pub(crate) fn to_rust(self) -> Result<CubicConfig, i32> {
        self.newreno()?;
        let mut f = CubicConfig::new();
        f.slow_start = match self.slow_start {
            CONGESTION_RFC_SLOW_START_STANDARD => SlowStartKind::Standard,
            CONGESTION_RFC_SLOW_START_LINUX_HYSTART => SlowStartKind::LinuxHystart,
            CONGESTION_RFC_SLOW_START_HYSTART_PLUS_PLUS => SlowStartKind::HystartPlusPlus,
            _ => return Err(CONGESTION_ERR_SLOW_START),
        };
        f.paced = self.paced != 0 || self.pacing_status != 0;
        f.initial_window_bytes =
            (self.initial_window_bytes != 0).then_some(self.initial_window_bytes);
        f.initial_ssthresh_bytes = (self.initial_ssthresh_bytes != CONGESTION_SSTHRESH_NONE)
            .then_some(self.initial_ssthresh_bytes);
        f.pacing = self.pacing()?;
        let c = &mut f.cubic;
        c.mss_bytes = self.mss_bytes;
        c.beta_permille = self.beta_permille;
        c.ecn_beta_permille = self.ecn_beta_permille;
        c.c_permille = self.c_permille;
        c.fast_convergence = self.fast_convergence != 0;
        c.reno_friendly = self.reno_friendly != 0;
        f.validate().map_err(crate::linux_config::code)?;
        f.pacing.validate().map_err(crate::linux_config::code)?;
        Ok(f)
    }
}

/// Fills `*config` with the RFC defaults.
///
/// Returns `CONGESTION_OK`, or `CONGESTION_ERR_NULL` if `config` is NULL.
///
/// # Safety
/// `config` is NULL or valid for writing one `CongestionRfcCubicConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_config_default(
    config: *mut CongestionRfcCubicConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and valid for writes per the contract.
    unsafe { config.write(CongestionRfcCubicConfig::rfc_default()) };
    CONGESTION_OK
}
