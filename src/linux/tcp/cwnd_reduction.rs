//! A window reduction (CWR, fast recovery) with PRR (RFC 6937).

use crate::linux::CaState;
use crate::linux::state::TCP_INFINITE_SSTHRESH;
use crate::linux::tcp::ca_state::tcp_set_ca_state;
use crate::linux::tcp::{CaEvent, RandomSource, TcpCongestionOps, TcpSock, ack_flags};

/// `tcp_init_cwnd_reduction()`: the reduction's recovery point is `snd_nxt`, the PRR
/// counters restart from the current cwnd, and the algorithm's `ssthresh` hook sets the
/// target.
// Linux net/ipv4/tcp_input.c tcp_init_cwnd_reduction()
pub fn tcp_init_cwnd_reduction<O: TcpCongestionOps>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
) {
    sk.high_seq = sk.snd_nxt;
    sk.snd_cwnd_cnt = 0;
    sk.prior_cwnd = sk.snd_cwnd;
    sk.prr_delivered = 0;
    sk.prr_out = 0;
    sk.snd_ssthresh = O::ssthresh(ca, sk, p);
}

/// `tcp_cwnd_reduction()`: Proportional Rate Reduction on an ACK that delivered
/// `newly_acked_sacked` segments and marked `newly_lost` lost; `flag` holds the
/// [`ack_flags`].
///
/// While more is in flight than ssthresh, cwnd lets out `ssthresh/prior_cwnd` of what
/// was delivered (rounded up); once at or below it, at most what was delivered (one more
/// when `snd_una` advanced and nothing was newly lost) and never above ssthresh. The
/// first ACK of a reduction always lets one segment out (the fast retransmit). Does
/// nothing when nothing was delivered or no reduction began (`prior_cwnd` 0).
// Linux net/ipv4/tcp_input.c tcp_cwnd_reduction()
pub fn tcp_cwnd_reduction(sk: &mut TcpSock, newly_acked_sacked: u32, newly_lost: i32, flag: u32) {
    // The kernel's `int` arguments: a count above i32::MAX would be negative there.
    let newly = newly_acked_sacked as i32;
    if newly <= 0 || sk.prior_cwnd == 0 {
        return;
    }
    let in_flight = sk.packets_in_flight();
    // Linux tcp_cwnd_reduction(): delta = ssthresh - in_flight, signed int
    let delta = sk.snd_ssthresh.wrapping_sub(in_flight) as i32;
    sk.prr_delivered = sk.prr_delivered.wrapping_add(newly_acked_sacked);
    let prr_out = sk.prr_out as i32;
    let mut sndcnt: i32 = if delta < 0 {
        // Linux tcp_cwnd_reduction(): ceil(ssthresh * prr_delivered / prior_cwnd) - prr_out
        let dividend =
            u64::from(sk.snd_ssthresh) * u64::from(sk.prr_delivered) + u64::from(sk.prior_cwnd) - 1;
        // div_u64 returns u64, taken as int by the kernel's assignment (truncation).
        ((dividend / u64::from(sk.prior_cwnd)) as i32).wrapping_sub(prr_out)
    } else {
        // Linux tcp_cwnd_reduction(): max(prr_delivered - prr_out, newly), +1 on progress
        let mut n = (sk.prr_delivered as i32).wrapping_sub(prr_out).max(newly);
        if flag & ack_flags::SND_UNA_ADVANCED != 0 && newly_lost == 0 {
            n = n.wrapping_add(1);
        }
        n.min(delta)
    };
    // Linux tcp_cwnd_reduction(): force one segment out at the reduction's start
    sndcnt = sndcnt.max(if sk.prr_out != 0 { 0 } else { 1 });
    // sndcnt is at least 0 here, so the cast keeps its value.
    sk.snd_cwnd = in_flight.wrapping_add(sndcnt as u32);
}

/// `tcp_end_cwnd_reduction()`: cwnd drops to ssthresh at the end of a CWR, or of a
/// recovery that may still be undone (`undo_marker`); then `CA_EVENT_COMPLETE_CWR`.
/// Algorithms with their own `cong_control` keep their window.
// Linux net/ipv4/tcp_input.c tcp_end_cwnd_reduction()
pub fn tcp_end_cwnd_reduction<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    rand: &mut R,
) {
    if O::HAS_CONG_CONTROL {
        return;
    }
    if sk.snd_ssthresh < TCP_INFINITE_SSTHRESH
        && (sk.icsk_ca_state == CaState::Cwr || sk.undo_marker)
    {
        sk.snd_cwnd = sk.snd_ssthresh;
        sk.snd_cwnd_stamp = sk.tcp_jiffies32;
    }
    O::cwnd_event_with_random(ca, sk, p, CaEvent::CompleteCwr, rand);
}

/// `tcp_enter_cwr()`: an ECN echo. No undo of it is possible (`prior_ssthresh` 0);
/// below CWR (Open, Disorder) a reduction begins and the state becomes CWR.
// Linux net/ipv4/tcp_input.c tcp_enter_cwr()
pub fn tcp_enter_cwr<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    rand: &mut R,
) {
    sk.prior_ssthresh = 0;
    if (sk.icsk_ca_state as u8) < (CaState::Cwr as u8) {
        sk.undo_marker = false;
        tcp_init_cwnd_reduction::<O>(ca, sk, p);
        tcp_set_ca_state::<O, R>(ca, sk, p, CaState::Cwr, rand);
    }
}

#[cfg(test)]
mod tests;
