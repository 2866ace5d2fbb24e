//! A real QUIC transfer through an emulated link, with our controller or quinn's Cubic.
//!
//! ```text
//! cargo run --release -p congestion-quinn --example quinn_transfer -- \
//!     --rate 50m --rtt 40ms --buffer 256kB --bytes 100MB --cc ours-cubic-rfc
//! ```
//!
//! `transfer --help` lists the flags (the link flags are `congestion-harness`'s
//! `TransferArgs`, shared with `adapters/noq`). Values are read by `congestion-units`,
//! as ccsim reads them: rates in bit/s with k/m/g as powers of 10; sizes in bytes with k/m/g
//! (or KiB/MiB/GiB) as powers of 2 and kB/MB/GB as powers of 10; durations need a
//! unit; `--loss` is a probability in [0, 1) (`0.005`, or `0.5%`). Usage errors exit 2.
//! The last line printed is `goodput MBIT Mbit/s lost N cc NAME`.

#[path = "../harness/transfer.rs"]
mod transfer;

use clap::Parser;
use congestion_harness::args::{TransferArgs, summary_line};
use transfer::{Cc, TransferConfig, run};

/// transfer: one QUIC bulk transfer between two quinn endpoints on 127.0.0.1 through
/// an in-process relay (rate, delay, drop-tail buffer, random loss).
#[derive(Parser, Debug)]
#[command(name = "quinn_transfer")]
struct Args {
    #[command(flatten)]
    transfer: TransferArgs,
    /// The sender's controller: ours-cubic-rfc, ours-cubic-rfc-linux-hystart, ours-cubic,
    /// ours-newreno-rfc, ours-bbr, ours-bbr3 (Linux-mode BBR v1/v3, per-packet snapshots
    /// kept by the adapter), cubic (or quinn; quinn's own), newreno or bbr (quinn's own).
    #[arg(long, default_value = "ours-cubic-rfc", value_parser = cc)]
    cc: Cc,
}

fn cc(text: &str) -> Result<Cc, String> {
    Cc::parse(text)
        .ok_or_else(|| format!("`{text}` is not one of ours-cubic-rfc, ours-cubic-rfc-linux-hystart, ours-cubic, ours-newreno-rfc, ours-bbr, ours-bbr3, cubic (or quinn), newreno, bbr"))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args = Args::parse();
    let t = &args.transfer;
    let config = TransferConfig {
        cc: args.cc,
        bytes: t.bytes,
        relay: t.relay_config(),
        sample_every: t.sample,
        timeout: t.timeout,
    };
    println!("{}", t.header_line(args.cc.name()));
    let report = match run(config).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("transfer failed: {e}");
            std::process::exit(1);
        }
    };
    println!("# t_ms cwnd_bytes lost_packets congestion_events srtt_ms");
    for s in &report.samples {
        println!(
            "{} {} {} {} {:.1}",
            s.at.as_millis(),
            s.cwnd,
            s.lost_packets,
            s.congestion_events,
            s.rtt.as_secs_f64() * 1e3
        );
    }
    let max_cwnd = report.samples.iter().map(|s| s.cwnd).max().unwrap_or(0);
    let srtt: Vec<f64> = report
        .samples
        .iter()
        .map(|s| s.rtt.as_secs_f64() * 1e3)
        .collect();
    if !srtt.is_empty() {
        println!(
            "# srtt over the samples: mean {:.1} ms, max {:.1} ms",
            srtt.iter().sum::<f64>() / srtt.len() as f64,
            srtt.iter().copied().fold(0.0, f64::max)
        );
    }
    println!(
        "# elapsed {:.3} s, sent {} packets, lost {} packets ({} bytes), {} congestion events, \
         relay drops {} tail + {} random, max sampled cwnd {} B",
        report.elapsed.as_secs_f64(),
        report.sent_packets,
        report.lost_packets,
        report.lost_bytes,
        report.congestion_events,
        report.tail_drops,
        report.random_drops,
        max_cwnd
    );
    if let Some(a) = report.adapter {
        println!(
            "# adapter: {} ACK frames ({} app-limited), {} reductions, {} events inside \
             recovery ignored, {} sends filled the window, {} ACK frames and {} losses \
             with a packet snapshot, {} packets late (host-limited)",
            a.ack_frames,
            a.app_limited_ack_frames,
            a.congestion_events,
            a.congestion_events_in_recovery,
            a.window_full_sends,
            a.sampled_acks,
            a.sampled_losses,
            a.late_packets
        );
    }
    println!(
        "{}",
        summary_line(report.goodput_mbit(), report.lost_packets, report.cc.name())
    );
}
