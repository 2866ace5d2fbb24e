//! Linux mode, in segments: CUBIC and HyStart inside a model of the kernel's TCP socket
//! glue, and BBR, BBRv3, DCTCP and TCP Prague through the kernel glue of [`tcp`], where
//! CUBIC is a hook table too ([`cubic_ops`]: the same traces, byte for byte). Mode =
//! module, algorithm = type: [`Cubic`], [`Dctcp`], [`Prague`] here, `rfc::Cubic` and
//! `rfc::NewReno` in bytes in [`crate::rfc`], `v2_6_35::Cubic` for the 2010 kernel.

pub mod bbr;
pub mod bbr3;
pub mod cubic_ops;
pub mod dctcp;
mod flow;
mod flow_config;
mod handle;
mod layout;
mod params;
pub mod prague;
mod random_fn;
mod socket_config;
mod state;
pub mod tcp;
mod tcp_controller;
mod tcp_flow;

pub use bbr::{Bbr, BbrConfig, BbrController, BbrParams};
pub use bbr3::{Bbr3, Bbr3Config, Bbr3Controller, Bbr3Params};
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
pub use random_fn::RandomFn;
pub use socket_config::LinuxSocketConfig;
pub use state::{LinuxCubicState, TCP_INFINITE_SSTHRESH};
pub use tcp_controller::{DctcpController, PragueController, TcpController};
pub use tcp_flow::{TcpFlow, TcpSocketConfig};

/// A Linux DCTCP flow (`tcp_dctcp.c` through the kernel's glue), in segments: see
/// [`TcpFlow`]'s example.
pub type Dctcp = TcpFlow<dctcp::DctcpOps>;

/// A TCP Prague 0.7 flow (`tcp_prague.c` through the kernel's glue), in segments: see
/// [`prague::PragueConfig`]'s and [`TcpFlow`]'s examples.
pub type Prague = TcpFlow<prague::PragueOps>;
