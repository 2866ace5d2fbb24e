//! TSO/GSO autosizing: how many segments one burst handed to the NIC may carry, as
//! Linux's `tcp_tso_autosize` and `tcp_tso_segs`.
//!
//! A burst holds about 1 ms of the pacing rate, plus an allowance that is large on short
//! paths (where big bursts cost little) and halves for every 512 µs of minimum RTT, so a
//! slow flow is not sent as one 64 KB burst every 100 ms (the TSO seed's overrun shallow
//! buffers), while a data-centre flow still gets full-size bursts.

use crate::pacing::bandwidth::Rate;

/// Default `sk_gso_max_size`: 64 KiB (`GSO_LEGACY_MAX_SIZE`).
// Linux include/linux/netdevice.h GSO_LEGACY_MAX_SIZE = 65536
pub const GSO_MAX_SIZE: u32 = 65_536;

/// Default `sk_gso_max_segs` (`GSO_MAX_SEGS`).
// Linux include/linux/netdevice.h GSO_MAX_SEGS = 65535
pub const GSO_MAX_SEGS: u32 = 65_535;

/// Default `tcp_min_tso_segs`.
// Linux net/ipv4/tcp_ipv4.c sysctl_tcp_min_tso_segs = 2
pub const MIN_TSO_SEGS: u32 = 2;

/// Default `tcp_tso_rtt_log`: the RTT allowance halves every 2^9 µs of minimum RTT.
// Linux net/ipv4/tcp_ipv4.c sysctl_tcp_tso_rtt_log = 9
pub const TSO_RTT_LOG: u8 = 9;

/// What goes into one autosizing decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TsoInput {
    /// The flow's pacing rate.
    pub pacing_rate: Rate,
    /// `sk_pacing_shift` (10); shifts of 64 or more give 0.
    pub pacing_shift: u8,
    /// The flow's windowed minimum RTT, µs (`u32::MAX`: none yet).
    pub min_rtt_us: u32,
    /// `tcp_tso_rtt_log` (9).
    pub tso_rtt_log: u8,
    /// `sk_gso_max_size`, bytes.
    pub gso_max_size: u32,
    /// `sk_gso_max_segs`.
    pub gso_max_segs: u32,
    /// `tcp_min_tso_segs` (2), or the controller's own minimum.
    pub min_tso_segs: u32,
    /// The current MSS, bytes; 0 counts as 1.
    pub mss: u32,
}

/// Bytes one burst may carry: `rate >> pacing_shift`, plus
/// `gso_max_size >> (min_rtt_us >> tso_rtt_log)`, at most `gso_max_size`.
pub const fn tso_autosize_bytes(i: &TsoInput) -> u32 {
    // Linux net/ipv4/tcp_output.c tcp_tso_autosize(): bytes = pacing_rate >> pacing_shift
    let mut bytes = if i.pacing_shift < 64 {
        i.pacing_rate.as_bytes_per_second() >> i.pacing_shift
    } else {
        0
    };
    let r = if i.tso_rtt_log < 32 {
        i.min_rtt_us >> i.tso_rtt_log
    } else {
        0
    };
    // Linux tcp_tso_autosize(): if (r < 32) bytes += gso_max_size >> r
    if r < 32 {
        bytes = bytes.saturating_add((i.gso_max_size >> r) as u64);
    }
    // Linux tcp_tso_autosize(): bytes = min(bytes, gso_max_size)
    if bytes > i.gso_max_size as u64 {
        bytes = i.gso_max_size as u64;
    }
    bytes as u32
}

/// Segments one burst may carry: `max(autosize_bytes / mss, min_tso_segs)`, at most
/// `gso_max_segs`. Never more than `gso_max_segs`; at least
/// `min(min_tso_segs, gso_max_segs)`.
pub const fn tso_segs(i: &TsoInput) -> u32 {
    let mss = if i.mss == 0 { 1 } else { i.mss };
    let by_size = tso_autosize_bytes(i) / mss;
    // Linux tcp_tso_autosize(): max(bytes / mss_now, min_tso_segs)
    let segs = if by_size > i.min_tso_segs {
        by_size
    } else {
        i.min_tso_segs
    };
    // Linux net/ipv4/tcp_output.c tcp_tso_segs(): min(tso_segs, sk_gso_max_segs)
    if segs < i.gso_max_segs {
        segs
    } else {
        i.gso_max_segs
    }
}

/// The send quantum a bare controller reports
/// ([`send_quantum_bytes`](crate::CongestionController::send_quantum_bytes)):
/// [`tso_segs`] with Linux's defaults ([`PACING_SHIFT`](crate::pacing::PACING_SHIFT),
/// [`TSO_RTT_LOG`], [`GSO_MAX_SIZE`], [`GSO_MAX_SEGS`], [`MIN_TSO_SEGS`]) on the
/// controller's pacing rate and minimum RTT (µs, `u32::MAX` before any sample), times
/// the MSS (`mss_bytes` above 65535 counts as 65535, 0 as 1). At least two segments.
pub const fn default_send_quantum_bytes(pacing_rate: Rate, min_rtt_us: u32, mss_bytes: u64) -> u64 {
    let mss = if mss_bytes > 65_535 {
        65_535
    } else if mss_bytes == 0 {
        1
    } else {
        mss_bytes as u32
    };
    let segs = tso_segs(&TsoInput {
        pacing_rate,
        pacing_shift: crate::pacing::PACING_SHIFT,
        min_rtt_us,
        tso_rtt_log: TSO_RTT_LOG,
        gso_max_size: GSO_MAX_SIZE,
        gso_max_segs: GSO_MAX_SEGS,
        min_tso_segs: MIN_TSO_SEGS,
        mss,
    });
    segs as u64 * mss as u64
}

#[cfg(test)]
mod tests;
