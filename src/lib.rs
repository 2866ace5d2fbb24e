//! # congestion
//!
//! Congestion control for whoever sends TCP or QUIC traffic: a TCP/QUIC stack, firmware
//! on a NIC core without an FPU, a kernel, a fuzzer. Pure state machines driven by ACK,
//! loss and timer events, with time supplied by the caller.
//!
//! - `#![no_std]`, no `alloc`, no `unsafe`, no floating point, no `u128`: the same code
//!   builds for microcontrollers and for BPF.
//! - No panic on any input. Bad configuration is refused at construction with a
//!   [`ConfigError`]; odd events are clamped or ignored, as each entry point documents.
//! - Plain `Copy` state with a documented size (`cargo run --example sizes`):
//!   a Linux-mode flow is 128 bytes of state, its send path 64, an RFC-mode CUBIC flow 384
//!   ([`linux::LinuxFlowState`], [`pacing::SendPathState`], [`rfc::ClassicState`]).
//!
//! ## Modes and algorithms
//!
//! The mode is the module, the algorithm the type: `linux::Cubic` (segments),
//! `rfc::Cubic`, `rfc::NewReno`, `rfc::Dctcp` and `rfc::Prague` (bytes),
//! `v2_6_35::Cubic`; each configured by its
//! `<Algorithm>Config` ([`linux::CubicConfig`], [`rfc::CubicConfig`],
//! [`v2_6_35::CubicConfig`]). [`AnyController`] names its variants the same way
//! (`LinuxCubic`, `RfcCubic`, `RfcNewReno`, `RfcDctcp`, `RfcPrague`, `V2_6_35Cubic`, ...);
//! so do the C ABI
//! (`congestion_linux_cubic_*`, `congestion_rfc_cubic_*`) and the command lines
//! (`--cc cubic`, `cubic-rfc`, `newreno-rfc`). The 0.2 names remain one release as
//! deprecated aliases (`CHANGELOG.md` has the table).
//!
//! *Linux mode* ([`linux::Cubic`]) counts segments and reproduces
//! `net/ipv4/tcp_cubic.c` v2.3 and its socket glue bit for bit; it is checked against
//! traces of the kernel code on every test run.
//!
//! The *Linux 2.6.35 profile* ([`v2_6_35::Cubic`]) is the same idea for the
//! 2010 kernel (CUBIC v2.3 with the original jiffies HyStart, at HZ 100, 250 or 1000),
//! checked against traces of that kernel's code.
//!
//! *RFC mode* ([`rfc::Cubic`], [`rfc::NewReno`]) counts bytes for QUIC stacks and
//! follows RFC 9438 (CUBIC), RFC 9002 (NewReno, pacing) and RFC 9406 (HyStart++); `docs/compliance.md` maps every requirement to
//! its code and test. [`rfc::Dctcp`] and [`rfc::Prague`] are the scalable (L4S)
//! responses on the same driver, fed by the ECN-CE counts of QUIC's ACK frames (RFC 8257,
//! RFC 9331 §4.3).
//!
//! ## Quick start
//!
//! ```
//! use congestion::{AckEvent, CongestionController, Instant, Duration, Phase, SentEvent};
//! use congestion::linux;
//!
//! let mut flow = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO)?;
//! flow.on_sent(Instant::ZERO, &SentEvent::new(10, 10));
//!
//! // Two segments acknowledged 20 ms later: slow start grows the window by two.
//! let now = Instant::from_micros(20_000);
//! let ack = AckEvent { acked: 2, rtt: Some(Duration::from_millis(20)), ..AckEvent::default() };
//! flow.on_ack(now, &ack);
//! assert_eq!(flow.cwnd(), 12);
//! assert_eq!(flow.phase(), Phase::SlowStart);
//! # Ok::<(), congestion::ConfigError>(())
//! ```
//!
//! RFC mode for a QUIC stack counts bytes; [`AckEvent::new`] takes the acked bytes, the
//! largest packet number acknowledged and the RTT sample, so none is forgotten (the
//! rules RFC mode follows are on [`rfc::Cubic`]):
//!
//! ```
//! use congestion::rfc;
//! use congestion::{AckEvent, CongestionController, Duration, Instant, SentEvent};
//!
//! let mut flow = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
//! flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
//! let rtt = Duration::from_millis(20);
//! flow.on_ack(Instant::from_micros(20_000), &AckEvent::new(2_400, 2, Some(rtt)));
//! assert_eq!(flow.cwnd(), 14_400);
//! # Ok::<(), congestion::ConfigError>(())
//! ```
//!
//! ## Seeing what the controller decided
//!
//! Reductions and their cause, slow-start exits and their detector, the end of a
//! recovery period and undos reach a sink the stack supplies, through the `_observed`
//! twins of the event calls ([`observe`]); [`observe::Counters`] counts them, and a
//! flow without a sink costs what it did.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::float_arithmetic)]

pub mod controller;
pub mod cubic;
pub mod error;
pub mod hystart;
pub mod linux;
pub mod observe;
pub mod pacing;
#[cfg(feature = "flight-recorder")]
pub mod recorder;
pub mod rfc;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
pub mod testing;
// The generators for embedders' tests need std; the library proper never does.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
extern crate std;
pub mod time;
pub mod v2_6_35;

mod any;

pub use any::AnyController;
pub use controller::{
    AckEvent, AckedPacket, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, SentPacket,
    TxSnapshot, WindowUnit,
};
pub use error::ConfigError;
pub use time::{Clock, Duration, Instant};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
