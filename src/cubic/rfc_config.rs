//! RFC-mode CUBIC configuration: β and C as per-mille integers, the MSS in bytes.
//!
//! Scale: every fraction here is an integer in thousandths (`RFC_SCALE = 1000`), so
//! β = 0.7 is `700`, C = 0.4 segments/s³ is `400`, RFC 8511's ABE β = 0.85 is `850`.
//! Per-mille represents all three recommended values exactly.

use crate::error::ConfigError;
use core::num::NonZeroU64;

/// The fixed-point scale of [`RfcCubicConfig`]'s fractions: thousandths.
pub const RFC_SCALE: u64 = 1000;

/// β_cubic = 0.7 in thousandths.
// RFC 9438 §4.6: "Parameter β_cubic SHOULD be set to 0.7"
pub const BETA_CUBIC_PERMILLE: u32 = 700;

/// C = 0.4 (segments per second cubed) in thousandths.
// RFC 9438 §5.1: "C SHOULD be set to 0.4"
pub const C_PERMILLE: u32 = 400;

/// RFC 8511 (Alternative Backoff with ECN) β = 0.85 in thousandths, for ECN-CE.
// RFC 8511 §3: beta_{ecn} 0.85 recommended for CUBIC
pub const ABE_BETA_PERMILLE: u32 = 850;

/// Largest MSS accepted, in bytes: keeps `C · MSS` and `3(1−β) · MSS` far inside `u64`.
pub const MAX_MSS_BYTES: u64 = 65_535;

/// Largest C accepted, in thousandths (C = 100 segments/s³).
pub const MAX_C_PERMILLE: u32 = 100_000;

/// RFC-mode CUBIC settings. Build with [`RfcCubicConfig::new`], adjust the fields, then
/// [`validate`](RfcCubicConfig::validate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct RfcCubicConfig {
    /// Maximum segment size (QUIC: max datagram size), bytes, `1..=65535`.
    pub mss_bytes: u64,
    /// β_cubic on loss, thousandths, `1..=999`.
    pub beta_permille: u32,
    /// β on an ECN-CE mark, thousandths, `1..=999` (default: the loss β;
    /// [`ABE_BETA_PERMILLE`] gives RFC 8511's 0.85).
    pub ecn_beta_permille: u32,
    /// C, thousandths of segments/s³, `1..=100000`.
    pub c_permille: u32,
    /// RFC 9438 §4.7 fast convergence.
    pub fast_convergence: bool,
    /// RFC 9438 §4.3 Reno-friendly region (W_est).
    pub reno_friendly: bool,
}

impl Default for RfcCubicConfig {
    fn default() -> Self {
        Self::new()
    }
}

impl RfcCubicConfig {
    /// RFC 9438's recommended values with a 1200-byte MSS (QUIC's minimum datagram).
    pub const fn new() -> Self {
        RfcCubicConfig {
            mss_bytes: 1200,
            beta_permille: BETA_CUBIC_PERMILLE,
            ecn_beta_permille: BETA_CUBIC_PERMILLE,
            c_permille: C_PERMILLE,
            fast_convergence: true,
            reno_friendly: true,
        }
    }

    /// Checks every field; the result is what the algorithm uses.
    pub const fn validate(&self) -> Result<RfcCubicParams, ConfigError> {
        if let Err(e) = validate_mss(self.mss_bytes) {
            return Err(e);
        }
        if self.beta_permille == 0 || self.beta_permille >= RFC_SCALE as u32 {
            return Err(ConfigError::BetaOutOfRange);
        }
        if self.ecn_beta_permille == 0 || self.ecn_beta_permille >= RFC_SCALE as u32 {
            return Err(ConfigError::BetaOutOfRange);
        }
        if self.c_permille == 0 || self.c_permille > MAX_C_PERMILLE {
            return Err(ConfigError::CubicCOutOfRange);
        }
        Ok(RfcCubicParams::from_valid(*self))
    }
}

/// Checks an MSS as every RFC-mode setting of it does: `1..=65535` bytes
/// ([`ConfigError::ZeroMss`], [`ConfigError::MssOutOfRange`]).
pub const fn validate_mss(mss_bytes: u64) -> Result<NonZeroU64, ConfigError> {
    if mss_bytes > MAX_MSS_BYTES {
        return Err(ConfigError::MssOutOfRange);
    }
    match NonZeroU64::new(mss_bytes) {
        Some(m) => Ok(m),
        None => Err(ConfigError::ZeroMss),
    }
}

/// A validated [`RfcCubicConfig`]; only [`RfcCubicConfig::validate`] makes one. It
/// also holds the MSS (the one an [`RfcParams`](crate::rfc::RfcParams) gives new flows)
/// and the β-only part of the Reno-friendly α; what depends on the MSS (`C · MSS`,
/// α·MSS) is one multiplication away, so that flows sharing these parameters with MSSs
/// of their own compute it for theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RfcCubicParams {
    config: RfcCubicConfig,
    /// The MSS, `1..=65535` bytes (non-zero in its type, so that dividing by it leaves
    /// no panic path in a firmware build).
    mss: NonZeroU64,
    /// `3·(1 − β)` in thousandths: α_cubic's numerator per byte of MSS (≤ 2997).
    alpha_num_per_mss: u64,
    /// `1 + β` in thousandths: α_cubic's denominator (never zero).
    alpha_den: u64,
}

impl Default for RfcCubicParams {
    fn default() -> Self {
        RfcCubicParams::from_valid(RfcCubicConfig::new())
    }
}

impl RfcCubicParams {
    /// The derived values of a configuration [`RfcCubicConfig::validate`] accepted.
    const fn from_valid(config: RfcCubicConfig) -> Self {
        // Validated to 1..=MAX_MSS_BYTES: the clamp changes nothing but lets the
        // optimiser drop the division's panic path (scripts/firmware.sh).
        let mss = if config.mss_bytes == 0 {
            1
        } else if config.mss_bytes > MAX_MSS_BYTES {
            MAX_MSS_BYTES
        } else {
            config.mss_bytes
        };
        let beta = config.beta_permille as u64;
        RfcCubicParams {
            config,
            mss: match NonZeroU64::new(mss) {
                Some(m) => m,
                None => NonZeroU64::MIN,
            },
            // RFC 9438 §4.3: alpha_cubic = 3*(1-beta)/(1+beta); numerator ≤ 2997
            alpha_num_per_mss: 3 * RFC_SCALE.saturating_sub(beta),
            alpha_den: RFC_SCALE + beta,
        }
    }

    /// The settings, as validated.
    pub const fn config(&self) -> &RfcCubicConfig {
        &self.config
    }

    /// MSS in bytes (`1..=65535`).
    #[inline]
    pub const fn mss(&self) -> u64 {
        self.mss.get()
    }

    /// MSS in bytes, typed non-zero: the divisor for [`div_floor`](super::div_floor).
    #[inline]
    pub const fn mss_non_zero(&self) -> NonZeroU64 {
        self.mss
    }

    /// α_cubic · MSS as a fraction of bytes: `(3·(1000 − β)·MSS, 1000 + β)`; the
    /// denominator is never zero.
    #[inline]
    pub const fn alpha_mss(&self) -> (u64, u64) {
        self.alpha_mss_at(self.mss)
    }

    /// [`alpha_mss`](Self::alpha_mss) for a flow whose MSS is `mss` (validated:
    /// at most 65535, so the numerator stays below 2^28; saturating otherwise).
    #[inline]
    pub const fn alpha_mss_at(&self, mss: NonZeroU64) -> (u64, u64) {
        // RFC 9438 §4.3: alpha_cubic = 3*(1-beta)/(1+beta), times the MSS in bytes
        (
            self.alpha_num_per_mss.saturating_mul(mss.get()),
            self.alpha_den,
        )
    }

    /// The same parameters at the MSS `mss` of a flow (validated by the caller).
    pub(crate) const fn at_mss(&self, mss: NonZeroU64) -> Self {
        let mut p = *self;
        p.config.mss_bytes = mss.get();
        p.mss = mss;
        p
    }

    /// The same parameters with another MSS, if it is valid.
    pub const fn with_mss(&self, mss_bytes: u64) -> Result<Self, ConfigError> {
        let mut c = self.config;
        c.mss_bytes = mss_bytes;
        c.validate()
    }

    /// `C · MSS` in thousandths of bytes per s³: at most 100000 · 65535 < 2^33.
    #[inline]
    pub const fn c_mss(&self) -> u64 {
        self.c_mss_at(self.mss)
    }

    /// [`c_mss`](Self::c_mss) for a flow whose MSS is `mss` (validated: at most 65535,
    /// so below 2^33; saturating otherwise).
    #[inline]
    pub const fn c_mss_at(&self, mss: NonZeroU64) -> u64 {
        // RFC 9438 §5.1: C in segments/s³, times the segment size in bytes
        (self.config.c_permille as u64).saturating_mul(mss.get())
    }

    /// The minimum window, 2 · MSS bytes.
    // RFC 9438 §4.6: cwnd = max(ssthresh, 2) segments
    #[inline]
    pub const fn min_window(&self) -> u64 {
        2 * self.mss()
    }
}

#[cfg(test)]
mod tests;
