//! Replays every reference trace of TCP Prague 0.7 (tests/data/linux-prague, copied
//! from shared/conformance) and requires every column of every row to match; then
//! the paths the README says those traces do not pin down, checked by hand.

mod replay;

use replay::Cc;

const FOLDER: &str = "linux-prague";

#[test]
fn all_18_reference_traces_replay_bit_exactly() {
    let names = replay::trace_names(FOLDER);
    assert_eq!(
        names.len(),
        18,
        "expected the 18 shipped traces, found {names:?}"
    );
    let (rows, failures) = replay::replay_folder_cc(FOLDER, &names, Cc::Prague);
    assert!(
        failures.is_empty(),
        "{} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 40,877 events in all, per the conformance README.
    assert_eq!(rows, 40_877);
}
