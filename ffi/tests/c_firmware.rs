//! The C programs of `embedded/c/`, built with the system C compiler against the static
//! library and the committed header: the replay through the C ABI reproduces every
//! shipped Linux CUBIC trace bit for bit and writes the same CSV as the Rust replay
//! (Linux mode, RFC mode, NewReno, the send path, and the v0.2 events of
//! `ffi/tests/data/`), and the firmware example runs its main loop to a full link,
//! reporting every lost segment alone. The same sources run on an emulated Cortex-M4 in
//! scripts/qemu.sh. None of this runs under Miri (it compiles and runs C).

mod common;

#[path = "../../tests/replay/mod.rs"]
mod replay;

use common::{compile_c, crate_dir};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn c_replay() -> PathBuf {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM
        .get_or_init(|| compile_c("embedded_c_replay", &["../embedded/c/replay.c"]))
        .clone()
}

/// Replays `trace` through the C program; its CSV, or the error it printed.
fn replay_in_c(trace: &Path) -> Result<String, String> {
    let name = trace
        .file_stem()
        .and_then(|n| n.to_str())
        .unwrap_or("trace");
    let csv = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("c-{name}.csv"));
    let out = Command::new(c_replay())
        .arg(trace)
        .arg(&csv)
        .output()
        .expect("run the C replay");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    std::fs::read_to_string(&csv).map_err(|e| e.to_string())
}

fn traces(dir: &str) -> Vec<PathBuf> {
    traces_in(&crate_dir().join("../tests/data").join(dir))
}

fn traces_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "events"))
        .collect();
    v.sort();
    v
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_c_replay_reproduces_every_linux_trace_bit_exactly() {
    let names = replay::trace_names("linux-cubic");
    assert_eq!(names.len(), 35);
    let failures: Vec<String> = names
        .iter()
        .filter_map(|name| {
            let trace = replay::data_dir("linux-cubic").join(format!("{name}.events"));
            match replay_in_c(&trace) {
                Ok(got) if got == replay::expected_csv("linux-cubic", name) => None,
                Ok(_) => Some(format!(
                    "{name}: the C replay differs from the kernel's CSV"
                )),
                Err(e) => Some(format!("{name}: {e}")),
            }
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The trace named in the issue has 4921 events: a header and 4921 rows.
    let trace = replay::data_dir("linux-cubic").join("loss_fastconv_on.events");
    let csv = replay_in_c(&trace).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(csv.lines().count(), 4922);
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_c_replay_matches_the_rust_replay_in_rfc_mode() {
    let all = traces("rfc9438");
    assert_eq!(all.len(), 5, "the four of 0.1 and loss_per_packet");
    for trace in all {
        let text = std::fs::read_to_string(&trace).expect("trace");
        let want = replay::replay(&text).expect("the Rust replay");
        let got = replay_in_c(&trace).unwrap_or_else(|e| panic!("{}: {e}", trace.display()));
        assert!(got == want, "{}: the C replay differs", trace.display());
    }
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_c_replay_matches_the_rust_replay_in_linux_mode() {
    for name in [
        "loss_fastconv_on",
        "idle_restart",
        "undo_after_rto",
        "ss_pacing_fq",
    ] {
        let trace = crate_dir().join(format!("../tests/data/linux-cubic/{name}.events"));
        let text = std::fs::read_to_string(&trace).expect("trace");
        let want = replay::replay(&text).expect("the Rust replay");
        let got = replay_in_c(&trace).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(got == want, "{name}: the C replay differs");
    }
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_c_replay_matches_the_rust_replay_on_the_send_path() {
    let all = traces("pacing");
    assert_eq!(all.len(), 2);
    for trace in all {
        let text = std::fs::read_to_string(&trace).expect("trace");
        let want = replay::replay(&text).expect("the Rust replay");
        assert!(want.lines().next().is_some_and(|h| h.ends_with("tso_segs")));
        let got = replay_in_c(&trace).unwrap_or_else(|e| panic!("{}: {e}", trace.display()));
        assert!(got == want, "{}: the C replay differs", trace.display());
    }
}

/// The C replay writes the Rust replay's CSV for every trace in `paths`.
fn same_as_the_rust_replay(paths: &[PathBuf]) {
    for trace in paths {
        let text = std::fs::read_to_string(trace).expect("trace");
        let want = replay::replay(&text).expect("the Rust replay");
        let got = replay_in_c(trace).unwrap_or_else(|e| panic!("{}: {e}", trace.display()));
        assert!(got == want, "{}: the C replay differs", trace.display());
    }
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_c_replay_matches_the_rust_replay_on_the_v0_2_events_in_every_mode() {
    let ours = traces_in(&crate_dir().join("tests/data"));
    assert_eq!(ours.len(), 3, "linux, rfc9438 and newreno");
    same_as_the_rust_replay(&ours);
    // The library's NewReno traces (tests/data/newreno/).
    let newreno = traces("newreno");
    assert!(!newreno.is_empty(), "tests/data/newreno/ has traces");
    same_as_the_rust_replay(&newreno);
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_c_replay_refuses_what_the_c_abi_cannot_replay() {
    // Writing cwnd into a running flow has no C ABI call: an error, not a wrong CSV.
    let trace = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("live_cwnd.events");
    std::fs::write(&trace, "init 0\nack 1000 1 1000 10\nset cwnd 5\n").expect("write");
    let err = replay_in_c(&trace).expect_err("set cwnd is not replayed through the C ABI");
    assert!(err.contains("unknown set key"), "{err}");
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_firmware_example_fills_the_link_without_a_timeout() {
    let program = compile_c("embedded_c_example", &["../embedded/c/example.c"]);
    let out = Command::new(program).output().expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Its own check: goodput at least 70 % of the 50 Mbit/s link, no RTO.
    assert!(out.status.success(), "{stdout}");
    let last = stdout.lines().last().unwrap_or("");
    assert!(last.starts_with("delivered "), "{stdout}");
    assert!(last.contains(" 0 timeouts"), "{last}");
    // Every lost segment was reported alone, and the flow reduced once per episode:
    // fewer reductions than lost segments.
    let number_before = |word: &str| {
        let words: Vec<&str> = last.split_whitespace().collect();
        let i = words.iter().position(|w| *w == word).expect(word);
        words[i - 1].parse::<u64>().expect("a count")
    };
    let (lost, reductions) = (number_before("lost"), number_before("reductions,"));
    assert!(reductions >= 1 && reductions < lost, "{last}");
}
