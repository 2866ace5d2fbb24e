//! CUBIC window growth.
//!
//! - [`LinuxCubic`]: `net/ipv4/tcp_cubic.c` bit for bit, in segments, on jiffies.
//! - [`linux_cubic_root`]: the kernel's table-plus-Newton cube root.

mod cube_root;
mod linux;
mod linux_config;

pub use cube_root::linux_cubic_root;
pub use linux::LinuxCubic;
pub(crate) use linux::after as linux_after;
pub use linux_config::{
    BICTCP_BETA_SCALE, BICTCP_HZ, HystartDetect, LinuxCubicConfig, LinuxCubicParams, MAX_BIC_SCALE,
};
