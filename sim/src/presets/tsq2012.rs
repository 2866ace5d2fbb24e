//! `ccsim tsq2012`: seed 002's sweep of `tcp_limit_output_bytes` on 10 GbE and 1 GbE.
//!
//! Host settings follow the 2012 kernel (3.5 + the TSQ patch): a fixed TSQ limit with
//! TSO bursts capped at half of it, otherwise full 64 KiB GSO skbs (45 segments of
//! 1448 B), no pacing, send buffer autotuning up to 4 MiB (the seed's netperf reports
//! final socket sizes of at most 4194304). The path is assumed to be a LAN of 100 µs
//! base RTT with the sender's NIC as bottleneck, so the host queue is the only queue.
//! Each run lasts 2 s instead of the seed's 20 s (the steady state is reached within
//! milliseconds), to keep the preset fast.

use crate::cli::PresetArgs;
use crate::config::{Amount, SimConfig, TsoMode, TsqMode, WindowMode};
use crate::presets::seeds::{TSQ_2012_1G, TSQ_2012_10G, TsqRun};
use crate::presets::{Case, Outcome, plot, print_stats, run_all};
use crate::report::mbps;

/// The configuration of one seed-002 run.
pub fn config(rate_bps: u64, limit_bytes: u64) -> SimConfig {
    let mut c = SimConfig::new();
    c.rate_bps = rate_bps;
    c.nic_rate_bps = rate_bps;
    c.rtt_ns = 100_000;
    c.mtu = 1500;
    c.buffer_bytes = 1 << 20;
    c.amount = Amount::TimeNs(2_000_000_000);
    c.window = WindowMode::Auto { max_bytes: 4 << 20 };
    c.pacing = false;
    c.tsq = TsqMode::Fixed(limit_bytes);
    c.tso = TsoMode::Segs(45);
    c
}

fn table(name: &str, rate_bps: u64, seed: &[TsqRun], outcomes: &[Outcome]) -> usize {
    crate::say!("\n{name}: tcp_limit_output_bytes, seed Mbps / tcpi_rtt us, sim Mbps / srtt us");
    let mut disagreements = 0;
    for (o, &(limit, s_mbps, s_rtt)) in outcomes.iter().zip(seed.iter()) {
        let sim = mbps(o.summary.bytes, o.summary.duration_ns);
        let srtt_us = o.summary.final_srtt_ns / 1000;
        let mut note = String::new();
        if (sim - s_mbps).abs() > 0.15 * s_mbps {
            note.push_str(" DISAGREES on throughput");
            disagreements += 1;
        }
        crate::say!(
            "{limit:>8}  seed {s_mbps:>8.2} Mbps / {s_rtt:>5} us   sim {sim:>8.2} Mbps / {srtt_us:>5} us{note}"
        );
    }
    let _ = rate_bps;
    disagreements
}

fn pick(set: &[Outcome]) -> Vec<&Outcome> {
    set.iter()
        .filter(|o| {
            ["limit 16K", "limit 64K", "limit 128K", "limit 1024K"]
                .iter()
                .any(|l| o.label.ends_with(l))
        })
        .collect()
}

/// Run the preset and print the comparison.
pub fn run(args: &PresetArgs) -> Result<(), String> {
    let mut cases = Vec::new();
    for (rate, seed, tag) in [
        (10_000_000_000u64, &TSQ_2012_10G, "10G"),
        (1_000_000_000u64, &TSQ_2012_1G, "1G"),
    ] {
        for &(limit, _, _) in seed.iter() {
            cases.push(Case {
                label: format!("{tag} limit {}K", limit >> 10),
                cfg: args.apply(config(rate, limit)),
            });
        }
    }
    let outcomes = run_all(args, cases)?;
    let (ten, one) = outcomes.split_at(TSQ_2012_10G.len());
    crate::say!("tsq2012: seed 002, Eric Dumazet, TCP Small Queues v2, 11 Jul 2012");
    crate::say!("one netperf flow, 1500-byte MTU; sim: 2 s runs, 100 us base RTT, NIC = link");
    let d = table("10 GbE", 10_000_000_000, &TSQ_2012_10G, ten)
        + table("1 GbE", 1_000_000_000, &TSQ_2012_1G, one);
    crate::say!(
        "\n{d} of {} runs disagree on throughput by more than 15 %. The seed's 10 GbE runs \
         stop near 5976 Mbps whatever the limit (a host or receiver limit the model does \
         not have); its tcpi_rtt is floored at 1875-2000 us by the 2012 kernel's jiffies \
         RTT clock, the model's srtt is not.",
        outcomes.len()
    );
    plot(
        &args.out,
        "tsq2012-10g.svg",
        "seed 002: TSQ limits, 10 GbE",
        &pick(ten),
        &[],
    )?;
    plot(
        &args.out,
        "tsq2012-1g.svg",
        "seed 002: TSQ limits, 1 GbE",
        &pick(one),
        &[],
    )?;
    if args.stats {
        print_stats(&outcomes);
    }
    Ok(())
}
