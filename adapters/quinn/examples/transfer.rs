//! A real QUIC transfer through an emulated link, with our controller or quinn's Cubic.
//!
//! ```text
//! cargo run --release -p congestion-quinn --example transfer -- \
//!     --rate 50m --rtt 40ms --buffer 256kB --bytes 100MB --cc ours
//! ```
//!
//! `transfer --help` lists the flags. Values are read by `congestion-units`, as ccsim
//! reads them: rates in bit/s with k/m/g as powers of 10; sizes in bytes with k/m/g
//! (or KiB/MiB/GiB) as powers of 2 and kB/MB/GB as powers of 10; durations need a
//! unit; `--loss` is a probability in [0, 1) (`0.005`, or `0.5%`). Usage errors exit 2.
//! The last line printed is `goodput MBIT Mbit/s lost N cc NAME`.

#[path = "../harness/mod.rs"]
mod harness;

use clap::Parser;
use congestion_units::limits;
use harness::relay::RelayConfig;
use harness::transfer::{Cc, TransferConfig, run};
use std::time::Duration;

/// The relay's largest datagram plus headroom: a smaller drop-tail buffer would drop
/// every full-size packet and the transfer could never finish.
const MIN_BUFFER_BYTES: u64 = 1500;

/// transfer: one QUIC bulk transfer between two quinn endpoints on 127.0.0.1 through
/// an in-process relay (rate, delay, drop-tail buffer, random loss).
#[derive(Parser, Debug)]
#[command(name = "transfer")]
struct Args {
    /// Bottleneck rate, bit/s, above 0 (k/m/g = 10^3/10^6/10^9), e.g. 50m, 2.5g.
    #[arg(long, default_value = "50m", value_parser = rate, allow_hyphen_values = true)]
    rate: u64,
    /// Round-trip propagation delay, above 0 and at most 1 h, with its unit: e.g. 40ms.
    #[arg(long, default_value = "40ms", value_parser = rtt, allow_hyphen_values = true)]
    rtt: Duration,
    /// Drop-tail buffer, bytes, at least 1500 (k/m/g = 2^10/2^20/2^30; kB/MB = 10^3/10^6).
    #[arg(long, default_value = "256kB", value_parser = buffer, allow_hyphen_values = true)]
    buffer: u64,
    /// Bytes to send, above 0, e.g. 100MB, 30m.
    #[arg(long, default_value = "100MB", value_parser = positive_size, allow_hyphen_values = true)]
    bytes: u64,
    /// The sender's controller: ours, ours-linux-hystart, linux or quinn.
    #[arg(long, default_value = "ours", value_parser = cc)]
    cc: Cc,
    /// Random loss probability on the data direction, in [0, 1): e.g. 0.005 (or 0.5%).
    #[arg(long, default_value = "0", value_parser = loss_ppm, allow_hyphen_values = true)]
    loss: u32,
    /// Seed of the loss draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Period of the cwnd samples, above 0, e.g. 100ms.
    #[arg(long, default_value = "100ms", value_parser = positive_duration, allow_hyphen_values = true)]
    sample: Duration,
    /// Give up after this long, e.g. 300s.
    #[arg(long, default_value = "300s", value_parser = positive_duration, allow_hyphen_values = true)]
    timeout: Duration,
}

fn rate(text: &str) -> Result<u64, String> {
    congestion_units::rate_bps(text).map_err(|e| e.0)
}

fn rtt(text: &str) -> Result<Duration, String> {
    limits::rtt(text).map_err(|e| e.0)
}

fn positive_size(text: &str) -> Result<u64, String> {
    limits::positive_size(text).map_err(|e| e.0)
}

fn positive_duration(text: &str) -> Result<Duration, String> {
    limits::positive_duration(text).map_err(|e| e.0)
}

fn buffer(text: &str) -> Result<u64, String> {
    let bytes = congestion_units::size_bytes(text).map_err(|e| e.0)?;
    if bytes < MIN_BUFFER_BYTES {
        return Err(format!(
            "`{text}` is {bytes} bytes; the buffer must hold one full-size packet, at least {MIN_BUFFER_BYTES} bytes"
        ));
    }
    Ok(bytes)
}

fn cc(text: &str) -> Result<Cc, String> {
    Cc::parse(text)
        .ok_or_else(|| format!("`{text}` is not one of ours, ours-linux-hystart, linux, quinn"))
}

/// The relay draws loss in parts per million; a probability it cannot represent
/// (between 0 and 0.5 ppm) is refused rather than silently turned into no loss.
fn loss_ppm(text: &str) -> Result<u32, String> {
    let p = congestion_units::probability(text).map_err(|e| e.0)?;
    let ppm = (p * 1e6).round() as u32;
    if p > 0.0 && ppm == 0 {
        return Err(format!(
            "`{text}` is below the relay's resolution of 1 ppm (0.000001)"
        ));
    }
    Ok(ppm)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args = Args::parse();
    let mut relay = RelayConfig::symmetric(args.rate, args.rtt, args.buffer, args.loss);
    relay.seed = args.seed;
    relay.max_lifetime = args.timeout + Duration::from_secs(10);
    let config = TransferConfig {
        cc: args.cc,
        bytes: args.bytes,
        relay,
        sample_every: args.sample,
        timeout: args.timeout,
    };
    println!(
        "# link {} bit/s, rtt {:?}, buffer {} B, loss {} ppm, seed {}; {} bytes with cc {}",
        args.rate,
        args.rtt,
        args.buffer,
        args.loss,
        args.seed,
        args.bytes,
        args.cc.name()
    );
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
             recovery ignored, {} sends filled the window",
            a.ack_frames,
            a.app_limited_ack_frames,
            a.congestion_events,
            a.congestion_events_in_recovery,
            a.window_full_sends
        );
    }
    println!(
        "goodput {:.2} Mbit/s lost {} cc {}",
        report.goodput_mbit(),
        report.lost_packets,
        report.cc.name()
    );
}
