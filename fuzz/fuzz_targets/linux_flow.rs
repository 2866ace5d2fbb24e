//! Linux-mode CUBIC + HyStart under arbitrary event sequences.
#![no_main]

#[path = "../../tests/fuzz_bodies/mod.rs"]
mod fuzz_bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_bodies::linux::run(data));
