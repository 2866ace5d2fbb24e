//! Linux mode: CUBIC and HyStart inside a model of the kernel's TCP socket glue.

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

pub use bbr::{Bbr, BbrConfig, BbrParams};
pub use bbr3::{Bbr3, Bbr3Config, Bbr3Params};
pub use flow::{CaState, LinuxFlowState, LinuxSocketView};
pub use flow_config::LinuxFlowConfig;
pub use handle::LinuxFlow;
pub use params::{KernelDefaults, LinuxParams};
pub use socket_config::LinuxSocketConfig;
pub use state::{LinuxCubicState, TCP_INFINITE_SSTHRESH};
