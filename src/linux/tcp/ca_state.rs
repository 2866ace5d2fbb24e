//! The congestion-avoidance state machine (`icsk_ca_state`): how Recovery, Loss and
//! CWR are entered and left, and undo.
//!
//! The socket here has no SACK scoreboard, no RACK, no F-RTO and no tail loss probe,
//! so the parts of `tcp_fastretrans_alert()` that read them are absent: what remains
//! are the exits at `high_seq` and the ECN entry into CWR, with the rules of a
//! SACK-enabled socket that receives no SACK blocks. Undo is never automatic; the
//! caller says when a reduction proved spurious ([`tcp_try_undo`]).

use crate::linux::CaState;
use crate::linux::tcp::cwnd_reduction::{
    tcp_end_cwnd_reduction, tcp_enter_cwr, tcp_init_cwnd_reduction,
};
use crate::linux::tcp::{
    CaEvent, RandomSource, TcpCongestionOps, TcpSock, ack_flags, after, before,
};

/// `tcp_set_ca_state()`: the `set_state` hook first (it sees the old state in
/// `sk.icsk_ca_state`), then the new state is stored.
// Linux net/ipv4/tcp_input.c tcp_set_ca_state()
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

/// `tcp_enter_recovery()`: fast retransmit. The reduction may be undone; outside a
/// reduction its ssthresh is saved for undo (unless the loss came with an ECN echo,
/// `ece_ack`) and a reduction begins; inside CWR the running one is kept. Then
/// Recovery. Nothing happens in Recovery or Loss (the kernel never calls it there):
/// returns whether recovery was entered.
// Linux net/ipv4/tcp_input.c tcp_enter_recovery()
pub fn tcp_enter_recovery<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    ece_ack: bool,
    rand: &mut R,
) -> bool {
    if matches!(sk.icsk_ca_state, CaState::Recovery | CaState::Loss) {
        return false;
    }
    sk.prior_ssthresh = 0;
    // Linux tcp_init_undo(): undo_marker = snd_una (a flag here)
    sk.undo_marker = true;
    if !sk.in_cwnd_reduction() {
        if !ece_ack {
            sk.prior_ssthresh = sk.current_ssthresh();
        }
        tcp_init_cwnd_reduction::<O>(ca, sk, p);
    }
    tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Recovery, rand);
    true
}

/// `tcp_timeout_mark_lost()` on a socket without a scoreboard: every segment in flight
/// is lost, and with no per-segment marks to keep, they leave `packets_out` at once.
/// (A caller with a scoreboard marks its segments and counts `lost_out` instead.)
// Linux net/ipv4/tcp_input.c tcp_timeout_mark_lost()
pub fn tcp_timeout_mark_lost(sk: &mut TcpSock) {
    sk.packets_out = 0;
    sk.sacked_out = 0;
    sk.lost_out = 0;
    sk.retrans_out = 0;
}

/// `tcp_enter_loss()` once the timed-out segments are marked lost
/// ([`tcp_timeout_mark_lost`] or the caller's scoreboard). Unless this window was
/// already reduced (a recovery still before `high_seq`, or a repeated timeout),
/// ssthresh is recomputed, saved for undo, and the algorithm hears `CA_EVENT_LOSS`.
/// cwnd becomes the flight plus one, the state Loss, and the recovery point `snd_nxt`.
///
/// The caller then retransmits (and counts `icsk_retransmits`), as the RTO timer does.
// Linux net/ipv4/tcp_input.c tcp_enter_loss()
pub fn tcp_enter_loss<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    rand: &mut R,
) {
    let state = sk.icsk_ca_state;
    if (state as u8) <= (CaState::Disorder as u8)
        || !after(sk.high_seq, sk.snd_una)
        || (state == CaState::Loss && sk.icsk_retransmits == 0)
    {
        sk.prior_ssthresh = sk.current_ssthresh();
        sk.prior_cwnd = sk.snd_cwnd;
        sk.snd_ssthresh = O::ssthresh(ca, sk, p);
        O::cwnd_event_with_random(ca, sk, p, CaEvent::Loss, rand);
        sk.undo_marker = true;
    }
    // Linux tcp_enter_loss(): cwnd = in flight + 1
    sk.snd_cwnd = sk.packets_in_flight().wrapping_add(1);
    sk.snd_cwnd_cnt = 0;
    sk.snd_cwnd_stamp = sk.tcp_jiffies32;
    tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Loss, rand);
    sk.high_seq = sk.snd_nxt;
}

/// `tcp_undo_cwnd_reduction()`: the reduction was spurious. If an ssthresh was saved,
/// cwnd comes back through the `undo_cwnd` hook and ssthresh rises back to the saved
/// value; either way no further undo is possible.
// Linux net/ipv4/tcp_input.c tcp_undo_cwnd_reduction()
pub fn tcp_undo_cwnd_reduction<O: TcpCongestionOps>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
) {
    if sk.prior_ssthresh != 0 {
        sk.snd_cwnd = O::undo_cwnd(ca, sk, p);
        if sk.prior_ssthresh > sk.snd_ssthresh {
            sk.snd_ssthresh = sk.prior_ssthresh;
        }
    }
    sk.snd_cwnd_stamp = sk.tcp_jiffies32;
    sk.undo_marker = false;
}

/// An undo found by the caller (a D-SACK or timestamps proving the retransmissions
/// spurious), as `tcp_try_undo_recovery()` / `tcp_try_undo_loss()` do it once their
/// evidence holds: in Loss the lost marks go (`lost_out` 0), [`tcp_undo_cwnd_reduction`],
/// and, undoing Loss only, the timeout count (`icsk_retransmits`) restarts; then back to
/// Open. Ignored (returns `false`) when no reduction may be undone (`undo_marker` clear).
///
/// The caller's scoreboard clears its own segments' LOST marks first.
// Linux net/ipv4/tcp_input.c tcp_try_undo_recovery(), tcp_try_undo_loss()
pub fn tcp_try_undo<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    rand: &mut R,
) -> bool {
    if !sk.undo_marker {
        return false;
    }
    let in_loss = sk.icsk_ca_state == CaState::Loss;
    if in_loss {
        // Linux tcp_undo_cwnd_reduction(unmark_loss): the lost marks are cleared
        sk.lost_out = 0;
    }
    tcp_undo_cwnd_reduction::<O>(ca, sk, p);
    if in_loss {
        // Linux tcp_try_undo_loss(): the RTO was spurious (not tcp_try_undo_recovery())
        sk.icsk_retransmits = 0;
    }
    if sk.icsk_ca_state != CaState::Open {
        tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Open, rand);
    }
    true
}

/// `tcp_try_to_open()` on this socket: an ECN echo starts CWR; without SACK or
/// retransmission accounting there is no Disorder to enter.
// Linux net/ipv4/tcp_input.c tcp_try_to_open()
pub fn tcp_try_to_open<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    flag: u32,
    rand: &mut R,
) {
    if flag & ack_flags::ECE != 0 {
        tcp_enter_cwr::<O, R>(ca, sk, p, rand);
    }
}

/// `tcp_fastretrans_alert()` for a dubious ACK (`flag` holds the [`ack_flags`]), on a
/// SACK-enabled socket that receives no SACK blocks:
///
/// 1. an ECN echo forbids undoing to the saved ssthresh (`prior_ssthresh` 0);
/// 2. once `snd_una` reaches `high_seq`: CWR ends (only when strictly past it, so that
///    the CWR flag has reached the receiver), Recovery opens and then ends its
///    reduction (cwnd = ssthresh unless undone);
/// 3. still in Recovery: nothing more. Loss opens once `high_seq` is reached, else
///    nothing more. Otherwise [`tcp_try_to_open`] (an ECN echo enters CWR).
// Linux net/ipv4/tcp_input.c tcp_fastretrans_alert(), tcp_process_loss()
pub fn tcp_fastretrans_alert<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    flag: u32,
    rand: &mut R,
) {
    if flag & ack_flags::ECE != 0 {
        sk.prior_ssthresh = 0;
    }
    if sk.icsk_ca_state != CaState::Open && !before(sk.snd_una, sk.high_seq) {
        match sk.icsk_ca_state {
            CaState::Cwr if sk.snd_una != sk.high_seq => {
                tcp_end_cwnd_reduction::<O, R>(ca, sk, p, rand);
                tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Open, rand);
            }
            CaState::Recovery => {
                // tcp_try_undo_recovery() without undo evidence: opens, then the end.
                tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Open, rand);
                tcp_end_cwnd_reduction::<O, R>(ca, sk, p, rand);
            }
            _ => {}
        }
    }
    match sk.icsk_ca_state {
        CaState::Recovery => return,
        CaState::Loss => {
            if !before(sk.snd_una, sk.high_seq) {
                // tcp_process_loss(): recovered, tcp_try_undo_recovery() opens
                tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Open, rand);
            }
            if sk.icsk_ca_state == CaState::Loss {
                return;
            }
        }
        _ => {}
    }
    tcp_try_to_open::<O, R>(ca, sk, p, flag, rand);
}

#[cfg(test)]
mod tests;
