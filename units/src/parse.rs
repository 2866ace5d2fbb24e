//! The four kinds of quantity. Each parser refuses what it cannot read with a sentence
//! that shows the accepted forms.

use core::time::Duration;

use crate::UnitError;
use crate::number::{scaled, split_number};

const RATE_FORMS: &str = "a rate in bit/s such as 10g, 2.5g, 100mbit, 1Gbit/s or 50Mbps (k, m, g, t = 10^3, 10^6, 10^9, 10^12)";
const SIZE_FORMS: &str = "a size in bytes such as 9000, 64k, 1.5g or 64KiB (k, m, g, t = 2^10, 2^20, 2^30, 2^40), or 256kB, 100MB (SI: 10^3, 10^6)";
const DURATION_FORMS: &str =
    "a duration with its unit such as 80ms, 500us, 1.5s, 250ns, 10min, 1h or 20d";
const PROBABILITY_FORMS: &str =
    "a probability in [0, 1) such as 0.001, or a percentage below 100 such as 0.5%";

/// Refuses a leading sign with the accepted forms (clap would otherwise take `-5ms`
/// for an unknown flag; the tools let it through to here).
fn unsigned<'a>(text: &'a str, forms: &str) -> Result<&'a str, UnitError> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(UnitError(format!("`{text}` is negative; expected {forms}")));
    }
    if t.starts_with('+') {
        return Err(UnitError(format!(
            "`{text}`: no sign please; expected {forms}"
        )));
    }
    Ok(t)
}

fn with_forms(e: UnitError, forms: &str) -> UnitError {
    UnitError(format!("{}; expected {forms}", e.0))
}

/// A rate in bit/s, above 0: `k`/`m`/`g`/`t` are powers of 10, optionally followed by
/// `bit`, `bit/s` or `bps` (any case: `100Mbit`, `10gbps`). Bytes per second (`MB/s`)
/// are refused rather than guessed.
pub fn rate_bps(text: &str) -> Result<u64, UnitError> {
    let t = unsigned(text, RATE_FORMS)?;
    let (number, unit) = split_number(t);
    if unit.contains('B') {
        return Err(UnitError(format!(
            "`{text}`: rates are in bits per second (B means bytes); expected {RATE_FORMS}"
        )));
    }
    let unit = unit.to_ascii_lowercase();
    let (scale, rest) = match unit.as_bytes().first() {
        Some(b'k') => (1_000, &unit[1..]),
        Some(b'm') => (1_000_000, &unit[1..]),
        Some(b'g') => (1_000_000_000, &unit[1..]),
        Some(b't') => (1_000_000_000_000, &unit[1..]),
        _ => (1, unit.as_str()),
    };
    if !matches!(rest, "" | "bit" | "bit/s" | "bps" | "b/s") {
        return Err(UnitError(format!("`{text}` is not {RATE_FORMS}")));
    }
    let bps = scaled(number, scale, text).map_err(|e| with_forms(e, RATE_FORMS))?;
    if bps == 0 {
        return Err(UnitError(format!("`{text}`: a rate must be above 0 bit/s")));
    }
    Ok(bps)
}

/// A size in bytes: `k`/`m`/`g`/`t` alone or as `KiB`/`MiB`/`GiB`/`TiB` are powers of
/// 2 (as nuttcp, iperf and tc read `-w 64k`); the same prefixes followed by `B`
/// (`kB`, `MB`, `GB`, `TB`) are SI powers of 10. `KB` is refused: tools disagree on it.
/// A lowercase `b` is refused too: it reads as bits.
pub fn size_bytes(text: &str) -> Result<u64, UnitError> {
    let t = unsigned(text, SIZE_FORMS)?;
    let (number, unit) = split_number(t);
    let binary = |shift: u32| 1u64 << shift;
    let scale = match unit {
        "" | "B" => 1,
        "k" | "K" | "KiB" | "kiB" => binary(10),
        "m" | "M" | "MiB" => binary(20),
        "g" | "G" | "GiB" => binary(30),
        "t" | "T" | "TiB" => binary(40),
        "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        "KB" => {
            return Err(UnitError(format!(
                "`{text}`: KB is read as 2^10 bytes by some tools and 10^3 by others; write {number}k or {number}KiB (2^10) or {number}kB (10^3)"
            )));
        }
        _ => return Err(UnitError(format!("`{text}` is not {SIZE_FORMS}"))),
    };
    scaled(number, scale, text).map_err(|e| with_forms(e, SIZE_FORMS))
}

/// A duration: a number and a unit (`ns`, `us` or `µs`, `ms`, `s`, `min`, `h`, `d`).
/// A bare number is refused: `--rtt 5` has meant 5 s in one tool and 5 ms in another;
/// so is `m`, which reads as minutes to some and milliseconds to others.
pub fn duration(text: &str) -> Result<Duration, UnitError> {
    let t = unsigned(text, DURATION_FORMS)?;
    let (number, unit) = split_number(t);
    let nanos_per_unit = match unit {
        "ns" => 1,
        "us" | "µs" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "min" => 60 * 1_000_000_000,
        "h" => 3_600 * 1_000_000_000,
        "d" => 86_400 * 1_000_000_000,
        "m" => {
            return Err(UnitError(format!(
                "`{text}`: m is minutes to some tools and milliseconds to others; write {number}min or {number}ms"
            )));
        }
        "" => {
            return Err(UnitError(format!(
                "`{text}` has no unit; expected {DURATION_FORMS}"
            )));
        }
        _ => return Err(UnitError(format!("`{text}` is not {DURATION_FORMS}"))),
    };
    let nanos = scaled(number, nanos_per_unit, text).map_err(|e| with_forms(e, DURATION_FORMS))?;
    Ok(Duration::from_nanos(nanos))
}

/// A probability in `[0, 1)` (a loss rate of 1 would never deliver anything); a
/// trailing `%` reads the number as a percentage (`0.5%` = 0.005).
pub fn probability(text: &str) -> Result<f64, UnitError> {
    let t = unsigned(text, PROBABILITY_FORMS)?;
    let (number, unit) = split_number(t);
    let percent = match unit {
        "" => false,
        "%" => true,
        _ => return Err(UnitError(format!("`{text}` is not {PROBABILITY_FORMS}"))),
    };
    // Parts per 10^18, exact; both operands of the division are exact f64 up to 2^53
    // parts, so up to 15 significant digits the result is the f64 nearest the decimal.
    let scale: u64 = if percent {
        10_000_000_000_000_000
    } else {
        1_000_000_000_000_000_000
    };
    let parts = scaled(number, scale, text).map_err(|e| with_forms(e, PROBABILITY_FORMS))?;
    if parts >= 1_000_000_000_000_000_000 {
        return Err(UnitError(format!(
            "`{text}` is not below 1; expected {PROBABILITY_FORMS}"
        )));
    }
    Ok(parts as f64 / 1e18)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_powers_of_ten_with_optional_bit_units() {
        assert_eq!(rate_bps("10g"), Ok(10_000_000_000));
        assert_eq!(rate_bps("2.5g"), Ok(2_500_000_000));
        assert_eq!(rate_bps("100mbit"), Ok(100_000_000));
        assert_eq!(rate_bps("1Gbit/s"), Ok(1_000_000_000));
        assert_eq!(rate_bps("50Mbps"), Ok(50_000_000));
        assert_eq!(rate_bps("1.5t"), Ok(1_500_000_000_000));
        assert_eq!(rate_bps("9600"), Ok(9600));
        assert!(rate_bps("0").unwrap_err().0.contains("above 0"));
        assert!(rate_bps("0.0001").is_err()); // rounds to 0 bit/s
        assert!(rate_bps("10MB/s").unwrap_err().0.contains("bytes"));
        assert!(rate_bps("-1g").unwrap_err().0.contains("negative"));
        assert!(rate_bps("10x").is_err());
        assert!(rate_bps("1e9").is_err());
        assert!(rate_bps("inf").is_err());
    }

    #[test]
    fn sizes_are_powers_of_two_unless_written_in_si() {
        assert_eq!(size_bytes("5m"), Ok(5 << 20));
        assert_eq!(size_bytes("8g"), Ok(8 << 30));
        assert_eq!(size_bytes("16K"), Ok(16_384));
        assert_eq!(size_bytes("64KiB"), Ok(65_536));
        assert_eq!(size_bytes("1.5g"), Ok(3 << 29));
        assert_eq!(size_bytes("0.5m"), Ok(1 << 19));
        assert_eq!(size_bytes("2TiB"), Ok(2 << 40));
        assert_eq!(size_bytes("9000"), Ok(9000));
        assert_eq!(size_bytes("1500B"), Ok(1500));
        assert_eq!(size_bytes("256kB"), Ok(256_000));
        assert_eq!(size_bytes("100MB"), Ok(100_000_000));
        assert!(size_bytes("64KB").unwrap_err().0.contains("64KiB"));
        assert!(size_bytes("64kb").is_err()); // bits or bytes? refused
        assert!(size_bytes("lots").is_err());
        assert!(size_bytes("-1k").unwrap_err().0.contains("negative"));
        assert!(
            size_bytes("17179869184g")
                .unwrap_err()
                .0
                .contains("too large")
        );
    }

    #[test]
    fn durations_need_a_unit() {
        assert_eq!(duration("80ms"), Ok(Duration::from_millis(80)));
        assert_eq!(duration("500us"), Ok(Duration::from_micros(500)));
        assert_eq!(duration("500µs"), Ok(Duration::from_micros(500)));
        assert_eq!(duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(duration("0.1s"), Ok(Duration::from_millis(100)));
        assert_eq!(duration("250ns"), Ok(Duration::from_nanos(250)));
        assert_eq!(duration("0s"), Ok(Duration::ZERO));
        assert!(duration("5").unwrap_err().0.contains("no unit"));
        assert!(duration("-5ms").unwrap_err().0.contains("negative"));
        assert!(duration("5 min").is_err());
        assert_eq!(duration("10min"), Ok(Duration::from_secs(600)));
        assert_eq!(duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(duration("0.5h"), Ok(Duration::from_secs(1800)));
        assert_eq!(duration("20d"), Ok(Duration::from_secs(20 * 86_400)));
        assert_eq!(duration("1.5d"), Ok(Duration::from_secs(129_600)));
        assert!(duration("5m").unwrap_err().0.contains("5min or 5ms"));
        assert!(duration("1hr").is_err());
    }

    #[test]
    fn probabilities_are_below_one_and_percent_is_explicit() {
        assert_eq!(probability("0"), Ok(0.0));
        assert_eq!(probability("0.0001"), Ok(0.0001));
        assert_eq!(probability("0.5%"), Ok(0.005));
        assert_eq!(probability("99.9%"), Ok(0.999));
        assert!(probability("1").unwrap_err().0.contains("[0, 1)"));
        assert!(probability("100%").is_err());
        assert!(probability("-0.1").unwrap_err().0.contains("negative"));
        assert!(probability("NaN").is_err());
    }
}
