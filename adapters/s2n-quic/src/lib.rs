//! # congestion-s2n-quic
//!
//! An [s2n-quic](https://docs.rs/s2n-quic) congestion controller endpoint backed by the
//! `congestion` crate: RFC 9438 CUBIC with RFC 9406 HyStart++ (or Linux HyStart), or
//! NewReno, both in bytes (RFC mode). Where pacing is on (the default), the crate's EDT
//! pacer answers s2n-quic's `earliest_departure_time()` and TSO/GSO autosizing its
//! `send_quantum()`: s2n-quic is a stack that asks its controller for both.
//!
//! s2n-quic accepts a user's controller behind its `unstable-congestion-controller`
//! feature, which this crate turns on:
//!
//! ```no_run
//! use congestion::rfc::SlowStartKind;
//! use congestion_s2n_quic::CongestionEndpoint;
//!
//! let endpoint = CongestionEndpoint::cubic(SlowStartKind::HystartPlusPlus);
//! let server = s2n_quic::Server::builder()
//!     .with_congestion_controller(endpoint)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! See [`controller`] for how each of s2n-quic's calls maps onto the crate's
//! [`CongestionController`](congestion::CongestionController).
//!
//! MSRV: Rust 1.95, s2n-quic 1.91's (the `congestion` library itself stays at 1.85).

pub mod bbr;
pub mod controller;
pub mod endpoint;
pub mod flow;

pub use bbr::{BbrEndpoint, S2nBbrController, SampledPacketInfo, SegmentFlow};
pub use controller::{
    AdapterStats, DEFAULT_TIMER_SLACK, Departure, DepartureLog, HOST_LATENESS, PacketInfo,
    S2nController,
};
pub use endpoint::CongestionEndpoint;
pub use flow::RfcModeFlow;
