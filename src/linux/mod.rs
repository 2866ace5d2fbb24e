//! Linux mode: CUBIC and HyStart inside a model of the kernel's TCP socket glue, in
//! segments. Mode = module, algorithm = type: [`Cubic`] here, `rfc::Cubic` and
//! `rfc::NewReno` in bytes in [`crate::rfc`], `v2_6_35::Cubic` for the 2010 kernel.

pub mod bbr;
pub mod bbr3;
mod flow;
mod flow_config;
mod handle;
mod layout;
mod params;
mod socket_config;
mod state;
pub mod tcp;

pub use flow::{CaState, LinuxFlowState, LinuxSocketView};
pub use flow_config::CubicConfig;
pub use handle::Cubic;

/// The 0.2 name of [`Cubic`].
#[deprecated(since = "0.3.0", note = "renamed to `linux::Cubic`")]
pub type LinuxFlow<P = LinuxParams, S = LinuxFlowState> = Cubic<P, S>;

/// The 0.2 name of [`CubicConfig`].
#[deprecated(since = "0.3.0", note = "renamed to `linux::CubicConfig`")]
pub type LinuxFlowConfig = CubicConfig;
pub use params::{KernelDefaults, LinuxParams};
pub use socket_config::LinuxSocketConfig;
pub use state::{LinuxCubicState, TCP_INFINITE_SSTHRESH};
