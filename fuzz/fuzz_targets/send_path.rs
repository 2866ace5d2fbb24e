//! The send path (pacer, TSQ, TSO) under arbitrary polls, sends and completions, and
//! `PacedFlow<linux::Cubic>` / `PacedFlow<rfc::Cubic>` under arbitrary stack events.
#![no_main]

#[path = "../../tests/fuzz_bodies/mod.rs"]
mod fuzz_bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_bodies::send_path::run(data));
