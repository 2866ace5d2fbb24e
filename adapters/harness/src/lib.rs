//! # congestion-harness
//!
//! What the QUIC adapters' real transfers (`adapters/quinn`, `adapters/noq`) share, so
//! that a setting means the same link for every stack:
//!
//! - [`relay`]: an in-process UDP relay on 127.0.0.1 that is the network link between
//!   two endpoints (bottleneck rate, one-way delay, drop-tail buffer, seeded random loss);
//!   every loop stops by itself.
//! - [`args`]: the transfer examples' flags (`--rate --rtt --buffer --bytes --loss
//!   --seed --sample --timeout`), read by `congestion-units` as ccsim reads them, and
//!   the summary line every example ends with (`goodput X Mbit/s lost N cc NAME`).
//!
//! Each adapter keeps its own transfer driver: the stacks' endpoint APIs differ.

pub mod args;
pub mod pace_watch;
pub mod relay;
