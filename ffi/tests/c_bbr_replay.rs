//! The kernel's BBR v1 and BBRv3 traces replayed from C through the C ABI's scoreboard calls
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

/// Replays every trace of `folder` (but `skip`) through the C program with `cc`; the
/// failures.
fn replay_folder(cc: &str, folder: &str, skip: &[&str], count: usize) -> Vec<String> {
    let program = compile_c(
        &format!("embedded_c_bbr_replay_{cc}"),
        &["../embedded/c/bbr_replay.c"],
    );
    let names: Vec<String> = replay::trace_names(folder)
        .into_iter()
        .filter(|n| !skip.contains(&n.as_str()))
        .collect();
    assert_eq!(names.len(), count);
    let mut failures = Vec::new();
    for name in &names {
        let trace = replay::data_dir(folder).join(format!("{name}.events"));
        let csv = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("c-{cc}-{name}.csv"));
        let out = Command::new(&program)
            .arg(cc)
            .arg(&trace)
            .arg(&csv)
            .output()
            .expect("run");
        if !out.status.success() {
            failures.push(format!("{name}: {}", String::from_utf8_lossy(&out.stderr)));
            continue;
        }
        let got = std::fs::read_to_string(&csv).expect("csv");
        let want = kernel_columns(&replay::expected_csv(folder, name));
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
    failures
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_c_stack_replays_25_bbr_kernel_traces_through_the_c_abi() {
    // x_delivered0_wrap starts `tp->delivered` near 2^32, which a stack cannot set.
    let failures = replay_folder("bbr", "linux-bbr", &["x_delivered0_wrap"], 25);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_c_stack_replays_all_24_bbr3_kernel_traces_through_the_c_abi() {
    let failures = replay_folder("bbr3", "linux-bbr3", &[], 24);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
