//! The sending application: bulk, rate-limited, or on/off.
//!
//! It decides how far the sender may go with new data at a given time: a bulk writer
//! always has data (the socket buffer and the window are the limits); a rate-limited
//! writer has written `rate · t` bytes by time `t`; an on/off writer has data during its
//! on periods and none during its off periods, so the flow goes idle and restarts, which
//! is what the controllers' restart-after-idle rules are for.

/// How the application writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppModel {
    /// Writes as fast as the socket takes it (nuttcp's default).
    Bulk,
    /// Writes at a steady rate, bit/s (nuttcp -R).
    RateLimited {
        /// The application's rate, bit/s (at least 1).
        bps: u64,
    },
    /// Alternates: `on_ns` with data to send, then `off_ns` with none, from time 0.
    OnOff {
        /// Length of an on period, ns (at least 1).
        on_ns: u64,
        /// Length of an off period, ns.
        off_ns: u64,
    },
}

impl AppModel {
    /// The sequence (in segments of `mss` bytes) up to which the application has given
    /// the socket data by `now_ns`, at most `total`.
    pub fn written_segs(&self, now_ns: u64, mss: u32, total: u32) -> u32 {
        match *self {
            AppModel::Bulk => total,
            AppModel::RateLimited { bps } => {
                // bytes = bps * t / 8e9, in u128 so a long run cannot overflow.
                let bytes = u128::from(bps) * u128::from(now_ns) / 8_000_000_000;
                let segs = bytes / u128::from(mss.max(1));
                u32::try_from(segs).unwrap_or(u32::MAX).min(total)
            }
            AppModel::OnOff { on_ns, off_ns } => {
                if self.is_on(now_ns, on_ns, off_ns) {
                    total
                } else {
                    0
                }
            }
        }
    }

    /// Whether the on/off application is in an on period at `now_ns`.
    fn is_on(&self, now_ns: u64, on_ns: u64, off_ns: u64) -> bool {
        let period = on_ns.saturating_add(off_ns).max(1);
        now_ns % period < on_ns
    }

    /// When the application next gives the socket data beyond segment `have`, if it is
    /// the application (not the window) that holds the sender back now.
    pub fn next_write_ns(&self, now_ns: u64, have: u32, mss: u32) -> Option<u64> {
        match *self {
            AppModel::Bulk => None,
            AppModel::RateLimited { bps } => {
                // The first time (have + 1) segments have been written: ceil.
                let bytes = u128::from(have) * u128::from(mss.max(1)) + u128::from(mss.max(1));
                let ns = (bytes * 8_000_000_000).div_ceil(u128::from(bps.max(1)));
                Some(u64::try_from(ns).unwrap_or(u64::MAX).max(now_ns + 1))
            }
            AppModel::OnOff { on_ns, off_ns } => {
                let period = on_ns.saturating_add(off_ns).max(1);
                Some((now_ns / period + 1).saturating_mul(period))
            }
        }
    }

    /// Whether the settings make sense.
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            AppModel::RateLimited { bps: 0 } => Err("--app-rate must be above 0".into()),
            AppModel::OnOff { on_ns: 0, .. } => {
                Err("--on-off: the on period must be above 0".into())
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_limited_writer_has_written_rate_times_time() {
        let app = AppModel::RateLimited { bps: 8_000_000 }; // 1 MB/s
        // After 1 s: 1,000,000 bytes = 1000 segments of 1000 bytes.
        assert_eq!(app.written_segs(1_000_000_000, 1000, u32::MAX), 1000);
        // The 1001st segment is complete at 1.001 s.
        assert_eq!(
            app.next_write_ns(1_000_000_000, 1000, 1000),
            Some(1_001_000_000)
        );
        assert_eq!(app.written_segs(1_000_000_000, 1000, 10), 10);
    }

    #[test]
    fn an_on_off_writer_has_data_only_while_on() {
        let app = AppModel::OnOff {
            on_ns: 100,
            off_ns: 300,
        };
        assert_eq!(app.written_segs(50, 1000, 7), 7);
        assert_eq!(app.written_segs(150, 1000, 7), 0);
        assert_eq!(app.written_segs(450, 1000, 7), 7);
        assert_eq!(app.next_write_ns(150, 3, 1000), Some(400));
    }
}
