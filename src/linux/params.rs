//! The validated settings every Linux-mode flow reads and none of them owns, as the
//! kernel's CUBIC module parameters and a socket's defaults are.

use crate::cubic::LinuxCubicParams;
use crate::error::ConfigError;
use crate::linux::flow_config::CubicConfig;
use crate::linux::socket_config::LinuxSocketConfig;

/// CUBIC's module parameters (with their derived constants) and the socket settings,
/// validated once and shared by every flow that uses them.
///
/// A flow reaches them through [`Cubic<P>`](crate::linux::Cubic)'s `P` (owned,
/// `&'static`, `Arc`, or a zero-sized handle such as [`KernelDefaults`]).
///
/// ```
/// use congestion::linux::{CubicConfig, LinuxParams};
///
/// // Built at compile time: a bad configuration fails the build, not the firmware.
/// static PARAMS: LinuxParams = match LinuxParams::new(CubicConfig::new()) {
///     Ok(p) => p,
///     Err(_) => panic!("invalid Linux-mode configuration"),
/// };
/// assert_eq!(PARAMS.socket().mss, 1448);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LinuxParams {
    cubic: LinuxCubicParams,
    socket: LinuxSocketConfig,
}

impl LinuxParams {
    /// Validate `config` ([`CubicConfig::validate`]); refuses it out of range.
    pub const fn new(config: CubicConfig) -> Result<Self, ConfigError> {
        match config.validate() {
            Ok(cubic) => Ok(LinuxParams {
                cubic,
                socket: config.socket,
            }),
            Err(e) => Err(e),
        }
    }

    /// The kernel's defaults ([`CubicConfig::new`]).
    pub const KERNEL_DEFAULTS: LinuxParams = match LinuxParams::new(CubicConfig::new()) {
        Ok(p) => p,
        // The defaults are in range; a failure here would fail the build, never a flow.
        Err(_) => panic!("the kernel defaults are out of range"),
    };

    /// CUBIC's module parameters and derived constants.
    pub const fn cubic(&self) -> &LinuxCubicParams {
        &self.cubic
    }

    /// The socket settings.
    pub const fn socket(&self) -> &LinuxSocketConfig {
        &self.socket
    }

    /// Replace CUBIC's parameters (as writing the kernel's module parameters would).
    pub fn set_cubic(&mut self, cubic: LinuxCubicParams) {
        self.cubic = cubic;
    }

    /// Replace the socket settings; refuses them out of range, keeping the old ones.
    pub fn set_socket(&mut self, socket: LinuxSocketConfig) -> Result<(), ConfigError> {
        socket.validate()?;
        self.socket = socket;
        Ok(())
    }
}

impl Default for LinuxParams {
    fn default() -> Self {
        Self::KERNEL_DEFAULTS
    }
}

static KERNEL_DEFAULTS: LinuxParams = LinuxParams::KERNEL_DEFAULTS;

/// The kernel's default parameters as a zero-sized handle: a
/// `Cubic<KernelDefaults>` is just its two lines of state.
///
/// A caller with its own settings does the same with its own `static`:
///
/// ```
/// use core::borrow::Borrow;
/// use congestion::linux::{Cubic, CubicConfig, LinuxParams};
/// use congestion::Instant;
///
/// static MINE: LinuxParams = match LinuxParams::new(CubicConfig::new()) {
///     Ok(p) => p,
///     Err(_) => panic!("invalid configuration"),
/// };
/// #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
/// struct Mine;
/// impl Borrow<LinuxParams> for Mine {
///     fn borrow(&self) -> &LinuxParams {
///         &MINE
///     }
/// }
/// let flow = Cubic::with_params(Mine, Instant::ZERO);
/// assert_eq!(core::mem::size_of_val(&flow), 128);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct KernelDefaults;

impl core::borrow::Borrow<LinuxParams> for KernelDefaults {
    fn borrow(&self) -> &LinuxParams {
        &KERNEL_DEFAULTS
    }
}

#[cfg(test)]
mod tests;
