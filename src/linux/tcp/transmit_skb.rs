//! What `__tcp_transmit_skb()` does to the congestion state when one segment leaves.
//! The rate sampler's snapshot (`tcp_rate_skb_sent()`) is the caller's next step.

use crate::linux::tcp::update_skb_after_send::tcp_update_skb_after_send;
use crate::linux::tcp::{CaEvent, RandomSource, TcpCongestionOps, TcpSock};

/// `tcp_event_data_sent()`: data leaves while nothing is in flight, so the algorithm
/// hears `CA_EVENT_TX_START` (reading the previous `lsndtime`); then `lsndtime` is now.
// Linux net/ipv4/tcp_output.c tcp_event_data_sent()
pub fn tcp_event_data_sent<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    rand: &mut R,
) {
    if sk.packets_in_flight() == 0 {
        O::cwnd_event_with_random(ca, sk, p, CaEvent::TxStart, rand);
    }
    sk.lsndtime = sk.tcp_jiffies32;
}

/// One segment of `mss_cache` bytes is handed to the wire, with the scoreboard counters
/// as they were before it is counted: `tcp_wstamp_ns` moves up to now and becomes the
/// segment's departure time (returned, ns), then [`tcp_event_data_sent`],
/// `data_segs_out` (wrapping, as the kernel's `u32`), and the pacing step that spaces
/// the next departure ([`tcp_update_skb_after_send`]).
// Linux net/ipv4/tcp_output.c __tcp_transmit_skb()
pub fn tcp_transmit_skb<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    rand: &mut R,
) -> u64 {
    let prior_wstamp = sk.tcp_wstamp_ns;
    // Linux __tcp_transmit_skb(): tcp_wstamp_ns = max(tcp_wstamp_ns, tcp_clock_cache)
    sk.tcp_wstamp_ns = sk.tcp_wstamp_ns.max(sk.tcp_clock_cache);
    let departure_ns = sk.tcp_wstamp_ns;
    tcp_event_data_sent::<O, R>(ca, sk, p, rand);
    sk.data_segs_out = sk.data_segs_out.wrapping_add(1);
    let mss = sk.mss_cache;
    tcp_update_skb_after_send(sk, mss, prior_wstamp);
    departure_ns
}
