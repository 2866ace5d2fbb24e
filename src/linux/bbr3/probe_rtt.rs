//! The two min-RTT filters (`probe_rtt_min_us` over 5 s, `min_rtt_us` over 10 s) and
//! PROBE_RTT: when the 5 s filter expires, hold the flight at half the BDP for 200 ms
//! and a round, then go back to probing.

use super::bw_filter::after;
use super::cwnd::{bbr_probe_rtt_cwnd, bbr_save_cwnd};
use super::lower_bounds::bbr_reset_lower_bounds;
use super::params::{MIN_RTT_WIN_SEC, PROBE_RTT_MODE_MS, PROBE_RTT_WIN_MS};
use super::probe_bw::{bbr_start_bw_probe_cruise, bbr_start_bw_probe_down};
use super::state::AckPhase;
use super::{Bbr, Mode, Sample};
use crate::linux::bbr::BbrSock;
use crate::linux::tcp::RandomSource;

/// Jiffies per second (HZ = 1000, as the glue's `tcp_jiffies32`).
const HZ: u32 = 1000;

/// `bbr_exit_probe_rtt`: back to PROBE_BW (DOWN, then at once CRUISE, with fresh
/// random draws) if the pipe was full, else to STARTUP.
pub(super) fn bbr_exit_probe_rtt<S: BbrSock, R: RandomSource>(bbr: &mut Bbr, sk: &S, rand: &mut R) {
    bbr_reset_lower_bounds(bbr);
    if bbr.full_bw_reached() {
        bbr.mode = Mode::ProbeBw;
        bbr_start_bw_probe_down(bbr, sk, rand);
        bbr_start_bw_probe_cruise(bbr);
    } else {
        bbr.mode = Mode::Startup;
    }
}

/// `bbr_check_probe_rtt_done`: once the done stamp has passed, restore cwnd, restart
/// the 5 s window and leave PROBE_RTT.
pub(super) fn bbr_check_probe_rtt_done<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &mut S,
    rand: &mut R,
) {
    if !(bbr.probe_rtt_done_stamp != 0 && after(sk.tcp_jiffies32(), bbr.probe_rtt_done_stamp)) {
        return;
    }
    bbr.probe_rtt_min_stamp = sk.tcp_jiffies32();
    sk.set_snd_cwnd(sk.snd_cwnd().max(bbr.prior_cwnd));
    bbr_exit_probe_rtt(bbr, sk, rand);
}

/// `bbr_update_min_rtt`: feed both filters (an expired 5 s filter takes any sample
/// unless the ACK was delayed), enter PROBE_RTT when the 5 s filter expires (not while
/// restarting from idle), and run PROBE_RTT's timing.
pub(super) fn bbr_update_min_rtt<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &mut S,
    rs: &Sample,
    rand: &mut R,
) {
    // Linux net/ipv4/tcp_bbr.c bbr_update_min_rtt(): expired = after(jiffies, stamp + probe_rtt_win)
    let expire = bbr
        .probe_rtt_min_stamp
        .wrapping_add(PROBE_RTT_WIN_MS * HZ / 1000);
    let probe_rtt_expired = after(sk.tcp_jiffies32(), expire);
    if rs.rtt_us >= 0
        && (rs.rtt_us < i64::from(bbr.probe_rtt_min_us)
            || (probe_rtt_expired && !rs.is_ack_delayed))
    {
        // The kernel stores the `long` sample in a u32.
        bbr.probe_rtt_min_us = rs.rtt_us as u32;
        bbr.probe_rtt_min_stamp = sk.tcp_jiffies32();
    }
    let expire = bbr.min_rtt_stamp.wrapping_add(MIN_RTT_WIN_SEC * HZ);
    let min_rtt_expired = after(sk.tcp_jiffies32(), expire);
    if bbr.probe_rtt_min_us <= bbr.min_rtt_us || min_rtt_expired {
        bbr.min_rtt_us = bbr.probe_rtt_min_us;
        bbr.min_rtt_stamp = bbr.probe_rtt_min_stamp;
    }

    if PROBE_RTT_MODE_MS > 0
        && probe_rtt_expired
        && !bbr.idle_restart()
        && bbr.mode != Mode::ProbeRtt
    {
        bbr.mode = Mode::ProbeRtt;
        bbr_save_cwnd(bbr, sk);
        bbr.probe_rtt_done_stamp = 0;
        bbr.ack_phase = AckPhase::ProbeStopping;
        bbr.next_rtt_delivered = sk.delivered();
    }

    if bbr.mode == Mode::ProbeRtt {
        // Samples taken at the low flight are not bandwidth samples.
        let in_flight = sk.packets_in_flight();
        sk.set_app_limited(match sk.delivered().wrapping_add(in_flight) {
            0 => 1,
            bubble => bubble,
        });
        if bbr.probe_rtt_done_stamp == 0 && in_flight <= bbr_probe_rtt_cwnd(bbr) {
            bbr.probe_rtt_done_stamp = sk
                .tcp_jiffies32()
                .wrapping_add(PROBE_RTT_MODE_MS * HZ / 1000);
            bbr.set_probe_rtt_round_done(false);
            bbr.next_rtt_delivered = sk.delivered();
        } else if bbr.probe_rtt_done_stamp != 0 {
            if bbr.round_start() {
                bbr.set_probe_rtt_round_done(true);
            }
            if bbr.probe_rtt_round_done() {
                bbr_check_probe_rtt_done(bbr, sk, rand);
            }
        }
    }
    if rs.delivered > 0 {
        bbr.set_idle_restart(false);
    }
}
