//! The settings of a [`linux::Cubic`](super::Cubic): the kernel's CUBIC module
//! parameters and the socket's, taken together so that Linux mode is built as RFC mode
//! is (`rfc::Cubic::new(rfc::CubicConfig, now)`): an unvalidated config in, `Result` out.

use crate::cubic::{LinuxCubicConfig, LinuxCubicParams};
use crate::error::ConfigError;
use crate::linux::socket_config::LinuxSocketConfig;

/// Settings of a [`linux::Cubic`](super::Cubic), validated by
/// [`linux::Cubic::new`](super::Cubic::new).
///
/// ```
/// use congestion::Instant;
/// use congestion::linux;
///
/// let mut config = linux::CubicConfig::new();
/// config.socket.mss = 1200;
/// config.cubic.hystart = false;
/// let flow = linux::Cubic::new(config, Instant::ZERO)?;
/// assert_eq!(flow.socket_config().mss, 1200);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct CubicConfig {
    /// CUBIC and HyStart: the kernel's `tcp_cubic` module parameters.
    pub cubic: LinuxCubicConfig,
    /// The socket: initial window, clamp, MSS, pacing settings.
    pub socket: LinuxSocketConfig,
}

impl CubicConfig {
    /// The kernel's defaults for both halves.
    pub const fn new() -> Self {
        CubicConfig {
            cubic: LinuxCubicConfig::new(),
            socket: LinuxSocketConfig::new(),
        }
    }

    /// Both halves as given (for callers that already hold them).
    pub const fn from_parts(cubic: LinuxCubicConfig, socket: LinuxSocketConfig) -> Self {
        CubicConfig { cubic, socket }
    }

    /// Checks both halves; the CUBIC half comes back validated. The error names the
    /// first setting out of range ([`LinuxCubicConfig::validate`] first, then
    /// [`LinuxSocketConfig::validate`]).
    pub const fn validate(&self) -> Result<LinuxCubicParams, ConfigError> {
        let params = match self.cubic.validate() {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        match self.socket.validate() {
            Ok(()) => Ok(params),
            Err(e) => Err(e),
        }
    }
}

impl Default for CubicConfig {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests;
