//! Replays every reference trace of the Linux kernel's CUBIC (tests/data/linux-cubic,
//! copied from shared/conformance) and requires every column of every row to match.

mod replay;

/// The folder of this profile's traces under tests/data.
const FOLDER: &str = "linux-cubic";

fn expected_csv(name: &str) -> String {
    replay::expected_csv(FOLDER, name)
}

fn events(name: &str) -> String {
    replay::events(FOLDER, name)
}

#[test]
fn all_35_reference_traces_replay_bit_exactly() {
    let names = replay::trace_names(FOLDER);
    assert_eq!(
        names.len(),
        35,
        "expected the 35 shipped traces, found {names:?}"
    );
    let (rows, failures) = replay::replay_folder(FOLDER, &names, replay::Kernel::Today);
    assert!(
        failures.is_empty(),
        "{} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 114,735 events in all, per the conformance README.
    assert_eq!(rows, 114_735);
}

#[test]
fn a_changed_kernel_parameter_changes_the_replay() {
    // Guards the comparison itself: the same trace with beta 512 must not match.
    let name = "loss_fastconv_on";
    let events = events(name);
    let got = replay::replay(&format!("set beta 512\n{events}")).expect("replay");
    let want = expected_csv(name);
    assert!(replay::first_difference(name, &got, &want).is_some());
}

#[test]
fn rows_before_init_are_all_zero_and_implicit_init_prints_no_row() {
    let csv = replay::replay("set srtt_us 1000\nack 1000 2 1000 12\n").expect("replay");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], format!("1,set{}", ",0".repeat(32)));
    // Implicit init at t=1000 with IW10, then 2 acked in slow start: cwnd 12.
    let cells: Vec<&str> = lines[2].split(',').collect();
    assert_eq!(&cells[..5], &["2", "ack", "1000", "1", "12"]);
}

#[test]
fn unknown_events_and_keys_are_reported_with_their_line() {
    assert!(replay::replay("bogus 1\n").unwrap_err().contains("line 1"));
    assert!(
        replay::replay("\n# c\nset nonsense 1\n")
            .unwrap_err()
            .contains("line 3")
    );
    assert!(
        replay::replay("set beta 1024\ninit 0\n")
            .unwrap_err()
            .contains("beta")
    );
}

#[test]
fn the_u64_pacing_cap_takes_values_wider_than_32_bits() {
    // 10^10 bytes/s (80 Gbit/s) does not fit in 32 bits; max_pacing_rate is a u64.
    replay::replay("set max_pacing_rate 10000000000\ninit 0\n").expect("u64 setting");
    let err = replay::replay("set mss 4294967296\n").unwrap_err();
    assert!(
        err.contains("set mss") && err.contains("0..=4294967295"),
        "{err}"
    );
}
