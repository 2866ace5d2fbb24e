//! The cargo-fuzz targets' bodies, run on stable in every `cargo test`: random inputs
//! from a fixed-seed generator, so every run checks the same cases.

mod fuzz_bodies;

/// xorshift64*: a tiny deterministic generator, enough to make fuzz inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn bytes(&mut self, max_len: usize) -> Vec<u8> {
        let len = (self.next() % max_len as u64) as usize;
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// Runs `body` on `cases` random inputs of up to `max_len` bytes. A failing input is
/// printed in hex first, to become a regression case or a cargo-fuzz artifact.
fn drive(body: fn(&[u8]), seed: u64, cases: usize, max_len: usize) {
    let mut rng = Rng(seed);
    for _ in 0..cases {
        let input = rng.bytes(max_len);
        if std::panic::catch_unwind(|| body(&input)).is_err() {
            let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
            panic!("the input above fails; in hex: {hex}");
        }
    }
}

/// Decodes a hex string (a regression input).
fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn linux_flow_survives_random_event_streams() {
    // About 20,000 inputs and 600,000 events; well under a second even in debug.
    drive(fuzz_bodies::linux::run, 0x9E37_79B9_7F4A_7C15, 20_000, 600);
}

#[test]
fn linux_2_6_35_flow_survives_random_event_streams() {
    drive(
        fuzz_bodies::v2_6_35::run,
        0x94D0_49BB_1331_11EB,
        20_000,
        600,
    );
}

#[test]
fn linux_2_6_35_flow_survives_empty_and_short_inputs() {
    for len in 0..64 {
        for byte in [0x00, 0x01, 0xA5, 0xFF] {
            fuzz_bodies::v2_6_35::run(&vec![byte; len]);
        }
    }
}

#[test]
fn rfc_flow_survives_random_event_streams() {
    drive(fuzz_bodies::rfc::run, 0xBF58_476D_1CE4_E5B9, 20_000, 600);
}

#[test]
fn classic_flows_survive_empty_and_short_inputs() {
    for len in 0..64 {
        for byte in [0x00, 0x01, 0xA5, 0xFF] {
            fuzz_bodies::rfc::run(&vec![byte; len]);
            fuzz_bodies::newreno::run(&vec![byte; len]);
            fuzz_bodies::send_path::run(&vec![byte; len]);
        }
    }
}

#[test]
fn newreno_flow_survives_random_event_streams() {
    drive(fuzz_bodies::newreno::run, 0x2545_F491_4F6C_DD1D, 20_000, 600);
}

#[test]
fn send_path_and_paced_flows_survive_random_polls_sends_and_completions() {
    drive(
        fuzz_bodies::send_path::run,
        0xD1B5_4A32_D192_ED03,
        20_000,
        600,
    );
}

#[test]
fn linux_flow_survives_empty_and_short_inputs() {
    for len in 0..64 {
        fuzz_bodies::linux::run(&vec![0xA5; len]);
        fuzz_bodies::linux::run(&vec![0x00; len]);
        fuzz_bodies::linux::run(&vec![0xFF; len]);
    }
}

#[test]
fn every_linux_reference_trace_runs_as_a_fuzz_input() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/linux-cubic");
    let mut ran = 0;
    for entry in std::fs::read_dir(dir).expect("trace dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "events") {
            let input =
                fuzz_bodies::corpus::from_trace(&std::fs::read_to_string(&path).expect("read"));
            assert!(
                input.len() > 1000,
                "{} encoded to only {} bytes",
                path.display(),
                input.len()
            );
            fuzz_bodies::linux::run(&input);
            ran += 1;
        }
    }
    assert_eq!(ran, 35);
}


