//! # congestion-quinn
//!
//! A [quinn-proto](https://docs.rs/quinn-proto) congestion controller backed by the
//! `congestion` crate: RFC 9438 CUBIC with RFC 9406 HyStart++ (or Linux HyStart) in
//! bytes, or the bit-exact Linux-mode CUBIC in segments.
//!
//! ```
//! use std::sync::Arc;
//! use congestion::rfc::{self, SlowStartKind};
//! use congestion_quinn::CubicFactory;
//!
//! let mut transport = quinn_proto::TransportConfig::default();
//! transport.congestion_controller_factory(Arc::new(
//!     CubicFactory::<rfc::Cubic>::quic(SlowStartKind::HystartPlusPlus)?,
//! ));
//! # Ok::<(), congestion::ConfigError>(())
//! ```
//!
//! The Linux-mode flow (segments, the kernel's CUBIC bit for bit) plugs in the same way:
//!
//! ```
//! use std::sync::Arc;
//! use congestion::cubic::LinuxCubicConfig;
//! use congestion::linux;
//! use congestion_quinn::CubicFactory;
//!
//! let factory = CubicFactory::<linux::Cubic>::new(LinuxCubicConfig::new().validate()?)?;
//! let mut transport = quinn_proto::TransportConfig::default();
//! transport.congestion_controller_factory(Arc::new(factory));
//! # Ok::<(), congestion::ConfigError>(())
//! ```
//!
//! See [`controller`] for how each of quinn's calls maps onto the crate's
//! [`CongestionController`](congestion::CongestionController).

pub mod controller;
pub mod factory;
pub mod flow;
pub mod units;

// One source with the noq/quinn twin, kept in the harness (which tests it); included
// by path so this library does not depend on the harness's tokio and clap.
#[path = "../../harness/src/pace_watch.rs"]
mod pace_watch;
pub use controller::{AdapterStats, QuinnController};
pub use factory::CubicFactory;
pub use flow::QuinnFlow;
pub use pace_watch::HOST_LATENESS_US;
