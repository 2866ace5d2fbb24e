//! The relay and the transfer driver, shared by `examples/transfer.rs` and the tests.
#![allow(dead_code, reason = "each includer uses a different part")]

pub mod relay;
pub mod transfer;
