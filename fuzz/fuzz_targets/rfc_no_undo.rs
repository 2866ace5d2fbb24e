//! RFC-mode states without an undo snapshot (`ClassicState<_, NoUndo>`, CUBIC or NewReno)
//! under arbitrary event sequences, checked after every event against a default state
//! that never hears the spurious-congestion reports the lean one ignores.
#![no_main]

#[path = "../../tests/fuzz_bodies/mod.rs"]
mod fuzz_bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_bodies::no_undo::run(data));
