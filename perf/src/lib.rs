//! The stream of `benches/common` and wrappers that drive two other Rust CUBICs on it
//! exactly as their stacks call them.
//!
//! - quinn-proto 0.11 `congestion::Cubic`: per ACK frame, `on_ack` once per newly
//!   acknowledged packet and `on_end_acks` once (quinn's `on_ack_received`); its
//!   `on_sent` is a no-op for CUBIC. Called statically, not through quinn's
//!   `Box<dyn Controller>`, which only spares it the indirect calls.
//! - s2n-quic-core 0.91 `CubicCongestionController` (CUBIC + hybrid slow start +
//!   pacer): per ACK frame `on_rtt_update` then `on_ack` once with all bytes; per sent
//!   packet `on_packet_sent`. Its RTT estimator is fed once and then only read, as
//!   the stream's RTT never changes (the estimator is the stack's cost, not CUBIC's).

#[path = "../../benches/common/mod.rs"]
pub mod common;

pub mod bbr;
pub mod cold;
pub mod dctcp;
pub mod observed;
pub mod prague;
pub mod quinn;
pub mod s2n;

pub use common::{Event, OursLinux, Regime, Stream, StreamController};
