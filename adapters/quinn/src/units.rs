//! Bytes (quinn) to the flow's unit and back. quinn counts bytes; a Linux-mode flow
//! counts segments of one MTU each.

use congestion::WindowUnit;

/// Converts amounts between quinn's bytes and a flow's [`WindowUnit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Units {
    unit: WindowUnit,
    mtu_bytes: u64,
    /// Acked bytes not yet worth a whole segment, carried to the next ACK frame so
    /// that many small acknowledgements still add up to whole segments.
    acked_remainder_bytes: u64,
}

impl Units {
    /// Conversions for `unit` at `mtu_bytes` (0 is taken as 1).
    pub fn new(unit: WindowUnit, mtu_bytes: u16) -> Self {
        Units {
            unit,
            mtu_bytes: u64::from(mtu_bytes).max(1),
            acked_remainder_bytes: 0,
        }
    }

    /// The MTU used for segment conversions, bytes.
    pub fn mtu_bytes(&self) -> u64 {
        self.mtu_bytes
    }

    /// A new MTU (0 is taken as 1).
    pub fn set_mtu(&mut self, mtu_bytes: u16) {
        self.mtu_bytes = u64::from(mtu_bytes).max(1);
    }

    /// A window or threshold read from the flow, in bytes (saturating).
    pub fn to_bytes(&self, amount: u64) -> u64 {
        match self.unit {
            WindowUnit::Bytes => amount,
            WindowUnit::Segments => amount.saturating_mul(self.mtu_bytes),
        }
    }

    /// Bytes in flight as the flow counts them, given the window `cwnd` in the flow's
    /// unit. In segments, partial segments round up (a short packet still takes a slot
    /// of the kernel's `packets_out`), and a window with no room for one more full
    /// packet counts as full: quinn stops sending when `in_flight + MTU >= window`, so
    /// its flight never reaches the window, while Linux calls a flow cwnd-limited only
    /// when `packets_out >= cwnd`.
    pub fn in_flight(&self, bytes: u64, cwnd: u64) -> u64 {
        match self.unit {
            WindowUnit::Bytes => bytes,
            WindowUnit::Segments => {
                let segments = bytes.div_ceil(self.mtu_bytes);
                if bytes.saturating_add(self.mtu_bytes) >= self.to_bytes(cwnd) {
                    segments.max(cwnd)
                } else {
                    segments
                }
            }
        }
    }

    /// Newly acknowledged bytes as the flow counts them; in segments, whole segments
    /// only, the rest carried to the next call.
    pub fn acked(&mut self, bytes: u64) -> u64 {
        match self.unit {
            WindowUnit::Bytes => bytes,
            WindowUnit::Segments => {
                let total = self.acked_remainder_bytes.saturating_add(bytes);
                self.acked_remainder_bytes = total % self.mtu_bytes;
                total / self.mtu_bytes
            }
        }
    }

    /// Whether `amount` (a threshold in the flow's unit) means "none yet".
    pub fn is_infinite(&self, amount: u64) -> bool {
        match self.unit {
            WindowUnit::Bytes => amount == u64::MAX,
            // Linux TCP_INFINITE_SSTHRESH, u32::MAX >> 1 segments.
            WindowUnit::Segments => amount >= u64::from(u32::MAX >> 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_round_flight_up_and_carry_acked_remainders() {
        let mut u = Units::new(WindowUnit::Segments, 1200);
        // 2401 bytes = 2 full segments + 1 byte: 3 slots in flight (window of 10).
        assert_eq!(u.in_flight(2401, 10), 3);
        // 10,800 bytes + one 1200-byte packet reach the 12,000-byte window of 10
        // segments: quinn is blocked, so the flow must see its window full.
        assert_eq!(u.in_flight(10_800, 10), 10);
        assert_eq!(u.in_flight(10_799, 10), 9);
        // 1800 acked = 1 segment, 600 carried; +600 = 1 more segment, nothing carried.
        assert_eq!(u.acked(1800), 1);
        assert_eq!(u.acked(600), 1);
        assert_eq!(u.acked(1199), 0);
        assert_eq!(u.to_bytes(10), 12_000);
        assert!(u.is_infinite(u64::from(u32::MAX >> 1)));
    }

    #[test]
    fn bytes_pass_through() {
        let mut u = Units::new(WindowUnit::Bytes, 1200);
        assert_eq!(
            (u.in_flight(2401, 1), u.acked(1800), u.to_bytes(7)),
            (2401, 1800, 7)
        );
        assert!(u.is_infinite(u64::MAX) && !u.is_infinite(u64::MAX - 1));
    }
}
