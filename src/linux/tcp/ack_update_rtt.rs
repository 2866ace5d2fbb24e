//! The RTT part of `tcp_ack()` that BBR reads: `tcp_update_rtt_min()` (the socket's
//! windowed minimum RTT, `tcp_min_rtt()`) and the smoothed RTT of
//! `tcp_rtt_estimator()` (`srtt_us`, scaled by 8). The kernel's `mdev`/`rttvar`/RTO
//! bookkeeping is not modelled: no congestion control reads it.

use crate::linux::tcp::{Minmax, TcpSock};

/// Jiffies per second (HZ = 1000: one jiffy is one millisecond).
pub const HZ: u32 = 1000;
/// `sysctl_tcp_min_rtt_wlen`: the `rtt_min` window, seconds (default 300).
pub const TCP_MIN_RTT_WLEN_SEC: u32 = 300;

/// `tcp_update_rtt_min()`: takes `rtt_us` into `tp->rtt_min` (window 300 s of jiffies).
///
/// A sample from an ACK that may have been delayed (`ack_maybe_delayed`) is kept out
/// when it is larger than the current minimum. A sample of 0 counts as one jiffy
/// (1000 µs), as the kernel's `rtt_us ?: jiffies_to_usecs(1)`.
pub fn tcp_update_rtt_min(sk: &mut TcpSock, rtt_us: u32, ack_maybe_delayed: bool) {
    let jiffies = sk.tcp_jiffies32;
    rtt_min_update(&mut sk.rtt_min, jiffies, rtt_us, ack_maybe_delayed);
}

/// [`tcp_update_rtt_min()`] on the filter alone, at `jiffies` (`tcp_jiffies32`).
#[inline]
pub(crate) fn rtt_min_update(rtt_min: &mut Minmax, jiffies: u32, rtt_us: u32, delayed: bool) {
    // Linux net/ipv4/tcp_input.c tcp_update_rtt_min(): skip suspected delayed ACKs
    if delayed && rtt_us > rtt_min.get() {
        return;
    }
    let meas = if rtt_us == 0 { 1000 } else { rtt_us };
    // Linux net/ipv4/tcp_input.c tcp_update_rtt_min(): wlen = sysctl_tcp_min_rtt_wlen * HZ
    rtt_min.running_min(TCP_MIN_RTT_WLEN_SEC * HZ, jiffies, meas);
}

/// The `srtt_us` update of `tcp_rtt_estimator()`: the first sample sets `srtt = 8·m`,
/// later ones move it by 1/8 of the error; never below 1. Wraps as the kernel's `u32`.
pub fn tcp_rtt_estimator_srtt(sk: &mut TcpSock, mrtt_us: u32) {
    let srtt = sk.srtt_us;
    // Linux net/ipv4/tcp_input.c tcp_rtt_estimator(): srtt = 7/8 srtt + 1/8 m (m = mrtt - srtt/8)
    let srtt = if srtt != 0 {
        srtt.wrapping_add(mrtt_us.wrapping_sub(srtt >> 3))
    } else {
        mrtt_us.wrapping_shl(3)
    };
    sk.srtt_us = srtt.max(1);
}

/// `tcp_ack_update_rtt()` as the rate-sampling congestion controls see it: a valid
/// sample (`Some`) updates `rtt_min` and then `srtt_us`.
pub fn tcp_ack_update_rtt(sk: &mut TcpSock, rtt_us: Option<u32>, ack_maybe_delayed: bool) {
    if let Some(rtt) = rtt_us {
        tcp_update_rtt_min(sk, rtt, ack_maybe_delayed);
        tcp_rtt_estimator_srtt(sk, rtt);
    }
}

#[cfg(test)]
mod tests;
