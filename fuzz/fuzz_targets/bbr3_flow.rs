//! `congestion::linux::Bbr3` (BBRv3 with the socket glue and the v3 rate sampler)
//! under arbitrary configurations and event sequences of a TCP-like stack, with the
//! flow's invariants checked after every event.
#![no_main]

#[path = "../../tests/fuzz_bodies/mod.rs"]
mod fuzz_bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_bodies::bbr3::run(data));
