//! The Linux CUBIC module parameters, validated, with the kernel's derived constants.

use crate::error::ConfigError;

/// `BICTCP_BETA_SCALE`: β is expressed in 1/1024.
// Linux net/ipv4/tcp_cubic.c BICTCP_BETA_SCALE
pub const BICTCP_BETA_SCALE: u32 = 1024;

/// `BICTCP_HZ`: CUBIC time is measured in 2^-10 s.
// Linux net/ipv4/tcp_cubic.c BICTCP_HZ
pub const BICTCP_HZ: u32 = 10;

/// Largest accepted `bic_scale`: `bic_scale * 10` must fit the kernel's `u32` product
/// `cube_rtt_scale * offs^3` without making every window target wrap; the kernel's own
/// parameter is an `int` and nobody runs it above a few hundred.
pub const MAX_BIC_SCALE: u32 = 1 << 20;

/// Which Linux HyStart detectors run (`hystart_detect`, a bit mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(transparent)]
pub struct HystartDetect(u8);

impl HystartDetect {
    /// No detector (slow start ends only at ssthresh or a loss).
    pub const NONE: HystartDetect = HystartDetect(0);
    /// `HYSTART_ACK_TRAIN`: ACKs spaced closely for longer than half the minimum delay.
    pub const ACK_TRAIN: HystartDetect = HystartDetect(1);
    /// `HYSTART_DELAY`: the round's minimum delay rises above `delay_min` plus a margin.
    pub const DELAY: HystartDetect = HystartDetect(2);
    /// Both detectors, the kernel default.
    pub const BOTH: HystartDetect = HystartDetect(3);

    /// From the kernel's integer mask; values above 3 are refused.
    pub const fn from_bits(bits: u8) -> Result<Self, ConfigError> {
        if bits > 3 {
            Err(ConfigError::HystartDetectOutOfRange)
        } else {
            Ok(HystartDetect(bits))
        }
    }

    /// The mask.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether the ACK-train detector runs.
    pub const fn ack_train(self) -> bool {
        self.0 & 1 != 0
    }

    /// Whether the delay-increase detector runs.
    pub const fn delay(self) -> bool {
        self.0 & 2 != 0
    }
}

/// The `tcp_cubic` module parameters, as a plain config with the kernel's defaults.
///
/// Build with [`LinuxCubicConfig::new`] (or `Default`), adjust fields, then call
/// [`validate`](LinuxCubicConfig::validate) to get the [`LinuxCubicParams`] a flow runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
// C layout: the BPF build passes it by reference, and the kernel's BTF loader rejects
// the debug info of a struct whose fields Rust reordered.
#[repr(C)]
pub struct LinuxCubicConfig {
    /// β in 1/1024 (`beta`, default 717 ≈ 0.7). Must be in `1..1024`.
    pub beta: u32,
    /// C in 1/1024 (`bic_scale`, default 41 ≈ 0.04 for the kernel's 100 ms reference RTT).
    pub bic_scale: u32,
    /// Fast convergence: release bandwidth when Wmax shrinks (`fast_convergence`).
    pub fast_convergence: bool,
    /// Reno-friendly region (`tcp_friendliness`).
    pub tcp_friendliness: bool,
    /// HyStart on or off (`hystart`).
    pub hystart: bool,
    /// Which HyStart detectors run (`hystart_detect`).
    pub hystart_detect: HystartDetect,
    /// HyStart only acts once cwnd reaches this many segments (`hystart_low_window`).
    pub hystart_low_window: u32,
    /// Largest ACK spacing that still counts as one train, µs (`hystart_ack_delta_us`).
    pub hystart_ack_delta_us: u32,
    /// ssthresh at init when HyStart is off, segments; 0 keeps the socket's
    /// (`initial_ssthresh`).
    pub initial_ssthresh: u32,
}

impl LinuxCubicConfig {
    /// The kernel's defaults (Linux 6.x `tcp_cubic.c` v2.3).
    pub const fn new() -> Self {
        LinuxCubicConfig {
            beta: 717,
            bic_scale: 41,
            fast_convergence: true,
            tcp_friendliness: true,
            hystart: true,
            hystart_detect: HystartDetect::BOTH,
            hystart_low_window: 16,
            hystart_ack_delta_us: 2000,
            initial_ssthresh: 0,
        }
    }

    /// Checks the parameters and computes the derived constants once, as the kernel
    /// does at module load (`cubictcp_register`).
    pub const fn validate(&self) -> Result<LinuxCubicParams, ConfigError> {
        if self.beta == 0 || self.beta >= BICTCP_BETA_SCALE {
            return Err(ConfigError::BetaOutOfRange);
        }
        if self.bic_scale == 0 || self.bic_scale > MAX_BIC_SCALE {
            return Err(ConfigError::BicScaleOutOfRange);
        }
        // Linux cubictcp_register(): beta_scale = 8*(1024+beta)/3/(1024-beta)
        let beta_scale = 8 * (BICTCP_BETA_SCALE + self.beta) / 3 / (BICTCP_BETA_SCALE - self.beta);
        // Linux cubictcp_register(): cube_rtt_scale = bic_scale*10 (1024*c/rtt)
        let cube_rtt_scale = self.bic_scale * 10;
        // Linux cubictcp_register(): cube_factor = 2^(10+3*BICTCP_HZ) / (bic_scale*10)
        let cube_factor = (1u64 << (10 + 3 * BICTCP_HZ)) / cube_rtt_scale as u64;
        Ok(LinuxCubicParams {
            config: *self,
            beta_scale,
            cube_rtt_scale,
            cube_factor,
        })
    }
}

impl Default for LinuxCubicConfig {
    fn default() -> Self {
        Self::new()
    }
}

/// Validated Linux CUBIC parameters plus the constants derived from them.
///
/// Only [`LinuxCubicConfig::validate`] makes one, so holding one proves the
/// configuration is sane. Shared by every flow that uses it, like the kernel's globals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
// C layout, for the same reason as `LinuxCubicConfig`.
#[repr(C)]
pub struct LinuxCubicParams {
    config: LinuxCubicConfig,
    beta_scale: u32,
    cube_rtt_scale: u32,
    cube_factor: u64,
}

impl LinuxCubicParams {
    /// The parameters these were derived from.
    pub const fn config(&self) -> &LinuxCubicConfig {
        &self.config
    }

    /// `beta_scale`: Reno-friendly ACKs per segment of estimated Reno growth, ×8.
    pub const fn beta_scale(&self) -> u32 {
        self.beta_scale
    }

    /// `cube_rtt_scale` = `bic_scale * 10`.
    pub const fn cube_rtt_scale(&self) -> u32 {
        self.cube_rtt_scale
    }

    /// `cube_factor` = 2^40 / `cube_rtt_scale`.
    pub const fn cube_factor(&self) -> u64 {
        self.cube_factor
    }
}

impl LinuxCubicParams {
    /// The kernel's defaults, validated at compile time (the fallback arm is never
    /// taken; it keeps the constant free of any panic path).
    pub const DEFAULT: LinuxCubicParams = match LinuxCubicConfig::new().validate() {
        Ok(p) => p,
        Err(_) => LinuxCubicParams {
            config: LinuxCubicConfig::new(),
            beta_scale: 15,
            cube_rtt_scale: 410,
            cube_factor: 2_681_735_677,
        },
    };
}

impl Default for LinuxCubicParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests;
