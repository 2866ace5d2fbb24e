//! Linux mode: CUBIC and HyStart inside a model of the kernel's TCP socket glue.

mod flow;
mod flow_config;
mod socket_config;
mod state;

pub use flow::{CaState, LinuxFlow, LinuxSocketView};
pub use flow_config::LinuxFlowConfig;
pub use socket_config::LinuxSocketConfig;
pub use state::{LinuxCubicState, TCP_INFINITE_SSTHRESH};
