//! The cold benchmark for BBR (`congestion_perf::cold::bbr`): N flows in one array,
//! ACKs in one seeded random flow order, ns per ACK above the replay loop's own cost;
//! `linux::Bbr` and `linux::Bbr3` beside quinn-proto's `Bbr` and s2n-quic-core's BBRv2,
//! in steady PROBE_BW and during a recovery period.
//!
//! ```text
//! cargo run --release --manifest-path perf/Cargo.toml --bin cold_bbr -- [options]
//!   --flows 1e6          flow counts
//!   --acks 4e6           ACKs per timed run
//!   --runs 3             runs per cell; the minimum is reported
//!   --burst 8            ACKs per burst in the batched mode (0: none)
//!   --seed 27            the permutation's seed
//!   --only bbr,quinn-bbr columns to run (default: all); absent ones print `-`
//!   --part steady        steady, recovery or both (default)
//! ```

use congestion_perf::cold::arena::Arena;
use congestion_perf::cold::bbr::{
    ColdBbr, ColdBbr3, ColdQuinnBbr, ColdS2nBbr, PHASES, Part, QuinnStack, S2nStack, Script,
    ScriptFlow, Stack, TcpStack, run, run_null,
};
use congestion_perf::cold::{Mode, permutation};
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

trait Column {
    fn name(&self) -> &'static str;
    fn size(&self) -> usize;
    fn time(&self, arena: &mut Arena, perm: &[u32], acks: u64, mode: Mode) -> Duration;
    fn null(&self, perm: &[u32], acks: u64) -> Duration;
}

struct Col<F: ScriptFlow> {
    script: Script<F>,
}

impl<F: ScriptFlow + 'static> Col<F> {
    fn boxed<K: Stack<F>>(part: Part, steps: usize) -> Box<dyn Column> {
        Box::new(Col {
            script: Script::<F>::record::<K>(part, steps),
        })
    }
}

impl<F: ScriptFlow> Column for Col<F> {
    fn name(&self) -> &'static str {
        F::NAME
    }
    fn size(&self) -> usize {
        size_of::<F>()
    }
    fn time(&self, arena: &mut Arena, perm: &[u32], acks: u64, mode: Mode) -> Duration {
        let flows = arena.fill(perm.len(), &self.script.phases);
        run(flows.flows, &self.script, perm, acks, mode)
    }
    fn null(&self, perm: &[u32], acks: u64) -> Duration {
        run_null(perm.len(), &self.script, perm, acks)
    }
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

fn main() -> ExitCode {
    let mut flows = vec![1_000_000usize];
    let (mut acks, mut runs, mut burst, mut seed) = (4_000_000u64, 3usize, 8usize, 27u64);
    let mut only: Option<Vec<String>> = None;
    let mut parts = vec![Part::Steady, Part::Recovery];
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let v = it.next().map(String::as_str).unwrap_or("");
        let r = match a.as_str() {
            "--flows" => v
                .split(',')
                .map(|x| number(x).map(|n| n as usize))
                .collect::<Result<Vec<_>, _>>()
                .map(|f| flows = f),
            "--acks" => number(v).map(|n| acks = n),
            "--runs" => number(v).map(|n| runs = n as usize),
            "--burst" => number(v).map(|n| burst = n as usize),
            "--seed" => number(v).map(|n| seed = n),
            "--only" => {
                only = Some(v.split(',').map(str::to_string).collect());
                Ok(())
            }
            "--part" => match v {
                "steady" | "recovery" | "both" => {
                    parts.retain(|p| v == "both" || format!("{p:?}").eq_ignore_ascii_case(v));
                    Ok(())
                }
                _ => Err(format!("bad part {v}")),
            },
            _ => Err(format!("unknown option {a}")),
        };
        if let Err(e) = r {
            eprintln!(
                "{e}\nusage: cold_bbr [--flows 1e6] [--acks 4e6] [--runs 3] [--burst 8] [--seed 27] [--only a,b] [--part steady|recovery|both]"
            );
            return ExitCode::from(2);
        }
    }
    let min_n = *flows.iter().min().expect("flows");
    let steps = PHASES + acks.max(2 * min_n as u64).div_ceil(min_n as u64) as usize + 1;
    let mut modes = vec![("plain", Mode::Plain)];
    if burst > 0 {
        modes.push(("batched", Mode::Batched { burst }));
    }
    for part in parts {
        eprintln!("recording the {part:?} scripts ({steps} steps) ...");
        let wanted = |name: &str| only.as_ref().is_none_or(|o| o.iter().any(|x| x == name));
        let mut columns: Vec<Box<dyn Column>> = Vec::new();
        if wanted(ColdBbr::NAME) {
            columns.push(Col::<ColdBbr>::boxed::<TcpStack>(part, steps));
        }
        if wanted(ColdBbr3::NAME) {
            columns.push(Col::<ColdBbr3>::boxed::<TcpStack>(part, steps));
        }
        if wanted(ColdQuinnBbr::NAME) {
            columns.push(Col::<ColdQuinnBbr>::boxed::<QuinnStack>(part, steps));
        }
        if wanted(ColdS2nBbr::NAME) {
            columns.push(Col::<ColdS2nBbr>::boxed::<S2nStack>(part, steps));
        }
        let max_n = *flows.iter().max().expect("flows");
        let max_size = columns.iter().map(|c| c.size()).max().unwrap_or(64).max(64);
        let mut arena = Arena::new(max_n * max_size, false);
        // (mode, n, column) -> net ns per ACK of every run
        let mut all: BTreeMap<(&str, usize, &str), Vec<f64>> = BTreeMap::new();
        for &n in &flows {
            let perm = permutation(n, seed ^ n as u64);
            let acks = acks.max(2 * n as u64);
            for r in 0..runs {
                let k = columns.len();
                for j in 0..k {
                    let c = &columns[(j + r) % k];
                    let null = c.null(&perm, acks).as_nanos() as f64 / acks as f64;
                    for &(mode_name, mode) in &modes {
                        let t = c.time(&mut arena, &perm, acks, mode).as_nanos() as f64;
                        all.entry((mode_name, n, c.name()))
                            .or_default()
                            .push(t / acks as f64 - null);
                    }
                }
            }
        }
        let best = |mode: &str, n: usize, name: &str| -> Option<f64> {
            all.get(&(mode, n, name))
                .map(|v| v.iter().copied().fold(f64::INFINITY, f64::min))
        };
        println!("## {part:?}: ns per ACK above the replay loop (min of {runs} runs)\n");
        let names: Vec<&str> = columns.iter().map(|c| c.name()).collect();
        println!(
            "| mode | flows | {} |\n|---|---|{}",
            names.join(" | "),
            "---|".repeat(names.len())
        );
        for &(mode_name, _) in &modes {
            for &n in &flows {
                let cells: Vec<String> = names
                    .iter()
                    .map(|c| best(mode_name, n, c).map_or("-".into(), |v| format!("{v:.1}")))
                    .collect();
                println!("| {mode_name} | {n} | {} |", cells.join(" | "));
            }
        }
        println!("\n## {part:?}: ratios ours / peer (min over runs each; per-run range)\n");
        println!(
            "| mode | flows | bbr / quinn-bbr | bbr / s2n-bbr | bbr3 / quinn-bbr | bbr3 / s2n-bbr |\n|---|---|---|---|---|---|"
        );
        for &(mode_name, _) in &modes {
            for &n in &flows {
                let mut line = format!("| {mode_name} | {n} |");
                for (a, b) in [
                    ("bbr", "quinn-bbr"),
                    ("bbr", "s2n-bbr"),
                    ("bbr3", "quinn-bbr"),
                    ("bbr3", "s2n-bbr"),
                ] {
                    let (x, y) = (best(mode_name, n, a), best(mode_name, n, b));
                    let per: Vec<f64> =
                        match (all.get(&(mode_name, n, a)), all.get(&(mode_name, n, b))) {
                            (Some(xs), Some(ys)) => xs.iter().zip(ys).map(|(x, y)| x / y).collect(),
                            _ => Vec::new(),
                        };
                    let lo = per.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = per.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    match (x, y) {
                        (Some(x), Some(y)) if y > 0.0 => {
                            line += &format!(" {:.2} ({lo:.2}-{hi:.2}) |", x / y)
                        }
                        _ => line += " - |",
                    }
                }
                println!("{line}");
            }
        }
        println!();
        println!(
            "sizes: {}\n",
            columns
                .iter()
                .map(|c| format!("{} {} B", c.name(), c.size()))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    ExitCode::SUCCESS
}
