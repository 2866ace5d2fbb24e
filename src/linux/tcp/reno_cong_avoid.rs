//! `tcp_cong.c`'s Reno window growth on the socket: slow start, additive increase, and
//! `tcp_reno_cong_avoid` that DCTCP (and every algorithm without its own
//! `cong_avoid`) uses.
//!
//! The arithmetic is CUBIC's own ([`crate::linux::LinuxCubicState`] runs the same two
//! helpers on its packed state); here it runs on [`TcpSock`].

use crate::linux::state::{additive_increase, slow_start_growth};
use crate::linux::tcp::TcpSock;

/// `tcp_slow_start()`: cwnd grows by `acked` up to ssthresh (and the clamp); returns
/// the ACKed segments left over for congestion avoidance.
///
/// The sum saturates where the kernel's `u32` would wrap (only on `acked` near 2^32).
// Linux net/ipv4/tcp_cong.c tcp_slow_start()
pub fn tcp_slow_start(sk: &mut TcpSock, acked: u32) -> u32 {
    let (grown, left) = slow_start_growth(sk.snd_cwnd, sk.snd_ssthresh, acked);
    sk.snd_cwnd = grown.min(sk.snd_cwnd_clamp);
    left
}

/// `tcp_cong_avoid_ai()`: one segment of growth per `w` segments ACKed, credit kept in
/// `snd_cwnd_cnt`; credit earned at a larger `w` first turns into one segment. `w` of 0
/// counts as 1 (the kernel never passes 0).
// Linux net/ipv4/tcp_cong.c tcp_cong_avoid_ai()
pub fn tcp_cong_avoid_ai(sk: &mut TcpSock, w: u32, acked: u32) {
    additive_increase(&mut sk.snd_cwnd, &mut sk.snd_cwnd_cnt, w, acked);
    sk.snd_cwnd = sk.snd_cwnd.min(sk.snd_cwnd_clamp);
}

/// `tcp_reno_cong_avoid()`: nothing unless the flow is cwnd-limited; slow start below
/// ssthresh, then one segment per window of ACKed segments (`ack`, the new `snd_una`,
/// is not read, as in the kernel).
// Linux net/ipv4/tcp_cong.c tcp_reno_cong_avoid()
pub fn tcp_reno_cong_avoid(sk: &mut TcpSock, ack: u32, acked: u32) {
    let _ = ack;
    if !sk.tcp_is_cwnd_limited() {
        return;
    }
    let mut acked = acked;
    if sk.in_slow_start() {
        acked = tcp_slow_start(sk, acked);
        if acked == 0 {
            return;
        }
    }
    let w = sk.snd_cwnd;
    tcp_cong_avoid_ai(sk, w, acked);
}

#[cfg(test)]
mod tests;
