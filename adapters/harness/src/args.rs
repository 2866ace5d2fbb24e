//! The flags every adapter's transfer example (`quinn_transfer`, `noq_transfer`, `s2n_transfer`) takes, read by `congestion-units` as
//! ccsim reads them, and the lines every example prints first and last.
//!
//! An example flattens [`TransferArgs`] into its own parser and adds its `--cc`:
//!
//! ```
//! use clap::Parser;
//! use congestion_harness::args::TransferArgs;
//!
//! #[derive(Parser)]
//! struct Args {
//!     #[command(flatten)]
//!     transfer: TransferArgs,
//!     #[arg(long, default_value = "ours")]
//!     cc: String,
//! }
//!
//! let args = Args::try_parse_from(["transfer", "--rate", "20m", "--buffer", "50kB"]).unwrap();
//! assert_eq!(args.transfer.rate, 20_000_000);
//! assert_eq!(args.transfer.buffer, 50_000);
//! assert_eq!(args.transfer.relay_config().forward.buffer_bytes, 50_000);
//! ```

use crate::relay::RelayConfig;
use clap::Args;
use congestion_units::limits;
use std::time::Duration;

/// The relay's largest datagram plus headroom: a smaller drop-tail buffer would drop
/// every full-size packet and the transfer could never finish.
pub const MIN_BUFFER_BYTES: u64 = 1500;

/// How much longer than the transfer's timeout the relay may live: the endpoints'
/// closing handshake still crosses it.
const RELAY_GRACE: Duration = Duration::from_secs(10);

/// The link and the workload: `--rate --rtt --buffer --bytes --loss --seed --sample
/// --timeout`.
#[derive(Args, Clone, Debug)]
pub struct TransferArgs {
    /// Bottleneck rate, bit/s, above 0 (k/m/g = 10^3/10^6/10^9), e.g. 50m, 2.5g.
    #[arg(long, default_value = "50m", value_parser = rate, allow_hyphen_values = true)]
    pub rate: u64,
    /// Round-trip propagation delay, above 0 and at most 1 h, with its unit: e.g. 40ms.
    #[arg(long, default_value = "40ms", value_parser = rtt, allow_hyphen_values = true)]
    pub rtt: Duration,
    /// Drop-tail buffer, bytes, at least 1500 (k/m/g = 2^10/2^20/2^30; kB/MB = 10^3/10^6).
    #[arg(long, default_value = "256kB", value_parser = buffer, allow_hyphen_values = true)]
    pub buffer: u64,
    /// Bytes to send, above 0, e.g. 100MB, 30m.
    #[arg(long, default_value = "100MB", value_parser = positive_size, allow_hyphen_values = true)]
    pub bytes: u64,
    /// Random loss probability on the data direction, in [0, 1): e.g. 0.005 (or 0.5%).
    #[arg(long, default_value = "0", value_parser = loss_ppm, allow_hyphen_values = true)]
    pub loss: u32,
    /// Seed of the loss draws, an integer from 0 to 2^64 - 1.
    #[arg(long, default_value = "1", value_parser = seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// Period of the cwnd samples, above 0, e.g. 100ms.
    #[arg(long, default_value = "100ms", value_parser = positive_duration, allow_hyphen_values = true)]
    pub sample: Duration,
    /// Give up after this long, e.g. 300s.
    #[arg(long, default_value = "300s", value_parser = positive_duration, allow_hyphen_values = true)]
    pub timeout: Duration,
}

impl TransferArgs {
    /// The relay these flags describe: symmetric, loss on the data direction only, the
    /// given seed, every loop stopped at the latest a little after the timeout.
    pub fn relay_config(&self) -> RelayConfig {
        let mut relay = RelayConfig::symmetric(self.rate, self.rtt, self.buffer, self.loss);
        relay.seed = self.seed;
        relay.max_lifetime = self.timeout + RELAY_GRACE;
        relay
    }

    /// The first line an example prints: the link and the workload.
    pub fn header_line(&self, cc: &str) -> String {
        format!(
            "# link {} bit/s, rtt {:?}, buffer {} B, loss {} ppm, seed {}; {} bytes with cc {}",
            self.rate, self.rtt, self.buffer, self.loss, self.seed, self.bytes, cc
        )
    }
}

/// The last line every example prints, which scripts read:
/// `goodput MBIT Mbit/s lost N cc NAME`.
pub fn summary_line(goodput_mbit: f64, lost_packets: u64, cc: &str) -> String {
    format!("goodput {goodput_mbit:.2} Mbit/s lost {lost_packets} cc {cc}")
}

/// Application bytes over `elapsed`, Mbit/s.
pub fn goodput_mbit(bytes: u64, elapsed: Duration) -> f64 {
    bytes as f64 * 8.0 / elapsed.as_secs_f64().max(1e-9) / 1e6
}

/// Each flag's valid values, appended to every refusal so that the error names the range
/// as well as the flag (clap names the flag).
const RATE_RANGE: &str = "a rate from 1 bit/s to 2^64 - 1 bit/s";
const RTT_RANGE: &str = "a duration above 0 and at most 1 h";
const BUFFER_RANGE: &str = "a size from 1500 to 2^64 - 1 bytes";
const BYTES_RANGE: &str = "a size from 1 to 2^64 - 1 bytes";
const DURATION_RANGE: &str = "a duration above 0 and below 2^64 ns (about 584 years)";
const LOSS_RANGE: &str = "a probability in [0, 1) in steps of 1 ppm (0.000001)";
const SEED_RANGE: &str = "an integer from 0 to 2^64 - 1";

fn refused(message: String, range: &str) -> String {
    format!("{message} (valid: {range})")
}

fn rate(text: &str) -> Result<u64, String> {
    congestion_units::rate_bps(text).map_err(|e| refused(e.0, RATE_RANGE))
}

fn rtt(text: &str) -> Result<Duration, String> {
    limits::rtt(text).map_err(|e| refused(e.0, RTT_RANGE))
}

fn positive_size(text: &str) -> Result<u64, String> {
    limits::positive_size(text).map_err(|e| refused(e.0, BYTES_RANGE))
}

fn positive_duration(text: &str) -> Result<Duration, String> {
    limits::positive_duration(text).map_err(|e| refused(e.0, DURATION_RANGE))
}

fn seed(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .map_err(|_| refused(format!("`{text}` is not a seed"), SEED_RANGE))
}

fn buffer(text: &str) -> Result<u64, String> {
    let bytes = congestion_units::size_bytes(text).map_err(|e| refused(e.0, BUFFER_RANGE))?;
    if bytes < MIN_BUFFER_BYTES {
        return Err(refused(
            format!(
                "`{text}` is {bytes} bytes; the buffer must hold one full-size packet, at least {MIN_BUFFER_BYTES} bytes"
            ),
            BUFFER_RANGE,
        ));
    }
    Ok(bytes)
}

/// The relay draws loss in parts per million; a probability it cannot represent
/// (between 0 and 0.5 ppm) is refused rather than silently turned into no loss.
fn loss_ppm(text: &str) -> Result<u32, String> {
    let p = congestion_units::probability(text).map_err(|e| refused(e.0, LOSS_RANGE))?;
    let ppm = (p * 1e6).round() as u32;
    if p > 0.0 && ppm == 0 {
        return Err(refused(
            format!("`{text}` is below the relay's resolution of 1 ppm (0.000001)"),
            LOSS_RANGE,
        ));
    }
    Ok(ppm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        transfer: TransferArgs,
    }

    fn parse(args: &[&str]) -> Result<TransferArgs, clap::Error> {
        let argv = std::iter::once("transfer").chain(args.iter().copied());
        Cli::try_parse_from(argv).map(|c| c.transfer)
    }

    #[test]
    fn the_documented_settings_read_as_the_docs_say() {
        let a = parse(&[
            "--rate", "50m", "--rtt", "40ms", "--buffer", "256kB", "--bytes", "30MB", "--loss",
            "0.005", "--seed", "7",
        ])
        .unwrap();
        assert_eq!(
            (a.rate, a.rtt, a.buffer, a.bytes, a.loss, a.seed),
            (
                50_000_000,
                Duration::from_millis(40),
                256_000,
                30_000_000,
                5_000,
                7
            )
        );
        // 256k is 2^10-based, 0.5% is a percentage.
        let b = parse(&["--buffer", "256k", "--loss", "0.5%"]).unwrap();
        assert_eq!((b.buffer, b.loss), (262_144, 5_000));
        let relay = a.relay_config();
        assert_eq!(relay.forward.delay, Duration::from_millis(20));
        assert_eq!((relay.forward.loss_ppm, relay.reverse.loss_ppm), (5_000, 0));
        assert_eq!(
            (relay.seed, relay.max_lifetime),
            (7, Duration::from_secs(310))
        );
    }

    #[test]
    fn values_the_relay_cannot_run_are_refused() {
        for bad in [
            &["--buffer", "1000"][..],
            &["--loss", "0.0000001"],
            &["--loss", "1"],
            &["--rtt", "5"],
            &["--rate", "0"],
            &["--bytes", "0"],
            &["--seed", "-1"],
            &["--timeout", "0s"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn every_refusal_names_the_flag_and_the_valid_range() {
        for (bad, range) in [
            (&["--rate", "0"][..], RATE_RANGE),
            (&["--rate", "99999999999t"], RATE_RANGE),
            (&["--rtt", "2h"], RTT_RANGE),
            (&["--buffer", "1000"], BUFFER_RANGE),
            (&["--buffer", "99999999999999999999"], BUFFER_RANGE),
            (&["--bytes", "0"], BYTES_RANGE),
            (&["--loss", "1"], LOSS_RANGE),
            (&["--loss", "0.0000001"], LOSS_RANGE),
            (&["--seed", "-1"], SEED_RANGE),
            (&["--sample", "0ms"], DURATION_RANGE),
            (&["--timeout", "1000000000000s"], DURATION_RANGE),
        ] {
            let error = parse(bad).unwrap_err().to_string();
            assert!(error.contains(bad[0]), "{bad:?}: {error}");
            assert!(error.contains(range), "{bad:?}: {error}");
        }
    }

    #[test]
    fn the_summary_line_is_what_scripts_read() {
        assert_eq!(
            summary_line(47.554, 938, "ours"),
            "goodput 47.55 Mbit/s lost 938 cc ours"
        );
        assert!((goodput_mbit(1_000_000, Duration::from_secs(1)) - 8.0).abs() < 1e-9);
    }
}
