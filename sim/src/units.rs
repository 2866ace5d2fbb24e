//! Parsing of the command line's quantities: sizes (`5m`, `8g`: powers of 2), rates
//! (`10g`, `100m`: powers of 10, bit/s) and durations (`80ms`, `500us`, `10s`).

/// A size in bytes: digits with an optional `k`, `m` or `g` (2^10, 2^20, 2^30).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let (digits, scale) = split_suffix(text, 1 << 10, 1 << 20, 1 << 30)?;
    digits
        .checked_mul(scale)
        .ok_or_else(|| format!("size too large: {text}"))
}

/// A rate in bit/s: digits with an optional `k`, `m` or `g` (10^3, 10^6, 10^9).
pub fn parse_rate(text: &str) -> Result<u64, String> {
    let (digits, scale) = split_suffix(text, 1_000, 1_000_000, 1_000_000_000)?;
    let bps = digits
        .checked_mul(scale)
        .ok_or_else(|| format!("rate too large: {text}"))?;
    if bps == 0 {
        return Err("a rate must be above 0".into());
    }
    Ok(bps)
}

/// A duration in nanoseconds: digits (a decimal point allowed) then `s`, `ms`, `us` or
/// `ns`; bare digits are seconds, as nuttcp's `-i`.
pub fn parse_duration_ns(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (number, unit_ns) = if let Some(n) = t.strip_suffix("ns") {
        (n, 1)
    } else if let Some(n) = t.strip_suffix("us") {
        (n, 1_000)
    } else if let Some(n) = t.strip_suffix("ms") {
        (n, 1_000_000)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1_000_000_000)
    } else {
        (t, 1_000_000_000)
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("not a duration: {text} (use e.g. 80ms, 500us, 10s)"))?;
    if !(value >= 0.0 && value.is_finite()) {
        return Err(format!("not a duration: {text}"));
    }
    Ok((value * unit_ns as f64).round() as u64)
}

/// A probability in `[0, 1]`.
pub fn parse_probability(text: &str) -> Result<f64, String> {
    let p: f64 = text
        .parse()
        .map_err(|_| format!("not a probability: {text}"))?;
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(format!("a probability is between 0 and 1: {text}"))
    }
}

fn split_suffix(text: &str, k: u64, m: u64, g: u64) -> Result<(u64, u64), String> {
    let t = text.trim();
    let (digits, scale) = match t.chars().last().map(|c| c.to_ascii_lowercase()) {
        Some('k') => (&t[..t.len() - 1], k),
        Some('m') => (&t[..t.len() - 1], m),
        Some('g') => (&t[..t.len() - 1], g),
        _ => (t, 1),
    };
    let n = digits
        .parse::<u64>()
        .map_err(|_| format!("not a number with k/m/g: {text}"))?;
    Ok((n, scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_use_powers_of_two_and_rates_powers_of_ten() {
        assert_eq!(parse_bytes("5m"), Ok(5 << 20));
        assert_eq!(parse_bytes("8g"), Ok(8 << 30));
        assert_eq!(parse_bytes("16K"), Ok(16_384));
        assert_eq!(parse_bytes("9000"), Ok(9000));
        assert_eq!(parse_rate("10g"), Ok(10_000_000_000));
        assert_eq!(parse_rate("100m"), Ok(100_000_000));
        assert!(parse_rate("0").is_err());
        assert!(parse_bytes("lots").is_err());
    }

    #[test]
    fn durations_take_units_and_bare_numbers_are_seconds() {
        assert_eq!(parse_duration_ns("80ms"), Ok(80_000_000));
        assert_eq!(parse_duration_ns("500us"), Ok(500_000));
        assert_eq!(parse_duration_ns("10s"), Ok(10_000_000_000));
        assert_eq!(parse_duration_ns("0.5"), Ok(500_000_000));
        assert!(parse_duration_ns("-1s").is_err());
    }
}
