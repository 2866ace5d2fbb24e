//! The pacing rate in bytes mode (RFC mode, QUIC): Linux's `tcp_update_pacing_rate`
//! formula with the window and flight in bytes and the smoothed RTT in µs, or RFC 9002
//! §7.7's `N · cwnd / smoothed_rtt`.

use crate::error::ConfigError;
use crate::pacing::bandwidth::Rate;
use crate::pacing::rate::{PACING_CA_RATIO_PERCENT, PACING_SS_RATIO_PERCENT};

/// Largest accepted pacing ratio, percent (100×). Keeps `ratio · 10^4 · srtt` products
/// inside `u64` (see [`pacing_rate_bytes`]).
pub const MAX_PACING_RATIO_PERCENT: u32 = 10_000;

/// µs per second divided by 100 (percent): the kernel's `USEC_PER_SEC / 100`.
const USEC_PER_SEC_PER_PERCENT: u64 = 10_000;

/// RFC 9002 §7.7's suggested `N`, 1.25, in percent.
// RFC 9002 §7.7: rate = N * congestion_window / smoothed_rtt, with N = 1.25
pub const RFC9002_PACING_N_PERCENT: u32 = 125;

/// Which formula turns the window into a pacing rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PacingFormula {
    /// Linux `tcp_update_pacing_rate`: `ratio · max(cwnd, in flight) / srtt`, the ratio
    /// being [`ss_ratio_percent`](PacingRateConfig::ss_ratio_percent) while
    /// `cwnd < ssthresh / 2` and [`ca_ratio_percent`](PacingRateConfig::ca_ratio_percent)
    /// after.
    #[default]
    Linux,
    /// RFC 9002 §7.7: `N · cwnd / smoothed_rtt`, `N` in percent
    /// ([`RFC9002_PACING_N_PERCENT`] = 125 suggested).
    Rfc9002 {
        /// `N`, percent (`1..=MAX_PACING_RATIO_PERCENT`).
        n_percent: u32,
    },
}

/// Pacing-rate settings: the formula, the Linux ratios and the cap. Validate into
/// [`PacingRateParams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct PacingRateConfig {
    /// The formula (Linux's by default).
    pub formula: PacingFormula,
    /// Ratio while `cwnd < ssthresh / 2`, percent (Linux `tcp_pacing_ss_ratio`, 200).
    pub ss_ratio_percent: u32,
    /// Ratio otherwise, percent (Linux `tcp_pacing_ca_ratio`, 120).
    pub ca_ratio_percent: u32,
    /// Upper bound on the rate (Linux `sk_max_pacing_rate`; unlimited by default).
    pub max_rate: Rate,
}

impl PacingRateConfig {
    /// Linux's defaults: 200 %, 120 %, no cap.
    pub const fn new() -> Self {
        PacingRateConfig {
            formula: PacingFormula::Linux,
            ss_ratio_percent: PACING_SS_RATIO_PERCENT,
            ca_ratio_percent: PACING_CA_RATIO_PERCENT,
            max_rate: Rate::UNLIMITED,
        }
    }

    /// RFC 9002 §7.7's formula with `N` = 1.25, no cap.
    pub const fn rfc9002() -> Self {
        let mut c = PacingRateConfig::new();
        c.formula = PacingFormula::Rfc9002 {
            n_percent: RFC9002_PACING_N_PERCENT,
        };
        c
    }

    /// Refuses ratios (and RFC 9002's `N`) of 0 or above [`MAX_PACING_RATIO_PERCENT`].
    pub const fn validate(&self) -> Result<PacingRateParams, ConfigError> {
        if !ratio_ok(self.ss_ratio_percent) || !ratio_ok(self.ca_ratio_percent) {
            return Err(ConfigError::PacingRatioOutOfRange);
        }
        if let PacingFormula::Rfc9002 { n_percent } = self.formula {
            if !ratio_ok(n_percent) {
                return Err(ConfigError::PacingRatioOutOfRange);
            }
        }
        Ok(PacingRateParams { config: *self })
    }
}

const fn ratio_ok(percent: u32) -> bool {
    percent >= 1 && percent <= MAX_PACING_RATIO_PERCENT
}

impl Default for PacingRateConfig {
    fn default() -> Self {
        Self::new()
    }
}

/// A validated [`PacingRateConfig`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PacingRateParams {
    config: PacingRateConfig,
}

impl PacingRateParams {
    /// Linux's defaults, validated.
    pub const DEFAULT: PacingRateParams = PacingRateParams {
        config: PacingRateConfig::new(),
    };

    /// The settings.
    pub const fn config(&self) -> &PacingRateConfig {
        &self.config
    }
}

/// Inputs of the bytes-mode pacing rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BytesPacingInput {
    /// Congestion window, bytes.
    pub cwnd_bytes: u64,
    /// Slow-start threshold, bytes (`u64::MAX`: none yet).
    pub ssthresh_bytes: u64,
    /// Bytes in flight.
    pub in_flight_bytes: u64,
    /// Smoothed RTT, µs; 0 = no estimate yet. Above `u32::MAX` µs (71 minutes) it
    /// counts as `u32::MAX`.
    pub srtt_us: u64,
}

/// Bytes-mode pacing rate, by the configured [`PacingFormula`], capped at `max_rate`.
/// Linux's: `ratio · max(cwnd, in flight) / srtt`, with ratio 200 % while
/// `cwnd < ssthresh / 2` and 120 % after; RFC 9002's: `N · cwnd / srtt`.
///
/// With no RTT estimate (`srtt_us == 0`) the rate is the cap (unlimited by default:
/// not paced), as the kernel's skipped division amounts to. Exact (rounded down) while
/// `(bytes / srtt_us) · ratio% · 10^4` fits in `u64`; above that it saturates.
pub const fn pacing_rate_bytes(params: &PacingRateParams, i: &BytesPacingInput) -> Rate {
    let c = &params.config;
    let (ratio, bytes) = match c.formula {
        PacingFormula::Linux => {
            // Linux net/ipv4/tcp_input.c tcp_update_pacing_rate(): ss ratio while cwnd < ssthresh/2
            let ratio = if i.cwnd_bytes < i.ssthresh_bytes / 2 {
                c.ss_ratio_percent
            } else {
                c.ca_ratio_percent
            };
            let bytes = if i.cwnd_bytes > i.in_flight_bytes {
                i.cwnd_bytes
            } else {
                i.in_flight_bytes
            };
            (ratio, bytes)
        }
        // RFC 9002 §7.7: rate = N * congestion_window / smoothed_rtt
        PacingFormula::Rfc9002 { n_percent } => (n_percent, i.cwnd_bytes),
    };
    if i.srtt_us == 0 {
        return c.max_rate;
    }
    let srtt = if i.srtt_us > u32::MAX as u64 {
        u32::MAX as u64
    } else {
        i.srtt_us
    };
    // ratio <= 10^4 (validated), so k <= 10^8 < 2^27.
    let k = USEC_PER_SEC_PER_PERCENT * ratio as u64;
    // Linux tcp_update_pacing_rate(): rate = bytes * ratio% * USEC_PER_SEC / srtt_us,
    // split as (q + r/srtt) * k so nothing overflows: r < srtt < 2^32, r * k < 2^59.
    let q = bytes / srtt;
    let r = bytes % srtt;
    let rate = q.saturating_mul(k).saturating_add(r * k / srtt);
    Rate::from_bytes_per_second(rate).min(c.max_rate)
}

#[cfg(test)]
mod tests;
