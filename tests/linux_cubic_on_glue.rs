//! CUBIC as a hook table on the generic glue (`TcpFlow<CubicOps>`,
//! `congestion::linux::cubic_ops`) replays every reference trace of the kernel's CUBIC
//! (tests/data/linux-cubic) byte for byte: the same CSV as the packed `linux::Cubic`
//! writes in tests/linux_traces.rs, so the two implementations agree on all 35.

mod replay;

const FOLDER: &str = "linux-cubic";

#[test]
fn all_35_reference_traces_replay_bit_exactly_through_the_generic_glue() {
    let names = replay::trace_names(FOLDER);
    assert_eq!(
        names.len(),
        35,
        "expected the 35 shipped traces, found {names:?}"
    );
    let mut failures = Vec::new();
    let mut rows = 0;
    for name in &names {
        let want = replay::expected_csv(FOLDER, name);
        let events = replay::events(FOLDER, name);
        let got = replay::replay_cubic_on_glue(&events).unwrap_or_else(|e| panic!("{name}: {e}"));
        rows += want.lines().count().saturating_sub(1);
        if got != want {
            failures.push(
                replay::first_difference(name, &got, &want)
                    .unwrap_or_else(|| format!("{name}: differs (line endings?)")),
            );
        }
    }
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
fn a_changed_module_parameter_changes_the_replay_on_the_glue() {
    // Guards the comparison: the same trace with beta 512 must not match.
    let name = "loss_fastconv_on";
    let events = replay::events(FOLDER, name);
    let got = replay::replay_cubic_on_glue(&format!("set beta 512\n{events}")).expect("replay");
    let want = replay::expected_csv(FOLDER, name);
    assert!(replay::first_difference(name, &got, &want).is_some());
}
