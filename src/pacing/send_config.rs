//! Settings of a flow's send path (pacing mode, TSQ and TSO limits), validated once.

use crate::error::ConfigError;
use crate::hystart::PacingStatus;
use crate::pacing::min_rtt::MIN_RTT_WINDOW_MS;
use crate::pacing::tso::{GSO_MAX_SEGS, GSO_MAX_SIZE, MIN_TSO_SEGS, TSO_RTT_LOG};
use crate::pacing::tsq::{LIMIT_OUTPUT_BYTES, PACING_SHIFT};

/// Send-path settings, Linux's defaults from [`SendPathConfig::new`]. Validate into
/// [`SendPathParams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct SendPathConfig {
    /// Who paces (Linux `sk_pacing_status`): nobody, the flow itself (`Needed`: the
    /// stack waits for each departure time), or the qdisc (`Fq`: packets are handed
    /// down at once, stamped with their departure time). Default: nobody.
    pub pacing_status: PacingStatus,
    /// `sk_pacing_shift`: TSQ and TSO budgets are `rate >> pacing_shift` (10, ~1 ms).
    pub pacing_shift: u8,
    /// `tcp_limit_output_bytes`: the TSQ cap of unpaced flows (4 MiB).
    pub limit_output_bytes: u32,
    /// Bytes a queued packet costs beyond its length (its truesize overhead); 0 default.
    pub truesize_overhead_bytes: u32,
    /// `sk_gso_max_size`, bytes (65536).
    pub gso_max_size: u32,
    /// `sk_gso_max_segs` (65535).
    pub gso_max_segs: u32,
    /// `tcp_min_tso_segs`, or the controller's own minimum (2).
    pub min_tso_segs: u32,
    /// `tcp_tso_rtt_log` (9).
    pub tso_rtt_log: u8,
    /// Window of the minimum-RTT filter, ms (`tcp_min_rtt_wlen`, 300 s).
    pub min_rtt_window_ms: u32,
}

impl SendPathConfig {
    /// Linux's defaults, unpaced.
    pub const fn new() -> Self {
        SendPathConfig {
            pacing_status: PacingStatus::None,
            pacing_shift: PACING_SHIFT,
            limit_output_bytes: LIMIT_OUTPUT_BYTES,
            truesize_overhead_bytes: 0,
            gso_max_size: GSO_MAX_SIZE,
            gso_max_segs: GSO_MAX_SEGS,
            min_tso_segs: MIN_TSO_SEGS,
            tso_rtt_log: TSO_RTT_LOG,
            min_rtt_window_ms: MIN_RTT_WINDOW_MS,
        }
    }

    /// Refuses shifts of 32 or more (a budget of nothing) and zero sizes, counts or
    /// windows.
    pub const fn validate(&self) -> Result<SendPathParams, ConfigError> {
        if self.pacing_shift >= 32 || self.tso_rtt_log >= 32 {
            return Err(ConfigError::ShiftOutOfRange);
        }
        if self.limit_output_bytes == 0
            || self.gso_max_size == 0
            || self.gso_max_segs == 0
            || self.min_tso_segs == 0
            || self.min_rtt_window_ms == 0
        {
            return Err(ConfigError::ZeroLimit);
        }
        Ok(SendPathParams { config: *self })
    }
}

impl Default for SendPathConfig {
    fn default() -> Self {
        Self::new()
    }
}

/// A validated [`SendPathConfig`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SendPathParams {
    config: SendPathConfig,
}

impl SendPathParams {
    /// The settings.
    pub const fn config(&self) -> &SendPathConfig {
        &self.config
    }

    /// Whether packets are paced at all (`pacing_status` is not `None`).
    pub const fn paced(&self) -> bool {
        !matches!(self.config.pacing_status, PacingStatus::None)
    }
}

#[cfg(test)]
mod tests;
