//! A real QUIC transfer between two s2n-quic endpoints through an emulated link, with
//! our controller or s2n-quic's own CUBIC.
//!
//! ```text
//! cargo run --release -p congestion-s2n-quic --example transfer -- \
//!     --rate 50m --rtt 40ms --buffer 256kB --bytes 100MB --cc ours
//! ```
//!
//! The flags are `adapters/quinn`'s transfer example's, read by `congestion-units` the
//! same way (rates in bit/s with k/m/g as powers of 10; sizes with k/m/g or KiB/MiB/GiB
//! as powers of 2 and kB/MB/GB as powers of 10; durations need a unit; `--loss` a
//! probability in [0, 1)). Usage errors exit 2. `--net udp` (the default) runs tokio UDP
//! endpoints on 127.0.0.1 through the quinn adapter's relay; `--net sim` runs the same
//! link on s2n-quic's virtual-time network. The last line printed is
//! `goodput MBIT Mbit/s lost N cc NAME`.

#[path = "../harness/mod.rs"]
mod harness;

use clap::Parser;
use congestion_s2n_quic::AdapterStats;
use congestion_units::limits;
use harness::common::{CC_NAMES, Cc, Report};
use harness::relay::RelayConfig;
use std::time::Duration;

/// The relay's largest datagram plus headroom: a smaller drop-tail buffer would drop
/// every full-size packet and the transfer could never finish.
const MIN_BUFFER_BYTES: u64 = 1500;

/// transfer: one QUIC bulk transfer between two s2n-quic endpoints through an emulated
/// link (rate, delay, drop-tail buffer, random loss).
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
    /// The sender's controller: ours, ours-linux-hystart, ours-newreno, ours-unpaced or
    /// cubic (s2n-quic's own; s2n-quic has no NewReno).
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
    /// Give up after this long, e.g. 300s (UDP only).
    #[arg(long, default_value = "300s", value_parser = positive_duration, allow_hyphen_values = true)]
    timeout: Duration,
    /// Our controllers' pacer timer slack, e.g. 1ms (see DEFAULT_TIMER_SLACK); 0ms:
    /// the EDT pacer's own rule.
    #[arg(long, default_value = "1ms", value_parser = duration, allow_hyphen_values = true)]
    timer_slack: Duration,
    /// The network: udp (tokio sockets through the relay) or sim (s2n-quic's
    /// virtual-time network with the same link model).
    #[arg(long, default_value = "udp", value_parser = ["udp", "sim"])]
    net: String,
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

fn duration(text: &str) -> Result<Duration, String> {
    congestion_units::duration(text).map_err(|e| e.0)
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
    if text == "newreno" {
        return Err(
            "s2n-quic 1.91 has no NewReno (its controllers are Cubic and Bbr); \
             ours-newreno is this crate's"
                .to_string(),
        );
    }
    Cc::parse(text).ok_or_else(|| format!("`{text}` is not one of {CC_NAMES}"))
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

fn run(args: &Args) -> Result<Report, Box<dyn std::error::Error>> {
    if args.net == "sim" {
        let config = harness::sim::SimConfig {
            cc: args.cc,
            bytes: args.bytes,
            timer_slack: args.timer_slack.into(),
            link: harness::vnet::LinkConfig {
                rate_bps: args.rate,
                delay: args.rtt / 2,
                buffer_bytes: args.buffer,
                loss_ppm: args.loss,
                seed: args.seed,
                blackout: None,
            },
            log: None,
        };
        return harness::sim::run(config);
    }
    let mut relay = RelayConfig::symmetric(args.rate, args.rtt, args.buffer, args.loss);
    relay.seed = args.seed;
    relay.max_lifetime = args.timeout + Duration::from_secs(10);
    let config = harness::udp::UdpConfig {
        cc: args.cc,
        bytes: args.bytes,
        timer_slack: args.timer_slack.into(),
        relay,
        sample_every: args.sample,
        timeout: args.timeout,
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
        "# link {} bit/s, rtt {:?}, buffer {} B, loss {} ppm, seed {}, net {}; {} bytes with cc {}",
        args.rate,
        args.rtt,
        args.buffer,
        args.loss,
        args.seed,
        args.net,
        args.bytes,
        args.cc.name()
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
    let a = &report.adapter;
    if AdapterStats::get(&a.sent_packets) > 0 {
        println!(
            "# adapter: {} packets ({} held back by the pacer), {} ACK frames, {} losses \
             passed on, {} reductions, {} losses inside recovery ignored by the flow, \
             {} with persistent congestion",
            AdapterStats::get(&a.sent_packets),
            AdapterStats::get(&a.paced_packets),
            AdapterStats::get(&a.ack_frames),
            AdapterStats::get(&a.lost_packets),
            AdapterStats::get(&a.reductions),
            AdapterStats::get(&a.losses_in_recovery),
            AdapterStats::get(&a.persistent_congestion),
        );
    }
    println!(
        "goodput {:.2} Mbit/s lost {} cc {}",
        report.goodput_mbit(),
        report.events.lost_packets,
        report.cc.name()
    );
}
