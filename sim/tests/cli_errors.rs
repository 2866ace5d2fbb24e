//! The built `ccsim` binary refuses bad flag values with exit status 2 and a message
//! naming the flag and what it accepts, and reads decimals.

use std::process::{Command, Output};

fn ccsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ccsim"))
        .args(args)
        .output()
        .expect("ccsim runs")
}

/// Runs `args`, expects a usage error (status 2) whose message contains each of `says`.
fn refused(args: &[&str], says: &[&str]) {
    let out = ccsim(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    for s in says {
        assert!(stderr.contains(s), "{args:?}: expected {s:?} in {stderr}");
    }
}

#[test]
fn out_of_range_values_name_the_flag_and_the_range() {
    refused(&["--mtu", "100000"], &["--mtu", "68 to 65535"]);
    refused(&["--mtu", "40"], &["--mtu", "68 to 65535"]);
    refused(&["-w", "0"], &["-w", "2·MSS"]);
    refused(&["-w", "2k", "--mtu", "1500"], &["-w", "2896"]);
    refused(&["--rtt", "2h"], &["--rtt"]);
    refused(&["--rtt", "3601s"], &["--rtt", "1 h"]);
    refused(&["--rtt", "0ms"], &["--rtt", "above 0"]);
    refused(&["--loss", "1"], &["--loss", "[0, 1)"]);
    refused(&["--loss", "150%"], &["--loss"]);
    refused(&["--rate", "0"], &["--rate", "above 0"]);
    refused(&["--buffer", "100"], &["--buffer", "1538"]); // 1500 + Ethernet framing
    // An empty qdisc would hold every send in CWR: the flow would barely move.
    refused(&["--txqueuelen", "0"], &["--txqueuelen", "1.."]);
    // tcp_rmem[1]: a first window of two segments (8/3 of 1448 B), at most the maximum.
    refused(
        &["--rmem-default", "3k"],
        &["--rmem-default", "3862 to 6291456"],
    );
    refused(
        &["--rmem-default", "7m"],
        &["--rmem-default", "3862 to 6291456"],
    );
    refused(
        &["--rmem-default", "100k", "-w", "1m"],
        &["--rmem-default", "-w"],
    );
    // Only a tcp_rmem[1] given is held to --autotune-max: the default 87380 B simply
    // starts at a smaller maximum's window.
    let out = ccsim(&["--autotune-max", "50000", "-n", "1m"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    refused(
        &["--autotune-max", "50000", "--rmem-default", "60000"],
        &["--rmem-default", "3862 to 50000"],
    );
    // A preset whose runs all set -w has no receiver for it to reach: refused before
    // any run (exit status 1, as for the preset's other errors).
    let dir = std::env::temp_dir().join(format!("ccsim-rmem-{}", std::process::id()));
    let dir = dir.to_str().expect("a UTF-8 temporary directory");
    let out = ccsim(&["tso2005", "--rmem-default", "200k", "--out", dir]);
    let _ = std::fs::remove_dir_all(dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("--rmem-default") && stderr.contains("-w"),
        "{stderr}"
    );
    refused(&["fink2011", "--txqueuelen", "0"], &["--txqueuelen", "1.."]);
    // 3/4 of autotuning's largest buffer is the window: two segments of 1448 bytes
    // need 3862 bytes.
    refused(&["--autotune-max", "0"], &["--autotune-max", "3862"]);
    refused(&["--autotune-max", "3861"], &["--autotune-max", "3862"]);
}

#[test]
fn a_plot_directory_that_cannot_be_made_is_refused_before_the_preset_runs() {
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("out-is-a-file");
    std::fs::write(&file, b"").expect("temporary file");
    let below_a_file = file.join("plots");
    let below_a_file = below_a_file.to_str().expect("UTF-8 path");
    // A usage error (status 2) from the flag check; after a run the plot writer's
    // error would exit with status 1.
    for preset in ["fink2011", "tsq2012", "tso2005"] {
        refused(&[preset, "--out", below_a_file], &["--out", "plots"]);
    }
}

#[test]
fn negative_values_reach_the_parser_and_are_refused_by_name() {
    refused(&["--rtt", "-5ms"], &["--rtt", "negative"]);
    refused(&["--rate", "-1g"], &["--rate", "negative"]);
    refused(&["-n", "-8g"], &["--bytes", "negative"]);
    refused(&["--jitter", "-1ms"], &["--jitter", "negative"]);
    refused(&["--ack-ratio", "-1"], &["--ack-ratio"]);
}

#[test]
fn durations_need_a_unit_and_sizes_are_not_bits() {
    refused(&["--rtt", "5"], &["--rtt", "no unit"]);
    refused(&["-T", "10"], &["--time", "no unit"]);
    refused(&["-i", "1"], &["-i", "no unit"]);
    refused(&["--on-off", "200ms,1"], &["--on-off", "no unit"]);
    refused(&["--buffer", "64kb"], &["--buffer"]);
    refused(&["--buffer", "64KB"], &["--buffer", "64KiB"]);
    refused(&["--rate", "10MB/s"], &["--rate", "bits per second"]);
    refused(&["--tsq-limit", "lots"], &["--tsq-limit"]);
}

#[test]
fn decimals_are_read_exactly() {
    // 0.5 MiB at 2.5 Gbit/s over 1.5 ms: "0.5000 MB" is 2^19 bytes as nuttcp prints MB.
    let out = ccsim(&[
        "--rate", "2.5g", "--rtt", "1.5ms", "--bytes", "0.5m", "-w", "1.5m",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("0.5000 MB / "), "{stdout}");
}

/// Runs `args`, expects success, returns stdout.
fn accepted(args: &[&str]) -> String {
    let out = ccsim(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_window_the_window_scale_cannot_advertise_is_refused() {
    // Window scale 14 advertises at most 65535 << 14 = 1073725440 bytes; -w is doubled
    // and 3/4 of it is window, so the largest -w is 2/3 of that: 715816960 bytes.
    accepted(&["-w", "715816960", "-n", "1m"]);
    refused(
        &["-w", "715816961"],
        &["-w", "2·MSS to 715816960", "1073725440"],
    );
    // The transfer that used to stall at 10 segments.
    refused(&["-w", "5t"], &["-w", "715816960"]);
    // Autotuning's maximum: 3/4 of it is window, at most 4/3 of 1073725440.
    accepted(&["--autotune-max", "1431633920", "-n", "1m"]);
    refused(
        &["--autotune-max", "1431633921"],
        &["--autotune-max", "1431633920"],
    );
}

#[test]
fn hours_and_days_are_read_where_the_help_promises_them() {
    // An RTT of up to an hour: 1h is the limit itself, one minute more is refused.
    let out = accepted(&["--rtt", "1h", "-n", "64k"]);
    assert!(out.contains("3600000.00 msRTT"), "{out}");
    accepted(&["--rtt", "0.5h", "-n", "64k"]);
    refused(&["--rtt", "61min"], &["--rtt", "at most 1 h"]);
    // An uptime of up to 20 days.
    accepted(&["--kernel", "2.6.35", "--uptime", "20d", "-n", "1m"]);
    accepted(&["--kernel", "2.6.35", "--uptime", "1.5d", "-n", "1m"]);
    refused(
        &["--kernel", "2.6.35", "--uptime", "21d"],
        &["--uptime", "0 s and 20 days"],
    );
    // `m` alone is minutes to some and milliseconds to others: refused, both offered.
    refused(&["--rtt", "5m"], &["--rtt", "5min or 5ms"]);
    // -T reads the same units: its 2d parses, so the error is the -w one.
    refused(&["-T", "2d", "--rtt", "1h", "-w", "1t"], &["-w"]);
}

#[test]
fn the_report_interval_is_at_least_ten_milliseconds() {
    refused(&["-i", "1ns"], &["-i", "at least 10ms"]);
    refused(&["-i", "9.999ms"], &["-i", "at least 10ms"]);
    // 10ms is the shortest interval a line can print ("0.01 sec"): 100 ms of run
    // gives 9 whole intervals (the first starts one way, 10 ms, after the first send)
    // and the summary.
    let out = accepted(&["-T", "100ms", "-i", "10ms"]);
    let intervals = out.lines().filter(|l| l.contains(" / 0.01 sec = ")).count();
    assert_eq!(intervals, 9, "{out}");
}
