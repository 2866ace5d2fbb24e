//! The SVG plots keep every series visible: a run identical to another is drawn apart
//! from it and the legend says so; a different run is left where it is.

use congestion_sim::config::Amount;
use congestion_sim::plot::{PlotRun, write_svg};
use congestion_sim::series::Series;
use congestion_sim::{Probe, SimConfig, TraceRow, run};

struct Record(Series);
impl Probe for Record {
    fn ack(&mut self, row: &TraceRow) {
        self.0.push(row);
    }
}

fn series(rtt_ns: u64) -> Series {
    let mut cfg = SimConfig::new();
    cfg.rtt_ns = rtt_ns;
    cfg.amount = Amount::TimeNs(500_000_000);
    let mut rec = Record(Series::new(cfg.mss()));
    run(&cfg, &mut rec).expect("runs");
    rec.0
}

#[test]
fn a_run_on_top_of_another_is_moved_up_and_the_legend_says_so() {
    let (a, b, other) = (series(20_000_000), series(20_000_000), series(5_000_000));
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("coinciding.svg");
    let runs = [
        PlotRun::nth(0, "first".into(), &a),
        PlotRun::nth(1, "same again".into(), &b),
        PlotRun::nth(2, "shorter RTT".into(), &other),
    ];
    // Two seed series with the same figures: the second is moved too.
    let seed: Vec<(f64, f64)> = vec![(0.1, 100.0), (0.2, 900.0), (0.3, 1200.0)];
    let measured = [
        ("seed one".to_string(), seed.clone(), 0),
        ("seed two".to_string(), seed, 1),
    ];
    write_svg(&path, "test", &runs, &measured).expect("writes");
    let svg = std::fs::read_to_string(&path).expect("reads");
    // Three panels: "same again" is moved in each, nothing is said about the other.
    assert_eq!(
        svg.matches("drawn 3 px up: runs on &quot;first&quot;")
            .count(),
        3,
        "{}",
        svg.len()
    );
    assert_eq!(svg.matches("runs on &quot;same again&quot;").count(), 0);
    assert_eq!(svg.matches("runs on &quot;seed one&quot;").count(), 1);
    assert!(!svg.contains("runs on &quot;shorter RTT&quot;"));
    // The shorter-RTT run is moved in no panel: four notes in all.
    assert_eq!(svg.matches("drawn ").count(), 4);
}
