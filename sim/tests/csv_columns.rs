//! `ccsim --csv` fills every column: a single run computes the queue and the pacing
//! rate only when a CSV asks for them, so a run with one must still see both; the
//! receive window column is what the ACKs advertised.

use std::process::Command;

/// The CSV of a run with `args`: its header's column names and its rows (every column
/// but the phase's name is a number; the phase reads as 0 here).
fn trace(name: &str, args: &[&str]) -> (Vec<String>, Vec<Vec<u64>>) {
    let path = std::env::temp_dir().join(format!("ccsim-{name}-{}.csv", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_ccsim"))
        .args(args)
        .arg("--csv")
        .arg(&path)
        .output()
        .expect("ccsim runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).expect("the CSV was written");
    let _ = std::fs::remove_file(&path);
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    let header = header.split(',').map(String::from).collect();
    let rows = lines
        .map(|l| {
            l.split(',')
                .map(|c| c.parse::<f64>().map_or(0, |v| v as u64))
                .collect()
        })
        .collect();
    (header, rows)
}

fn index(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).expect(name)
}

#[test]
fn the_csv_trace_carries_the_queue_and_the_pacing_rate() {
    // A NIC ten times faster than the bottleneck: slow start builds a queue there.
    let (header, rows) = trace(
        "queue",
        &[
            "--rtt",
            "20ms",
            "--rate",
            "1g",
            "--nic-rate",
            "10g",
            "--buffer",
            "1m",
            "-n",
            "20m",
            "--pacing",
            "on",
        ],
    );
    let (pacing, queue) = (
        index(&header, "pacing_rate_bps"),
        index(&header, "queue_bytes"),
    );
    assert!(rows.len() > 1000, "one row per ACK: {}", rows.len());
    // Linux sets a pacing rate from the first RTT sample on.
    let paced = rows.iter().filter(|r| r[pacing] > 0).count();
    assert!(
        paced > rows.len() * 9 / 10,
        "{paced} of {} rows paced",
        rows.len()
    );
    // 1 MB of buffer at the bottleneck: slow start fills a good part of it.
    let deepest = rows.iter().map(|r| r[queue]).max().unwrap_or(0);
    assert!(deepest > 100_000, "deepest queue {deepest} B");
}

#[test]
fn the_csv_trace_carries_the_window_the_receiver_advertised() {
    // -w 64k: Linux doubles it and leaves 3/4 as window, 98304 B = 67 segments of
    // 1448 B. cwnd outgrows it within the transfer; the flight never does.
    let (header, rows) = trace("rwnd", &["--rtt", "20ms", "-w", "64k", "-n", "5m"]);
    let rwnd = index(&header, "rwnd_segments");
    let (cwnd, in_flight) = (
        index(&header, "cwnd_segments"),
        index(&header, "in_flight_segments"),
    );
    assert!(rows.len() > 1000, "one row per ACK: {}", rows.len());
    assert!(
        rows.iter().all(|r| r[rwnd] == 67),
        "every ACK offers 67 segments"
    );
    assert!(rows.iter().all(|r| r[in_flight] <= r[rwnd]));
    assert!(
        rows.iter().any(|r| r[cwnd] > r[rwnd]),
        "the window, not cwnd, holds"
    );
}
