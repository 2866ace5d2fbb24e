//! CUBIC window growth.
//!
//! - [`LinuxCubic`]: `net/ipv4/tcp_cubic.c` bit for bit, in segments, on jiffies.
//! - [`linux_cubic_root`]: the kernel's table-plus-Newton cube root.
//! - [`RfcCubic`]: RFC 9438 in bytes and microseconds, configured by [`RfcCubicConfig`].
//! - [`exact_cube_root`], [`mul_div_floor`]: the integer tools RFC mode is built on.

mod cube_root;
mod linux;
mod linux_config;
mod linux_update;
mod rfc;
mod rfc_config;
pub mod rfc_curve;
mod rfc_memo;
mod wide_math;

pub use cube_root::{bitwise_cube_root, exact_cube_root, linux_cubic_root, newton_cube_root};
pub use linux::LinuxCubic;
pub(crate) use linux::after as linux_after;
pub(crate) use linux::{epoch_after_idle, lowers_delay_min, recompute_skipped, sample_blackout};
pub use linux_config::{
    BICTCP_BETA_SCALE, BICTCP_HZ, HystartDetect, LinuxCubicConfig, LinuxCubicParams, MAX_BIC_SCALE,
};
pub(crate) use linux_update::{
    BictcpFields, recalc_ssthresh as recalc_bictcp_ssthresh, recompute as recompute_bictcp,
};
pub use rfc::{CubicUndo, RfcCubic};
pub use rfc_config::{
    ABE_BETA_PERMILLE, BETA_CUBIC_PERMILLE, C_PERMILLE, MAX_C_PERMILLE, MAX_MSS_BYTES, RFC_SCALE,
    RfcCubicConfig, RfcCubicParams, validate_mss,
};
pub use wide_math::{
    bitwise_wide_div, div_floor, div_rem_floor, knuth_wide_div, mul_div_floor, mul_u64_u64_shr,
    narrow_div_rem, wide_div, wide_mul,
};
