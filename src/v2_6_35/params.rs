//! The 2.6.35 profile's validated settings, held once and read by every flow that uses
//! them, as that kernel's module parameters and sysctls were.

use super::config::CubicConfig;
use crate::error::ConfigError;

/// A [`CubicConfig`] that passed [`validate`](CubicConfig::validate): what a
/// [`Cubic<P>`](super::Cubic) reads through its `P` and never copies.
///
/// `P` may be the params themselves ([`Cubic::new`](super::Cubic::new)),
/// `&'static Linux2635Params`, an `Arc<Linux2635Params>`, or a zero-sized handle of the
/// caller's whose `Borrow` returns a `static`.
///
/// ```
/// use congestion::v2_6_35::{CubicConfig, Cubic, Linux2635Params};
/// use congestion::Instant;
///
/// // Validated at compile time: a bad setting fails the build.
/// static HZ_250: Linux2635Params = {
///     let mut c = CubicConfig::new();
///     c.hz = 250;
///     match Linux2635Params::new(c) {
///         Ok(p) => p,
///         Err(_) => panic!("invalid 2.6.35 settings"),
///     }
/// };
/// let flows = [Cubic::with_params(&HZ_250, Instant::ZERO); 4];
/// assert_eq!(flows[3].config().hz, 250);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Linux2635Params {
    config: CubicConfig,
}

impl Linux2635Params {
    /// Validate `config`; refuses it out of range with the setting's own error.
    pub const fn new(config: CubicConfig) -> Result<Self, ConfigError> {
        match config.validate() {
            Ok(()) => Ok(Linux2635Params { config }),
            Err(e) => Err(e),
        }
    }

    /// That kernel's defaults and the reference traces' ([`CubicConfig::new`]).
    pub const ERA_DEFAULTS: Linux2635Params = match Linux2635Params::new(CubicConfig::new()) {
        Ok(p) => p,
        // The defaults are in range; a failure here fails the build, never a flow.
        Err(_) => panic!("the 2.6.35 defaults are out of range"),
    };

    /// The settings.
    pub const fn config(&self) -> &CubicConfig {
        &self.config
    }
}

impl Default for Linux2635Params {
    fn default() -> Self {
        Self::ERA_DEFAULTS
    }
}

impl core::borrow::Borrow<CubicConfig> for Linux2635Params {
    fn borrow(&self) -> &CubicConfig {
        &self.config
    }
}

#[cfg(test)]
mod tests;
