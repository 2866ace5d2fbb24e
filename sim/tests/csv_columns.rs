//! `ccsim --csv` fills the queue and pacing-rate columns: a single run computes them
//! only when a CSV asks for them, so a run with one must still see both.

use std::process::Command;

#[test]
fn the_csv_trace_carries_the_queue_and_the_pacing_rate() {
    let path = std::env::temp_dir().join(format!("ccsim-csv-columns-{}.csv", std::process::id()));
    // A NIC ten times faster than the bottleneck: slow start builds a queue there.
    let out = Command::new(env!("CARGO_BIN_EXE_ccsim"))
        .args([
            "--rtt",
            "20ms",
            "--rate",
            "1g",
            "--nic-rate",
            "10g",
            "--buffer",
            "1m",
        ])
        .args(["-n", "20m", "--pacing", "on", "--csv"])
        .arg(&path)
        .output()
        .expect("ccsim runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(&path).expect("the CSV was written");
    let _ = std::fs::remove_file(&path);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (pacing, queue) = (column("pacing_rate_bps"), column("queue_bytes"));
    let (mut paced_rows, mut deepest, mut rows) = (0, 0u64, 0);
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        rows += 1;
        if cells[pacing].parse::<u64>().expect("a rate") > 0 {
            paced_rows += 1;
        }
        deepest = deepest.max(cells[queue].parse().expect("bytes"));
    }
    assert!(rows > 1000, "one row per ACK: {rows}");
    // Linux sets a pacing rate from the first RTT sample on.
    assert!(
        paced_rows > rows * 9 / 10,
        "{paced_rows} of {rows} rows paced"
    );
    // 1 MB of buffer at the bottleneck: slow start fills a good part of it.
    assert!(deepest > 100_000, "deepest queue {deepest} B");
}
