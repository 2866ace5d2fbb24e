//! The cold-state benchmark (issue 27): N flows in one array, ACKs in one seeded random
//! flow order, ns per ACK above the stream's own cost; see `congestion_perf::cold`.
//!
//! ```text
//! cargo run --release --manifest-path perf/Cargo.toml --bin cold -- [options]
//!   --flows 1e3,1e4,1e5,1e6   flow counts (10^7 needs ~4.5 GB for rfc+sp)
//!   --acks 4e6                ACKs per timed run (at least 2 per flow are run)
//!   --runs 3                  runs per cell; the minimum is reported
//!   --burst 8                 ACKs per burst in the batched mode (0: no batched mode)
//!   --only linux,rfc,...      columns to run (the stream is always run)
//!   --huge                    madvise(MADV_HUGEPAGE) on the flow array
//!   --seed 27                 the permutation's seed
//! cold lines [--only ...]     marked steps for scripts/cold-lines.sh (under lackey)
//! ```

use congestion_perf::cold::arena::{Arena, mem_available_bytes};
use congestion_perf::cold::flows::{
    Dummy, DummyStores, DummyWork, Linux, LinuxSendPath, Null, Quinn, Rfc, RfcNoUndo, RfcSendPath,
    S2n,
};
use congestion_perf::cold::{ColdFlow, Mode, Template, lines, permutation, run};
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

/// One column: a flow type, its shared part and its templates.
trait Column {
    fn name(&self) -> &'static str;
    fn size(&self) -> usize;
    fn align(&self) -> usize;
    /// Fills `n` flows from the templates, runs `acks` ACKs, drops the flows.
    fn time(&self, arena: &mut Arena, perm: &[u32], acks: u64, mode: Mode) -> (Duration, u64);
    /// One marked step on each of 64 flows, for `scripts/cold-lines.sh`.
    fn lines(&self);
}

struct Col<F: ColdFlow> {
    shared: F::Shared,
    template: Template<F>,
}

impl<F: ColdFlow> Col<F> {
    fn boxed() -> Box<dyn Column>
    where
        F: 'static,
    {
        let shared = F::shared();
        let template = Template::<F>::new(&shared);
        Box::new(Col { shared, template })
    }
}

impl<F: ColdFlow> Column for Col<F> {
    fn name(&self) -> &'static str {
        F::NAME
    }
    fn size(&self) -> usize {
        size_of::<F>()
    }
    fn align(&self) -> usize {
        align_of::<F>()
    }
    fn time(&self, arena: &mut Arena, perm: &[u32], acks: u64, mode: Mode) -> (Duration, u64) {
        let flows = arena.fill(perm.len(), &self.template.phases);
        run(
            flows.flows,
            &self.shared,
            &self.template.consts,
            perm,
            acks,
            mode,
        )
    }
    fn lines(&self) {
        lines::measure(&self.shared, &self.template);
    }
}

/// A column's name for `--only`, and how to build it.
type MakeColumn = (&'static str, fn() -> Box<dyn Column>);

fn all_columns() -> Vec<MakeColumn> {
    vec![
        ("linux", Col::<Linux>::boxed),
        ("linux+sp", Col::<LinuxSendPath>::boxed),
        ("rfc", Col::<Rfc>::boxed),
        ("rfc-noundo", Col::<RfcNoUndo>::boxed),
        ("rfc+sp", Col::<RfcSendPath>::boxed),
        ("quinn", Col::<Quinn>::boxed),
        ("s2n", Col::<S2n<false>>::boxed),
        ("s2n+pacer", Col::<S2n<true>>::boxed),
        ("dummy1", Col::<Dummy<1>>::boxed),
        ("dummy2", Col::<Dummy<2>>::boxed),
        ("dummy3", Col::<Dummy<3>>::boxed),
        ("stores8", Col::<DummyStores<8>>::boxed),
        ("stores16", Col::<DummyStores<16>>::boxed),
        ("stores24", Col::<DummyStores<24>>::boxed),
        ("work16", Col::<DummyWork<16>>::boxed),
        ("work32", Col::<DummyWork<32>>::boxed),
    ]
}

struct Args {
    flows: Vec<usize>,
    acks: u64,
    runs: usize,
    burst: usize,
    only: Option<Vec<String>>,
    huge: bool,
    seed: u64,
    lines: bool,
}

fn number(s: &str) -> Result<u64, String> {
    if let Some((m, e)) = s.split_once(['e', 'E']) {
        let m: f64 = m.parse().map_err(|_| format!("bad number {s}"))?;
        let e: i32 = e.parse().map_err(|_| format!("bad number {s}"))?;
        Ok((m * 10f64.powi(e)).round() as u64)
    } else {
        s.parse().map_err(|_| format!("bad number {s}"))
    }
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        flows: vec![1_000, 10_000, 100_000, 1_000_000],
        acks: 4_000_000,
        runs: 3,
        burst: 8,
        only: None,
        huge: false,
        seed: 27,
        lines: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--flows" => {
                a.flows = value()?
                    .split(',')
                    .map(|s| number(s).map(|n| n as usize))
                    .collect::<Result<_, _>>()?
            }
            "--acks" => a.acks = number(&value()?)?,
            "--runs" => a.runs = number(&value()?)? as usize,
            "--burst" => a.burst = number(&value()?)? as usize,
            "--only" => a.only = Some(value()?.split(',').map(String::from).collect()),
            "--seed" => a.seed = number(&value()?)?,
            "--huge" => a.huge = true,
            "lines" => a.lines = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if a.flows.iter().any(|&n| n < 64) || a.runs == 0 {
        return Err("--flows must be at least 64 each, --runs at least 1".into());
    }
    Ok(a)
}

fn fmt_n(n: usize) -> String {
    let e = (n as f64).log10();
    if (e - e.round()).abs() < 1e-9 {
        format!("10^{}", e.round() as u32)
    } else {
        n.to_string()
    }
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("{e}");
            }
            eprintln!(
                "usage: cold [--flows 1e3,1e4,1e5,1e6] [--acks 4e6] [--runs 3] [--burst 8] [--only linux,rfc,..] [--huge] [--seed 27]"
            );
            return ExitCode::from(2);
        }
    };
    if args.lines {
        // Under valgrind's lackey (scripts/cold-lines.sh): the markers' calibration
        // first, then each column's templates (their warm-up is traced too, and
        // ignored), then the marked steps.
        lines::calibrate();
        for (name, make) in all_columns() {
            if args
                .only
                .as_ref()
                .is_none_or(|o| o.iter().any(|w| w == name))
            {
                make().lines();
            }
        }
        return ExitCode::SUCCESS;
    }
    let wanted = |name: &str| {
        args.only
            .as_ref()
            .is_none_or(|o| o.iter().any(|w| w == name))
    };
    eprintln!("warming up the templates ...");
    let stream = Col::<Null>::boxed();
    let columns: Vec<Box<dyn Column>> = all_columns()
        .into_iter()
        .filter(|(name, _)| wanted(name))
        .map(|(_, make)| make())
        .collect();

    println!("## Per-flow state (x86_64)\n");
    println!("| column | size_of, bytes | align | 64-byte lines spanned (aligned start) |");
    println!("|---|---|---|---|");
    for c in &columns {
        println!(
            "| {} | {} | {} | {} |",
            c.name(),
            c.size(),
            c.align(),
            c.size().div_ceil(64)
        );
    }
    println!();

    let max_n = *args.flows.iter().max().expect("flows");
    let max_size = columns.iter().map(|c| c.size()).max().unwrap_or(64).max(64);
    let bytes = max_n * max_size;
    if let Some(avail) = mem_available_bytes()
        && bytes as u64 > avail / 10 * 7
    {
        eprintln!(
            "the flow array needs {:.2} GB, more than 70 % of the {:.2} GB available",
            bytes as f64 / 1e9,
            avail as f64 / 1e9
        );
        return ExitCode::FAILURE;
    }
    eprintln!(
        "allocating {:.2} GB once (the largest flow type at {} flows) ...",
        bytes as f64 / 1e9,
        max_n
    );
    let mut arena = Arena::new(bytes, args.huge);
    if args.huge {
        eprintln!("AnonHugePages of this process: {}", anon_huge_pages());
    }

    let mut modes = vec![("plain", Mode::Plain)];
    if args.burst > 0 {
        modes.push(("batched", Mode::Batched { burst: args.burst }));
    }
    // (mode, n, column) -> ns per ACK of every run, in run order
    let mut all: BTreeMap<(&str, usize, &str), Vec<f64>> = BTreeMap::new();
    let mut bad_total = 0;
    for &n in &args.flows {
        let perm = permutation(n, args.seed ^ n as u64);
        let acks = args.acks.max(2 * n as u64);
        eprintln!("{} flows, {} ACKs per run ...", fmt_n(n), acks);
        let cells: Vec<&dyn Column> = std::iter::once(stream.as_ref())
            .chain(columns.iter().map(|c| c.as_ref()))
            .collect();
        for r in 0..args.runs {
            // Interleaved: every column in every mode once per run, the order rotated
            // from run to run.
            let k = cells.len();
            for j in 0..k {
                let c = cells[(j + r) % k];
                for &(mode_name, mode) in &modes {
                    let (t, bad) = c.time(&mut arena, &perm, acks, mode);
                    if bad != 0 {
                        eprintln!(
                            "  {} {mode_name}: {bad} ACKs did not behave as the stream assumes",
                            c.name()
                        );
                        bad_total += bad;
                    }
                    let ns = t.as_nanos() as f64 / acks as f64;
                    all.entry((mode_name, n, c.name())).or_default().push(ns);
                }
            }
        }
    }

    let best: BTreeMap<_, f64> = all
        .iter()
        .map(|(k, v)| (*k, v.iter().copied().fold(f64::INFINITY, f64::min)))
        .collect();
    // Run r's net figure: its time minus the stream's in the same run.
    let net_run = |mode: &str, n: usize, name: &str, r: usize| -> Option<f64> {
        Some(all.get(&(mode, n, name))?[r] - all.get(&(mode, n, "stream"))?[r])
    };
    let names: Vec<&str> = columns.iter().map(|c| c.name()).collect();
    let net = |mode: &str, n: usize, name: &str| -> Option<f64> {
        let s = best.get(&(mode, n, "stream"))?;
        best.get(&(mode, n, name)).map(|v| v - s)
    };
    for &(mode_name, _) in &modes {
        match mode_name {
            "plain" => println!(
                "## ns per ACK above the stream, ACKs one at a time in random flow order (min of {} runs)\n",
                args.runs
            ),
            _ => println!(
                "## ns per ACK above the stream, bursts of {} ACKs, each burst's flows prefetched first (min of {} runs)\n",
                args.burst, args.runs
            ),
        }
        let mut header = String::from("| flows |");
        let mut rule = String::from("|---|");
        for name in &names {
            header += &format!(" {name} |");
            rule += "---|";
        }
        println!("{header} stream alone (raw) |\n{rule}---|");
        for &n in &args.flows {
            let mut line = format!("| {} |", fmt_n(n));
            for name in &names {
                line += &net(mode_name, n, name).map_or(" - |".into(), |v| format!(" {v:.1} |"));
            }
            let s = best.get(&(mode_name, n, "stream")).copied().unwrap_or(0.0);
            println!("{line} {s:.1} |");
        }
        println!();
    }

    // Ratios, ours / peer, like for like: unpaced against quinn and s2n with its pacer
    // short-circuited, with our send path against s2n with its pacer.
    let pairs: [(&str, &str); 8] = [
        ("linux", "quinn"),
        ("rfc", "quinn"),
        ("rfc-noundo", "quinn"),
        ("linux", "s2n"),
        ("rfc", "s2n"),
        ("rfc-noundo", "s2n"),
        ("linux+sp", "s2n+pacer"),
        ("rfc+sp", "s2n+pacer"),
    ];
    let pairs: Vec<_> = pairs
        .iter()
        .filter(|(a, b)| names.contains(a) && names.contains(b))
        .collect();
    if !pairs.is_empty() {
        println!(
            "## Ratios ours / peer: net ns per ACK (above the stream), min of {} runs each, same process, same N, same mode; in brackets the range of the {} ratios taken within one run (one run measures every cell of that N once, interleaved, within well under a minute)\n",
            args.runs, args.runs
        );
        let mut header = String::from("| mode | flows |");
        let mut rule = String::from("|---|---|");
        for (a, b) in &pairs {
            header += &format!(" {a} / {b} |");
            rule += "---|";
        }
        println!("{header}\n{rule}");
        for &(mode_name, _) in &modes {
            for &n in &args.flows {
                let mut line = format!("| {mode_name} | {} |", fmt_n(n));
                for (a, b) in &pairs {
                    let per_run: Vec<f64> = (0..args.runs)
                        .filter_map(|r| {
                            let (x, y) =
                                (net_run(mode_name, n, a, r)?, net_run(mode_name, n, b, r)?);
                            (y > 0.0).then_some(x / y)
                        })
                        .collect();
                    let range = if per_run.len() > 1 {
                        let lo = per_run.iter().copied().fold(f64::INFINITY, f64::min);
                        let hi = per_run.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                        format!(" ({lo:.2}-{hi:.2})")
                    } else {
                        String::new()
                    };
                    let cell = match (net(mode_name, n, a), net(mode_name, n, b)) {
                        (Some(x), Some(y)) if y > 0.0 => format!(" {:.2}{range} |", x / y),
                        _ => " - |".into(),
                    };
                    line += &cell;
                }
                println!("{line}");
            }
        }
        println!();
    }

    if bad_total != 0 {
        eprintln!(
            "{bad_total} ACKs did not behave as the stream assumes: the figures are not valid"
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// `AnonHugePages` of this process (`/proc/self/smaps_rollup`), as the kernel reports it.
fn anon_huge_pages() -> String {
    std::fs::read_to_string("/proc/self/smaps_rollup")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("AnonHugePages:"))
                .map(|l| l["AnonHugePages:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}
