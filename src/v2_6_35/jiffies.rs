//! The 2.6.35 kernel's clock: `jiffies` at a configurable `HZ`, and the conversions of
//! `kernel/time.c` that CUBIC and the RTT sampling use.
//!
//! Everything here is for an `HZ` that divides 1000 (100, 250 or 1000, the only values
//! [`CubicConfig::validate`](super::CubicConfig::validate) accepts), on a 64-bit
//! host (`unsigned long` is 64 bits). `jiffies` is the low 32 bits of the tick count and
//! wraps every 2^32 ticks (49.7 days at HZ=1000), as `tcp_time_stamp` does.

use crate::time::Instant;

/// Microseconds in one second (`USEC_PER_SEC`).
const USEC_PER_SEC: u64 = 1_000_000;

/// Milliseconds in one second (`MSEC_PER_SEC`).
const MSEC_PER_SEC: u32 = 1000;

/// `MAX_JIFFY_OFFSET` on a 64-bit host: `(LONG_MAX >> 1) - 1` = 2^62 - 2.
// Linux 2.6.35 include/linux/jiffies.h MAX_JIFFY_OFFSET
pub const MAX_JIFFY_OFFSET: u64 = (i64::MAX as u64 >> 1) - 1;

/// The HZ values a 2.6.35 profile accepts: the kernel's usual `CONFIG_HZ` choices that
/// divide 1000 (so every conversion below is the kernel's exact integer branch).
pub const SUPPORTED_HZ: [u32; 3] = [100, 250, 1000];

/// Whether `hz` is one of [`SUPPORTED_HZ`].
pub const fn is_supported_hz(hz: u32) -> bool {
    hz == 100 || hz == 250 || hz == 1000
}

/// Microseconds per jiffy (`USEC_PER_SEC / HZ`); 1 for an unsupported `hz` so that no
/// caller can divide by zero (validation refuses such an `hz` first).
///
/// A match rather than `USEC_PER_SEC / hz`: the per-ACK conversions then divide by a
/// constant, which compiles to a multiplication (a 64-bit division by a variable costs
/// tens of cycles, twice per `jiffies_at`).
const fn usecs_per_jiffy(hz: u32) -> u32 {
    match hz {
        100 => (USEC_PER_SEC / 100) as u32,
        250 => (USEC_PER_SEC / 250) as u32,
        1000 => (USEC_PER_SEC / 1000) as u32,
        _ => 1,
    }
}

/// `tcp_time_stamp` (= `jiffies`) at `now`: `(u32)(T * HZ / 10^6)`, truncating.
///
/// Computed as `T / (10^6 / HZ)`, which is the same integer for an `HZ` dividing 10^6
/// and cannot overflow. The `u32` truncation is the kernel's wrap, on purpose.
// Linux 2.6.35 include/net/tcp.h tcp_time_stamp
pub const fn jiffies_at(now: Instant, hz: u32) -> u32 {
    let us = now.as_micros();
    // One arm per supported HZ, each a division by a constant (see usecs_per_jiffy).
    (match hz {
        100 => us / (USEC_PER_SEC / 100),
        250 => us / (USEC_PER_SEC / 250),
        1000 => us / (USEC_PER_SEC / 1000),
        _ => us,
    }) as u32
}

/// `jiffies_to_usecs(j)`: `(u32)((10^6 / HZ) * j)`; the product wraps in `u32` as the
/// kernel's `unsigned int` result does.
// Linux 2.6.35 kernel/time.c jiffies_to_usecs()
pub const fn jiffies_to_usecs(j: u32, hz: u32) -> u32 {
    usecs_per_jiffy(hz).wrapping_mul(j)
}

/// `usecs_to_jiffies(u)`: round up to whole jiffies; [`MAX_JIFFY_OFFSET`] above
/// `jiffies_to_usecs(MAX_JIFFY_OFFSET)` (itself truncated to `u32`, as the kernel
/// compares it). The sum is computed in 64 bits (the kernel's `long` constant).
// Linux 2.6.35 kernel/time.c usecs_to_jiffies()
pub const fn usecs_to_jiffies(us: u32, hz: u32) -> u64 {
    let per = usecs_per_jiffy(hz) as u64;
    let limit = per.wrapping_mul(MAX_JIFFY_OFFSET) as u32;
    if us > limit {
        return MAX_JIFFY_OFFSET;
    }
    let us = us as u64;
    // One arm per supported HZ, each rounding up by a constant (see usecs_per_jiffy):
    // this runs on every ACK's RTT sample.
    match hz {
        100 => us.div_ceil(USEC_PER_SEC / 100),
        250 => us.div_ceil(USEC_PER_SEC / 250),
        1000 => us.div_ceil(USEC_PER_SEC / 1000),
        _ => us,
    }
}

/// `msecs_to_jiffies(ms)`: round up to whole jiffies (2 ms is 2 at HZ=1000, 1 at 250
/// and 100).
// Linux 2.6.35 kernel/time.c msecs_to_jiffies()
pub const fn msecs_to_jiffies(ms: u32, hz: u32) -> u32 {
    // Constant divisors per supported HZ, as above (HyStart asks on every ACK); an
    // unsupported hz counts milliseconds (validation refuses it first).
    match hz {
        100 => ms.div_ceil(MSEC_PER_SEC / 100),
        250 => ms.div_ceil(MSEC_PER_SEC / 250),
        1000 => ms.div_ceil(MSEC_PER_SEC / 1000),
        _ => ms,
    }
}

#[cfg(test)]
mod tests;
