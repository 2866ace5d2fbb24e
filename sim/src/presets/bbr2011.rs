//! `ccsim bbr2011`: BBR (v1 and v3, Linux mode) beside today's CUBIC on the paths of
//! seed 000 (Bill Fink's 8 GB transfers over 10 GbE at 18 and 80 ms, the HZ=250
//! table's path, calibrated as `fink2011` calibrates it) and on seed 002's
//! `tcp_limit_output_bytes` sweep (the `tsq2012` path).
//!
//! No BBR run exists in the seeds (BBR came in 2016): every BBR figure here is a
//! prediction of the model and is printed and plotted as one. The CUBIC runs are
//! today's kernel with HyStart and without (seed 000) and the 2012 host (seed 002), the
//! same runs `fink2011` and `tsq2012` print; the seeds' own measurements are printed
//! beside them as the seeds printed them.
//!
//! BBR's host is today's: it paces itself (`bbr_init` sets `SK_PACING_NEEDED`) with
//! autosized TSO bursts, and on the seed-002 path each limit is today's
//! `tcp_limit_output_bytes` sysctl (a 2012 kernel had no BBR).

use crate::cli::PresetArgs;
use crate::config::{CcKind, Kernel, SimConfig, TsoMode};
use crate::plot::PlotRun;
use crate::presets::fink2011::{self, Calibration};
use crate::presets::seeds::{FINK_2011_HZ250, FinkRun, NuttcpFigure, TSQ_2012_1G, TSQ_2012_10G};
use crate::presets::{Case, Outcome, plot_runs, print_stats, run_all, tsq2012};
use crate::report::{mbps, summary_line};

/// The controllers of each seed-000 path: today's CUBIC with HyStart, without, BBR, BBRv3.
const FINK_CCS: [(&str, CcKind, bool); 4] = [
    ("cubic, hystart", CcKind::Linux, true),
    ("cubic, no hystart", CcKind::Linux, false),
    ("bbr (prediction)", CcKind::Bbr, true),
    ("bbr3 (prediction)", CcKind::Bbr3, true),
];

/// The four seed-000 experiments a controller runs: (RTT ms, -w MiB, 0 = autotuned).
const FINK_PATHS: [(u32, u32); 4] = [(18, 0), (18, 40), (80, 0), (80, 100)];

/// The seed-000 run with this path, buffer and HyStart setting.
fn fink_run(rtt_ms: u32, window_mb: u32, hystart: bool) -> Option<&'static FinkRun> {
    FINK_2011_HZ250
        .runs
        .iter()
        .find(|r| r.rtt_ms == rtt_ms && r.window_mb == window_mb && r.hystart == hystart)
}

/// One seed-000 run of `cc` on today's host (the `fink2011` "today" column's path).
pub fn fink_config(run: &FinkRun, cc: CcKind, cal: &Calibration) -> SimConfig {
    let mut c = fink2011::config(run, &FINK_2011_HZ250, Kernel::Linux6, cal);
    c.cc = cc;
    c
}

/// One seed-002 run of `cc`: the `tsq2012` path; BBR gets today's host.
pub fn tsq_config(rate_bps: u64, limit_bytes: u64, cc: CcKind) -> SimConfig {
    let mut c = tsq2012::config(rate_bps, limit_bytes);
    c.cc = cc;
    if cc.paces_itself() {
        c.tso = TsoMode::Auto;
    }
    c
}

fn window_label(window_mb: u32) -> String {
    if window_mb == 0 {
        "autotuned".into()
    } else {
        format!("-w{window_mb}m")
    }
}

/// A seed figure as nuttcp printed it.
fn seed_line(f: &NuttcpFigure) -> String {
    format!(
        "{:.4} MB / {:.2} sec = {:.4} Mbps {} retrans {:.2} msRTT",
        8192.0, f.secs, f.mbps, f.retrans, f.ms_rtt
    )
}

fn goodput(o: &Outcome) -> f64 {
    mbps(o.summary.bytes, o.summary.duration_ns)
}

/// The plain sentence on seed 000's two questions under BBR, from the runs: `outs[p][c]`
/// is path `p` of [`FINK_PATHS`] with controller `c` of [`FINK_CCS`].
pub fn fink_sentence(outs: &[&[Outcome]]) -> String {
    let g = |p: usize, c: usize| goodput(&outs[p][c]);
    let r = |p: usize, c: usize| outs[p][c].summary.retrans;
    let seed = |rtt, w| {
        fink_run(rtt, w, true)
            .and_then(|x| x.seed.first())
            .map_or(0.0, |f| f.mbps)
    };
    let bbr_18 = g(0, 2).min(g(1, 2));
    let at_18 = if bbr_18 >= 0.95 * g(0, 1).min(g(1, 1)) {
        "at 18 ms BBR would not be held back as HyStart held the seed's 2.6.35 CUBIC: it \
         carries within 5 % of CUBIC without HyStart"
    } else {
        "at 18 ms BBR too would fall more than 5 % short of CUBIC without HyStart"
    };
    let loses = |n: u64| {
        if n == 0 {
            "loses nothing"
        } else {
            "loses packets"
        }
    };
    format!(
        "Seed 000 under BBR (a prediction; the seeds hold no BBR run): {at_18} (BBR {:.0} and \
         {:.0} Mbit/s autotuned and -w40m, BBRv3 {:.0} and {:.0}; the seed measured {:.0} and \
         {:.0} with HyStart; today's CUBIC {:.0} and {:.0} with HyStart, {:.0} and {:.0} \
         without). At 80 ms -w100m, where the seed's CUBIC without HyStart lost packets, BBR \
         {} ({} retransmissions, {:.0} Mbit/s) and BBRv3 {} ({}, {:.0} Mbit/s); today's CUBIC \
         retransmits {} without HyStart and {} with. At 80 ms autotuned BBR carries {:.0} \
         Mbit/s and BBRv3 {:.0}, today's CUBIC {:.0}.",
        g(0, 2),
        g(1, 2),
        g(0, 3),
        g(1, 3),
        seed(18, 0),
        seed(18, 40),
        g(0, 0),
        g(1, 0),
        g(0, 1),
        g(1, 1),
        loses(r(3, 2)),
        r(3, 2),
        g(3, 2),
        loses(r(3, 3)),
        r(3, 3),
        g(3, 3),
        r(3, 1),
        r(3, 0),
        g(2, 2),
        g(2, 3),
        g(2, 0),
    )
}

/// The plain sentence on seed 002's question under BBR: `sets[cc]` are the 16 limits
/// of one link for CUBIC, BBR and BBRv3.
pub fn tsq_sentence(link: &str, sets: &[&[Outcome]]) -> String {
    let range = |outs: &[Outcome], f: &dyn Fn(&Outcome) -> f64| {
        outs.iter()
            .map(f)
            .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
    };
    let tput = |o: &Outcome| goodput(o);
    let srtt = |o: &Outcome| o.summary.final_srtt_ns as f64 / 1000.0;
    let (cl, ch) = range(sets[0], &tput);
    let (bl, bh) = range(sets[1], &tput);
    let (crl, crh) = range(sets[0], &srtt);
    let (brl, brh) = range(sets[1], &srtt);
    let flat = bh - bl <= 0.005 * bh && brh - brl <= 0.05 * brh;
    let verdict = if flat {
        "the limit does not move BBR: today's kernel caps only unpaced flows by \
         tcp_limit_output_bytes, and BBR always paces, so its host budget is about 1 ms of \
         its pacing rate whatever the limit"
    } else {
        "the limit moves BBR as well"
    };
    format!(
        "Seed 002 under BBR on {link} (a prediction): {verdict} (BBR {bl:.0}-{bh:.0} Mbit/s at \
         a final srtt of {brl:.0}-{brh:.0} us over the 16 limits; CUBIC on the 2012 host \
         {cl:.0}-{ch:.0} Mbit/s at {crl:.0}-{crh:.0} us)."
    )
}

/// Run the preset and print the comparison.
pub fn run(args: &PresetArgs) -> Result<(), String> {
    let cal = fink2011::calibration();
    let mut cases = Vec::new();
    for &(rtt, w) in &FINK_PATHS {
        for &(name, cc, hystart) in &FINK_CCS {
            let run = fink_run(rtt, w, hystart).ok_or("bbr2011: a seed-000 run is missing")?;
            let cfg = fink_config(run, cc, &cal);
            cases.push(Case {
                label: format!("{name}: {rtt} ms, {}", window_label(w)),
                cfg: if cc == CcKind::Linux {
                    args.apply(cfg)
                } else {
                    args.apply_host(cfg)
                },
            });
        }
    }
    let tsq_ccs = [
        ("cubic, 2012 host", CcKind::Linux),
        ("bbr (prediction)", CcKind::Bbr),
        ("bbr3 (prediction)", CcKind::Bbr3),
    ];
    for (rate, seed, tag) in [
        (10_000_000_000u64, &TSQ_2012_10G, "10G"),
        (1_000_000_000u64, &TSQ_2012_1G, "1G"),
    ] {
        for &(name, cc) in &tsq_ccs {
            for &(limit, _, _) in seed.iter() {
                cases.push(Case {
                    label: format!("{name}: {tag} limit {}K", limit >> 10),
                    cfg: args.apply_host(tsq_config(rate, limit, cc)),
                });
            }
        }
    }
    let outcomes = run_all(args, cases)?;
    let (fink, tsq) = outcomes.split_at(FINK_PATHS.len() * FINK_CCS.len());
    let fink: Vec<&[Outcome]> = fink.chunks(FINK_CCS.len()).collect();

    crate::say!(
        "bbr2011: BBR beside today's CUBIC on the seeds' paths. Every BBR figure is a \
         PREDICTION of the model: the seeds hold no BBR measurement."
    );
    crate::say!(
        "\nseed 000 (HZ=250 table's path: 10 GbE, 9000-byte MTU, 8 GB; 80 ms: {:.4} Gbit/s \
         bottleneck, 8 MiB buffer), today's host and receiver model as fink2011's today column",
        cal.bottleneck_80_bps as f64 / 1e9
    );
    for (&(rtt, w), outs) in FINK_PATHS.iter().zip(&fink) {
        crate::say!("\n{rtt} ms, {}:", window_label(w));
        for hystart in [true, false] {
            for f in fink_run(rtt, w, hystart).map_or(&[][..], |r| r.seed) {
                let h = if hystart { "hystart" } else { "no hystart" };
                crate::say!("seed (2.6.35 cubic, {h}): {}", seed_line(f));
            }
        }
        for o in outs.iter() {
            let (name, _) = o.label.split_once(':').unwrap_or((&o.label, ""));
            crate::say!("{name}: {}", summary_line(&o.summary));
        }
    }
    crate::say!("\n{}", fink_sentence(&fink));

    let per_link = TSQ_2012_10G.len() * tsq_ccs.len();
    for ((link, seed), set) in [("10 GbE", &TSQ_2012_10G), ("1 GbE", &TSQ_2012_1G)]
        .into_iter()
        .zip(tsq.chunks(per_link))
    {
        let sets: Vec<&[Outcome]> = set.chunks(seed.len()).collect();
        crate::say!(
            "\nseed 002, {link}: tcp_limit_output_bytes, seed Mbps / tcpi_rtt us, then sim \
             Mbps / srtt us for cubic (2012 host), bbr and bbr3 (predictions)"
        );
        for (i, &(limit, s_mbps, s_rtt)) in seed.iter().enumerate() {
            let cell = |k: usize| {
                let o = &sets[k][i];
                format!(
                    "{:>8.2} / {:>5}",
                    goodput(o),
                    o.summary.final_srtt_ns / 1000
                )
            };
            crate::say!(
                "{limit:>8}  seed {s_mbps:>8.2} / {s_rtt:>5}   cubic {}   bbr {}   bbr3 {}",
                cell(0),
                cell(1),
                cell(2)
            );
        }
        crate::say!("{}", tsq_sentence(link, &sets));
    }

    for (p, rtt) in [(0usize, 18u32), (2, 80)] {
        let runs: Vec<PlotRun> = (p..p + 2)
            .flat_map(|q| {
                fink[q].iter().enumerate().map(move |(c, o)| PlotRun {
                    label: o.label.clone(),
                    series: &o.series,
                    colour: c,
                    dashed: q != p,
                })
            })
            .collect();
        plot_runs(
            &args.out,
            &format!("bbr2011-{rtt}ms.svg"),
            &format!(
                "seed 000 path, 10 GbE, {rtt} ms, 8 GB: today's CUBIC and BBR; BBR is a \
                 PREDICTION (no BBR in the seeds); solid: autotuned, dashed: -w"
            ),
            &runs,
            &[],
        )?;
    }
    let tsq10 = &tsq[..per_link];
    let picks = ["limit 16K", "limit 128K", "limit 1024K"];
    let runs: Vec<PlotRun> = tsq10
        .iter()
        .filter(|o| picks.iter().any(|l| o.label.ends_with(l)))
        .enumerate()
        .map(|(i, o)| PlotRun::nth(i, o.label.clone(), &o.series))
        .collect();
    plot_runs(
        &args.out,
        "bbr2011-tsq-10g.svg",
        "seed 002 path, 10 GbE: TSQ limits, CUBIC (2012 host) and BBR; BBR is a PREDICTION",
        &runs,
        &[],
    )?;
    if args.stats {
        print_stats(&outcomes);
    }
    Ok(())
}
