//! Linux-mode DCTCP (through the kernel glue) under arbitrary event sequences: see
//! tests/fuzz_bodies/l4s.rs for the events and the invariants.
#![no_main]

#[path = "../../tests/fuzz_bodies/bytes.rs"]
#[allow(dead_code, reason = "the body uses part of it")]
mod bytes;
#[path = "../../tests/fuzz_bodies/l4s.rs"]
mod l4s;

libfuzzer_sys::fuzz_target!(|data: &[u8]| l4s::run::<congestion::linux::dctcp::DctcpOps>(data));
