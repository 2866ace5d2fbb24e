//! What a transmit does to the congestion state (`tcp_write_xmit()`).

use crate::linux::tcp::{RandomSource, TcpCongestionOps, TcpSock, after, tcp_event_data_sent};

/// The sender transmitted until `in_flight` segments are outstanding (fewer than
/// before means nothing was sent). Segments above `snd_nxt` are new data.
///
/// In the kernel's order: `tcp_event_data_sent()` (TX_START when the pipe was empty,
/// then `lsndtime`), `prr_out` inside a reduction, `packets_out` and `snd_nxt`, then
/// `tcp_cwnd_validate()`'s record of window use, which also runs when nothing was sent
/// but the flight fills cwnd. The RFC 2861 decay of an application-limited window
/// (`tcp_cwnd_application_limited`) is not modelled.
// Linux net/ipv4/tcp_output.c tcp_event_data_sent(), tcp_write_xmit(), tcp_cwnd_validate()
pub fn tcp_write_xmit<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    in_flight: u32,
    rand: &mut R,
) {
    let sent = in_flight.saturating_sub(sk.packets_out);
    if sent > 0 {
        tcp_event_data_sent::<O, R>(ca, sk, p, rand);
        if sk.in_cwnd_reduction() {
            sk.prr_out = sk.prr_out.wrapping_add(sent);
        }
        sk.data_segs_out = sk.data_segs_out.wrapping_add(sent);
    }
    sk.packets_out = in_flight;
    let top = sk.snd_una.wrapping_add(in_flight);
    if after(top, sk.snd_nxt) {
        sk.snd_nxt = top;
    }
    // Linux tcp_write_xmit(): is_cwnd_limited |= in_flight >= cwnd
    let limited = in_flight >= sk.snd_cwnd;
    if sent > 0 || limited {
        // Linux tcp_cwnd_validate(): record a new round of window use
        if !after(sk.cwnd_usage_seq, sk.snd_una)
            || limited
            || (!sk.is_cwnd_limited && sk.packets_out > sk.max_packets_out)
        {
            sk.is_cwnd_limited = limited;
            sk.max_packets_out = sk.packets_out;
            sk.cwnd_usage_seq = sk.snd_nxt;
        }
    }
}
