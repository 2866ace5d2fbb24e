//! RFC mode: a byte-counting flow for QUIC (and RFC-following TCP) stacks, composed of
//! RFC 9438 CUBIC window growth ([`crate::cubic::RfcCubic`]) and a slow-start strategy
//! (standard, Linux HyStart, or RFC 9406 HyStart++).
//!
//! See `docs/compliance.md` for every MUST, SHOULD and MAY of RFC 9438 §4–§5 and
//! RFC 9406 §4, with the code and the test behind each.

mod config;
mod flow;

pub use config::{RfcFlowConfig, SlowStartKind};
pub use flow::RfcFlow;
