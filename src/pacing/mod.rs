//! Pacing: when the window's data leaves the host.
//!
//! - [`linux_pacing_rate`]: Linux `tcp_update_pacing_rate`.

mod rate;

pub use rate::{
    LinuxPacingInput, PACING_CA_RATIO_PERCENT, PACING_SS_RATIO_PERCENT, linux_pacing_rate,
};
