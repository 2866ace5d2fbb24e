//! The 2.6.35 profile's settings: the `tcp_cubic` module parameters of that kernel, the
//! sysctls its socket glue reads, the socket's initial values, and `HZ`.

use super::jiffies::is_supported_hz;
use crate::cubic::{BICTCP_BETA_SCALE, BICTCP_HZ, HystartDetect, MAX_BIC_SCALE};
use crate::error::ConfigError;

/// `TCP_INFINITE_SSTHRESH`: "no slow-start threshold yet", segments.
// Linux 2.6.35 include/net/tcp.h TCP_INFINITE_SSTHRESH
pub const TCP_INFINITE_SSTHRESH_2635: u32 = 0x7fff_ffff;

/// Everything a 2.6.35 flow is configured with, with the defaults of that kernel and of
/// the reference traces (`tests/data/linux-2.6.35/README.md`).
///
/// A plain struct: build with [`new`](CubicConfig::new) or `Default`, change fields,
/// then hand it to [`Cubic::new`](super::Cubic::new), which calls
/// [`validate`](CubicConfig::validate) and refuses a bad one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct CubicConfig {
    /// β in 1/1024 (`beta`, 717 ≈ 0.7); `1..1024`.
    pub beta: u32,
    /// C in 1/1024 (`bic_scale`, 41); `1..=MAX_BIC_SCALE`.
    pub bic_scale: u32,
    /// Fast convergence (`fast_convergence`, on).
    pub fast_convergence: bool,
    /// Reno-friendly region (`tcp_friendliness`, on).
    pub tcp_friendliness: bool,
    /// HyStart on or off (`hystart`, on).
    pub hystart: bool,
    /// Which HyStart detectors may end slow start (`hystart_detect`, both).
    pub hystart_detect: HystartDetect,
    /// HyStart acts only from this cwnd on, segments (`hystart_low_window`, 16).
    pub hystart_low_window: u32,
    /// ssthresh at init when HyStart is off, segments; 0 keeps `init_ssthresh`
    /// (`initial_ssthresh`, 0).
    pub initial_ssthresh: u32,
    /// Kernel ticks per second (`CONFIG_HZ`): 100, 250 or 1000 (default 1000).
    pub hz: u32,
    /// Initial `snd_cwnd`, segments: 2 (RFC 3390 at MSS 8948; use 3 for MSS 1448).
    pub init_cwnd: u32,
    /// Initial `snd_ssthresh`, segments (`TCP_INFINITE_SSTHRESH`).
    pub init_ssthresh: u32,
    /// `snd_cwnd_clamp`, segments; at least 2 (default `u32::MAX`).
    pub cwnd_clamp: u32,
    /// `mss_cache`, bytes (default 8948, a 9000-byte MTU); at least 1.
    pub mss: u32,
    /// Initial send sequence, segments (default 0).
    pub iss: u32,
    /// `sk_can_gso`: whether the TSO deferral rule of `tcp_is_cwnd_limited` applies (on).
    pub gso: bool,
    /// `sk_gso_max_size`, bytes (65536).
    pub gso_max_size: u32,
    /// `tp->reordering`, segments (3): `tcp_max_burst` and the slack of
    /// `tcp_moderate_cwnd`; at least 1.
    pub reordering: u32,
    /// `sysctl_tcp_tso_win_divisor` (3); at least 1.
    pub tso_win_divisor: u32,
}

impl CubicConfig {
    /// The 2.6.35 defaults: CUBIC v2.3 parameters, HZ=1000, IW2 at MSS 8948, GSO on.
    pub const fn new() -> Self {
        CubicConfig {
            beta: 717,
            bic_scale: 41,
            fast_convergence: true,
            tcp_friendliness: true,
            hystart: true,
            hystart_detect: HystartDetect::BOTH,
            hystart_low_window: 16,
            initial_ssthresh: 0,
            hz: 1000,
            init_cwnd: 2,
            init_ssthresh: TCP_INFINITE_SSTHRESH_2635,
            cwnd_clamp: u32::MAX,
            mss: 8948,
            iss: 0,
            gso: true,
            gso_max_size: 65536,
            reordering: 3,
            tso_win_divisor: 3,
        }
    }

    /// Refuses what no 2.6.35 socket could run: β outside `1..1024`, `bic_scale`
    /// outside `1..=MAX_BIC_SCALE`, an `hz` other than 100/250/1000, a clamp below 2,
    /// an initial window of 0 or above the clamp, an initial ssthresh of 0, MSS 0, and a
    /// `reordering` or `tso_win_divisor` of 0 (a window moderated to 0 would stall the
    /// flow for good).
    pub const fn validate(&self) -> Result<(), ConfigError> {
        if self.beta == 0 || self.beta >= BICTCP_BETA_SCALE {
            return Err(ConfigError::BetaOutOfRange);
        }
        if self.bic_scale == 0 || self.bic_scale > MAX_BIC_SCALE {
            return Err(ConfigError::BicScaleOutOfRange);
        }
        if !is_supported_hz(self.hz) {
            return Err(ConfigError::HzOutOfRange);
        }
        if self.cwnd_clamp < 2 {
            return Err(ConfigError::ClampTooSmall);
        }
        if self.init_cwnd == 0 || self.init_cwnd > self.cwnd_clamp {
            return Err(ConfigError::InitialWindowOutOfRange);
        }
        if self.mss == 0 {
            return Err(ConfigError::ZeroMss);
        }
        if self.init_ssthresh == 0 || self.reordering == 0 || self.tso_win_divisor == 0 {
            return Err(ConfigError::ZeroLimit);
        }
        Ok(())
    }

    /// `beta_scale`: ACKs per segment of Reno-estimate growth, ×8.
    // Linux 2.6.35 tcp_cubic.c cubictcp_register(): 8*(1024+beta)/3/(1024-beta)
    pub const fn beta_scale(&self) -> u32 {
        if self.beta == 0 || self.beta >= BICTCP_BETA_SCALE {
            return 0; // refused by validate(); no division by zero here either
        }
        8 * (BICTCP_BETA_SCALE + self.beta) / 3 / (BICTCP_BETA_SCALE - self.beta)
    }

    /// `cube_rtt_scale` = `bic_scale * 10` (saturating for an unvalidated config).
    // Linux 2.6.35 tcp_cubic.c cubictcp_register(): cube_rtt_scale = bic_scale * 10
    pub const fn cube_rtt_scale(&self) -> u32 {
        self.bic_scale.saturating_mul(10)
    }

    /// `cube_factor` = 2^(10 + 3·BICTCP_HZ) / `cube_rtt_scale` = 2^40 / 410 by default.
    // Linux 2.6.35 tcp_cubic.c cubictcp_register(): cube_factor = 2^40 / (bic_scale*10)
    pub const fn cube_factor(&self) -> u64 {
        let scale = self.cube_rtt_scale() as u64;
        if scale == 0 {
            return 0; // refused by validate()
        }
        (1u64 << (10 + 3 * BICTCP_HZ)) / scale
    }
}

impl Default for CubicConfig {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests;
