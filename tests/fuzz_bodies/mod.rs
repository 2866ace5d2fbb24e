//! Fuzz bodies: arbitrary bytes → an event sequence → a controller, with invariants
//! checked after every event. Shared by the cargo-fuzz targets in `fuzz/` (through
//! `#[path]`) and by `tests/fuzz_twins.rs`, which runs them on stable in every CI run.
//!
//! A failed invariant panics with the flight recorder's story of the last events.

#![allow(dead_code, reason = "each includer uses a different part")]

pub mod bbr;
pub mod bbr3;
pub mod bytes;
pub mod classic;
pub mod corpus;
pub mod known;
pub mod linux;
pub mod newreno;
pub mod no_undo;
pub mod observed;
pub mod period;
pub mod phase;
pub mod rfc;
pub mod send;
pub mod send_path;
pub mod v2_6_35;
