//! What `ccsim fink2011` says of its runs: each run's throughput against the seed's
//! figures, and the seed's two findings (HyStart slower; no HyStart loses packets)
//! checked on the simulated table.

use super::{AGREE_FRACTION, Sweep, TICK_PHASES, goodput};
use crate::presets::Outcome;
use crate::presets::seeds::{FINK_2011_HZ250, FinkTable, NuttcpFigure};

/// The seed's figures as "a" or "a to b" (never a one-value range).
fn seed_range(seed: &[NuttcpFigure]) -> String {
    let lo = seed.iter().map(|s| s.mbps).fold(f64::MAX, f64::min);
    let hi = seed.iter().map(|s| s.mbps).fold(0.0, f64::max);
    if seed.len() < 2 || (hi - lo).abs() < 0.5 {
        format!("{hi:.0} Mbps measured")
    } else {
        format!("{lo:.0} to {hi:.0} Mbps measured")
    }
}

pub(super) fn compare(o: &Sweep, seed: &[NuttcpFigure]) -> Vec<String> {
    let (lo, hi) = o.mbps_range();
    let agrees = |m: f64| {
        (lo..=hi).contains(&m)
            || o.outs
                .iter()
                .any(|p| (goodput(p) - m).abs() <= AGREE_FRACTION * m)
    };
    let mut notes = Vec::new();
    if !seed.iter().any(|s| agrees(s.mbps)) {
        let range = if hi - lo < 0.5 {
            format!("{hi:.0}")
        } else {
            format!("{lo:.0} to {hi:.0}")
        };
        notes.push(format!(
            "throughput {range} Mbps over the phases against {}",
            seed_range(seed)
        ));
    }
    let seed_retrans = seed.iter().any(|s| s.retrans > 0);
    if !o
        .outs
        .iter()
        .any(|p| (p.summary.retrans > 0) == seed_retrans)
    {
        let r = o.median().summary.retrans;
        notes.push(format!(
            "{} retransmissions simulated in every phase (median phase {r}), the seed had {}",
            if seed_retrans { "no" } else { "some" },
            if seed_retrans { "some" } else { "none" }
        ));
    }
    notes
}

/// One side of a finding: the goodput, retransmissions of a run.
#[derive(Clone, Copy)]
struct Figures {
    mbps: f64,
    retrans: u64,
}

fn sim_figures<'a>(outs: impl Iterator<Item = &'a Outcome>) -> Vec<Figures> {
    outs.map(|o| Figures {
        mbps: goodput(o),
        retrans: o.summary.retrans,
    })
    .collect()
}

/// The seed's own figures per run: the mean throughput of its repetitions and the
/// fewest retransmissions any of them had (the repetitions of each run all agree on
/// whether there were retransmissions).
fn seed_figures(t: &FinkTable) -> Vec<Figures> {
    t.runs
        .iter()
        .map(|r| {
            let n = r.seed.len().max(1) as f64;
            Figures {
                mbps: r.seed.iter().map(|s| s.mbps).sum::<f64>() / n,
                retrans: r
                    .seed
                    .iter()
                    .map(|s| u64::from(s.retrans))
                    .min()
                    .unwrap_or(0),
            }
        })
        .collect()
}

fn at(t: &FinkTable, figs: &[Figures], rtt: u32, w: u32, h: bool) -> Option<Figures> {
    let i = t
        .runs
        .iter()
        .position(|r| r.rtt_ms == rtt && r.window_mb == w && r.hystart == h)?;
    figs.get(i).copied()
}

/// A finding's rule: whether it holds in a table's figures, and the figures it used.
type Rule = fn(&FinkTable, &[Figures]) -> Option<(bool, String)>;

/// "HyStart slower at 18 ms": both 18 ms HyStart runs at least 15 % below the
/// matching runs without it.
fn hystart_slower(t: &FinkTable, figs: &[Figures]) -> Option<(bool, String)> {
    let mut holds = true;
    let mut parts = Vec::new();
    for w in [0, 40] {
        let on = at(t, figs, 18, w, true)?;
        let off = at(t, figs, 18, w, false)?;
        let change = on.mbps / off.mbps - 1.0;
        holds &= change <= -0.15;
        parts.push(format!(
            "{} {:.0} vs {:.0} Mbps ({:+.0} %)",
            if w == 0 { "autotuned" } else { "-w40m" },
            on.mbps,
            off.mbps,
            100.0 * change
        ));
    }
    Some((holds, parts.join(", ")))
}

/// "No HyStart loses at 80 ms -w100m": with HyStart no retransmissions, without some
/// and a lower throughput.
fn no_hystart_loses(t: &FinkTable, figs: &[Figures]) -> Option<(bool, String)> {
    let on = at(t, figs, 80, 100, true)?;
    let off = at(t, figs, 80, 100, false)?;
    let holds = on.retrans == 0 && off.retrans > 0 && off.mbps < on.mbps;
    Some((
        holds,
        format!(
            "hystart {} retrans {:.0} Mbps, none {} retrans {:.0} Mbps",
            on.retrans, on.mbps, off.retrans, off.mbps
        ),
    ))
}

/// One verdict line per finding: in how many tick phases the 2.6.35 simulation shows
/// it (each phase judged on its own, the same phase for every run of the table), with
/// the seed's and today's kernel's under the same rule beside it; then one line per
/// phase with the figures the rule used. Computed, never written in.
pub(super) fn verdicts(t: &FinkTable, era: &[Sweep], today: &[Outcome]) -> Vec<String> {
    let (seed, now) = (seed_figures(t), sim_figures(today.iter()));
    let word = |b: bool| if b { "yes" } else { "no" };
    let tick_us = 1_000_000 / u64::from(t.hz);
    let mut out = Vec::new();
    let findings: [(&str, Rule); 2] = [
        ("HyStart slower at 18 ms", hystart_slower),
        ("no HyStart loses at 80 ms -w100m", no_hystart_loses),
    ];
    for (name, rule) in findings {
        let per_phase: Vec<Option<(bool, String)>> = (0..TICK_PHASES as usize)
            .map(|k| rule(t, &sim_figures(era.iter().filter_map(|s| s.outs.get(k)))))
            .collect();
        let holds = per_phase.iter().flatten().filter(|(b, _)| *b).count();
        let n = per_phase.len();
        let sim = match holds {
            0 => format!("NOT reproduced in any of {n} tick phases"),
            h if h == n => format!("REPRODUCED in all {n} tick phases"),
            h => format!("REPRODUCED in {h} of {n} tick phases"),
        };
        if let (Some((m, md)), Some((nw, nd))) = (rule(t, &seed), rule(&FINK_2011_HZ250, &now)) {
            out.push(format!(
                "HZ={} table, \"{name}\": {sim} of the 2.6.35 simulation; seed: {} ({md}); \
                 today's kernel: {} ({nd})",
                t.hz,
                word(m),
                word(nw),
            ));
        }
        for (k, r) in per_phase.iter().enumerate() {
            if let Some((b, d)) = r {
                out.push(format!(
                    "  phase {k} ({:.3} ms): {} ({d})",
                    (k as u64 * tick_us / TICK_PHASES) as f64 / 1e3,
                    if *b { "holds" } else { "does not hold" }
                ));
            }
        }
    }
    out
}
