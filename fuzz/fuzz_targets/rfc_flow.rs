//! RFC-mode CUBIC with standard slow start, Linux HyStart or HyStart++ under arbitrary
//! event sequences (losses packet by packet, by burst and by episode, CE-count
//! increases, persistent congestion, RTOs, discards), MSS changes included.
#![no_main]

#[path = "../../tests/fuzz_bodies/mod.rs"]
mod fuzz_bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_bodies::rfc::run(data));
