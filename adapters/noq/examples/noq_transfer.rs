//! A real QUIC transfer between two noq endpoints through an emulated link, with our
//! controller or noq's own Cubic or NewReno.
//!
//! ```text
//! cargo run --release -p congestion-noq --example noq_transfer -- \
//!     --rate 50m --rtt 40ms --buffer 256kB --bytes 100MB --cc ours-cubic-rfc
//! ```
//!
//! The flags are `adapters/quinn`'s (`congestion-harness`'s `TransferArgs`: values read
//! by `congestion-units` as ccsim reads them; usage errors exit 2) plus `--cc ours-cubic-rfc |
//! ours-cubic-rfc-linux-hystart | ours-newreno-rfc | cubic | newreno`. The last line printed is
//! `goodput MBIT Mbit/s lost N cc NAME`.

#[path = "../harness/transfer.rs"]
mod transfer;

use clap::Parser;
use congestion_harness::args::{TransferArgs, summary_line};
use transfer::{Cc, TransferConfig, run};

/// transfer: one QUIC bulk transfer between two noq endpoints on 127.0.0.1 through an
/// in-process relay (rate, delay, drop-tail buffer, random loss).
#[derive(Parser, Debug)]
#[command(name = "noq_transfer")]
struct Args {
    #[command(flatten)]
    transfer: TransferArgs,
    /// The sender's controller: ours-cubic-rfc, ours-cubic-rfc-linux-hystart,
    /// ours-newreno-rfc, cubic (noq's) or newreno (noq's).
    #[arg(long, default_value = "ours-cubic-rfc", value_parser = cc)]
    cc: Cc,
}

fn cc(text: &str) -> Result<Cc, String> {
    Cc::parse(text).ok_or_else(|| {
        let names: Vec<_> = Cc::ALL.iter().map(|c| c.name()).collect();
        format!("`{text}` is not one of {}", names.join(", "))
    })
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
    println!("# t_ms cwnd_bytes lost_packets congestion_events srtt_ms pacing_Bps send_quantum_B");
    for s in &report.samples {
        let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
        println!(
            "{} {} {} {} {:.1} {} {}",
            s.at.as_millis(),
            s.cwnd,
            s.lost_packets,
            s.congestion_events,
            s.rtt.as_secs_f64() * 1e3,
            opt(s.pacing_rate),
            opt(s.send_quantum)
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
        "# elapsed {:.3} s, sent {} packets, lost {} packets ({} bytes), {} congestion events \
         ({} spurious), relay drops {} tail + {} random, max sampled cwnd {} B",
        report.elapsed.as_secs_f64(),
        report.sent_packets,
        report.lost_packets,
        report.lost_bytes,
        report.congestion_events,
        report.spurious_congestion_events,
        report.tail_drops,
        report.random_drops,
        max_cwnd
    );
    if let Some(a) = report.adapter {
        println!(
            "# adapter: {} ACK frames ({} app-limited), {} loss events + {} ECN, {} reductions, \
             {} inside recovery, {} persistent, {} spurious undos, {} cwnd-limited, \
             {} ACK frames and {} losses with a packet snapshot, {} packets late (host-limited)",
            a.ack_frames,
            a.app_limited_ack_frames,
            a.loss_events,
            a.ecn_events,
            a.reductions,
            a.events_in_recovery,
            a.persistent_congestion,
            a.spurious,
            a.cwnd_limited,
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
