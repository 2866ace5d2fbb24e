//! Linux mode: CUBIC and HyStart inside a model of the kernel's TCP socket glue, and
//! DCTCP and TCP Prague through the kernel glue of [`tcp`].

pub mod dctcp;
mod flow;
mod flow_config;
mod handle;
mod layout;
mod params;
pub mod prague;
mod socket_config;
mod state;
pub mod tcp;
mod tcp_flow;

pub use flow::{CaState, LinuxFlowState, LinuxSocketView};
pub use flow_config::LinuxFlowConfig;
pub use handle::LinuxFlow;
pub use params::{KernelDefaults, LinuxParams};
pub use socket_config::LinuxSocketConfig;
pub use state::{LinuxCubicState, TCP_INFINITE_SSTHRESH};
pub use tcp_flow::{TcpFlow, TcpSocketConfig};

/// A Linux DCTCP flow (`tcp_dctcp.c` through the kernel's glue), in segments.
pub type Dctcp = TcpFlow<dctcp::DctcpOps>;

/// A TCP Prague 0.7 flow (`tcp_prague.c` through the kernel's glue), in segments.
pub type Prague = TcpFlow<prague::PragueOps>;
