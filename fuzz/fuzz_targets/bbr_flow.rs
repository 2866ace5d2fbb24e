//! Linux-mode BBR v1 (`congestion::linux::Bbr`) behind a stack with its own scoreboard,
//! under arbitrary event sequences, with `tcp_bbr.c`'s invariants checked after each.
#![no_main]

#[path = "../../tests/fuzz_bodies/mod.rs"]
mod fuzz_bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_bodies::bbr::run(data));
