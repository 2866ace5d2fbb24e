//! Time as the library sees it: a caller-supplied monotonic clock in microseconds.
//!
//! The library never reads a clock. Every event carries `now`, an [`Instant`] the caller
//! made from whatever monotonic source it has (a kernel's `tcp_mstamp`, a firmware tick
//! counter, a simulator's virtual time), or through a [`Clock`] the caller implements.
//!
//! Instants are microseconds in a `u64`, which lasts 584,000 years, so they never wrap in
//! practice. Linux mode derives its 32-bit jiffies and 32-bit microsecond clocks from the
//! same value and lets *those* wrap, exactly as the kernel does.

/// A point in time, in microseconds since an origin the caller chose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Instant(u64);

/// A span of time, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Duration(u64);

/// The source of `now` for callers that prefer to hand the library a clock.
///
/// The library itself never calls it on its own; helpers that take a `&impl Clock` read
/// it exactly once per event.
pub trait Clock {
    /// The current monotonic time.
    fn now(&self) -> Instant;
}

/// Kernel jiffies per second in Linux mode (`HZ`): the reference traces use 1000.
pub const LINUX_HZ: u64 = 1000;

/// `(us / LINUX_HZ) as u32` from 32-bit divisions only (no 64-bit division routine on
/// 32-bit cores): with `us = hi·2^32 + lo` and `hi = q·HZ + r`, only `(r·2^32 + lo) / HZ`
/// reaches the low 32 bits, found 16 bits at a time.
#[cfg_attr(all(target_pointer_width = "64", not(test)), allow(dead_code))]
#[inline(never)]
const fn jiffies32_by_halves(us: u64) -> u32 {
    const HZ: u32 = LINUX_HZ as u32;
    // Each partial dividend is below HZ·2^16, so it fits 32 bits and each digit 16.
    const _: () = assert!(LINUX_HZ <= 1 << 16);
    let r = ((us >> 32) as u32) % HZ;
    let lo = us as u32;
    let upper = (r << 16) | (lo >> 16);
    let lower = ((upper % HZ) << 16) | (lo & 0xffff);
    ((upper / HZ) << 16) | (lower / HZ)
}

impl Instant {
    /// The origin, time zero.
    pub const ZERO: Instant = Instant(0);

    /// An instant `us` microseconds after the origin.
    pub const fn from_micros(us: u64) -> Self {
        Instant(us)
    }

    /// Microseconds since the origin.
    pub const fn as_micros(self) -> u64 {
        self.0
    }

    /// Nanoseconds since the origin, saturating at `u64::MAX` (after 584 years).
    pub const fn as_nanos(self) -> u64 {
        self.0.saturating_mul(1000)
    }

    /// Linux `tcp_jiffies32` with `HZ = 1000`: milliseconds truncated to 32 bits.
    ///
    /// The truncation is the kernel's wrap-around, on purpose.
    pub const fn jiffies32(self) -> u32 {
        // Linux tcp_jiffies32: (u32)jiffies; wraps every 49.7 days at HZ=1000.
        #[cfg(target_pointer_width = "64")]
        let jiffies = (self.0 / LINUX_HZ) as u32;
        #[cfg(not(target_pointer_width = "64"))]
        let jiffies = jiffies32_by_halves(self.0);
        jiffies
    }

    /// Linux `bictcp_clock_us`: `tcp_mstamp` truncated to 32 bits (wraps every 71.6 min).
    pub const fn micros32(self) -> u32 {
        self.0 as u32
    }

    /// Time since `earlier`, or zero if `earlier` is later (time never runs backwards here).
    pub const fn saturating_duration_since(self, earlier: Instant) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }

    /// This instant plus `d`, saturating at the end of time.
    pub const fn saturating_add(self, d: Duration) -> Instant {
        Instant(self.0.saturating_add(d.0))
    }
}

impl Duration {
    /// No time at all.
    pub const ZERO: Duration = Duration(0);

    /// A duration of `us` microseconds.
    pub const fn from_micros(us: u64) -> Self {
        Duration(us)
    }

    /// A duration of `ms` milliseconds, saturating.
    pub const fn from_millis(ms: u64) -> Self {
        Duration(ms.saturating_mul(1000))
    }

    /// A duration of `s` seconds, saturating.
    pub const fn from_secs(s: u64) -> Self {
        Duration(s.saturating_mul(1_000_000))
    }

    /// Whole microseconds.
    pub const fn as_micros(self) -> u64 {
        self.0
    }
}

/// From the standard library's duration, in whole microseconds: the nanoseconds below a
/// microsecond are dropped (floor), and a duration beyond `u64::MAX` µs (584,000 years)
/// saturates at `u64::MAX` µs.
impl From<core::time::Duration> for Duration {
    fn from(d: core::time::Duration) -> Self {
        // 1 s = 10^6 µs; the sub-second part is below 10^6 µs.
        let micros = d
            .as_secs()
            .saturating_mul(1_000_000)
            .saturating_add(u64::from(d.subsec_micros()));
        Duration(micros)
    }
}

#[cfg(test)]
mod tests;
