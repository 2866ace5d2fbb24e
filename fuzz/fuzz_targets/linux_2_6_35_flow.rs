//! The Linux 2.6.35 profile (era CUBIC + jiffies HyStart + socket glue) under arbitrary
//! event sequences.
#![no_main]

#[path = "../../tests/fuzz_bodies/mod.rs"]
mod fuzz_bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_bodies::v2_6_35::run(data));
