//! The pacing rate: how fast a flow's window should drain onto the wire.

/// Default slow-start pacing ratio, percent (`tcp_pacing_ss_ratio`).
// Linux net/ipv4/tcp_ipv4.c sysctl_tcp_pacing_ss_ratio default
pub const PACING_SS_RATIO_PERCENT: u32 = 200;

/// Default congestion-avoidance pacing ratio, percent (`tcp_pacing_ca_ratio`).
// Linux net/ipv4/tcp_ipv4.c sysctl_tcp_pacing_ca_ratio default
pub const PACING_CA_RATIO_PERCENT: u32 = 120;

/// Inputs of Linux `tcp_update_pacing_rate`, in the kernel's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LinuxPacingInput {
    /// `mss_cache`, bytes.
    pub mss: u32,
    /// `snd_cwnd`, segments.
    pub cwnd: u32,
    /// `snd_ssthresh`, segments.
    pub ssthresh: u32,
    /// `packets_out`, segments.
    pub packets_out: u32,
    /// `srtt_us`, the kernel's smoothed RTT scaled by 8; 0 = no estimate yet.
    pub srtt_us_x8: u32,
    /// Slow-start ratio, percent.
    pub ss_ratio_percent: u32,
    /// Congestion-avoidance ratio, percent.
    pub ca_ratio_percent: u32,
    /// `sk_max_pacing_rate`, bytes/s.
    pub max_rate: u64,
}

/// Linux `tcp_update_pacing_rate`: `mss · max(cwnd, packets_out) / srtt`, scaled by 200 %
/// while `cwnd < ssthresh / 2` (still doubling) and 120 % after, capped at `max_rate`.
///
/// Bytes per second. The product is formed in `u64` in the kernel's order and wraps as
/// the kernel's does (above about 2^64 / (8e4 · 200) ≈ 1.1e12 bytes of window);
/// Linux mode reproduces that on purpose.
// Linux net/ipv4/tcp_input.c tcp_update_pacing_rate()
pub const fn linux_pacing_rate(i: &LinuxPacingInput) -> u64 {
    let ratio = if i.cwnd < i.ssthresh / 2 {
        i.ss_ratio_percent
    } else {
        i.ca_ratio_percent
    };
    let in_flight = if i.cwnd > i.packets_out {
        i.cwnd
    } else {
        i.packets_out
    };
    // (USEC_PER_SEC / 100) << 3: percent to fraction, and srtt's x8 scale.
    let mut rate = (i.mss as u64).wrapping_mul(80_000);
    rate = rate.wrapping_mul(ratio as u64);
    rate = rate.wrapping_mul(in_flight as u64);
    if i.srtt_us_x8 != 0 {
        rate /= i.srtt_us_x8 as u64;
    }
    if rate < i.max_rate { rate } else { i.max_rate }
}

#[cfg(test)]
mod tests;
