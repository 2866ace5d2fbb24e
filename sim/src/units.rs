//! The command line's quantities, read by `congestion-units` (the parser the quinn
//! `quinn_transfer` example shares, so a flag means the same in both tools) and turned into
//! the simulator's integers: bytes, bit/s, nanoseconds.
//!
//! Sizes: `k`/`m`/`g` (or `KiB`/`MiB`/`GiB`) are powers of 2, `kB`/`MB`/`GB` powers of
//! 10; rates: powers of 10, bit/s; durations need a unit; decimals are accepted
//! (`2.5g`, `1.5g`, `0.5ms`). The messages name the accepted forms and ranges; clap
//! puts the flag in front.

use congestion_units::limits;

/// A size in bytes (`64k` = 65,536; `1.5g`; `256kB` = 256,000).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    congestion_units::size_bytes(text).map_err(|e| e.0)
}

/// A rate in bit/s above 0 (`10g`, `2.5g`, `100mbit`).
pub fn parse_rate(text: &str) -> Result<u64, String> {
    congestion_units::rate_bps(text).map_err(|e| e.0)
}

/// A duration with its unit, in nanoseconds (`80ms`, `500us`, `10s`).
pub fn parse_duration_ns(text: &str) -> Result<u64, String> {
    congestion_units::duration(text)
        .and_then(|d| nanos(text, d))
        .map_err(|e| e.0)
}

/// A duration above 0, in nanoseconds (`-T`, `-i`).
pub fn parse_positive_duration_ns(text: &str) -> Result<u64, String> {
    limits::positive_duration(text)
        .and_then(|d| nanos(text, d))
        .map_err(|e| e.0)
}

/// A round-trip time above 0 and at most an hour, in nanoseconds.
pub fn parse_rtt_ns(text: &str) -> Result<u64, String> {
    limits::rtt(text)
        .and_then(|d| nanos(text, d))
        .map_err(|e| e.0)
}

/// An IP MTU, 68 to 65535 bytes.
pub fn parse_mtu(text: &str) -> Result<u32, String> {
    limits::mtu(text).map_err(|e| e.0)
}

/// A loss probability in `[0, 1)` (`0.0001`, or `0.01%`).
pub fn parse_probability(text: &str) -> Result<f64, String> {
    congestion_units::probability(text).map_err(|e| e.0)
}

fn nanos(text: &str, d: std::time::Duration) -> Result<u64, congestion_units::UnitError> {
    u64::try_from(d.as_nanos())
        .map_err(|_| congestion_units::UnitError(format!("`{text}` is too long")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simulator_reads_the_shared_units_in_its_integers() {
        assert_eq!(parse_bytes("5m"), Ok(5 << 20));
        assert_eq!(parse_bytes("1.5g"), Ok(3 << 29));
        assert_eq!(parse_rate("2.5g"), Ok(2_500_000_000));
        assert_eq!(parse_duration_ns("80ms"), Ok(80_000_000));
        assert_eq!(parse_rtt_ns("500us"), Ok(500_000));
        assert!(parse_rtt_ns("5").is_err()); // 5 what?
        assert!(parse_rtt_ns("0s").is_err());
        assert!(parse_positive_duration_ns("0s").is_err());
        assert_eq!(parse_mtu("9000"), Ok(9000));
        assert!(parse_mtu("100000").is_err());
        assert!(parse_probability("1").is_err());
    }
}
