//! The std side of the replay for the example and the tests: the trace language and
//! its semantics live in `congestion-replay` (replay/), the one implementation the
//! firmware image runs too; this collects its CSV into a `String`, words its errors and
//! reads the shipped traces and the kernel's expected CSVs.

#![allow(dead_code, reason = "each includer uses a different part")]

pub use congestion_replay::{Cc, Kernel};
use flate2::read::GzDecoder;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Replays `text` on `kernel` and returns the CSV.
pub fn replay_kernel(text: &str, kernel: Kernel) -> Result<String, String> {
    let mut out = String::new();
    congestion_replay::replay(text, kernel, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// Replays `text` with algorithm `cc` (today's kernel) and returns the CSV.
pub fn replay_cc(text: &str, cc: Cc) -> Result<String, String> {
    let mut out = String::new();
    congestion_replay::replay_cc(text, cc, Kernel::Today, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// Replays a linux-cubic trace through the generic glue with CUBIC's hook table and
/// returns the CSV.
pub fn replay_cubic_on_glue(text: &str) -> Result<String, String> {
    let mut out = String::new();
    congestion_replay::replay_cubic_on_glue(text, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// Replays `text` on today's kernel (or in RFC mode) and returns the CSV.
pub fn replay(text: &str) -> Result<String, String> {
    replay_kernel(text, Kernel::Today)
}

/// The folder `tests/data/FOLDER` of the repository (found from the including crate's
/// directory, so the root crate's tests and ffi's reach the same traces).
pub fn data_dir(folder: &str) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .map(|dir| dir.join("tests/data").join(folder))
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| panic!("no tests/data/{folder} above {}", manifest.display()))
}

/// The kernel's CSV for trace `name` of `folder` (`NAME.expected.csv.gz`).
pub fn expected_csv(folder: &str, name: &str) -> String {
    let path = data_dir(folder).join(format!("{name}.expected.csv.gz"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("gzip");
    text
}

/// The trace `name` of `folder` (`NAME.events`).
pub fn events(folder: &str, name: &str) -> String {
    std::fs::read_to_string(data_dir(folder).join(format!("{name}.events"))).expect("events")
}

/// Every trace shipped in `folder`, by name, sorted.
pub fn trace_names(folder: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(data_dir(folder))
        .expect("trace dir")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".events").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

/// Compares two CSVs cell by cell and describes the first differing row and its
/// differing columns (or a row-count mismatch), naming the trace.
pub fn first_difference(name: &str, got: &str, want: &str) -> Option<String> {
    let header: Vec<&str> = want.lines().next()?.split(',').collect();
    for (row, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        if g == w {
            continue;
        }
        let cells: Vec<String> = g
            .split(',')
            .zip(w.split(','))
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| format!("{}: got {a}, want {b}", header.get(i).unwrap_or(&"?")))
            .collect();
        return Some(format!("{name} line {}: {}", row + 1, cells.join("; ")));
    }
    let (got_rows, want_rows) = (got.lines().count(), want.lines().count());
    (got_rows != want_rows).then(|| format!("{name}: {got_rows} rows, expected {want_rows}"))
}

/// Replays every trace `names` of `folder` on `kernel` against the kernel's CSVs:
/// returns the number of data rows compared and one description per differing trace.
pub fn replay_folder(folder: &str, names: &[String], kernel: Kernel) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut rows = 0;
    for name in names {
        let want = expected_csv(folder, name);
        let got =
            replay_kernel(&events(folder, name), kernel).unwrap_or_else(|e| panic!("{name}: {e}"));
        rows += want.lines().count().saturating_sub(1);
        if let Some(diff) = first_difference(name, &got, &want) {
            failures.push(diff);
        }
    }
    (rows, failures)
}

/// Replays every trace `names` of `folder` with algorithm `cc` against the kernel's
/// CSVs: returns the number of data rows compared and one description per differing
/// trace.
pub fn replay_folder_cc(folder: &str, names: &[String], cc: Cc) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut rows = 0;
    for name in names {
        let want = expected_csv(folder, name);
        let got = replay_cc(&events(folder, name), cc).unwrap_or_else(|e| panic!("{name}: {e}"));
        rows += want.lines().count().saturating_sub(1);
        if let Some(diff) = first_difference(name, &got, &want) {
            failures.push(diff);
        }
    }
    (rows, failures)
}

/// Replays `folder/NAME.events` (today's kernel, or the mode the trace sets), checks the
/// CSV against `NAME.expected.csv` beside it, and returns its rows split into cells (row
/// 0 the header): the hand-checked traces of RFC mode and NewReno.
pub fn checked_rows(folder: &str, name: &str) -> Vec<Vec<String>> {
    let dir = data_dir(folder);
    let text = std::fs::read_to_string(dir.join(format!("{name}.events"))).expect("trace");
    let csv = replay(&text).expect("replay");
    let want = std::fs::read_to_string(dir.join(format!("{name}.expected.csv"))).expect("csv");
    assert_eq!(csv, want, "{name}: output differs from {name}.expected.csv");
    csv.lines()
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

/// The cell of row `idx` (1-based event index) in column `col` of [`checked_rows`].
pub fn cell<'a>(rows: &'a [Vec<String>], idx: usize, col: &str) -> &'a str {
    let c = rows[0]
        .iter()
        .position(|h| h == col)
        .unwrap_or_else(|| panic!("column {col}"));
    &rows[idx][c]
}

/// [`cell`] as a number.
pub fn num(rows: &[Vec<String>], idx: usize, col: &str) -> u64 {
    cell(rows, idx, col).parse().expect("number")
}
