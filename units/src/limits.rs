//! The ranges both tools accept, checked where the value is read so that the error
//! names the flag (the tools add it) and the range.

use core::time::Duration;

use crate::{UnitError, duration, size_bytes};

/// Smallest IP MTU: RFC 791 requires every IPv4 host to pass 68-byte datagrams.
pub const MTU_MIN: u32 = 68;
/// Largest IP MTU: the 16-bit IPv4 total length (RFC 791 §3.1).
pub const MTU_MAX: u32 = 65_535;
/// Longest round-trip time accepted: an hour, beyond any path the tools model (and
/// the long-horizon tests drive the library with RTTs up to an hour).
pub const RTT_MAX: Duration = Duration::from_secs(3600);

/// An IP MTU in bytes, within [`MTU_MIN`]..=[`MTU_MAX`].
pub fn mtu(text: &str) -> Result<u32, UnitError> {
    let bytes = size_bytes(text)?;
    match u32::try_from(bytes) {
        Ok(m) if (MTU_MIN..=MTU_MAX).contains(&m) => Ok(m),
        _ => Err(UnitError(format!(
            "`{text}` is {bytes} bytes; an MTU is {MTU_MIN} to {MTU_MAX} bytes"
        ))),
    }
}

/// A round-trip time above 0 and at most [`RTT_MAX`].
pub fn rtt(text: &str) -> Result<Duration, UnitError> {
    let d = duration(text)?;
    if d.is_zero() || d > RTT_MAX {
        return Err(UnitError(format!(
            "`{text}`: an RTT is above 0 and at most 1 h (3600s)"
        )));
    }
    Ok(d)
}

/// A duration above 0 (a sampling period, a report interval, a run's length).
pub fn positive_duration(text: &str) -> Result<Duration, UnitError> {
    let d = duration(text)?;
    if d.is_zero() {
        return Err(UnitError(format!("`{text}`: must be above 0")));
    }
    Ok(d)
}

/// A size above 0 bytes.
pub fn positive_size(text: &str) -> Result<u64, UnitError> {
    let b = size_bytes(text)?;
    if b == 0 {
        return Err(UnitError(format!("`{text}`: must be above 0 bytes")));
    }
    Ok(b)
}

/// A socket buffer must hold at least two segments, or a sender with one segment in
/// flight could never send the next before the first is acknowledged and delayed ACKs
/// (which wait for a second segment) would stall the flow.
pub fn check_socket_buffer(bytes: u64, mss: u64) -> Result<(), UnitError> {
    let least = mss.saturating_mul(2);
    if bytes < least {
        return Err(UnitError(format!(
            "{bytes} bytes is below 2·MSS = {least} bytes (MSS {mss}); the socket buffer must hold two segments"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mtu_bounds_are_inclusive() {
        assert_eq!(mtu("68"), Ok(68));
        assert_eq!(mtu("65535"), Ok(65_535));
        assert_eq!(mtu("9000"), Ok(9000));
        assert!(mtu("67").unwrap_err().0.contains("68 to 65535"));
        assert!(mtu("65536").is_err());
        assert!(mtu("100000").is_err());
        assert!(mtu("64k").is_err()); // 65,536
    }

    #[test]
    fn rtt_is_above_zero_and_at_most_an_hour() {
        assert_eq!(rtt("80ms"), Ok(Duration::from_millis(80)));
        assert_eq!(rtt("3600s"), Ok(RTT_MAX));
        assert_eq!(rtt("1h"), Ok(RTT_MAX));
        assert!(rtt("1.01h").unwrap_err().0.contains("at most 1 h"));
        assert!(rtt("0ms").is_err());
        assert!(rtt("3600.000001s").is_err());
        assert!(rtt("5").unwrap_err().0.contains("no unit"));
    }

    #[test]
    fn socket_buffer_needs_two_segments() {
        assert!(check_socket_buffer(2 * 1448, 1448).is_ok());
        let e = check_socket_buffer(2 * 1448 - 1, 1448).unwrap_err();
        assert!(e.0.contains("2896"), "{e}");
        assert!(check_socket_buffer(0, 1448).is_err());
    }
}
