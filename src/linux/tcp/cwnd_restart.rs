//! Restarting the window after idle (RFC 2861 §2, RFC 5681 §4.1): a flow that sent
//! nothing for longer than an RTO no longer knows the path, so its window shrinks
//! towards the initial window before it sends again.

use crate::linux::tcp::cong_control::TcpSysctl;
use crate::linux::tcp::{CaEvent, RandomSource, TcpCongestionOps, TcpSock};

/// The most halvings the restart can apply: cwnd is a `u32`, so after 32 it is 0.
const MAX_HALVINGS: u32 = 32;

/// `tcp_cwnd_restart()` after `delta` jiffies idle: ssthresh keeps 3/4 of the old
/// window; cwnd halves once per RTO of idleness past the first, never below the
/// restart window `min(init_cwnd, snd_cwnd_clamp, cwnd)`. `init_cwnd` is the route's
/// initial window (`TCP_INIT_CWND`, 10, when the route sets none).
// Linux net/ipv4/tcp_output.c tcp_cwnd_restart()
pub fn tcp_cwnd_restart<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    delta: i32,
    init_cwnd: u32,
    rand: &mut R,
) {
    // Linux include/net/tcp.h tcp_init_cwnd(): the route's window, clamped
    let restart_cwnd = init_cwnd.min(sk.snd_cwnd_clamp);
    let mut cwnd = sk.snd_cwnd;
    O::cwnd_event_with_random(ca, sk, p, CaEvent::CwndRestart, rand);
    sk.snd_ssthresh = sk.current_ssthresh();
    let restart_cwnd = restart_cwnd.min(cwnd);
    // The kernel's `s32 delta -= u32 rto` wraps; the loop stops once cwnd reaches
    // the restart window, at most 32 halvings.
    let rto = sk.icsk_rto as i32;
    let mut delta = delta;
    for _ in 0..MAX_HALVINGS {
        delta = delta.wrapping_sub(rto);
        if delta <= 0 || cwnd <= restart_cwnd {
            break;
        }
        cwnd >>= 1;
    }
    sk.snd_cwnd = cwnd.max(restart_cwnd);
    sk.snd_cwnd_stamp = sk.tcp_jiffies32;
}

/// `tcp_slow_start_after_idle_check()`, before a transmit: with the sysctl on, nothing
/// in flight, and no `cong_control` algorithm, an idle time since `lsndtime` of more
/// than one RTO restarts the window ([`tcp_cwnd_restart`]).
// Linux net/ipv4/tcp_output.c tcp_slow_start_after_idle_check()
pub fn tcp_slow_start_after_idle_check<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    sysctl: &TcpSysctl,
    init_cwnd: u32,
    rand: &mut R,
) {
    if !sysctl.slow_start_after_idle || sk.packets_out != 0 || O::HAS_CONG_CONTROL {
        return;
    }
    // Linux tcp_slow_start_after_idle_check(): s32 delta, compared with the u32 rto
    let delta = sk.tcp_jiffies32.wrapping_sub(sk.lsndtime) as i32;
    // C compares `s32 > u32` as unsigned: a negative delta counts as huge.
    if (delta as u32) > sk.icsk_rto {
        tcp_cwnd_restart::<O, R>(ca, sk, p, delta, init_cwnd, rand);
    }
}
