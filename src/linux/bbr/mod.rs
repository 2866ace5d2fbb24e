//! BBR v1 as in mainline Linux (`net/ipv4/tcp_bbr.c`), bit-exact, in segments.
//!
//! BBR models the path by two numbers, the bottleneck bandwidth (a windowed max of
//! delivery-rate samples over 10 rounds) and the propagation delay (a windowed min of
//! RTT samples over 10 s), and paces at `pacing_gain · bw` with a cwnd of
//! `cwnd_gain · bw · min_rtt`. Its modes: STARTUP doubles the rate each round until
//! the bandwidth stops growing, DRAIN empties the queue that built, PROBE_BW cycles
//! the pacing gain (5/4, 3/4, then 1 for six phases) and PROBE_RTT dips to 4 segments
//! every 10 s to measure the delay again. A long-term estimator detects policers.
//!
//! [`BbrOps`] fills [`TcpCongestionOps`] as `tcp_bbr_cong_ops` does: BBR has a
//! `cong_control` hook ([`bbr_main`]) that replaces the glue's `cong_avoid`, PRR and
//! pacing-rate update. It reads the delivery-rate sample of
//! [`crate::linux::tcp::rate`], which the glue builds on every ACK. Randomness (the
//! starting phase of the gain cycle) comes from the caller's [`RandomSource`].
//!
//! The files follow the kernel's functions: `bw.rs` (rounds, the max filter, full
//! pipe), `lt_bw.rs` (policer detection), `aggregation.rs` (ACK aggregation),
//! `probe_bw.rs` (modes, gain cycle, gains), `probe_rtt.rs` (min_rtt, PROBE_RTT),
//! `cwnd.rs` (BDP, cwnd) and `pacing.rs` (pacing rate, TSO goal).

mod aggregation;
mod bw;
mod config;
mod controller;
pub(crate) mod controller_shared;
mod cwnd;
mod flow;
pub(crate) mod flow_sock;
mod lt_bw;
mod pacing;
mod probe_bw;
mod probe_rtt;
pub(crate) mod sock_view;
mod state;
pub(crate) mod trait_board;

pub use aggregation::{bbr_ack_aggregation_cwnd, bbr_extra_acked, bbr_update_ack_aggregation};
pub use bw::{bbr_bw, bbr_check_full_bw_reached, bbr_max_bw, bbr_update_bw};
pub use config::{BbrConfig, BbrParams, DEFAULT_MAX_TCP_HEADER};
pub use controller::{BbrController, MAX_SEGMENTS_PER_SEND};
pub use cwnd::{
    TCP_INIT_CWND, bbr_bdp, bbr_inflight, bbr_packets_in_net_at_edt, bbr_quantization_budget,
    bbr_set_cwnd, bbr_set_cwnd_to_recover_or_restore,
};
pub use flow::{Bbr, BbrAck, DeliveredSegment, Flight, Sent};
pub(crate) use flow::{tcp_ack_update_rtt_min, tcp_rate_skbs_delivered};
pub use lt_bw::{
    bbr_lt_bw_interval_done, bbr_lt_bw_sampling, bbr_reset_lt_bw_sampling,
    bbr_reset_lt_bw_sampling_interval,
};
pub use pacing::{
    GSO_LEGACY_MAX_SIZE, bbr_bw_to_pacing_rate, bbr_init_pacing_rate_from_rtt, bbr_min_tso_segs,
    bbr_rate_bytes_per_sec, bbr_set_pacing_rate, bbr_tso_segs_goal,
};
pub use probe_bw::{
    CYCLE_LEN, PACING_GAIN, bbr_advance_cycle_phase, bbr_check_drain, bbr_is_next_cycle_phase,
    bbr_reset_mode, bbr_reset_probe_bw_mode, bbr_update_cycle_phase, bbr_update_gains,
};
pub use probe_rtt::{CWND_MIN_TARGET, bbr_check_probe_rtt_done, bbr_save_cwnd, bbr_update_min_rtt};
pub use sock_view::BbrSock;
pub use state::{BbrMode, BbrState};

use crate::linux::CaState;
use crate::linux::tcp::{CaEvent, RandomSource, RateSample, TcpCongestionOps, TcpSock};

/// `BW_SCALE`: bandwidth is packets per µs scaled by 2^24.
pub const BW_SCALE: u32 = 24;
/// `BW_UNIT`: 1 packet/µs in the bandwidth unit.
pub const BW_UNIT: u64 = 1 << BW_SCALE;
/// `BBR_SCALE`: gains are fractions of 2^8.
pub const BBR_SCALE: u32 = 8;
/// `BBR_UNIT`: a gain of 1.
pub const BBR_UNIT: u32 = 1 << BBR_SCALE;
/// `bbr_high_gain`: 2/ln 2 (739/256), STARTUP's gain, which doubles the rate each round.
pub const HIGH_GAIN: u32 = BBR_UNIT * 2885 / 1000 + 1;
/// `bbr_drain_gain`: 1/high_gain (88/256), DRAIN's pacing gain.
pub const DRAIN_GAIN: u32 = BBR_UNIT * 1000 / 2885;
/// `bbr_cwnd_gain`: 2, PROBE_BW's cwnd gain.
pub const CWND_GAIN: u32 = BBR_UNIT * 2;
/// `TCP_INFINITE_SSTHRESH`.
pub const TCP_INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

/// `tcp_bbr_cong_ops`: BBR v1's hooks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BbrOps;

/// `bbr_update_model()`: bandwidth, aggregation, gain cycle, full pipe, DRAIN,
/// min_rtt and PROBE_RTT, then the gains, in the kernel's order.
pub fn bbr_update_model<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rs: &RateSample,
    rand: &mut R,
) {
    update_model(bbr, sk, p, rs, rand);
}

/// [`bbr_update_model`], returning the `bbr_tso_segs_goal()` the gain cycle computed
/// (with its pacing rate), for `bbr_set_cwnd()`, and `bbr_bw()` after the update.
fn update_model<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rs: &RateSample,
    rand: &mut R,
) -> (pacing::TsoGoal, u32) {
    // A goal kept from an earlier event is at the current rate (a new rate clears it).
    let mut tso_goal = (sk.sk_pacing_rate(), sk.kept_tso_segs_goal());
    let valid = bw::update_bw(bbr, sk, p, rs, rand);
    // bbr_bw() moves only in bbr_update_bw(): read once for the rest of the ACK.
    let bw = bbr_bw(bbr);
    if valid {
        aggregation::update_ack_aggregation(bbr, sk, rs, bw);
    }
    // Before the gain cycle (kernel order: after), which reads nothing it writes.
    bbr_check_full_bw_reached(bbr, rs);
    probe_bw::update_cycle_phase(bbr, sk, p, rs, bw, &mut tso_goal);
    bbr_check_drain(bbr, sk, p, rand);
    bbr_update_min_rtt(bbr, sk, p, rs, rand);
    bbr_update_gains(bbr);
    (tso_goal, bw)
}

/// `bbr_main()`: the `cong_control` hook, once per ACK after the rate sample is built:
/// update the model, then set the pacing rate and cwnd from it.
pub fn bbr_main<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rs: &RateSample,
    rand: &mut R,
) {
    // The TSO goal depends on the pacing rate alone here: bbr_set_cwnd() reuses the
    // gain cycle's if bbr_set_pacing_rate() left the rate as it was.
    let (tso_goal, bw) = update_model(bbr, sk, p, rs, rand);
    bbr_set_pacing_rate(bbr, sk, bw, u32::from(bbr.pacing_gain));
    let gain = u32::from(bbr.cwnd_gain);
    let goal = cwnd::set_cwnd(bbr, sk, p, rs, (rs.acked_sacked, bw, gain), bw, tso_goal);
    // The goal at the current pacing rate, or 0 (none computed: the next event
    // computes it again), kept either way: one store, no test.
    sk.keep_tso_segs_goal(goal);
}

/// `bbr_init()`: a fresh model from the socket: min_rtt from `tcp_min_rtt()`, the
/// pacing rate from `srtt` (or 1 ms), STARTUP, and internal pacing requested if the
/// socket had none. Starts from zeroed state, as the kernel's zeroed `icsk_ca_priv`.
pub fn bbr_init(bbr: &mut BbrState, sk: &mut TcpSock) {
    *bbr = BbrState::default();
    bbr.prior_cwnd = 0;
    sk.snd_ssthresh = TCP_INFINITE_SSTHRESH;
    bbr.rtt_cnt = 0;
    bbr.next_rtt_delivered = sk.delivered;
    bbr.prev_ca_state = CaState::Open;
    bbr.set_packet_conservation(false);
    bbr.probe_rtt_done_stamp = 0;
    bbr.set_probe_rtt_round_done(false);
    bbr.min_rtt_us = sk.tcp_min_rtt();
    bbr.min_rtt_stamp = sk.tcp_jiffies32;
    bbr.bw.reset(bbr.rtt_cnt, 0);
    bbr.set_has_seen_rtt(false);
    bbr_init_pacing_rate_from_rtt(bbr, sk);
    bbr.set_round_start(false);
    bbr.set_idle_restart(false);
    bbr.set_full_bw_reached(false);
    bbr.full_bw = 0;
    bbr.full_bw_cnt = 0;
    bbr.cycle_mstamp = 0;
    bbr.cycle_idx = 0;
    bbr_reset_lt_bw_sampling(bbr, sk);
    probe_bw::bbr_reset_startup_mode(bbr);
    bbr.ack_epoch_mstamp = sk.tcp_mstamp;
    bbr.ack_epoch_acked = 0;
    bbr.extra_acked_win_rtts = 0;
    bbr.set_extra_acked_win_idx(false);
    bbr.extra_acked = [0, 0];
    // Linux net/ipv4/tcp_bbr.c bbr_init(): cmpxchg(sk_pacing_status, NONE, NEEDED)
    if sk.sk_pacing_status == 0 {
        sk.sk_pacing_status = 1;
    }
}

/// `bbr_cwnd_event()`: a transmit after idle while app-limited restarts the ACK
/// epoch and, in PROBE_BW, paces at the estimate (gain 1); in PROBE_RTT it may end it.
pub fn bbr_cwnd_event<R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut TcpSock,
    p: &BbrParams,
    event: CaEvent,
    rand: &mut R,
) {
    if event == CaEvent::TxStart && sk.app_limited != 0 {
        bbr.set_idle_restart(true);
        bbr.ack_epoch_mstamp = sk.tcp_mstamp;
        bbr.ack_epoch_acked = 0;
        if bbr.mode == BbrMode::ProbeBw {
            bbr_set_pacing_rate(bbr, sk, bbr_bw(bbr), BBR_UNIT);
        } else if bbr.mode == BbrMode::ProbeRtt {
            bbr_check_probe_rtt_done(bbr, sk, p, rand);
        }
    }
}

/// `bbr_undo_cwnd()`: a reduction proved spurious: restart full-pipe detection and
/// long-term sampling; cwnd stays as it is.
pub fn bbr_undo_cwnd(bbr: &mut BbrState, sk: &TcpSock) -> u32 {
    bbr.full_bw = 0;
    bbr.full_bw_cnt = 0;
    bbr_reset_lt_bw_sampling(bbr, sk);
    sk.snd_cwnd
}

/// `bbr_ssthresh()`: entering loss recovery saves cwnd; ssthresh stays as it is.
pub fn bbr_ssthresh(bbr: &mut BbrState, sk: &TcpSock) -> u32 {
    bbr_save_cwnd(bbr, sk);
    sk.snd_ssthresh
}

/// `bbr_set_state()`: an RTO (entering Loss) ends the round, resets `full_bw` and
/// gives the long-term sampler a one-loss sample.
pub fn bbr_set_state<R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut TcpSock,
    p: &BbrParams,
    new_state: CaState,
    rand: &mut R,
) {
    if new_state == CaState::Loss {
        let rs = RateSample {
            losses: 1,
            ..RateSample::default()
        };
        bbr.prev_ca_state = CaState::Loss;
        bbr.full_bw = 0;
        bbr.set_round_start(true);
        bbr_lt_bw_sampling(bbr, sk, p, &rs, rand);
    }
}

impl TcpCongestionOps for BbrOps {
    type Ca = BbrState;
    type Params = BbrParams;
    const NAME: &'static str = "bbr";
    const HAS_CONG_CONTROL: bool = true;

    fn init<R: RandomSource>(ca: &mut BbrState, sk: &mut TcpSock, _p: &BbrParams, _rand: &mut R) {
        bbr_init(ca, sk);
    }

    fn ssthresh(ca: &mut BbrState, sk: &TcpSock, _p: &BbrParams) -> u32 {
        bbr_ssthresh(ca, sk)
    }

    fn undo_cwnd(ca: &mut BbrState, sk: &TcpSock, _p: &BbrParams) -> u32 {
        bbr_undo_cwnd(ca, sk)
    }

    fn set_state_with_random<R: RandomSource>(
        ca: &mut BbrState,
        sk: &mut TcpSock,
        p: &BbrParams,
        new_state: CaState,
        rand: &mut R,
    ) {
        bbr_set_state(ca, sk, p, new_state, rand);
    }

    fn cwnd_event_with_random<R: RandomSource>(
        ca: &mut BbrState,
        sk: &mut TcpSock,
        p: &BbrParams,
        event: CaEvent,
        rand: &mut R,
    ) {
        bbr_cwnd_event(ca, sk, p, event, rand);
    }

    fn cong_control<R: RandomSource>(
        ca: &mut BbrState,
        sk: &mut TcpSock,
        p: &BbrParams,
        _ack: u32,
        _flag: u32,
        rs: &RateSample,
        rand: &mut R,
    ) {
        bbr_main(ca, sk, p, rs, rand);
    }

    fn min_tso_segs(_ca: &BbrState, sk: &TcpSock, _p: &BbrParams) -> Option<u32> {
        Some(bbr_min_tso_segs(sk))
    }
}
