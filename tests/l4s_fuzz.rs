//! The DCTCP and Prague fuzz bodies (tests/fuzz_bodies/l4s.rs), run on stable in every
//! `cargo test` with a fixed-seed generator, so every run checks the same cases.

#[path = "fuzz_bodies/bytes.rs"]
#[allow(dead_code, reason = "the bodies use part of it")]
mod bytes;
#[path = "fuzz_bodies/l4s.rs"]
mod l4s;

use congestion::linux::dctcp::DctcpOps;
use congestion::linux::prague::PragueOps;

/// Runs `body` on `cases` inputs of up to `max_len` bytes from xorshift64* seeded with
/// `seed`; a failing input is printed in hex for the cargo-fuzz target.
fn drive(body: fn(&[u8]), seed: u64, cases: usize, max_len: u64) {
    let mut state = seed;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for _ in 0..cases {
        let len = next() % max_len;
        let input: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if std::panic::catch_unwind(|| body(&input)).is_err() {
            let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
            panic!("the input above fails; in hex: {hex}");
        }
    }
}

#[test]
fn dctcp_survives_random_event_streams() {
    drive(l4s::run::<DctcpOps>, 0x9E37_79B9_7F4A_7C15, 5_000, 800);
}

#[test]
fn prague_survives_random_event_streams() {
    drive(l4s::run::<PragueOps>, 0xD1B5_4A32_D192_ED03, 5_000, 800);
}

#[test]
fn empty_and_uniform_inputs_are_harmless() {
    for len in 0..64 {
        for byte in [0x00, 0x01, 0xA5, 0xFF] {
            l4s::run::<DctcpOps>(&vec![byte; len]);
            l4s::run::<PragueOps>(&vec![byte; len]);
        }
    }
}
