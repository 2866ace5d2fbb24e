//! What `examples/transfer.rs` and the tests share: the controllers to choose from, the
//! transfer itself (on s2n-quic's virtual-time network, or over UDP through the quinn
//! adapter's relay), and the virtual-time bottleneck link.
#![allow(dead_code, reason = "each includer uses a different part")]

pub mod common;
/// The quinn adapter's UDP relay, used as it is (the file is included, not copied;
/// this crate's clippy would have its nested `if let`s written as let chains).
#[path = "../../quinn/harness/relay.rs"]
#[allow(clippy::collapsible_if)]
pub mod relay;
pub mod sim;
pub mod udp;
pub mod vnet;
