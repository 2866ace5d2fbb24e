//! `ccsim fink2011`: seed 000's two tables (HZ=250 with timestamps, and the earlier
//! HZ=1000 one without), each run on the seed's kernel (the library's 2.6.35 profile),
//! with what today's kernel would do on the same path beside them.
//!
//! One model per path, never per run (docs/simulator.md, "fink2011"):
//! - The sender host of 2.6.35: no TSQ (3.6), no pacing (3.12), 64 KiB TSO skbs (7
//!   segments of 8948 B) with the era's TSO deferral, a 1000-skb qdisc, a 10 Gbit/s NIC.
//!   Today's kernel gets today's host (TSQ, autosized TSO) on the same path.
//! - The receiver (a 2011 one for both kernels): its window (`rcv_ssthresh`) opens from
//!   2 segments by 2 per segment received, and while it opens every segment is ACKed at
//!   once (2.6.35 `tcp_grow_window`); then delayed ACKs every 2 segments.
//!   With the 2.6.35 sender it is a 2.6.35 receiver in full: autotuning's epochs are
//!   timed in its own jiffies (at the table's HZ) against its own RTT estimate, per
//!   window and, in the HZ=250 table, from timestamps (`crate::rcv_rtt`), and its
//!   delayed ACK is the kernel's jiffies timer with its adaptive `ato` (`crate::delack`);
//!   its ticks fall on the first send (one rule for all runs). With today's kernel the
//!   receiver keeps today's autotuning clock (ns, the sender's smoothed RTT) and a
//!   40 ms delayed-ACK timer.
//! - Per-second figures as nuttcp's receiver times them: from the first data's arrival.
//! - Each path's RTT: the seed's own measurement (nuttcp's msRTT, a handshake on the
//!   idle path), calibrated below; "18 ms" and "80 ms" are the seed's names.
//! - The 18 ms path: the sender's NIC is the bottleneck.
//! - The 80 ms path: a bottleneck slightly slower than the NIC, with a drop-tail
//!   buffer, both calibrated from the seed (below).
//! - Autotuning's maximum: calibrated from the seed (below).
//! - The 2.6.35 host's jiffies phase at the first send, unknown for every seed run:
//!   each 2.6.35 run is simulated at [`TICK_PHASES`] phases evenly spaced across one
//!   tick; `sim:` is the median-throughput phase, `phases:` the spread, and each
//!   verdict counts the phases its finding holds in. Today's kernel (HyStart on a µs
//!   clock) runs once.
//!
//! Calibrated figures are computed here from the seed's own data and printed.

mod verdicts;

use crate::cli::PresetArgs;
use crate::config::{
    Amount, DEFAULT_RMEM_BYTES, DEFAULT_UPTIME_NS, Kernel, SimConfig, SlowStart, TsoMode, TsqMode,
    WindowMode, quickacks_for, rcv_ssthresh_growth_for, receiver_hz_for,
};
use crate::plot::PlotRun;
use crate::presets::seeds::{FINK_2011_HZ250, FINK_2011_HZ1000, FinkRun, FinkTable};
use crate::presets::{Case, Outcome, plot_runs, print_stats, run_all};
use crate::report::{mbps, summary_line};
use crate::series::Points;
use congestion::hystart::HystartExit;
use verdicts::{compare, verdicts};

/// The sender's NIC, bit/s.
pub const NIC_BPS: u64 = 10_000_000_000;

/// How many jiffy phases every 2.6.35 run is simulated at. Where the host's ticks fell
/// against the first send is unknown for each of the seed's runs, and 2.6.35 times
/// HyStart (and TSO deferral) in jiffies, so each run is swept over this many phases,
/// evenly spaced across one tick; the same phases for every run.
pub const TICK_PHASES: u64 = 8;

/// A seed figure agrees with a swept run when it lies inside the simulated range or
/// within this fraction of the nearest phase's throughput.
pub const AGREE_FRACTION: f64 = 0.15;

/// The host uptimes at the first send of the sweep at `hz`: the default uptime (the
/// first send on a tick) plus `k/TICK_PHASES` of a tick, `k = 0..TICK_PHASES`.
pub fn phase_uptimes_ns(hz: u32) -> Vec<u64> {
    let tick_ns = 1_000_000_000 / u64::from(hz.max(1));
    (0..TICK_PHASES)
        .map(|k| DEFAULT_UPTIME_NS + k * tick_ns / TICK_PHASES)
        .collect()
}

/// The 80 ms path's drop-tail buffer, bytes. Calibrated: the seed's runs without
/// HyStart at `-w100m` carry line rate for about a second before their first loss
/// (HZ=250: seconds 3, 2 and 3-4; HZ=1000: 3 and 3-4); with 8 MiB the model does the
/// same (4 MiB: no full second; 16 MiB: three seconds).
pub const BUFFER_80MS_BYTES: u64 = 8 << 20;

/// The path figures calibrated from the seed, with where each comes from.
#[derive(Clone, Copy, Debug)]
pub struct Calibration {
    /// The seed's highest per-second rate on the 18 ms path (HZ=250 table), Mbit/s.
    pub peak_18_mbps: f64,
    /// The same on the 80 ms path, Mbit/s.
    pub peak_80_mbps: f64,
    /// The 80 ms path's bottleneck, bit/s: the NIC scaled by `peak_80 / peak_18`.
    pub bottleneck_80_bps: u64,
    /// The seed's steady rate of the autotuned 80 ms run without HyStart (seconds 3
    /// on), Mbit/s, and its msRTT.
    pub autotuned_80_mbps: f64,
    /// msRTT of that run.
    pub autotuned_80_ms: f64,
    /// Autotuning's maximum buffer, bytes: that rate × msRTT in flight is 3/4 of it
    /// (`tcp_adv_win_scale = 2`).
    pub autotune_max_bytes: u64,
    /// The 18 ms path's round-trip time, ns: the median msRTT of every seed run on it.
    pub path_rtt_18_ns: u64,
    /// The 80 ms path's round-trip time, ns, the same way.
    pub path_rtt_80_ns: u64,
}

impl Calibration {
    /// The round-trip time of the path the seed calls `rtt_ms`.
    pub fn path_rtt_ns(&self, rtt_ms: u32) -> u64 {
        if rtt_ms == 80 {
            self.path_rtt_80_ns
        } else {
            self.path_rtt_18_ns
        }
    }
}

/// The path's round-trip time from the seed, ns: the median (the lower of the two
/// middle ones) of the msRTT nuttcp printed for every repetition on the path named
/// `rtt_ms`, in both tables. nuttcp times its data connection's `connect()`, one
/// handshake on the idle path, so this is the path's RTT with the hosts' SYN handling
/// (microseconds) in it; the seed's "18 ms" and "80 ms" are names.
fn seed_path_rtt_ns(rtt_ms: u32) -> u64 {
    let ms: Vec<f64> = [&FINK_2011_HZ250, &FINK_2011_HZ1000]
        .iter()
        .flat_map(|t| t.runs.iter())
        .filter(|r| r.rtt_ms == rtt_ms)
        .flat_map(|r| r.seed.iter().map(|s| s.ms_rtt))
        .collect();
    let median = ms
        .get(median_index(&ms))
        .copied()
        .unwrap_or(f64::from(rtt_ms));
    (median * 1e6).round() as u64
}

fn table_peak(t: &FinkTable, rtt_ms: u32) -> f64 {
    t.runs
        .iter()
        .filter(|r| r.rtt_ms == rtt_ms)
        .flat_map(|r| r.seed.iter().flat_map(|s| s.per_second.iter().copied()))
        .fold(0.0, f64::max)
}

/// The calibration, computed from the seed's HZ=250 table.
pub fn calibration() -> Calibration {
    let t = &FINK_2011_HZ250;
    let peak_18_mbps = table_peak(t, 18);
    let peak_80_mbps = table_peak(t, 80);
    let bottleneck_80_bps = (NIC_BPS as f64 * peak_80_mbps / peak_18_mbps) as u64;
    let auto = t
        .runs
        .iter()
        .find(|r| r.rtt_ms == 80 && r.window_mb == 0 && !r.hystart)
        .and_then(|r| r.seed.first());
    let (autotuned_80_mbps, autotuned_80_ms) = auto.map_or((0.0, 0.0), |s| {
        let steady = s.per_second.get(2..).unwrap_or(&[]);
        let mean = steady.iter().sum::<f64>() / steady.len().max(1) as f64;
        (mean, s.ms_rtt)
    });
    let in_flight = autotuned_80_mbps * 1e6 / 8.0 * autotuned_80_ms / 1e3;
    Calibration {
        peak_18_mbps,
        peak_80_mbps,
        bottleneck_80_bps,
        autotuned_80_mbps,
        autotuned_80_ms,
        autotune_max_bytes: (in_flight * 4.0 / 3.0) as u64,
        path_rtt_18_ns: seed_path_rtt_ns(18),
        path_rtt_80_ns: seed_path_rtt_ns(80),
    }
}

/// The configuration of one seed-000 run on `kernel` (HZ `hz`, timestamps as the table).
pub fn config(run: &FinkRun, table: &FinkTable, kernel: Kernel, cal: &Calibration) -> SimConfig {
    let mut c = SimConfig::new();
    c.nic_rate_bps = NIC_BPS;
    c.rtt_ns = cal.path_rtt_ns(run.rtt_ms);
    if run.rtt_ms == 80 {
        c.rate_bps = cal.bottleneck_80_bps;
        c.buffer_bytes = BUFFER_80MS_BYTES;
    } else {
        c.rate_bps = NIC_BPS;
        c.buffer_bytes = c.bdp_bytes();
    }
    c.mtu = 9000;
    c.timestamps = table.timestamps;
    c.amount = Amount::Bytes(8 << 30);
    c.window = if run.window_mb == 0 {
        WindowMode::Auto {
            max_bytes: cal.autotune_max_bytes,
        }
    } else {
        WindowMode::Fixed(u64::from(run.window_mb) << 20)
    };
    c.slow_start = if run.hystart {
        SlowStart::Hystart
    } else {
        SlowStart::Off
    };
    c.kernel = kernel;
    c.hz = table.hz;
    // The path's receiver is a 2011 one whichever kernel sends.
    c.quickacks = quickacks_for(Kernel::Linux2635, c.mss());
    c.rcv_ssthresh_growth = rcv_ssthresh_growth_for(Kernel::Linux2635, c.mss());
    // Its RTT estimate and autotuning clock are the 2.6.35 kernel's for that kernel's
    // runs; the today's-kernel column keeps today's (ns, the sender's RTT).
    c.receiver_hz = receiver_hz_for(kernel, table.hz);
    c.pacing = false;
    // Each kernel's own host: 2.6.35 resolves these to no TSQ and 64 KiB TSO skbs.
    c.tsq = TsqMode::Auto;
    c.tso = TsoMode::Auto;
    c.interval_ns = Some(1_000_000_000);
    c
}

fn label(run: &FinkRun) -> String {
    let w = if run.window_mb == 0 {
        "autotuned".to_string()
    } else {
        format!("-w{}m", run.window_mb)
    };
    let h = if run.hystart { "hystart" } else { "no hystart" };
    format!("{} ms, {w}, {h}", run.rtt_ms)
}

fn goodput(o: &Outcome) -> f64 {
    mbps(o.summary.bytes, o.summary.duration_ns)
}

/// Run the preset and print the comparison.
pub fn run(args: &PresetArgs) -> Result<(), String> {
    let cal = calibration();
    let tables = [&FINK_2011_HZ250, &FINK_2011_HZ1000];
    let mut cases = Vec::new();
    for t in tables {
        for r in &t.runs {
            for uptime_ns in phase_uptimes_ns(t.hz) {
                // The seed's kernel stays the seed's kernel: --cc applies to today's column.
                let mut cfg = args.apply_host(config(r, t, Kernel::Linux2635, &cal));
                cfg.uptime_ns = uptime_ns;
                cases.push(Case {
                    label: label(r),
                    cfg,
                });
            }
        }
    }
    // Today's kernel does not count jiffies: one set of runs, on the HZ=250 table's path
    // (timestamps on), stands for both tables.
    for r in &FINK_2011_HZ250.runs {
        cases.push(Case {
            label: format!("today: {}", label(r)),
            cfg: args.apply(config(r, &FINK_2011_HZ250, Kernel::Linux6, &cal)),
        });
    }
    let outcomes = run_all(args, cases)?;
    let (swept, today) = outcomes.split_at(16 * TICK_PHASES as usize);
    let bdps = tables.iter().flat_map(|t| {
        t.runs.iter().map(|r| {
            let c = config(r, t, Kernel::Linux2635, &cal);
            c.bdp_bytes() / u64::from(c.mss())
        })
    });
    let era: Vec<Sweep> = swept
        .chunks(TICK_PHASES as usize)
        .zip(bdps)
        .map(|(outs, bdp)| Sweep::new(outs, bdp))
        .collect();
    crate::say!(
        "fink2011: seed 000, Bill Fink, netdev 10 Mar 2011: 8 GB (nuttcp -n8g) over 10 GbE,"
    );
    crate::say!("9000-byte MTU; sim: the library's Linux 2.6.35 profile (the seed's kernel);");
    if args.cc == "cubic-rfc" {
        crate::say!(
            "today: the library's RFC 9438 CUBIC with HyStart++, today's host, same path.\n"
        );
    } else {
        crate::say!("today: the library's Linux 6.x CUBIC/HyStart with today's host, same path.\n");
    }
    print_model(&cal, args);
    print_sweep_rule();
    let mut findings = Vec::new();
    for (t, outs) in tables.iter().zip(era.chunks(8)) {
        let tick_us = 1_000_000 / u64::from(t.hz);
        crate::say!(
            "\nHZ={} table (tcp_timestamps {}), 2.6.35 sender at HZ={}:",
            t.hz,
            if t.timestamps { "on" } else { "off" },
            t.hz
        );
        for ((r, o), now) in t.runs.iter().zip(outs).zip(today) {
            crate::say!("{}:", label(r));
            for s in r.seed {
                crate::say!(
                    "  seed:  8192.0000 MB / {:.2} sec = {:.4} Mbps {} retrans {:.2} msRTT",
                    s.secs,
                    s.mbps,
                    s.retrans,
                    s.ms_rtt
                );
            }
            crate::say!("  sim:   {}", summary_line(&o.median().summary));
            crate::say!("  phases: {}", o.spread_line(tick_us));
            if r.hystart {
                crate::say!("  exits: {}", o.exits_line());
            }
            crate::say!("  today: {}", summary_line(&now.summary));
            for n in compare(o, r.seed) {
                crate::say!("  DISAGREES: {n}");
            }
        }
        findings.push(verdicts(t, outs, today));
    }
    crate::say!();
    for f in findings.iter().flatten() {
        crate::say!("{f}");
    }
    write_plots(args, &tables, &era, today)?;
    if args.stats {
        print_stats(&outcomes);
    }
    Ok(())
}

fn print_model(cal: &Calibration, args: &PresetArgs) {
    crate::say!("path model (one per path; docs/simulator.md):");
    let host = args.apply_host(SimConfig::new());
    let skbs = if args.size_goal == "half-window" {
        "skbs of at most half the largest window advertised when written (--size-goal \
         half-window)"
    } else {
        "whole 64 KiB GSO skbs"
    };
    crate::say!(
        "  sender NIC 10 Gbit/s behind a {}-skb qdisc; 2.6.35 host: no TSQ, no pacing, a bulk \
         writer's {skbs} sent one at a time with the era's TSO deferral; receiver (2011) ACKs \
         every segment while its window opens (tcp_grow_window: +2 segments per segment from \
         2, up to the buffer's window), then every 2 segments (delayed-ACK timer: with the \
         2.6.35 sender the 2.6.35 receiver's, ato from 40 ms in jiffies, doubled when it \
         fires; with today's, 40 ms)",
        host.txqueuelen
    );
    let (rmem_bytes, rmem) = match host.rmem_default_bytes {
        None => (
            DEFAULT_RMEM_BYTES,
            "the kernel's default; the seed does not give the receivers'",
        ),
        Some(b) => (b, "--rmem-default"),
    };
    crate::say!(
        "  2.6.35 receiver's autotuning: from tcp_rmem[1] = {} B ({rmem}), epochs of its own \
         RTT estimate in whole jiffies at the table's HZ (tcp_rcv_rtt_measure per window; \
         with timestamps also tcp_rcv_rtt_measure_ts per segment), no growth before the \
         first sample; its ticks fall on the first send, the same rule for every run; \
         today's kernel's column: ns, the sender's smoothed RTT",
        rmem_bytes
    );
    crate::say!(
        "  per-second figures as nuttcp's receiver counts them: bytes read, timed from the \
         first data's arrival"
    );
    crate::say!(
        "  path RTTs {:.2} ms (\"18 ms\") and {:.2} ms (\"80 ms\"), calibrated: the median \
         msRTT of the seed's runs on each path (nuttcp's connect() time, one handshake on the \
         idle path)",
        cal.path_rtt_18_ns as f64 / 1e6,
        cal.path_rtt_80_ns as f64 / 1e6
    );
    crate::say!("  18 ms path: the sender's NIC is the bottleneck");
    crate::say!(
        "  80 ms path: bottleneck {:.4} Gbit/s, calibrated: NIC x seed peak {:.1} Mbit/s at \
         80 ms / {:.1} at 18 ms; drop-tail buffer {} MiB, calibrated: the seed's no-HyStart \
         -w100m runs carry line rate about 1 s before their first loss",
        cal.bottleneck_80_bps as f64 / 1e9,
        cal.peak_80_mbps,
        cal.peak_18_mbps,
        BUFFER_80MS_BYTES >> 20
    );
    crate::say!(
        "  autotuning maximum {:.1} MiB, calibrated: the seed's autotuned 80 ms run holds \
         {:.0} Mbit/s x {:.2} ms in flight = 3/4 of it",
        cal.autotune_max_bytes as f64 / f64::from(1u32 << 20),
        cal.autotuned_80_mbps,
        cal.autotuned_80_ms
    );
}

fn print_sweep_rule() {
    crate::say!(
        "  tick phase: unknown for every seed run, so each 2.6.35 run is simulated with the \
         first send at {TICK_PHASES} evenly spaced phases across one jiffy (0, 1/{TICK_PHASES}, \
         ... of a tick after one); sim: is the phase of median throughput (the lower of the \
         two middle ones), phases: the spread; today's kernel times HyStart in microseconds, \
         one run"
    );
    crate::say!(
        "  DISAGREES: no seed repetition inside the simulated range or within {:.0} % of the \
         nearest phase, or no phase with retransmissions where the seed had some (none where \
         it had none); verdicts: each finding's rule per phase (the same phase for all runs \
         of a table), and in how many phases it holds",
        100.0 * AGREE_FRACTION
    );
}

/// One 2.6.35 run swept over the tick phases, in phase order.
pub struct Sweep<'a> {
    outs: &'a [Outcome],
    bdp_segs: u64,
}

impl<'a> Sweep<'a> {
    /// The sweep `outs` of a run whose path holds `bdp_segs` segments.
    pub fn new(outs: &'a [Outcome], bdp_segs: u64) -> Self {
        Sweep {
            outs,
            bdp_segs: bdp_segs.max(1),
        }
    }

    /// The phase of median throughput (the lower middle one for an even count; ties
    /// go to the earlier phase).
    pub fn median_phase(&self) -> usize {
        median_index(&self.outs.iter().map(goodput).collect::<Vec<_>>())
    }

    fn median(&self) -> &'a Outcome {
        &self.outs[self.median_phase()]
    }

    fn mbps_range(&self) -> (f64, f64) {
        let g = self.outs.iter().map(goodput);
        let lo = g.clone().fold(f64::MAX, f64::min);
        (lo, g.fold(0.0, f64::max))
    }

    /// The cwnd HyStart left slow start with, in BDPs, per phase (None: it never did).
    fn exit_bdps(&self) -> Vec<Option<f64>> {
        self.outs
            .iter()
            .map(|o| {
                o.summary
                    .hystart_exit_at
                    .map(|(_, cwnd)| f64::from(cwnd) / self.bdp_segs as f64)
            })
            .collect()
    }

    /// Per phase, why HyStart ended slow start where it did: the detector, cwnd at the
    /// round's start and at the exit, how long after the round's first ACK and in how
    /// many jiffies (against the train's `delay_min >> 4`), and the receiver's window
    /// when it, not cwnd, held the flight.
    fn exits_line(&self) -> String {
        let per_phase: Vec<String> = self
            .outs
            .iter()
            .enumerate()
            .map(|(k, o)| {
                let s = &o.summary;
                let (Some((at_ns, cwnd)), Some(d)) = (s.hystart_exit_at, s.hystart_exit_detail)
                else {
                    return format!("{k}: none");
                };
                let how = match s.hystart_exit {
                    Some(HystartExit::DelayIncrease) => "delay",
                    _ => "train",
                };
                let mut e = format!("{k}: {how}");
                if let Some(x) = d.linux_2635 {
                    e += &format!(
                        " {}->{cwnd} in {:.1} ms ({} of {} j)",
                        x.round.cwnd,
                        at_ns.saturating_sub(x.round.start_ns) as f64 / 1e6,
                        x.jiffies.wrapping_sub(x.round.start_jiffies),
                        x.delay_min >> 4
                    );
                } else {
                    e += &format!(" at {cwnd}");
                }
                if d.send_window < cwnd {
                    e += &format!(", rwnd {}", d.send_window);
                }
                e
            })
            .collect();
        format!(
            "detector, cwnd at round start->exit, time from the round's first ACK (jiffies \
             elapsed of the train's delay_min>>4), receive window if below cwnd: {}",
            per_phase.join("; ")
        )
    }

    fn spread_line(&self, tick_us: u64) -> String {
        let (lo, hi) = self.mbps_range();
        let rlo = self
            .outs
            .iter()
            .map(|o| o.summary.retrans)
            .min()
            .unwrap_or(0);
        let rhi = self
            .outs
            .iter()
            .map(|o| o.summary.retrans)
            .max()
            .unwrap_or(0);
        let exits = self.exit_bdps();
        let early = exits.iter().flatten().filter(|&&b| b < 1.0).count();
        let per_phase: Vec<String> = exits
            .iter()
            .map(|e| e.map_or("-".to_string(), |b| format!("{b:.2}")))
            .collect();
        let step_us = tick_us / TICK_PHASES;
        format!(
            "sim: is phase {} (first send {:.3} ms after a tick); {} phases {}-{:.3} ms: \
             {lo:.0}-{hi:.0} Mbps, {rlo}-{rhi} retrans, HyStart left slow start below 1 BDP \
             in {early} of {} (exit cwnd/BDP per phase: {})",
            self.median_phase(),
            (self.median_phase() as u64 * step_us) as f64 / 1e3,
            self.outs.len(),
            0,
            ((TICK_PHASES - 1) * step_us) as f64 / 1e3,
            self.outs.len(),
            per_phase.join(" ")
        )
    }
}

/// Index of the median of `values`: the lower middle one for an even count, ties to
/// the lower index (a stable sort), 0 for none.
pub fn median_index(values: &[f64]) -> usize {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    order
        .get(values.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0)
}

/// One figure per table and path: the 2.6.35 runs (median phase) as solid lines, today's
/// kernel's on the same path dashed, the seed's per-second figures as crosses; one
/// colour per experiment (window, HyStart), so its three series read together.
fn write_plots(
    args: &PresetArgs,
    tables: &[&FinkTable],
    era: &[Sweep],
    today: &[Outcome],
) -> Result<(), String> {
    for (t, outs) in tables.iter().zip(era.chunks(8)) {
        for rtt in [18u32, 80] {
            let idx: Vec<usize> = (0..t.runs.len())
                .filter(|&i| t.runs[i].rtt_ms == rtt)
                .collect();
            let mut runs: Vec<PlotRun> = idx
                .iter()
                .enumerate()
                .map(|(k, &i)| PlotRun {
                    label: format!("2.6.35: {}", label(&t.runs[i])),
                    series: &outs[i].median().series,
                    colour: k,
                    dashed: false,
                })
                .collect();
            // Today's column runs once, on the HZ=250 table's path, for both tables
            // (as in the text report): the same experiments in the same order.
            runs.extend(idx.iter().enumerate().filter_map(|(k, &i)| {
                today.get(i).map(|o| PlotRun {
                    label: o.label.clone(),
                    series: &o.series,
                    colour: k,
                    dashed: true,
                })
            }));
            let measured: Vec<(String, Points, usize)> = idx
                .iter()
                .enumerate()
                .filter_map(|(k, &i)| {
                    let s = t.runs[i].seed.first()?;
                    let pts = s
                        .per_second
                        .iter()
                        .enumerate()
                        .map(|(j, &m)| (j as f64 + 1.0, m))
                        .collect();
                    Some((format!("seed: {}", label(&t.runs[i])), pts, k))
                })
                .collect();
            let file = if t.hz == 250 {
                format!("fink2011-{rtt}ms.svg")
            } else {
                format!("fink2011-hz{}-{rtt}ms.svg", t.hz)
            };
            plot_runs(
                &args.out,
                &file,
                &format!(
                    "seed 000, HZ={}: 8 GB, 10 GbE, {rtt} ms; solid: 2.6.35 simulated (median of \
                     {TICK_PHASES} tick phases), dashed: today's kernel, crosses: measured",
                    t.hz
                ),
                &runs,
                &measured,
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{calibration, median_index};

    #[test]
    fn each_paths_rtt_is_the_median_of_the_seeds_msrtt_on_it() {
        // 18 ms path, both tables: 18.91 18.92 18.95 18.92 / 18.92 18.91 18.92 18.95;
        // sorted, the 4th of 8 is 18.92.
        // 80 ms path, 14 repetitions: 80.77, 80.78, 80.80 three times, 80.81 eight
        // times, 80.82; sorted, the 7th of 14 is 80.81.
        let c = calibration();
        assert_eq!(c.path_rtt_ns(18), 18_920_000);
        assert_eq!(c.path_rtt_ns(80), 80_810_000);
    }

    #[test]
    fn the_median_phase_is_the_lower_middle_and_ties_go_to_the_earlier_phase() {
        // Sorted: 6084 (7), 6296 (6), 6516 (5), 6738 (4), 8807 (3), ...: the lower of
        // the two middle ones of eight is the 4th smallest.
        let swept = [
            9510.0, 9298.0, 9053.0, 8807.0, 6738.0, 6516.0, 6296.0, 6084.0,
        ];
        assert_eq!(median_index(&swept), 4);
        assert_eq!(median_index(&[5.0, 5.0, 5.0]), 1);
        assert_eq!(median_index(&[7.0; 8]), 3, "all equal: the 4th phase");
        assert_eq!(median_index(&[3.0, 1.0, 2.0]), 2);
        assert_eq!(median_index(&[]), 0);
    }
}
