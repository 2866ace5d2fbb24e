//! RFC-mode flow configuration: which slow start, whether the sender paces, and the
//! initial window and threshold.

use crate::cubic::{RfcCubicConfig, RfcCubicParams};
use crate::error::ConfigError;
use crate::pacing::PacingRateConfig;

/// Which slow-start algorithm an [`RfcFlow`](super::RfcFlow) runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SlowStartKind {
    /// Standard slow start (RFC 5681 / RFC 9002): cwnd grows by the acked bytes until
    /// ssthresh or a congestion event.
    Standard,
    /// Linux HyStart (ACK train + delay increase), adapted to bytes: see
    /// [`RfcFlow`](super::RfcFlow) for the adaptation.
    LinuxHystart,
    /// RFC 9406 HyStart++ (the RFC 9438 §4.10 recommendation).
    #[default]
    HystartPlusPlus,
}

/// Settings of an [`RfcFlow`](super::RfcFlow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct RfcFlowConfig {
    /// CUBIC's settings, MSS included.
    pub cubic: RfcCubicConfig,
    /// The slow-start algorithm.
    pub slow_start: SlowStartKind,
    /// True if the sender paces its packets (HyStart++ then has no per-ACK limit `L`).
    pub paced: bool,
    /// The initial window in bytes; `None`: RFC 9002 §7.2's
    /// `min(10·MSS, max(14720, 2·MSS))`.
    pub initial_window_bytes: Option<u64>,
    /// The initial ssthresh in bytes; `None`: none until the first congestion event or
    /// slow-start exit.
    pub initial_ssthresh_bytes: Option<u64>,
    /// How the pacing rate is computed (Linux's rule in bytes by default;
    /// [`PacingRateConfig::rfc9002`] for RFC 9002 §7.7's).
    pub pacing: PacingRateConfig,
}

impl Default for RfcFlowConfig {
    fn default() -> Self {
        Self::new()
    }
}

impl RfcFlowConfig {
    /// RFC defaults: RFC 9438 CUBIC, HyStart++, unpaced, RFC 9002 initial window.
    pub const fn new() -> Self {
        RfcFlowConfig {
            cubic: RfcCubicConfig::new(),
            slow_start: SlowStartKind::HystartPlusPlus,
            paced: false,
            initial_window_bytes: None,
            initial_ssthresh_bytes: None,
            pacing: PacingRateConfig::new(),
        }
    }

    /// RFC defaults for a QUIC connection whose max datagram size is `mss_bytes`
    /// (RFC 9002's `max_datagram_size`, `1..=65535`; checked by
    /// [`RfcFlow::new`](super::RfcFlow::new)). Adjust the public fields afterwards if
    /// needed (`#[non_exhaustive]` forbids only building the struct literally).
    pub const fn quic(mss_bytes: u64) -> Self {
        let mut config = RfcFlowConfig::new();
        config.cubic.mss_bytes = mss_bytes;
        config
    }

    /// Validates the CUBIC part and the initial values: the initial window must lie in
    /// `2·MSS..=2^62` bytes and the initial ssthresh, if given, at least `2·MSS`.
    /// The pacing settings are validated by the flow's constructor.
    pub const fn validate(&self) -> Result<(RfcCubicParams, u64), ConfigError> {
        let params = match self.cubic.validate() {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        let mss = params.mss();
        let initial = match self.initial_window_bytes {
            Some(w) => w,
            None => {
                // RFC 9002 §7.2: initial window = min(10 * max_datagram_size, max(14720, 2 * max_datagram_size))
                let floor = if 14_720 > 2 * mss { 14_720 } else { 2 * mss };
                if 10 * mss < floor { 10 * mss } else { floor }
            }
        };
        if initial < params.min_window() || initial > (1 << 62) {
            return Err(ConfigError::InitialWindowOutOfRange);
        }
        if let Some(ssthresh) = self.initial_ssthresh_bytes {
            if ssthresh < params.min_window() {
                return Err(ConfigError::InitialWindowOutOfRange);
            }
        }
        Ok((params, initial))
    }
}
