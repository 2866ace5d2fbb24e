//! The min_rtt filter (10 s) and PROBE_RTT: when no RTT sample has matched the
//! minimum for 10 s, BBR holds the flight at 4 segments for 200 ms and a round.

use super::probe_bw::bbr_reset_mode;
use super::sock_view::BbrSock;
use super::{BbrMode, BbrParams, BbrState};
use crate::linux::CaState;
use crate::linux::tcp::ack_update_rtt::HZ;
use crate::linux::tcp::seq::after;
use crate::linux::tcp::{RandomSource, RateSample};

/// `bbr_min_rtt_win_sec`: the min_rtt filter's window, seconds.
pub const MIN_RTT_WIN_SEC: u32 = 10;
/// `bbr_probe_rtt_mode_ms`: time at least spent at 4 segments in PROBE_RTT (jiffies at HZ 1000).
pub const PROBE_RTT_MODE_MS: u32 = 200;
/// `bbr_cwnd_min_target`: the smallest cwnd BBR aims for, and PROBE_RTT's cap.
pub const CWND_MIN_TARGET: u32 = 4;

/// `bbr_save_cwnd()`: remember the cwnd to restore after recovery or PROBE_RTT; while
/// one of them has cut cwnd, keep the larger of the saved and the current value.
pub fn bbr_save_cwnd<S: BbrSock>(bbr: &mut BbrState, sk: &S) {
    if (bbr.prev_ca_state as u8) < (CaState::Recovery as u8) && bbr.mode != BbrMode::ProbeRtt {
        bbr.prior_cwnd = sk.snd_cwnd();
    } else {
        bbr.prior_cwnd = bbr.prior_cwnd.max(sk.snd_cwnd());
    }
}

/// `bbr_check_probe_rtt_done()`: after the 200 ms (and the round), restore cwnd and
/// leave PROBE_RTT for PROBE_BW, or for STARTUP if the pipe was never filled.
pub fn bbr_check_probe_rtt_done<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rand: &mut R,
) {
    // Linux net/ipv4/tcp_bbr.c bbr_check_probe_rtt_done(): armed and strictly past its stamp
    if !(bbr.probe_rtt_done_stamp != 0 && after(sk.tcp_jiffies32(), bbr.probe_rtt_done_stamp)) {
        return;
    }
    bbr.min_rtt_stamp = sk.tcp_jiffies32();
    sk.set_snd_cwnd(sk.snd_cwnd().max(bbr.prior_cwnd));
    bbr_reset_mode(bbr, sk, p, rand);
}

/// `bbr_update_min_rtt()`: keeps the 10 s min RTT, enters PROBE_RTT when it expires
/// (unless restarting from idle), and runs PROBE_RTT: samples are app-limited, the
/// 200 ms start once the flight is at most 4, and end after a round as well.
pub fn bbr_update_min_rtt<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rs: &RateSample,
    rand: &mut R,
) {
    // Linux net/ipv4/tcp_bbr.c bbr_update_min_rtt(): expired strictly after stamp + 10 s
    let filter_expired = after(
        sk.tcp_jiffies32(),
        bbr.min_rtt_stamp.wrapping_add(MIN_RTT_WIN_SEC * HZ),
    );
    if rs.rtt_us >= 0
        && (rs.rtt_us < i64::from(bbr.min_rtt_us) || (filter_expired && !rs.is_ack_delayed))
    {
        // The kernel stores the long into a u32.
        bbr.min_rtt_us = rs.rtt_us as u32;
        bbr.min_rtt_stamp = sk.tcp_jiffies32();
    }

    if PROBE_RTT_MODE_MS > 0
        && filter_expired
        && !bbr.idle_restart()
        && bbr.mode != BbrMode::ProbeRtt
    {
        bbr.mode = BbrMode::ProbeRtt;
        bbr_save_cwnd(bbr, sk);
        bbr.probe_rtt_done_stamp = 0;
    }

    if bbr.mode == BbrMode::ProbeRtt {
        let in_flight = sk.packets_in_flight();
        // Linux net/ipv4/tcp_bbr.c bbr_update_min_rtt(): app_limited = (delivered + in_flight) ?: 1
        let bubble = sk.delivered().wrapping_add(in_flight);
        sk.set_app_limited(if bubble == 0 { 1 } else { bubble });
        if bbr.probe_rtt_done_stamp == 0 && in_flight <= CWND_MIN_TARGET {
            // msecs_to_jiffies(200) is 200 at HZ 1000.
            bbr.probe_rtt_done_stamp = sk.tcp_jiffies32().wrapping_add(PROBE_RTT_MODE_MS);
            bbr.set_probe_rtt_round_done(false);
            bbr.next_rtt_delivered = sk.delivered();
        } else if bbr.probe_rtt_done_stamp != 0 {
            if bbr.round_start() {
                bbr.set_probe_rtt_round_done(true);
            }
            if bbr.probe_rtt_round_done() {
                bbr_check_probe_rtt_done(bbr, sk, p, rand);
            }
        }
    }
    if rs.delivered > 0 {
        bbr.set_idle_restart(false);
    }
}
