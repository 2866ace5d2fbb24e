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

#[test]
fn a_changed_module_parameter_changes_the_replay() {
    // Guards the comparison itself: a 20 ms target instead of 25 ms must not match.
    let name = "steady_rtt10ms_100m";
    let events = replay::events(FOLDER, name);
    let got = replay::replay_cc(
        &format!("set prague_rtt_target 20000\n{events}"),
        Cc::Prague,
    )
    .unwrap();
    let want = replay::expected_csv(FOLDER, name);
    assert!(replay::first_difference(name, &got, &want).is_some());
}

#[test]
fn sparse_random_marks_keep_0_7_in_slow_start() {
    // Prague 0.7 rewrites frac_cwnd from cwnd on every slow-start ACK with unmarked
    // data, so a 10 % random CE never ends slow start (ssthresh stays infinite): the
    // kernel's behaviour, which its draft does not intend, reproduced on purpose.
    let csv = replay::replay_cc(&replay::events(FOLDER, "ce_random"), Cc::Prague).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "ssthresh").unwrap();
    let last = csv.lines().last().unwrap().split(',').nth(col).unwrap();
    assert_eq!(last, "2147483647");
}
