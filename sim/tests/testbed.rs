//! Today's model against the real kernel: the README's kernel-vs-rcubic testbed paths
//! (a `tbf` bottleneck between network namespaces, 8 s iperf3 flows, mean of five runs
//! of the kernel's own `cubic`), simulated as
//! `ccsim --rate R --nic-rate 10g --rtt 100us --buffer LIMIT --time 8s`, stay within 3 %
//! of the measured goodput. And `--csv`'s queue never counts a packet twice.

mod common;

use clap::Parser;
use common::Everything;
use congestion_sim::cli::Cli;
use congestion_sim::run;

fn goodput_mbps(rate: &str, buffer: &str) -> f64 {
    let argv = [
        "ccsim",
        "--rate",
        rate,
        "--nic-rate",
        "10g",
        "--rtt",
        "100us",
        "--buffer",
        buffer,
        "--time",
        "8s",
    ];
    let cfg = Cli::try_parse_from(argv).unwrap().run.to_config().unwrap();
    run(&cfg, &mut congestion_sim::NoProbe)
        .unwrap()
        .throughput_bps()
        / 1e6
}

#[test]
fn todays_model_is_within_3_percent_of_the_kernels_testbed_goodput() {
    // README, "Inside Linux: rcubic": the kernel's cubic, Mbit/s.
    for (rate, buffer, kernel_mbps) in [
        ("10m", "50k", 9.45),
        ("25m", "200k", 23.71),
        ("50m", "100k", 47.36),
    ] {
        let sim = goodput_mbps(rate, buffer);
        let off = (sim - kernel_mbps) / kernel_mbps;
        assert!(
            off.abs() <= 0.03,
            "{rate}/{buffer}: sim {sim:.2} Mbit/s, kernel {kernel_mbps} ({:+.1} %)",
            100.0 * off
        );
    }
}

/// Every byte in the host queue or at the bottleneck is in flight: with `--nic-rate`
/// equal to `--rate` the host queue used to be counted twice.
#[test]
fn queued_bytes_never_exceed_the_bytes_in_flight() {
    for nic in ["1g", "100m"] {
        let argv = [
            "ccsim",
            "--rate",
            "100m",
            "--nic-rate",
            nic,
            "--rtt",
            "10ms",
            "--tsq-limit",
            "off",
            "-w",
            "1m",
            "--bytes",
            "8m",
            "--slow-start",
            "off",
            "--buffer",
            "500k",
        ];
        let cfg = Cli::try_parse_from(argv).unwrap().run.to_config().unwrap();
        let wire = u64::from(cfg.wire_bytes());
        let mut rec = Everything::default();
        run(&cfg, &mut rec).unwrap();
        let mut deepest = 0;
        for r in &rec.rows {
            assert!(
                r.queue_bytes <= u64::from(r.in_flight) * wire,
                "NIC {nic}: {} bytes queued with {} segments in flight",
                r.queue_bytes,
                r.in_flight
            );
            deepest = deepest.max(r.queue_bytes);
        }
        assert!(
            deepest > 100 * wire,
            "NIC {nic}: a queue did build ({deepest} B)"
        );
    }
}
