//! Exact decimal numbers: `digits[.digits]` times an integer scale, rounded to the
//! nearest integer. Integer arithmetic throughout, so `2.5g` is exactly 2,500,000,000
//! and `0.1s` exactly 100,000,000 ns (a binary float would miss both by rounding).

use crate::UnitError;

/// Significant digits accepted; with scales up to 10^18 (the largest used) the product
/// stays inside `u128` (10^20 · 10^18 < 2^127).
const MAX_DIGITS: usize = 20;

/// Splits `text` into its leading number and the rest (the unit).
pub fn split_number(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    text.split_at(end)
}

/// `number · scale`, rounded half up, if it fits in a `u64`.
pub fn scaled(number: &str, scale: u64, original: &str) -> Result<u64, UnitError> {
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let well_formed = !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && !(number.contains('.') && fraction.is_empty());
    if !well_formed {
        return Err(UnitError(format!(
            "`{original}` does not start with a number (digits, optionally a decimal point and more digits)"
        )));
    }
    let whole = whole.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    if whole.len() + fraction.len() > MAX_DIGITS {
        return Err(UnitError(format!(
            "`{original}` has more than {MAX_DIGITS} significant digits"
        )));
    }
    // mantissa / 10^fraction.len() is the number; every step is checked.
    let mut mantissa: u128 = 0;
    for b in whole.bytes().chain(fraction.bytes()) {
        mantissa = mantissa * 10 + u128::from(b - b'0');
    }
    let divisor = 10u128.pow(fraction.len() as u32);
    let product = mantissa * u128::from(scale);
    let rounded = (product + divisor / 2) / divisor;
    u64::try_from(rounded).map_err(|_| UnitError(format!("`{original}` is too large")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_scale_exactly_and_round_half_up() {
        assert_eq!(scaled("2.5", 1_000_000_000, ""), Ok(2_500_000_000));
        assert_eq!(scaled("0.1", 1024, ""), Ok(102)); // 102.4
        assert_eq!(scaled("0.5", 3, ""), Ok(2)); // 1.5 rounds up
        assert_eq!(scaled("007.250", 4, ""), Ok(29));
        assert_eq!(scaled("18446744073709551615", 1, ""), Ok(u64::MAX));
        assert!(scaled("18446744073709551616", 1, "").is_err());
        assert!(scaled("1.", 1, "").is_err());
        assert!(scaled(".5", 1, "").is_err());
        assert!(scaled("1.2.3", 1, "").is_err());
        assert!(scaled("", 1, "").is_err());
    }

    #[test]
    fn the_number_ends_where_the_unit_starts() {
        assert_eq!(split_number("2.5gbit/s"), ("2.5", "gbit/s"));
        assert_eq!(split_number("80ms"), ("80", "ms"));
        assert_eq!(split_number("-5ms"), ("", "-5ms"));
        assert_eq!(split_number("9000"), ("9000", ""));
    }
}
