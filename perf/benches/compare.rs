//! Ours and the peers side by side on the same ACK stream (`benches/common`), with a
//! table of mean time per event and the ratios at the end.
//!
//! ```text
//! cd perf && cargo bench
//! ```

use congestion_perf::common::{NullController, OursLinuxHooks, OursRfc, Paced};
use congestion_perf::quinn::QuinnCubic;
use congestion_perf::s2n::S2nCubic;
use congestion_perf::{Event, OursLinux, Regime, Stream, StreamController};
use criterion::{BenchmarkGroup, Criterion, measurement::WallTime};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Mean nanoseconds per event of every (scenario, controller), over every batch
/// Criterion timed (warm-up included).
#[derive(Default)]
struct Totals(BTreeMap<(&'static str, &'static str), (Duration, u64)>);

thread_local! {
    static TOTALS: RefCell<Totals> = RefCell::new(Totals::default());
}

fn record(scenario: &'static str, controller: &'static str, elapsed: Duration, events: u64) {
    TOTALS.with(|t| {
        let mut totals = t.borrow_mut();
        let entry = totals
            .0
            .entry((scenario, controller))
            .or_insert((Duration::ZERO, 0));
        entry.0 += elapsed;
        entry.1 += events;
    });
}

fn mean_ns(scenario: &'static str, controller: &'static str) -> Option<f64> {
    TOTALS.with(|t| {
        t.borrow()
            .0
            .get(&(scenario, controller))
            .map(|(d, n)| d.as_nanos() as f64 / *n as f64)
    })
}

/// Every controller; the `-paced` ones carry our EDT pacer, `s2n` its own, and
/// `s2n-nopacer` has its pacer short-circuited (perf/src/s2n.rs).
const CONTROLLERS: [&str; 9] = [
    "linux",
    "linux-paced",
    "hooks",
    "rfc",
    "rfc-paced",
    "quinn",
    "s2n",
    "s2n-nopacer",
    "null",
];

/// One ACK of the stream, continuing from where the last batch stopped.
fn bench_stream<C: StreamController>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    scenario: &'static str,
    id: &'static str,
    fresh: C,
    regime: Regime,
) {
    let mut stream = Stream::new(fresh, regime);
    g.bench_function(id, |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                stream.step();
            }
            let elapsed = start.elapsed();
            record(scenario, id, elapsed, iters);
            elapsed
        })
    });
}

/// Criterion reports (snapshot, event) and the final table the net cost: that minus
/// (snapshot); with `then_ack`, (snapshot, event, next ACK)
/// minus (snapshot, next ACK), which includes the cube root Linux computes on the ACK
/// after a loss (the QUIC CUBICs compute K in the loss call itself).
fn bench_event<C: StreamController>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    scenario: &'static str,
    id: &'static str,
    fresh: C,
    event: Event,
    then_ack: bool,
) {
    let run = |stream: &mut Stream<C>, event: Event| {
        if then_ack {
            stream.event_then_ack(std::hint::black_box(event));
        } else {
            stream.event_only(std::hint::black_box(event));
        }
    };
    let mut stream = Stream::new(fresh, Regime::CongestionAvoidance);
    g.bench_function(id, |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                run(&mut stream, event);
            }
            let with_event = start.elapsed();
            let start = Instant::now();
            for _ in 0..iters {
                run(&mut stream, Event::Nothing);
            }
            let without = start.elapsed();
            record(scenario, id, with_event.saturating_sub(without), iters);
            // Criterion gets the gross time (a net time can round to zero); the table
            // at the end has the net.
            with_event
        })
    });
}

fn all_controllers(
    c: &mut Criterion,
    scenario: &'static str,
    each: &mut dyn FnMut(&mut BenchmarkGroup<'_, WallTime>, &'static str),
) {
    let mut g = c.benchmark_group(scenario);
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(500));
    for id in CONTROLLERS {
        each(&mut g, id);
    }
    g.finish();
}

fn streams(c: &mut Criterion, scenario: &'static str, regime: Regime) {
    all_controllers(c, scenario, &mut |g, id| match id {
        "linux" => bench_stream(g, scenario, id, OursLinux::new(), regime),
        "linux-paced" => bench_stream(g, scenario, id, Paced::new(OursLinux::new()), regime),
        "hooks" => bench_stream(g, scenario, id, OursLinuxHooks::new(), regime),
        "rfc" => bench_stream(g, scenario, id, OursRfc::new(), regime),
        "rfc-paced" => bench_stream(g, scenario, id, Paced::new(OursRfc::new()), regime),
        "quinn" => bench_stream(g, scenario, id, QuinnCubic::new(), regime),
        "s2n" => bench_stream(g, scenario, id, S2nCubic::new(), regime),
        "s2n-nopacer" => bench_stream(g, scenario, id, S2nCubic::without_pacer(), regime),
        _ => bench_stream(g, scenario, id, NullController::default(), regime),
    });
}

fn events(c: &mut Criterion, scenario: &'static str, event: Event, then_ack: bool) {
    all_controllers(c, scenario, &mut |g, id| match id {
        "linux" => bench_event(g, scenario, id, OursLinux::new(), event, then_ack),
        "hooks" => bench_event(g, scenario, id, OursLinuxHooks::new(), event, then_ack),
        "rfc" => bench_event(g, scenario, id, OursRfc::new(), event, then_ack),
        "quinn" => bench_event(g, scenario, id, QuinnCubic::new(), event, then_ack),
        "s2n-nopacer" => bench_event(g, scenario, id, S2nCubic::without_pacer(), event, then_ack),
        _ => {}
    });
}

/// Which benchmark id fills column `col` of a row: paced rows take the paced
/// variants, the others the unpaced ones (s2n with its pacer short-circuited).
fn column_id(col: &'static str, paced: bool) -> Option<&'static str> {
    Some(match (col, paced) {
        ("linux", false) => "linux",
        ("linux", true) => "linux-paced",
        ("hooks", false) => "hooks",
        ("rfc", false) => "rfc",
        ("rfc", true) => "rfc-paced",
        ("quinn", false) => "quinn",
        ("s2n", false) => "s2n-nopacer",
        ("s2n", true) => "s2n",
        _ => return None,
    })
}

fn report() {
    println!(
        "\nmean ns per event (the stream alone subtracted from ACK rows; (peer / linux, peer / rfc))\n"
    );
    println!(
        "| {:<26} | {:>7} | {:>7} | {:>7} | {:>22} | {:>22} |",
        "event", "linux", "hooks", "rfc", "quinn", "s2n"
    );
    println!(
        "|{:-<28}|{:->9}|{:->9}|{:->9}|{:->24}|{:->24}|",
        "", "", "", "", "", ""
    );
    let rows: [(&str, &str, bool, bool); 8] = [
        ("ack_in_ca", "ACK + send, project", true, false),
        ("ack_in_ca", "ACK + send, project, paced", true, true),
        ("ack_steady", "ACK + send, steady", true, false),
        ("ack_steady", "ACK + send, steady, paced", true, true),
        ("ack_in_slow_start", "ACK + send, slow start", true, false),
        ("loss", "loss call", false, false),
        ("loss_and_next_ack", "loss + epoch-start ACK", false, false),
        ("rto", "RTO call", false, false),
    ];
    for (scenario, label, minus_stream, paced) in rows {
        let stream = if minus_stream {
            mean_ns(scenario, "null").unwrap_or(0.0)
        } else {
            0.0
        };
        let get = |col| {
            column_id(col, paced)
                .and_then(|id| mean_ns(scenario, id))
                .map(|v| (v - stream).max(0.0))
        };
        let Some(ours) = get("linux") else { continue };
        let rfc = get("rfc").unwrap_or(0.0);
        let ratio = |v: f64, of: f64| {
            if of > 0.0 {
                format!("{:.1}x", v / of)
            } else {
                "-".to_string()
            }
        };
        let cell = |col| match get(col) {
            Some(v) => format!("{v:.1} ({}, {})", ratio(v, ours), ratio(v, rfc)),
            None => "-".to_string(),
        };
        let plain = |col| get(col).map_or("-".into(), |v| format!("{v:.1}"));
        println!(
            "| {:<26} | {:>7.1} | {:>7} | {:>7} | {:>22} | {:>22} |",
            label,
            ours,
            plain("hooks"),
            plain("rfc"),
            cell("quinn"),
            cell("s2n")
        );
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    streams(&mut c, "ack_in_ca", Regime::CongestionAvoidance);
    streams(&mut c, "ack_steady", Regime::SteadyGrowth);
    streams(&mut c, "ack_in_slow_start", Regime::SlowStart);
    events(&mut c, "loss", Event::Loss, false);
    events(&mut c, "loss_and_next_ack", Event::Loss, true);
    events(&mut c, "rto", Event::Rto, false);
    c.final_summary();
    report();
}
