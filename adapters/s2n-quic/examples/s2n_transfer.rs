//! A real QUIC transfer between two s2n-quic endpoints through an emulated link, with
//! our controller or s2n-quic's own CUBIC.
//!
//! ```text
//! cargo run --release -p congestion-s2n-quic --example s2n_transfer -- \
//!     --rate 50m --rtt 40ms --buffer 256kB --bytes 100MB --cc ours-cubic-rfc
//! ```
//!
//! The flags are `adapters/quinn`'s (`congestion-harness`'s `TransferArgs`, read by
//! `congestion-units` as ccsim reads them; usage errors exit 2) plus `--cc`,
//! `--timer-slack` and `--net`. `--net udp` (the default) runs tokio UDP endpoints on
//! 127.0.0.1 through `congestion-harness`'s relay; `--net sim` runs the same
//! link on s2n-quic's virtual-time network. The last line printed is
//! `goodput MBIT Mbit/s lost N cc NAME`.

#[path = "../harness/mod.rs"]
mod harness;

use clap::Parser;
use congestion_harness::args::{TransferArgs, summary_line};
use congestion_s2n_quic::AdapterStats;
use harness::common::{CC_NAMES, Cc, Report};
use std::time::Duration;

/// transfer: one QUIC bulk transfer between two s2n-quic endpoints through an emulated
/// link (rate, delay, drop-tail buffer, random loss).
#[derive(Parser, Debug)]
#[command(name = "s2n_transfer")]
struct Args {
    #[command(flatten)]
    transfer: TransferArgs,
    /// The sender's controller: ours-cubic-rfc, ours-cubic-rfc-linux-hystart,
    /// ours-newreno-rfc, ours-cubic-rfc-unpaced, ours-bbr, ours-bbr3 (Linux-mode BBR,
    /// EDT-paced at its rate), cubic or bbr (s2n-quic's own; s2n-quic has no NewReno).
    #[arg(long, default_value = "ours-cubic-rfc", value_parser = cc)]
    cc: Cc,
    /// Our controllers' pacer timer slack, e.g. 1ms (see DEFAULT_TIMER_SLACK); 0ms:
    /// the EDT pacer's own rule.
    #[arg(long, default_value = "1ms", value_parser = duration, allow_hyphen_values = true)]
    timer_slack: Duration,
    /// The network: udp (tokio sockets through the relay) or sim (s2n-quic's
    /// virtual-time network with the same link model).
    #[arg(long, default_value = "udp", value_parser = ["udp", "sim"])]
    net: String,
}

fn duration(text: &str) -> Result<Duration, String> {
    congestion_units::duration(text)
        .map_err(|e| format!("{} (valid: a duration from 0 to 2^64 ns, e.g. 1ms)", e.0))
}

fn cc(text: &str) -> Result<Cc, String> {
    if text == "newreno" {
        return Err(
            "s2n-quic 1.91 has no NewReno (its controllers are Cubic and Bbr); \
             ours-newreno-rfc is this crate's"
                .to_string(),
        );
    }
    Cc::parse(text).ok_or_else(|| format!("`{text}` is not one of {CC_NAMES}"))
}

fn run(args: &Args) -> Result<Report, Box<dyn std::error::Error>> {
    let t = &args.transfer;
    if args.net == "sim" {
        let config = harness::sim::SimConfig {
            cc: args.cc,
            bytes: t.bytes,
            timer_slack: args.timer_slack.into(),
            link: harness::vnet::LinkConfig {
                rate_bps: t.rate,
                delay: t.rtt / 2,
                buffer_bytes: t.buffer,
                loss_ppm: t.loss,
                seed: t.seed,
                blackout: None,
            },
            log: None,
        };
        return harness::sim::run(config);
    }
    let config = harness::udp::UdpConfig {
        cc: args.cc,
        bytes: t.bytes,
        timer_slack: args.timer_slack.into(),
        relay: t.relay_config(),
        sample_every: t.sample,
        timeout: t.timeout,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime
        .block_on(harness::udp::run(config))
        .map_err(|e| e as Box<dyn std::error::Error>)
}

fn main() {
    let args = Args::parse();
    println!(
        "{}, net {}, timer slack {:?}",
        args.transfer.header_line(args.cc.name()),
        args.net,
        args.timer_slack
    );
    let report = match run(&args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("transfer failed: {e}");
            std::process::exit(1);
        }
    };
    println!("# t_ms cwnd_bytes lost_packets");
    for (at, cwnd, lost) in &report.events.samples {
        println!("{} {} {}", at.as_millis(), cwnd, lost);
    }
    println!(
        "# elapsed {:.3} s, sent {} packets, lost {} packets, relay drops {} tail + {} random, \
         max cwnd {} B",
        report.elapsed.as_secs_f64(),
        report.events.sent_packets,
        report.events.lost_packets,
        report.tail_drops,
        report.random_drops,
        report.events.max_cwnd
    );
    let e = &report.events;
    if e.srtt_count > 0 {
        println!(
            "# srtt over the recovery-metrics events: mean {:.1} ms, max {:.1} ms",
            e.srtt_sum.as_secs_f64() * 1e3 / e.srtt_count as f64,
            e.srtt_max.as_secs_f64() * 1e3
        );
    }
    let a = &report.adapter;
    if AdapterStats::get(&a.sent_packets) > 0 {
        println!(
            "# adapter: {} packets ({} held back by the pacer), {} ACK frames, {} losses \
             passed on, {} reductions, {} losses inside recovery ignored by the flow, \
             {} with persistent congestion, {} late (host-limited)",
            AdapterStats::get(&a.sent_packets),
            AdapterStats::get(&a.paced_packets),
            AdapterStats::get(&a.ack_frames),
            AdapterStats::get(&a.lost_packets),
            AdapterStats::get(&a.reductions),
            AdapterStats::get(&a.losses_in_recovery),
            AdapterStats::get(&a.persistent_congestion),
            AdapterStats::get(&a.late_packets),
        );
    }
    println!(
        "{}",
        summary_line(
            report.goodput_mbit(),
            report.events.lost_packets,
            report.cc.name()
        )
    );
}
