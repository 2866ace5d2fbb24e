//! What `examples/s2n_transfer.rs` and the tests share: the controllers to choose from, the
//! transfer itself (on s2n-quic's virtual-time network, or over UDP through
//! `congestion-harness`'s relay), and the virtual-time bottleneck link.
#![allow(dead_code, reason = "each includer uses a different part")]

pub mod common;
pub mod sim;
pub mod udp;
pub mod vnet;
