#![doc = include_str!("../README.md")]
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
