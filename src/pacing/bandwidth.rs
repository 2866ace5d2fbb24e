//! [`Rate`]: a sending rate whose representation stays private.
//!
//! Kept internally in bits per second (`u64`), so that rates from 1 bit/s to far beyond
//! 1 Tbit/s are exact; Linux's byte rates (`sk_pacing_rate`) convert without loss up to
//! 2^61 bytes/s. Two values mean "do not pace": [`Rate::ZERO`] (no rate known yet) and
//! [`Rate::UNLIMITED`] (the kernel's `~0UL`).

/// Bytes on the wire per nanosecond count: `8 · 10^9` bits·ns per byte·s.
const BIT_NANOS_PER_BYTE_SECOND: u64 = 8_000_000_000;

/// The longest single transmission [`Rate::transmit_time_ns`] times exactly: 2^31 bytes.
/// `2^31 · 8·10^9 = 1.72·10^19 < 2^64`, so the product never overflows.
pub const MAX_TIMED_LEN_BYTES: u64 = 1 << 31;

/// A sending rate. Ordered, `Copy`, 8 bytes.
///
/// Printed in bytes per second, the unit of [`as_bytes_per_second`](Rate::as_bytes_per_second)
/// (`Display`: `630000 B/s`; `Debug`: `Rate(630000 B/s)`), with the fraction of a byte
/// when the rate was given in bits that do not make whole bytes (`1.125 B/s`), and
/// `unlimited` for [`Rate::UNLIMITED`].
///
/// ```
/// use congestion::pacing::Rate;
/// assert_eq!(Rate::from_bytes_per_second(630_000).to_string(), "630000 B/s");
/// assert_eq!(format!("{:?}", Rate::from_bits_per_second(9)), "Rate(1.125 B/s)");
/// assert_eq!(Rate::UNLIMITED.to_string(), "unlimited");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rate {
    bits_per_second: u64,
}

impl Rate {
    /// No rate: nothing is known yet, so nothing is paced.
    pub const ZERO: Rate = Rate { bits_per_second: 0 };

    /// No limit (Linux's `~0UL` pacing rate): nothing is paced.
    pub const UNLIMITED: Rate = Rate {
        bits_per_second: u64::MAX,
    };

    /// A rate of `bps` bits per second.
    pub const fn from_bits_per_second(bps: u64) -> Self {
        Rate {
            bits_per_second: bps,
        }
    }

    /// A rate of `bytes` bytes per second; at or above 2^61 bytes/s (2.3 EB/s) it
    /// saturates to [`Rate::UNLIMITED`], which is what the kernel's `~0UL` means too.
    pub const fn from_bytes_per_second(bytes: u64) -> Self {
        Rate {
            bits_per_second: bytes.saturating_mul(8),
        }
    }

    /// Bits per second.
    pub const fn as_bits_per_second(self) -> u64 {
        self.bits_per_second
    }

    /// Whole bytes per second (rounded down); `u64::MAX` for [`Rate::UNLIMITED`], like
    /// the kernel's `~0UL`.
    pub const fn as_bytes_per_second(self) -> u64 {
        if self.bits_per_second == u64::MAX {
            u64::MAX
        } else {
            self.bits_per_second / 8
        }
    }

    /// Whether packets sent at this rate are spaced at all (neither zero nor unlimited).
    pub const fn is_pacing(self) -> bool {
        self.bits_per_second != 0 && self.bits_per_second != u64::MAX
    }

    /// The smaller of two rates.
    pub const fn min(self, other: Rate) -> Rate {
        if self.bits_per_second < other.bits_per_second {
            self
        } else {
            other
        }
    }

    /// Nanoseconds `len_bytes` take at this rate, rounded down; `None` when the rate
    /// does not pace ([`is_pacing`](Rate::is_pacing) is false).
    ///
    /// Lengths above [`MAX_TIMED_LEN_BYTES`] count as that (no packet or TSO burst comes
    /// close). For a rate made from bytes this equals the kernel's
    /// `len · NSEC_PER_SEC / rate_bytes` exactly (both sides scaled by 8).
    // Linux net/ipv4/tcp_output.c tcp_update_skb_after_send(): len_ns = len * NSEC_PER_SEC / rate
    pub const fn transmit_time_ns(self, len_bytes: u64) -> Option<u64> {
        if !self.is_pacing() {
            return None;
        }
        let len = if len_bytes < MAX_TIMED_LEN_BYTES {
            len_bytes
        } else {
            MAX_TIMED_LEN_BYTES
        };
        // len <= 2^31, so len * 8e9 <= 1.72e19 < u64::MAX: no overflow.
        Some(len * BIT_NANOS_PER_BYTE_SECOND / self.bits_per_second)
    }
}

impl core::fmt::Display for Rate {
    /// Bytes per second, as [`Rate::as_bytes_per_second`] returns them, with the
    /// eighths of a byte a bit rate may leave (three decimals, exact); `unlimited` for
    /// [`Rate::UNLIMITED`].
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if *self == Rate::UNLIMITED {
            return f.write_str("unlimited");
        }
        let bytes = self.bits_per_second / 8;
        // One bit is 0.125 bytes: the remainder in thousandths of a byte is exact.
        match self.bits_per_second % 8 {
            0 => write!(f, "{bytes} B/s"),
            bits => write!(f, "{bytes}.{:03} B/s", bits * 125),
        }
    }
}

impl core::fmt::Debug for Rate {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Rate({self})")
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for Rate {
    /// Bytes per second, as `Display` prints them (the fraction of a byte dropped).
    fn format(&self, f: defmt::Formatter<'_>) {
        if *self == Rate::UNLIMITED {
            defmt::write!(f, "Rate(unlimited)")
        } else {
            defmt::write!(f, "Rate({=u64} B/s)", self.bits_per_second / 8)
        }
    }
}

#[cfg(test)]
mod tests;
