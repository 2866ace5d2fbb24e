//! `ccsim fink2011`: seed 000's eight runs (HZ=250 table).
//!
//! Host settings follow the 2011 kernel (2.6.35), not the seed's figures: no TSQ
//! (added in 3.6), no TCP pacing (3.12), TSO bursts of a full 64 KiB GSO skb
//! (7 segments of 8948 B; autosizing came in 3.12), `tcp_adv_win_scale = 2`.
//! Autotuning's maximum is an assumption: the seed's autotuned 80 ms runs carry far
//! more than the 4–6 MB default per RTT, so the hosts had raised `tcp_rmem`/`tcp_wmem`;
//! 64 MiB was a common 10 GbE host tuning of the time.

use crate::cli::PresetArgs;
use crate::config::{Amount, SimConfig, SlowStart, TsoMode, TsqMode, WindowMode};
use crate::presets::seeds::FINK_2011;
use crate::presets::{Case, Outcome, plot, print_stats, run_all};
use crate::report::{mbps, summary_line};

/// Assumed `tcp_rmem[2]`/`tcp_wmem[2]` of the seed's hosts.
pub const AUTOTUNE_MAX_BYTES: u64 = 64 << 20;

/// The configuration of one seed-000 run.
pub fn config(rtt_ms: u32, window_mb: u32, hystart: bool) -> SimConfig {
    let mut c = SimConfig::new();
    c.rate_bps = 10_000_000_000;
    c.nic_rate_bps = 10_000_000_000;
    c.rtt_ns = u64::from(rtt_ms) * 1_000_000;
    c.mtu = 9000;
    c.buffer_bytes = c.bdp_bytes();
    c.amount = Amount::Bytes(8 << 30);
    c.window = if window_mb == 0 {
        WindowMode::Auto {
            max_bytes: AUTOTUNE_MAX_BYTES,
        }
    } else {
        WindowMode::Fixed(u64::from(window_mb) << 20)
    };
    c.slow_start = if hystart {
        SlowStart::Hystart
    } else {
        SlowStart::Off
    };
    c.pacing = false;
    c.tsq = TsqMode::Off;
    c.tso = TsoMode::Segs(7);
    c.interval_ns = Some(1_000_000_000);
    c
}

fn label(rtt_ms: u32, window_mb: u32, hystart: bool) -> String {
    let w = if window_mb == 0 {
        "autotuned".to_string()
    } else {
        format!("-w{window_mb}m")
    };
    let h = if hystart { "hystart" } else { "no hystart" };
    format!("{rtt_ms} ms, {w}, {h}")
}

/// Run the preset and print the comparison.
pub fn run(args: &PresetArgs) -> Result<(), String> {
    let cases = FINK_2011
        .iter()
        .map(|&(rtt, w, h, _)| Case {
            label: label(rtt, w, h),
            cfg: args.apply(config(rtt, w, h)),
        })
        .collect();
    let outcomes = run_all(cases)?;
    crate::say!("fink2011: seed 000, Bill Fink, netdev 10 Mar 2011, HZ=250 table");
    let cc = if args.cc == "rfc9438" {
        "RFC 9438 CUBIC, HyStart++ where the seed had HyStart"
    } else {
        "Linux-mode CUBIC"
    };
    crate::say!("8 GB (nuttcp -n8g) over 10 GbE, 9000-byte MTU, {cc}\n");
    let mut disagreements = 0;
    for (o, &(_, _, _, seed)) in outcomes.iter().zip(FINK_2011.iter()) {
        crate::say!("{}:", o.label);
        for s in seed {
            crate::say!(
                "  seed: 8192.0000 MB / {:.2} sec = {:.4} Mbps {} retrans {:.2} msRTT",
                s.secs,
                s.mbps,
                s.retrans,
                s.ms_rtt
            );
        }
        crate::say!("  sim:  {}", summary_line(&o.summary));
        let notes = compare(o, seed);
        if notes.is_empty() {
            crate::say!("  agrees: throughput within 15 % of a seed run, retransmissions alike");
        } else {
            disagreements += 1;
            for n in notes {
                crate::say!("  DISAGREES: {n}");
            }
        }
    }
    crate::say!(
        "\n{disagreements} of {} runs disagree with the seed. Known causes: the seed's kernel \
         (2.6.35, HZ=250) timed HyStart in jiffies, the library is CUBIC/HyStart of Linux 6.x \
         in microseconds; the seed's real path and hosts (router buffers, NIC rings, receiver \
         CPU, tcp_rmem) are not known, the model's are stated in docs/simulator.md.",
        outcomes.len()
    );
    let by_rtt = |rtt: &str| -> Vec<&Outcome> {
        outcomes
            .iter()
            .filter(|o| o.label.starts_with(rtt))
            .collect()
    };
    plot(
        &args.out,
        "fink2011-18ms.svg",
        "seed 000: 8 GB, 10 GbE, 18 ms",
        &by_rtt("18 "),
    )?;
    plot(
        &args.out,
        "fink2011-80ms.svg",
        "seed 000: 8 GB, 10 GbE, 80 ms",
        &by_rtt("80 "),
    )?;
    if args.stats {
        print_stats(&outcomes);
    }
    Ok(())
}

fn compare(o: &Outcome, seed: &[crate::presets::seeds::NuttcpFigure]) -> Vec<String> {
    let sim = mbps(o.summary.bytes, o.summary.duration_ns);
    let mut notes = Vec::new();
    let close = seed.iter().any(|s| (sim - s.mbps).abs() <= 0.15 * s.mbps);
    if !close {
        let lo = seed.iter().map(|s| s.mbps).fold(f64::MAX, f64::min);
        let hi = seed.iter().map(|s| s.mbps).fold(0.0, f64::max);
        notes.push(format!(
            "throughput {sim:.0} Mbps against {lo:.0}..{hi:.0} Mbps measured"
        ));
    }
    let sim_rtt_ms = o.summary.mean_rtt_ns / 1e6;
    let seed_rtt_ms = seed.iter().map(|s| s.ms_rtt).fold(0.0, f64::max);
    if (sim_rtt_ms - seed_rtt_ms).abs() > 0.1 * seed_rtt_ms {
        notes.push(format!(
            "mean RTT {sim_rtt_ms:.2} ms against {seed_rtt_ms:.2} ms (nuttcp's msRTT is \
             measured apart from the transfer; the model averages the flow's own samples, \
             host queueing included)"
        ));
    }
    let seed_retrans = seed.iter().any(|s| s.retrans > 0);
    if seed_retrans != (o.summary.retrans > 0) {
        notes.push(format!(
            "{} retransmissions simulated, the seed had {}",
            o.summary.retrans,
            if seed_retrans { "some" } else { "none" }
        ));
    }
    notes
}
