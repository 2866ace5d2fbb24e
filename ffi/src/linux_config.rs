//! The C configuration of a Linux-mode flow: every module parameter, socket setting and
//! send-path setting, with Linux's defaults from [`congestion_linux_cubic_config_default`].

use crate::send_config::{SendFields, send_fields};
use crate::*;

const _: () = assert!(size_of::<CongestionLinuxCubicConfig>() == 96);
use congestion::ConfigError;
use congestion::cubic::{HystartDetect, LinuxCubicConfig, LinuxCubicParams};
use congestion::linux::{LinuxSocketConfig, TCP_INFINITE_SSTHRESH};
use congestion::pacing::SendPathParams;

/// A Linux-mode flow's settings. Fill it with [`congestion_linux_cubic_config_default`], change
/// what you need, then call [`congestion_linux_cubic_init`]. Flags are `uint8_t`: 0 false,
/// anything else true. No padding: 96 bytes on every target.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionLinuxCubicConfig {
    /// `sk_max_pacing_rate`, bytes/s (`CONGESTION_RATE_UNLIMITED`, UINT64_MAX: none).
    pub max_pacing_rate: u64,
    /// Initial `snd_ssthresh`, segments (`CONGESTION_SSTHRESH_NONE`, UINT64_MAX: none,
    /// the kernel's `TCP_INFINITE_SSTHRESH`; at most UINT32_MAX otherwise).
    pub init_ssthresh: u64,
    /// CUBIC β, of 1024 (`beta`, 717).
    pub beta: u32,
    /// CUBIC `bic_scale` (41).
    pub bic_scale: u32,
    /// `hystart_low_window`, segments (16).
    pub hystart_low_window: u32,
    /// `hystart_ack_delta_us` (2000).
    pub hystart_ack_delta_us: u32,
    /// `initial_ssthresh`, segments, used without HyStart (0: none).
    pub initial_ssthresh: u32,
    /// Initial `snd_cwnd`, segments (10).
    pub init_cwnd: u32,
    /// `snd_cwnd_clamp`, segments (0xffffffff).
    pub cwnd_clamp: u32,
    /// MSS, bytes (1448).
    pub mss: u32,
    /// Smoothed RTT at init, µs (0: none).
    pub initial_srtt_us: u32,
    /// Initial send sequence, segments (0).
    pub iss: u32,
    /// `sk_gso_max_size`, bytes (65536).
    pub gso_max_size: u32,
    /// `tcp_pacing_ss_ratio`, percent (200).
    pub pacing_ss_ratio: u32,
    /// `tcp_pacing_ca_ratio`, percent (120).
    pub pacing_ca_ratio: u32,
    /// `fast_convergence` (1).
    pub fast_convergence: u8,
    /// `tcp_friendliness` (1).
    pub tcp_friendliness: u8,
    /// `hystart` (1).
    pub hystart: u8,
    /// `hystart_detect`: 1 ACK train, 2 delay, 3 both (3).
    pub hystart_detect: u8,
    /// `sk_pacing_status`: 0 none, 1 the flow paces itself, 2 the fq qdisc paces (0).
    pub pacing_status: u8,
    /// Whether the flow computes a pacing rate at all (1).
    pub model_pacing: u8,
    /// Send path: `sk_pacing_shift`, TSQ and TSO budgets are `rate >> shift` (10).
    pub pacing_shift: u8,
    /// Send path: `tcp_tso_rtt_log`, TSO adds `gso_max_size >> (min_rtt >> log)` (9).
    pub tso_rtt_log: u8,
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
}

impl CongestionLinuxCubicConfig {
    /// Linux's defaults.
    pub fn linux_default() -> Self {
        let c = LinuxCubicConfig::new();
        let s = LinuxSocketConfig::new();
        let p = SendFields::linux_default();
        CongestionLinuxCubicConfig {
            beta: c.beta,
            bic_scale: c.bic_scale,
            hystart_low_window: c.hystart_low_window,
            hystart_ack_delta_us: c.hystart_ack_delta_us,
            initial_ssthresh: c.initial_ssthresh,
            init_cwnd: s.init_cwnd,
            init_ssthresh: if s.init_ssthresh == TCP_INFINITE_SSTHRESH {
                CONGESTION_SSTHRESH_NONE
            } else {
                u64::from(s.init_ssthresh)
            },
            cwnd_clamp: s.cwnd_clamp,
            mss: s.mss,
            initial_srtt_us: s.initial_srtt_us,
            iss: s.iss,
            gso_max_size: s.gso_max_size,
            pacing_ss_ratio: s.pacing_ss_ratio,
            pacing_ca_ratio: s.pacing_ca_ratio,
            max_pacing_rate: s.max_pacing_rate,
            fast_convergence: u8::from(c.fast_convergence),
            tcp_friendliness: u8::from(c.tcp_friendliness),
            hystart: u8::from(c.hystart),
            hystart_detect: c.hystart_detect.bits(),
            pacing_status: p.pacing_status,
            model_pacing: u8::from(s.model_pacing),
            pacing_shift: p.pacing_shift,
            tso_rtt_log: p.tso_rtt_log,
            tsq_limit_bytes: p.tsq_limit_bytes,
            truesize_overhead_bytes: p.truesize_overhead_bytes,
            gso_max_segs: p.gso_max_segs,
            min_tso_segs: p.min_tso_segs,
            min_rtt_window_ms: p.min_rtt_window_ms,
        }
    }

    /// The library's settings, validated, or the error code.
    pub(crate) fn to_rust(
        self,
    ) -> Result<(LinuxCubicParams, LinuxSocketConfig, SendPathParams), i32> {
        let send = self.send_fields();
        let pacing_status = send.pacing_status()?;
        let mut c = LinuxCubicConfig::new();
        c.beta = self.beta;
        c.bic_scale = self.bic_scale;
        c.fast_convergence = self.fast_convergence != 0;
        c.tcp_friendliness = self.tcp_friendliness != 0;
        c.hystart = self.hystart != 0;
        c.hystart_detect = HystartDetect::from_bits(self.hystart_detect).map_err(code)?;
        c.hystart_low_window = self.hystart_low_window;
        c.hystart_ack_delta_us = self.hystart_ack_delta_us;
        c.initial_ssthresh = self.initial_ssthresh;
        let params = c.validate().map_err(code)?;
        let mut s = LinuxSocketConfig::new();
        s.init_cwnd = self.init_cwnd;
        s.init_ssthresh = match self.init_ssthresh {
            CONGESTION_SSTHRESH_NONE => TCP_INFINITE_SSTHRESH,
            v => u32::try_from(v).map_err(|_| CONGESTION_ERR_INITIAL_WINDOW)?,
        };
        s.cwnd_clamp = self.cwnd_clamp;
        s.mss = self.mss;
        s.initial_srtt_us = self.initial_srtt_us;
        s.iss = self.iss;
        s.pacing_status = pacing_status;
        s.gso_max_size = self.gso_max_size;
        s.max_pacing_rate = self.max_pacing_rate;
        s.pacing_ss_ratio = self.pacing_ss_ratio;
        s.pacing_ca_ratio = self.pacing_ca_ratio;
        s.model_pacing = self.model_pacing != 0;
        s.validate().map_err(code)?;
        Ok((params, s, send.to_rust()?))
    }

    /// The send-path fields (`gso_max_size` serves the socket and the send path alike).
    fn send_fields(&self) -> SendFields {
        send_fields!(self)
    }
}

/// The C error code of a configuration error.
pub(crate) fn code(e: ConfigError) -> i32 {
    match e {
        ConfigError::BetaOutOfRange => CONGESTION_ERR_BETA,
        ConfigError::BicScaleOutOfRange => CONGESTION_ERR_BIC_SCALE,
        ConfigError::HystartDetectOutOfRange => CONGESTION_ERR_HYSTART_DETECT,
        ConfigError::ClampTooSmall => CONGESTION_ERR_CLAMP,
        ConfigError::InitialWindowOutOfRange => CONGESTION_ERR_INITIAL_WINDOW,
        ConfigError::ZeroMss => CONGESTION_ERR_MSS,
        ConfigError::PacingRatioOutOfRange => CONGESTION_ERR_PACING_RATIO,
        ConfigError::ZeroLimit => CONGESTION_ERR_ZERO_LIMIT,
        ConfigError::ShiftOutOfRange => CONGESTION_ERR_SHIFT,
        ConfigError::CubicCOutOfRange => CONGESTION_ERR_CUBIC_C,
        ConfigError::MssOutOfRange => CONGESTION_ERR_MSS_RANGE,
        _ => CONGESTION_ERR_CONFIG,
    }
}

/// Fills `*config` with Linux's defaults.
///
/// Returns `CONGESTION_OK`, or `CONGESTION_ERR_NULL` if `config` is NULL.
///
/// # Safety
/// `config` is NULL or valid for writing one `CongestionLinuxCubicConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_config_default(
    config: *mut CongestionLinuxCubicConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and valid for writes per the contract.
    unsafe { config.write(CongestionLinuxCubicConfig::linux_default()) };
    CONGESTION_OK
}
