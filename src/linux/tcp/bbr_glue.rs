//! The CA-state steps of `tcp_input.c` that a `cong_control` algorithm (BBR) sees,
//! generic over the hook table: entering Recovery and Loss, undoing a reduction and
//! returning to Open.
//!
//! These follow the kernel functions they are named after, without what BBR never
//! observes: PRR (`cong_control` bypasses it), `tcp_ecn_queue_cwr`, the retransmit
//! hint and TLP state, and the per-skb work (marking, unmarking), which stays with
//! the caller's scoreboard. `undo_marker` is a flag (the kernel keeps `snd_una` there).

use crate::linux::CaState;
use crate::linux::tcp::seq::after;
use crate::linux::tcp::{CaEvent, RandomSource, TcpCongestionOps, TcpSock};

/// `tcp_set_ca_state()`: the algorithm's `set_state` hook first, then the state.
pub fn tcp_set_ca_state<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    state: CaState,
    rand: &mut R,
) {
    O::set_state_with_random(ca, sk, p, state, rand);
    sk.icsk_ca_state = state;
}

/// `tcp_current_ssthresh()`: in a reduction the current ssthresh, else at least 3/4
/// of cwnd (what an undo may restore).
pub fn tcp_current_ssthresh(sk: &TcpSock) -> u32 {
    if sk.in_cwnd_reduction() {
        sk.snd_ssthresh
    } else {
        // Linux include/net/tcp.h tcp_current_ssthresh(): max(ssthresh, 3/4 cwnd)
        sk.snd_ssthresh.max((sk.snd_cwnd >> 1) + (sk.snd_cwnd >> 2))
    }
}

/// `tcp_init_cwnd_reduction()` without PRR: the recovery point, the cwnd before the
/// reduction and the algorithm's ssthresh.
fn tcp_init_cwnd_reduction<O: TcpCongestionOps>(ca: &mut O::Ca, sk: &mut TcpSock, p: &O::Params) {
    sk.high_seq = sk.snd_nxt;
    sk.snd_cwnd_cnt = 0;
    sk.prior_cwnd = sk.snd_cwnd;
    sk.prr_delivered = 0;
    sk.prr_out = 0;
    sk.snd_ssthresh = O::ssthresh(ca, sk, p);
}

/// `tcp_enter_recovery()`: fast recovery starts (from Open or Disorder; from CWR it
/// keeps the running reduction). An ECE ACK (`ece_ack`) saves no ssthresh to undo to.
pub fn tcp_enter_recovery<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    ece_ack: bool,
    rand: &mut R,
) {
    sk.prior_ssthresh = 0;
    // tcp_init_undo()
    sk.undo_marker = true;
    if !sk.in_cwnd_reduction() {
        if !ece_ack {
            sk.prior_ssthresh = tcp_current_ssthresh(sk);
        }
        tcp_init_cwnd_reduction::<O>(ca, sk, p);
    }
    tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Recovery, rand);
}

/// `tcp_enter_loss()` after the caller marked the timed-out segments lost (its
/// `tcp_timeout_mark_lost()`): saves ssthresh once per window, sets cwnd to the
/// flight plus one, enters Loss with a new recovery point. `icsk_retransmits` is the
/// count of timeouts before this one (the timer adds this one afterwards).
pub fn tcp_enter_loss<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    rand: &mut R,
) {
    let state = sk.icsk_ca_state;
    // Linux net/ipv4/tcp_input.c tcp_enter_loss(): reduce ssthresh once per window
    if (state as u8) <= (CaState::Disorder as u8)
        || !after(sk.high_seq, sk.snd_una)
        || (state == CaState::Loss && sk.icsk_retransmits == 0)
    {
        sk.prior_ssthresh = tcp_current_ssthresh(sk);
        sk.prior_cwnd = sk.snd_cwnd;
        sk.snd_ssthresh = O::ssthresh(ca, sk, p);
        O::cwnd_event_with_random(ca, sk, p, CaEvent::Loss, rand);
        sk.undo_marker = true;
    }
    // Linux net/ipv4/tcp_input.c tcp_enter_loss(): cwnd = in_flight + 1
    sk.snd_cwnd = sk.packets_in_flight().wrapping_add(1);
    sk.snd_cwnd_cnt = 0;
    tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Loss, rand);
    sk.high_seq = sk.snd_nxt;
}

/// `tcp_enter_cwr()`: an ECN-Echo outside a reduction starts one (CWR): no undo to
/// it, a new recovery point, the algorithm's ssthresh. In CWR, Recovery or Loss only
/// `prior_ssthresh` is cleared.
pub fn tcp_enter_cwr<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    rand: &mut R,
) {
    sk.prior_ssthresh = 0;
    // Linux net/ipv4/tcp_input.c tcp_enter_cwr(): only from Open or Disorder
    if (sk.icsk_ca_state as u8) < (CaState::Cwr as u8) {
        sk.undo_marker = false;
        tcp_init_cwnd_reduction::<O>(ca, sk, p);
        tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Cwr, rand);
    }
}

/// A reduction proved spurious (`tcp_undo_cwnd_reduction()` and the return to Open
/// of `tcp_try_undo_recovery()`/`tcp_try_undo_loss()`): the algorithm's undo cwnd, the
/// saved ssthresh, Open. The caller clears its segments' LOST marks first when the
/// state is Loss (and `lost_out`); this does nothing unless `undo_marker` is set.
pub fn tcp_undo<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    rand: &mut R,
) {
    if !sk.undo_marker {
        return;
    }
    let in_loss = sk.icsk_ca_state == CaState::Loss;
    if in_loss {
        sk.lost_out = 0;
    }
    if sk.prior_ssthresh != 0 {
        sk.snd_cwnd = O::undo_cwnd(ca, sk, p);
        // Linux net/ipv4/tcp_input.c tcp_undo_cwnd_reduction(): ssthresh = max(ssthresh, prior_ssthresh)
        sk.snd_ssthresh = sk.snd_ssthresh.max(sk.prior_ssthresh);
    }
    sk.undo_marker = false;
    if in_loss {
        sk.icsk_retransmits = 0;
    }
    if sk.icsk_ca_state != CaState::Open {
        tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Open, rand);
    }
}
