//! RFC 9002 NewReno in bytes (the classic driver with NewReno's window adjustment)
//! under arbitrary event sequences: losses packet by packet, by burst and by episode,
//! CE-count increases, persistent congestion, RTOs, discards, MSS changes.
#![no_main]

#[path = "../../tests/fuzz_bodies/mod.rs"]
mod fuzz_bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_bodies::newreno::run(data));
