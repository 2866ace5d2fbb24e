//! CUBIC window growth exactly as Linux `net/ipv4/tcp_cubic.c` v2.3 computes it.
//!
//! Counts whole segments. Time is the kernel's: 32-bit jiffies at `HZ = 1000` for the
//! epoch and the 1/32 s update skip, CUBIC time in 2^-10 s (`BICTCP_HZ`), and the
//! minimum delay in µs. Every product the kernel computes in `u32` or `u64` is computed
//! here in the same width with explicit wrapping operations, so the results match the
//! kernel bit for bit, including where the kernel itself wraps (`100 * cwnd` above
//! 42 million segments, `410 * offs^3` once `t - K` exceeds 347 s). The kernel states
//! its envelope as "cwnd < 1 million packets, RTT < 100 seconds"; outside it this code
//! gives the kernel's answers, wrapped, and never panics.
//!
//! The HyStart half of `struct bictcp` lives in [`crate::hystart::LinuxHystart`].

use super::linux_config::LinuxCubicParams;
use super::linux_update;
use crate::time::LINUX_HZ;

/// Kernel jiffies in one second at `HZ = 1000`.
pub(super) const HZ: u32 = LINUX_HZ as u32;

/// The CUBIC half of the kernel's `struct bictcp`: 40 bytes, all `u32`.
///
/// `#[repr(C)]` so the layout is fixed (it is part of [`crate::linux::LinuxCubicState`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct LinuxCubic {
    /// ACKs needed for cwnd to grow by one segment (`cnt`).
    pub cnt: u32,
    /// Wmax: cwnd before the last reduction, after fast convergence (`last_max_cwnd`).
    pub last_max_cwnd: u32,
    /// cwnd when `cnt` was last computed (`last_cwnd`).
    pub last_cwnd: u32,
    /// jiffies when `cnt` was last computed (`last_time`).
    pub last_time: u32,
    /// The window the cubic curve plateaus at (`bic_origin_point`), segments.
    pub origin_point: u32,
    /// K, time from epoch start to the plateau, in 2^-10 s (`bic_K`).
    pub bic_k: u32,
    /// Minimum RTT seen, µs; 0 = none yet (`delay_min`).
    pub delay_min: u32,
    /// jiffies when the current epoch began; 0 = no epoch (`epoch_start`).
    pub epoch_start: u32,
    /// Segments acknowledged since the Reno estimate last grew (`ack_cnt`).
    pub ack_cnt: u32,
    /// Reno-friendly window estimate (`tcp_cwnd`), segments.
    pub tcp_cwnd: u32,
}

/// Linux `usecs_to_jiffies()` at `HZ = 1000` on a 64-bit host: round up, and
/// `MAX_JIFFY_OFFSET` for inputs the kernel deems too large.
// Linux include/linux/jiffies.h __usecs_to_jiffies()
pub(super) const fn usecs_to_jiffies(us: u32) -> u64 {
    const MAX_JIFFY_OFFSET: u64 = (i64::MAX as u64 >> 1) - 1;
    // jiffies_to_usecs(MAX_JIFFY_OFFSET) truncated to u32, as the kernel compares it.
    const LIMIT_US: u32 = (MAX_JIFFY_OFFSET.wrapping_mul(1000)) as u32;
    if us > LIMIT_US {
        MAX_JIFFY_OFFSET
    } else {
        (us as u64).div_ceil(1000)
    }
}

/// Linux `after(a, b)` on 32-bit sequence or jiffies values: the glue's one copy.
pub(crate) use crate::linux::tcp::after;

/// `bictcp_update`'s early return: cwnd unchanged and less than 1/32 s since the last
/// recompute (only `ack_cnt` moves).
// Linux net/ipv4/tcp_cubic.c bictcp_update(): last_cwnd == cwnd && now - last_time <= HZ/32
#[inline(always)]
pub(crate) const fn recompute_skipped(last_cwnd: u32, last_time: u32, cwnd: u32, now: u32) -> bool {
    last_cwnd == cwnd && (now.wrapping_sub(last_time) as i32) <= (HZ / 32) as i32
}

/// `cubictcp_acked`'s rule: no delay samples within 1 s of an epoch's start.
// Linux net/ipv4/tcp_cubic.c cubictcp_acked(): epoch_start && now - epoch_start < HZ
#[inline(always)]
pub(crate) const fn sample_blackout(epoch_start: u32, now: u32) -> bool {
    epoch_start != 0 && (now.wrapping_sub(epoch_start) as i32) < HZ as i32
}

// Linux net/ipv4/tcp_cubic.c cubictcp_acked(): delay_min == 0 || delay_min > delay
#[inline(always)]
pub(crate) const fn lowers_delay_min(delay_min: u32, delay_us: u32) -> bool {
    // One comparison for both: 0 - 1 wraps to u32::MAX, at or above any sample.
    delay_min.wrapping_sub(1) >= delay_us
}

/// `CA_EVENT_TX_START`: the epoch moves on by the idle time since the last send, never
/// past now.
// Linux net/ipv4/tcp_cubic.c cubictcp_cwnd_event(): epoch_start += now - lsndtime
pub(crate) const fn epoch_after_idle(epoch_start: u32, now: u32, last_send: u32) -> u32 {
    let idle = now.wrapping_sub(last_send) as i32;
    if epoch_start != 0 && idle > 0 {
        let shifted = epoch_start.wrapping_add(idle as u32);
        if after(shifted, now) { now } else { shifted }
    } else {
        epoch_start
    }
}

impl LinuxCubic {
    /// `bictcp_reset`: forget everything (the HyStart half is reset separately).
    // Linux net/ipv4/tcp_cubic.c bictcp_reset()
    pub fn reset(&mut self) {
        *self = LinuxCubic::default();
    }

    /// `bictcp_update`: recompute `cnt` for the current cwnd at jiffies `now`.
    ///
    /// Inlined: most ACKs stop at the 1/32 s test; the recompute is out of line.
    // Linux net/ipv4/tcp_cubic.c bictcp_update()
    #[inline]
    pub fn update(&mut self, p: &LinuxCubicParams, cwnd: u32, acked: u32, now: u32) {
        self.ack_cnt = self.ack_cnt.wrapping_add(acked);

        if recompute_skipped(self.last_cwnd, self.last_time, cwnd, now) {
            return;
        }
        self.recompute(p, cwnd, acked, now);
    }

    /// The rest of `bictcp_update`, when cwnd moved or 1/32 s passed.
    ///
    /// Out of line on CPUs; inline for BPF, whose verifier refuses a subprogram without
    /// BTF function info (which Rust's bitcode lacks).
    #[cfg_attr(not(target_arch = "bpf"), inline(never))]
    #[cfg_attr(target_arch = "bpf", inline(always))]
    pub(crate) fn recompute(&mut self, p: &LinuxCubicParams, cwnd: u32, acked: u32, now: u32) {
        linux_update::recompute(self, p, cwnd, acked, now);
    }

    /// `cubictcp_recalc_ssthresh`: end the epoch, record Wmax (with fast convergence),
    /// and return the new ssthresh.
    // Linux net/ipv4/tcp_cubic.c cubictcp_recalc_ssthresh()
    pub fn recalc_ssthresh(&mut self, p: &LinuxCubicParams, cwnd: u32) -> u32 {
        linux_update::recalc_ssthresh(self, p, cwnd)
    }

    /// `CA_EVENT_TX_START`: shift the epoch by the idle time so idle is not growth time.
    ///
    /// `last_send` is the jiffies of the last transmission before the idle period.
    // Linux net/ipv4/tcp_cubic.c cubictcp_cwnd_event()
    pub fn on_transmit_start(&mut self, now: u32, last_send: u32) {
        self.epoch_start = epoch_after_idle(self.epoch_start, now, last_send);
    }

    /// Whether RTT samples should be ignored: within one second of an epoch's start
    /// (right after a reduction the queue is still draining).
    // Linux net/ipv4/tcp_cubic.c cubictcp_acked()
    #[inline(always)]
    pub const fn in_sample_blackout(&self, now: u32) -> bool {
        sample_blackout(self.epoch_start, now)
    }

    /// Feed one RTT sample (µs, already clamped to at least 1) into `delay_min`.
    // Linux net/ipv4/tcp_cubic.c cubictcp_acked()
    #[inline(always)]
    pub fn on_delay_sample(&mut self, delay_us: u32) {
        // Stored only when it moves: most samples leave it, and a store costs.
        if lowers_delay_min(self.delay_min, delay_us) {
            self.delay_min = delay_us;
        }
    }
}

#[cfg(test)]
mod tests;
