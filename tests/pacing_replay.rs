//! The send-path traces of tests/data/pacing, replayed and checked against rows
//! computed by hand from the kernel formulas (arithmetic in the comments).

mod replay;

use std::path::Path;

const EXTRA: [&str; 6] = [
    "pacing_rate",
    "departure_ns",
    "tsq_queued",
    "tsq_limit",
    "tsq_throttled",
    "tso_segs",
];

fn replay_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pacing")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("trace");
    replay::replay(&text).expect("replay")
}

/// The send-path columns of every row, as `[ev, pacing_rate, departure_ns, ...]`.
fn send_path_rows(csv: &str) -> Vec<Vec<String>> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let idx: Vec<usize> = std::iter::once("ev")
        .chain(EXTRA)
        .map(|c| header.iter().position(|h| *h == c).expect(c))
        .collect();
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            idx.iter().map(|&i| cells[i].to_owned()).collect()
        })
        .collect()
}

fn row(ev: &str, cells: [u64; 6]) -> Vec<String> {
    std::iter::once(ev.to_owned())
        .chain(cells.iter().map(u64::to_string))
        .collect()
}

#[test]
fn tsq_holds_an_unpaced_flow_to_the_original_128_kib_and_completions_reopen_it() {
    // init: srtt 10 ms, cwnd 10, slow start: rate = 1448 * 80000 * 200 * 10 / 80000
    // = 2896000 B/s. tso: 2896000 >> 10 = 2828 B / 1448 = 1 -> min_tso_segs 2 (no RTT
    // sample: min_rtt ~0U adds nothing). Limit before any xmit: max(0, 2828) = 2828.
    // Each burst: limit min(max(2 * 65160, 2828), 131072) = 130320.
    // Unpaced: each packet departs when handed over (T * 1000 ns).
    let r = 2_896_000;
    let want = vec![
        row("set", [0; 6]),
        row("set", [0; 6]),
        row("init", [r, 0, 0, 2828, 0, 2]),
        row("xmit", [r, 0, 65_160, 130_320, 0, 2]),
        row("xmit", [r, 10_000, 130_320, 130_320, 0, 2]),
        // 130320 queued is not above 130320: the third burst may still go.
        row("xmit", [r, 20_000, 195_480, 130_320, 0, 2]),
        // 195480 > 130320: throttled, nothing queued, departure unchanged.
        row("xmit", [r, 20_000, 195_480, 130_320, 1, 2]),
        // 195480 - 65160 = 130320 <= 130320: the budget reopens.
        row("txdone", [r, 20_000, 130_320, 130_320, 0, 2]),
        row("txdone", [r, 20_000, 65_160, 130_320, 0, 2]),
        row("xmit", [r, 210_000, 130_320, 130_320, 0, 2]),
    ];
    assert_eq!(send_path_rows(&replay_file("tsq_unpaced.events")), want);
}

#[test]
fn the_edt_pacer_starts_after_ten_segments_and_forgives_a_late_sender_half_a_packet() {
    // Rate 2896000 B/s as above; 1448 B take 1448e9 / 2896000 = 500000 ns.
    // Paced flow: TSQ limit max(2 * truesize, 2828), no 4 MiB cap.
    let r = 2_896_000;
    let want = vec![
        row("set", [0; 6]),
        row("set", [0; 6]),
        row("init", [r, 0, 0, 2828, 0, 2]),
        // 9 segments: below 10, not paced; next departure stays 0. Limit 2 * 13032.
        row("xmit", [r, 0, 13_032, 26_064, 0, 2]),
        row("txdone", [r, 0, 0, 26_064, 0, 2]),
        // 10th segment at 100 us: departs 100000; credit 100000 - 0 = 100000 < 250000,
        // so next = 100000 + 500000 - 100000 = 500000. Limit max(2896, 2828).
        row("xmit", [r, 100_000, 1448, 2896, 0, 2]),
        row("txdone", [r, 100_000, 0, 2896, 0, 2]),
        // Early (200 us): waits for 500000; next = 1000000.
        row("xmit", [r, 500_000, 1448, 2896, 0, 2]),
        row("txdone", [r, 500_000, 0, 2896, 0, 2]),
        // 1 ms late: departs 2000000, credit 1000000 capped at 250000:
        // next = 2000000 + 500000 - 250000 = 2250000.
        row("xmit", [r, 2_000_000, 1448, 2896, 0, 2]),
        row("txdone", [r, 2_000_000, 0, 2896, 0, 2]),
        row("xmit", [r, 2_250_000, 1448, 2896, 0, 2]),
        // ack: srtt8 = 80000 + 500 - 10000 = 70500, cwnd 12, 8 out:
        // rate = 1448 * 80000 * 200 * 12 / 70500 = 3943489. Limit max(2896, 3851).
        // TSO: 3943489 >> 10 = 3851, min_rtt 500 >> 9 = 0 -> + 65536, capped at 65536,
        // / 1448 = 45 segments.
        row("ack", [3_943_489, 2_250_000, 1448, 3851, 0, 45]),
        // gso_max_size 16384: 3851 + 16384 = 20235 -> 16384 / 1448 = 11.
        row("set", [3_943_489, 2_250_000, 1448, 3851, 0, 11]),
        // gso_max_segs 8 caps it; min_tso_segs 10 cannot lift it above gso_max_segs.
        row("set", [3_943_489, 2_250_000, 1448, 3851, 0, 8]),
        row("set", [3_943_489, 2_250_000, 1448, 3851, 0, 8]),
    ];
    assert_eq!(send_path_rows(&replay_file("edt_paced.events")), want);
}

#[test]
fn traces_without_send_path_events_keep_the_reference_columns() {
    let plain = "set srtt_us 10000\nset gso_max_size 16384\ninit 0\nack 1000 2 1000 10\n";
    let csv = replay::replay(plain).expect("replay");
    let header = csv.lines().next().expect("header");
    assert!(header.ends_with(",hs_reason"), "{header}");
    assert_eq!(header.split(',').count(), 34);
    let extended = replay::replay(&format!("set min_tso_segs 2\n{plain}")).expect("replay");
    let header = extended.lines().next().expect("header");
    assert!(header.ends_with(",tso_segs"), "{header}");
    assert_eq!(header.split(',').count(), 39);
    // Every row has as many cells as the header.
    assert!(extended.lines().all(|l| l.split(',').count() == 39));
}

#[test]
fn bad_send_path_settings_are_refused_with_their_line() {
    let err = replay::replay("set gso_max_segs 0\n").unwrap_err();
    assert!(err.contains("line 1"), "{err}");
    let err = replay::replay("init 0\nxmit 10\n").unwrap_err();
    assert!(err.contains("line 2"), "{err}");
}
