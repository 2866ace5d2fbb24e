//! The EDT pacing step of `tcp_update_skb_after_send()`: after a segment is given
//! its departure time, the next one may leave one segment's serialisation time at
//! `sk_pacing_rate` later, less up to half of it as credit for time the sender fell
//! behind.

use crate::linux::tcp::TcpSock;

/// Nanoseconds per second.
const NSEC_PER_SEC: u64 = 1_000_000_000;

/// `tcp_update_skb_after_send()`'s pacing step for a segment of `len` bytes, whose
/// transmit moved `tcp_wstamp_ns` from `prior_wstamp` (to at least now).
///
/// Does nothing without pacing (`sk_pacing_status` 0), with a pacing rate of 0 or
/// `u64::MAX` (unlimited), or before the tenth data segment (`data_segs_out < 10`:
/// the original fq does not pace the first ten).
pub fn tcp_update_skb_after_send(sk: &mut TcpSock, len: u32, prior_wstamp: u64) {
    if sk.sk_pacing_status == 0 {
        return;
    }
    sk.tcp_wstamp_ns = edt_after_send(
        sk.sk_pacing_rate,
        sk.data_segs_out,
        sk.tcp_wstamp_ns,
        len,
        prior_wstamp,
    );
}

/// The pacing step of [`tcp_update_skb_after_send()`] with pacing on: the next
/// departure after `wstamp_ns` for a `len`-byte segment at `rate`, with `data_segs_out`
/// the count including this segment.
pub(crate) fn edt_after_send(
    rate: u64,
    data_segs_out: u32,
    wstamp_ns: u64,
    len: u32,
    prior_wstamp: u64,
) -> u64 {
    if rate == u64::MAX || rate == 0 || data_segs_out < 10 {
        return wstamp_ns;
    }
    // Linux net/ipv4/tcp_output.c tcp_update_skb_after_send(): len_ns = len * NSEC_PER_SEC / rate
    let mut len_ns = u64::from(len) * NSEC_PER_SEC / rate;
    let credit = wstamp_ns.wrapping_sub(prior_wstamp);
    // Linux net/ipv4/tcp_output.c tcp_update_skb_after_send(): len_ns -= min(len_ns / 2, credit)
    len_ns -= (len_ns / 2).min(credit);
    wstamp_ns.wrapping_add(len_ns)
}

#[cfg(test)]
mod tests;
