//! A real QUIC transfer through an emulated link, with our controller or quinn's Cubic.
//!
//! ```text
//! cargo run --release -p congestion-quinn --example transfer -- \
//!     --rate 50m --rtt 40ms --buffer 256k --bytes 100m --cc ours
//! ```
//!
//! Options (k, m, g are powers of 1000; sizes in bytes, rates in bits per second):
//! `--rate` bottleneck rate, `--rtt` round-trip propagation delay (`ms`, `us` or `s`),
//! `--buffer` drop-tail buffer, `--bytes` amount to send,
//! `--cc ours|ours-linux-hystart|linux|quinn`,
//! `--loss` random loss in percent on the data direction, `--seed` for it,
//! `--sample` cwnd sampling period, `--timeout` in seconds.
//! The last line printed is `goodput MBIT Mbit/s lost N cc NAME`.

#[path = "../harness/mod.rs"]
mod harness;

use harness::relay::RelayConfig;
use harness::transfer::{Cc, TransferConfig, run};
use std::time::Duration;

fn parse_si(s: &str) -> Option<u64> {
    let s = s.trim().to_ascii_lowercase();
    let (num, mult) = match s.chars().last()? {
        'k' => (&s[..s.len() - 1], 1_000),
        'm' => (&s[..s.len() - 1], 1_000_000),
        'g' => (&s[..s.len() - 1], 1_000_000_000),
        _ => (&s[..], 1),
    };
    let v: f64 = num.parse().ok()?;
    (v >= 0.0).then_some((v * mult as f64) as u64)
}

fn parse_duration(s: &str) -> Option<Duration> {
    let s = s.trim();
    let (num, scale_us) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1_000.0)
    } else if let Some(n) = s.strip_suffix("us") {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1_000_000.0)
    } else {
        (s, 1_000.0)
    };
    let v: f64 = num.parse().ok()?;
    (v >= 0.0).then(|| Duration::from_micros((v * scale_us) as u64))
}

struct Args {
    rate: u64,
    rtt: Duration,
    buffer: u64,
    bytes: u64,
    cc: Cc,
    loss_percent: f64,
    seed: u64,
    sample: Duration,
    timeout: Duration,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        rate: 50_000_000,
        rtt: Duration::from_millis(40),
        buffer: 256_000,
        bytes: 100_000_000,
        cc: Cc::Ours,
        loss_percent: 0.0,
        seed: 1,
        sample: Duration::from_millis(100),
        timeout: Duration::from_secs(300),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = || format!("bad value `{value}` for {flag}");
        match flag.as_str() {
            "--rate" => a.rate = parse_si(&value).filter(|&r| r > 0).ok_or_else(bad)?,
            "--rtt" => a.rtt = parse_duration(&value).ok_or_else(bad)?,
            "--buffer" => a.buffer = parse_si(&value).ok_or_else(bad)?,
            "--bytes" => a.bytes = parse_si(&value).ok_or_else(bad)?,
            "--cc" => a.cc = Cc::parse(&value).ok_or_else(bad)?,
            "--loss" => {
                a.loss_percent = value
                    .trim_end_matches('%')
                    .parse()
                    .ok()
                    .filter(|p: &f64| (0.0..100.0).contains(p))
                    .ok_or_else(bad)?
            }
            "--seed" => a.seed = value.parse().map_err(|_| bad())?,
            "--sample" => {
                a.sample = parse_duration(&value)
                    .filter(|d| !d.is_zero())
                    .ok_or_else(bad)?
            }
            "--timeout" => a.timeout = Duration::from_secs(value.parse().map_err(|_| bad())?),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(a)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("transfer: {e}");
            std::process::exit(2);
        }
    };
    let loss_ppm = (args.loss_percent * 10_000.0) as u32;
    let mut relay = RelayConfig::symmetric(args.rate, args.rtt, args.buffer, loss_ppm);
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
        "# link {} bit/s, rtt {:?}, buffer {} B, loss {}%, seed {}; {} bytes with cc {}",
        args.rate,
        args.rtt,
        args.buffer,
        args.loss_percent,
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
