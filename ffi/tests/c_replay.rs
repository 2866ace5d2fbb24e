//! Builds `tests/replay.c` with the system C compiler against the static library and
//! the committed header, and replays the shipped Linux CUBIC traces through the C ABI:
//! every column of every row must match the kernel's.

mod common;

use common::{compile_c, crate_dir};
use flate2::read::GzDecoder;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn trace_dir() -> PathBuf {
    crate_dir().join("../tests/data/linux-cubic")
}

/// Compiles the replay program once for all tests; returns its path.
fn build_replay() -> PathBuf {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM
        .get_or_init(|| compile_c("c_replay", &["tests/replay.c"]))
        .clone()
}

/// Decompresses the expected CSV of `name` next to the test's temporary files, under a
/// name of the caller's (`tag`) so that tests running at once never share a file.
fn expected_csv(name: &str, tag: &str) -> PathBuf {
    let gz = trace_dir().join(format!("{name}.expected.csv.gz"));
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(&gz).expect("expected CSV"))
        .read_to_string(&mut text)
        .expect("gzip");
    let path =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{tag}-{name}.expected.csv"));
    std::fs::write(&path, text).expect("write CSV");
    path
}

fn replay(program: &Path, name: &str) -> Result<String, String> {
    let events = trace_dir().join(format!("{name}.events"));
    let out = Command::new(program)
        .arg(&events)
        .arg(expected_csv(name, "replay"))
        .output()
        .expect("run the replay program");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(format!(
            "{name}: {}{}",
            stdout,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[test]
fn a_c_program_replays_the_linux_traces_through_the_abi_bit_exactly() {
    let program = build_replay();
    // The trace named in the issue, first, with its row count (4921 events).
    let out = replay(&program, "loss_fastconv_on").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.trim(), "4921 rows match");
    // Then every other shipped trace.
    let mut names: Vec<String> = std::fs::read_dir(trace_dir())
        .expect("trace dir")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".events").map(str::to_owned)
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 35);
    let failures: Vec<String> = names
        .iter()
        .filter_map(|n| replay(&program, n).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_replay_program_notices_a_wrong_row() {
    let program = build_replay();
    // The same events against another trace's expectations must fail on a row.
    let events = trace_dir().join("loss_fastconv_on.events");
    let out = Command::new(&program)
        .arg(&events)
        .arg(expected_csv("loss_fastconv_off", "mismatch"))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("differs"));
}
