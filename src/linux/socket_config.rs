//! Per-socket settings of a Linux-mode flow: what `tcp_sock` starts with.

use crate::error::ConfigError;
use crate::hystart::PacingStatus;
use crate::linux::state::TCP_INFINITE_SSTHRESH;
use crate::pacing::{PACING_CA_RATIO_PERCENT, PACING_SS_RATIO_PERCENT};

/// Socket-level settings: initial window, clamp, MSS and pacing inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct LinuxSocketConfig {
    /// Initial `snd_cwnd`, segments (Linux `TCP_INIT_CWND` = 10).
    pub init_cwnd: u32,
    /// Initial `snd_ssthresh`, segments (`TCP_INFINITE_SSTHRESH`).
    pub init_ssthresh: u32,
    /// `snd_cwnd_clamp`, segments; at least 2.
    pub cwnd_clamp: u32,
    /// `mss_cache`, bytes.
    pub mss: u32,
    /// Smoothed RTT at init, µs (unscaled); 0 = none (the handshake's sample usually).
    pub initial_srtt_us: u32,
    /// Initial send sequence, in segments.
    pub iss: u32,
    /// `sk_pacing_status`.
    pub pacing_status: PacingStatus,
    /// `sk_gso_max_size`, bytes.
    pub gso_max_size: u32,
    /// `sk_max_pacing_rate`, bytes/s.
    pub max_pacing_rate: u64,
    /// Pacing ratio while `cwnd < ssthresh / 2`, percent.
    pub pacing_ss_ratio: u32,
    /// Pacing ratio otherwise, percent.
    pub pacing_ca_ratio: u32,
    /// Whether the flow computes `sk_pacing_rate` at all (off: it stays 0).
    pub model_pacing: bool,
}

impl LinuxSocketConfig {
    /// Linux defaults: IW10, no ssthresh, no clamp, MSS 1448, 64 KiB GSO, no cap.
    pub const fn new() -> Self {
        LinuxSocketConfig {
            init_cwnd: 10,
            init_ssthresh: TCP_INFINITE_SSTHRESH,
            cwnd_clamp: u32::MAX,
            mss: 1448,
            initial_srtt_us: 0,
            iss: 0,
            pacing_status: PacingStatus::None,
            gso_max_size: 65536,
            max_pacing_rate: u64::MAX,
            pacing_ss_ratio: PACING_SS_RATIO_PERCENT,
            pacing_ca_ratio: PACING_CA_RATIO_PERCENT,
            model_pacing: true,
        }
    }

    /// Refuses settings no kernel socket could have: MSS 0, a clamp below 2 (the
    /// kernel's smallest ssthresh), a zero initial window,
    /// an initial window above the clamp, a zero ssthresh or pacing ratio.
    pub const fn validate(&self) -> Result<(), ConfigError> {
        if self.mss == 0 {
            return Err(ConfigError::ZeroMss);
        }
        // The kernel never sets ssthresh below 2, so a smaller clamp could not hold.
        if self.cwnd_clamp < 2 {
            return Err(ConfigError::ClampTooSmall);
        }
        if self.init_cwnd == 0 || self.init_cwnd > self.cwnd_clamp {
            return Err(ConfigError::InitialWindowOutOfRange);
        }
        if self.init_ssthresh == 0 {
            return Err(ConfigError::ZeroLimit);
        }
        if self.pacing_ss_ratio == 0 || self.pacing_ca_ratio == 0 {
            return Err(ConfigError::PacingRatioOutOfRange);
        }
        Ok(())
    }
}

impl Default for LinuxSocketConfig {
    fn default() -> Self {
        Self::new()
    }
}
