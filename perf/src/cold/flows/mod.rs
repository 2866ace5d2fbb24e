//! One module per controller: every call into `congestion` or a peer is in these files,
//! so porting to a new API or layout touches them only.
//!
//! Column names: `linux` = `linux::Cubic`, `rfc` = `rfc::Cubic`, `+sp` = with our send path
//! (`SendPath`: `poll`, `on_send`, `on_tx_completion` per refill, `on_rtt_sample` per
//! ACK, self-paced), `quinn` = quinn-proto 0.11 `Cubic`, `s2n` = s2n-quic-core 0.91
//! `CubicCongestionController` with its pacer short-circuited, `s2n+pacer` with it.

pub mod dummy;
pub mod linux;
pub mod quinn;
pub mod rfc;
pub mod s2n;

pub use dummy::{Dummy, DummyStores, DummyWork, Null};
pub use linux::{Linux, LinuxSendPath};
pub use quinn::Quinn;
pub use rfc::{Rfc, RfcNoUndo, RfcSendPath};
pub use s2n::S2n;
