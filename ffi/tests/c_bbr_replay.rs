//! The kernel's BBR v1 traces replayed from C through the C ABI's scoreboard calls
//! (`embedded/c/bbr_replay.c`, built with the system C compiler against the committed
//! header and the static library): a C stack keeps the scoreboard, the flight counters,
//! its RTT estimator and the trace's random draws, and after every event from `init`
//! on, every column the C ABI's getters give (cwnd, ssthresh, pacing rate, CA state,
//! mode, bw, `tcp_min_rtt`, the TSO goal, the next departure) must equal the kernel's.
//! The same program runs on an emulated Cortex-M4 in scripts/qemu.sh. Not under Miri.

mod common;

#[path = "../../tests/replay/mod.rs"]
mod replay;

use common::compile_c;
use std::path::PathBuf;
use std::process::Command;

const COLUMNS: [&str; 10] = [
    "idx",
    "cwnd",
    "ssthresh",
    "pacing_rate",
    "ca_state",
    "mode",
    "bw",
    "tcp_min_rtt",
    "tso_segs_goal",
    "wstamp_ns",
];

/// The kernel's CSV cut to the C program's columns, from the `init` row on.
fn kernel_columns(csv: &str) -> String {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let at: Vec<usize> = COLUMNS
        .iter()
        .map(|c| header.iter().position(|h| h == c).expect("column"))
        .collect();
    let ev = header.iter().position(|h| *h == "ev").expect("ev column");
    let mut out = COLUMNS.join(",") + "\n";
    let mut started = false;
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        started |= cells[ev] == "init";
        if started {
            let row: Vec<&str> = at.iter().map(|&i| cells[i]).collect();
            out += &(row.join(",") + "\n");
        }
    }
    out
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_c_stack_replays_25_bbr_kernel_traces_through_the_c_abi() {
    let program = compile_c("embedded_c_bbr_replay", &["../embedded/c/bbr_replay.c"]);
    // x_delivered0_wrap starts `tp->delivered` near 2^32, which a stack cannot set.
    let names: Vec<String> = replay::trace_names("linux-bbr")
        .into_iter()
        .filter(|n| n != "x_delivered0_wrap")
        .collect();
    assert_eq!(names.len(), 25);
    let mut failures = Vec::new();
    for name in &names {
        let trace = replay::data_dir("linux-bbr").join(format!("{name}.events"));
        let csv = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("c-bbr-{name}.csv"));
        let out = Command::new(&program).arg(&trace).arg(&csv).output().expect("run");
        if !out.status.success() {
            failures.push(format!("{name}: {}", String::from_utf8_lossy(&out.stderr)));
            continue;
        }
        let got = std::fs::read_to_string(&csv).expect("csv");
        let want = kernel_columns(&replay::expected_csv("linux-bbr", name));
        if got != want {
            let first = got
                .lines()
                .zip(want.lines())
                .find(|(g, w)| g != w)
                .map(|(g, w)| format!("got {g}\nwant {w}"))
                .unwrap_or_else(|| "lengths differ".into());
            failures.push(format!("{name}: {first}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
