//! # congestion-noq
//!
//! A [noq-proto](https://docs.rs/noq-proto) congestion controller (noq is the quinn fork
//! iroh uses) backed by the `congestion` crate: RFC 9438 CUBIC with RFC 9406 HyStart++
//! or Linux HyStart, or RFC 9002 NewReno, in bytes. noq's pacer honours what a
//! controller reports, so this crate's pacing rate (bytes/s) and TSO/GSO send quantum
//! are what noq paces and batches by.
//!
//! ```
//! use std::sync::Arc;
//! use congestion::rfc::{NewReno, Cubic, SlowStartKind};
//! use congestion_noq::NoqFactory;
//!
//! let mut transport = noq_proto::TransportConfig::default();
//! transport.congestion_controller_factory(Arc::new(
//!     NoqFactory::<Cubic>::quic(SlowStartKind::HystartPlusPlus)?, // or LinuxHystart
//! ));
//! // NewReno on the same slow start and recovery:
//! transport.congestion_controller_factory(Arc::new(
//!     NoqFactory::<NewReno>::quic(SlowStartKind::HystartPlusPlus)?,
//! ));
//! # Ok::<(), congestion::ConfigError>(())
//! ```
//!
//! For a choice at run time with one controller type, `NoqFactory::<AnyController>` takes
//! an [`AnyRfcConfig`] (CUBIC or NewReno).
//!
//! See [`controller`] for how each of noq's calls maps onto the crate's
//! [`CongestionController`](congestion::CongestionController).
//!
//! MSRV: Rust 1.88, noq-proto 1.x's (the `congestion` library's stays 1.85).

pub mod controller;
pub mod factory;
pub mod flow;

// One source with the noq/quinn twin, kept in the harness (which tests it); included
// by path so this library does not depend on the harness's tokio and clap.
#[path = "../../harness/src/pace_watch.rs"]
mod pace_watch;
pub use controller::{AdapterStats, NoqController};
pub use factory::NoqFactory;
pub use flow::{AnyRfcConfig, NoqFlow};
pub use pace_watch::HOST_LATENESS_US;
