//! BBRv3, as Google's `tcp_bbr.c` with `BBR_VERSION 3` (github.com/google/bbr, v3
//! branch, commit 001a430b): a model-based congestion control that paces at its
//! estimate of the bottleneck bandwidth and bounds the flight by its estimate of the
//! path's BDP, with loss and shallow-threshold ECN as explicit signals.
//!
//! The model has two bounds on each side: `bw_lo`/`inflight_lo`, a short-term lower
//! bound cut by loss or CE marks while not probing, and `bw_hi`/`inflight_hi`, a
//! long-term upper bound learned by probing. A flow goes STARTUP → DRAIN → PROBE_BW,
//! whose cycle DOWN → CRUISE → REFILL → UP probes for more bandwidth every 2–3 s (or
//! sooner, as a Reno flow with the same BDP would), and visits PROBE_RTT when its
//! 5 s min-RTT filter expires.
//!
//! One file per idea, each function named after the kernel's:
//!
//! | file | kernel functions |
//! |---|---|
//! | `state.rs` | `struct bbr` (asserted within the kernel's 152 bytes) |
//! | `params.rs` | the `bbr_*` constants |
//! | `bw_filter.rs` | `bbr_max_bw`, `bbr_bw`, rounds, `bbr_calculate_bw_sample`, the `bw_hi` filter, the latest-round signals |
//! | `pacing.rs` | `bbr_rate_bytes_per_sec` … `bbr_tso_segs_goal`, `bbr_packets_in_net_at_edt` |
//! | `cwnd.rs` | `bbr_bdp`, `bbr_quantization_budget`, `bbr_inflight`, ACK aggregation, `bbr_set_cwnd`, `bbr_update_gains` |
//! | `startup.rs` | the full-bw and loss exits of STARTUP |
//! | `ecn.rs` | `bbr_update_ecn_alpha`, STARTUP's ECN exit, `bbr_ecn_cut` |
//! | `upper_bounds.rs` | `inflight_hi`: too high, from a lost skb, headroom, probing upward |
//! | `lower_bounds.rs` | `bw_lo`/`inflight_lo`, `bbr_bound_cwnd_for_inflight_model` |
//! | `probe_bw.rs` | PROBE_BW's phases, `bbr_check_drain` |
//! | `probe_rtt.rs` | `bbr_update_min_rtt`, PROBE_RTT |
//! | `flow.rs` | [`Bbr3`]: the whole flow a TCP stack drives (glue, sampler, BBR) |
//! | `loss.rs` | `bbr_skb_marked_lost`, congestion signals, `bbr_ssthresh`, `bbr_undo_cwnd`, `bbr_set_state` |
//!
//! Randomness (two draws at each PROBE_DOWN start: `bbr_pick_probe_wait`) comes from
//! the caller's [`RandomSource`], as time does. What the kernel leaves out here: PLB
//! (`tcp_plb_enabled` is 0 by default, so every `tcp_plb_*` call returns at once), the
//! receiver-side CE echo (`CA_EVENT_ECN_IS_CE`/`NO_CE`, `dctcp_ece_ack_update`), and TLP
//! recovery (`CA_EVENT_TLP_RECOVERY`): the glue raises none of those events.

mod bw_filter;
mod controller;
mod cwnd;
mod ecn;
mod flow;
mod loss;
mod lower_bounds;
mod pacing;
mod params;
mod probe_bw;
mod probe_rtt;
mod sample;
mod startup;
mod state;
mod upper_bounds;

pub use controller::{Bbr3Controller, MAX_UNNAMED_LOSSES};
pub use flow::{Bbr3, Bbr3Ack, Bbr3Rto};
pub use loss::{LostSkb, bbr_set_state, bbr_skb_marked_lost, bbr_ssthresh, bbr_undo_cwnd};
pub use params::{BBR_UNIT, BW_UNIT, Bbr3Config, Bbr3Params, DEFAULT_MAX_TCP_HEADER};
pub use sample::{FastPath, Sample};
pub use state::{AckPhase, Bbr, CyclePhase, Mode};

use crate::linux::CaState;
use crate::linux::bbr::BbrSock;
use crate::linux::tcp::{
    CaEvent, RandomSource, RateSample, TcpCongestionOps, TcpSock, TxSnapshot, ecn_flags,
};
use bw_filter::{
    bbr_advance_latest_delivery_signals, bbr_calculate_bw_sample,
    bbr_update_latest_delivery_signals, bbr_update_round_start,
};
use cwnd::{bbr_set_cwnd, bbr_update_ack_aggregation, bbr_update_gains};
use lower_bounds::{bbr_bound_cwnd_for_inflight_model, bbr_reset_congestion_signals};
pub(crate) use pacing::PacedAt;
use pacing::{bbr_init_pacing_rate_from_rtt, bbr_set_pacing_rate};
use params::{ECN_ALPHA_INIT, FAST_PATH, GSO_LEGACY_MAX_SIZE};
use probe_bw::{bbr_check_drain, bbr_update_cycle_phase};
use probe_rtt::{bbr_check_probe_rtt_done, bbr_update_min_rtt};
use startup::{bbr_check_full_bw_reached, bbr_check_loss_too_high_in_startup, bbr_reset_full_bw};

/// `bbr_init`: a fresh flow in STARTUP, pacing at 2.77 × cwnd per smoothed RTT (1 ms
/// before any sample). `min_rtt_us` starts from the socket's `tcp_min_rtt`; internal
/// pacing is turned on (`sk_pacing_status` none → needed).
pub fn bbr_init(bbr: &mut Bbr, sk: &mut TcpSock, tcp_min_rtt: u32) {
    *bbr = Bbr {
        // `init_cwnd:7`: at most 127.
        init_cwnd: sk.snd_cwnd.min(0x7f) as u8,
        prior_cwnd: sk.prior_cwnd,
        next_rtt_delivered: sk.delivered,
        prev_ca_state: CaState::Open,
        probe_rtt_min_us: tcp_min_rtt,
        probe_rtt_min_stamp: sk.tcp_jiffies32,
        min_rtt_us: tcp_min_rtt,
        min_rtt_stamp: sk.tcp_jiffies32,
        mode: Mode::Startup,
        ack_epoch_mstamp: sk.tcp_mstamp,
        // Start sampling loss rounds after the first full flight is ACKed.
        loss_round_delivered: sk.delivered.wrapping_add(1),
        bw_lo: u32::MAX,
        inflight_lo: u32::MAX,
        inflight_hi: u32::MAX,
        bw_probe_up_cnt: u32::MAX,
        ack_phase: AckPhase::Init,
        ecn_alpha: ECN_ALPHA_INIT,
        ..Bbr::default()
    };
    bbr.set_initialized(true);
    sk.snd_ssthresh = crate::linux::TCP_INFINITE_SSTHRESH;
    bbr_init_pacing_rate_from_rtt(bbr, sk);
    bbr_reset_congestion_signals(bbr);
    bbr_reset_full_bw(bbr);
    if sk.sk_pacing_status == 0 {
        sk.sk_pacing_status = 1;
    }
    if ecn::bbr_can_use_ecn(sk) {
        sk.ecn_flags |= ecn_flags::TCP_ECN_ECT_PERMANENT;
    }
}

/// The first part of `bbr_update_model`: the congestion signals, ACK aggregation and
/// STARTUP's exits, which the fast path skips. The rest of the kernel's
/// `bbr_update_model` ([`bbr_update_model_common`]) also runs on the fast path.
fn bbr_update_model_slow<S: BbrSock>(
    bbr: &mut Bbr,
    sk: &mut S,
    p: &Bbr3Params,
    rs: &Sample,
    sample_bw: u32,
    valid: bool,
) {
    // Both need a valid sample: tested once.
    if valid {
        loss::bbr_update_congestion_signals(bbr, sk, rs, sample_bw);
        bbr_update_ack_aggregation(bbr, sk, rs);
    }
    bbr_check_loss_too_high_in_startup(bbr, sk, p, rs);
    bbr_check_full_bw_reached(bbr, rs, sample_bw);
}

/// The steps `bbr_update_model` and `bbr_run_fast_path` share, in the kernel's order:
/// DRAIN's check, the cycle phase and the min-RTT filters. One call site, so that
/// they are compiled once into `bbr_main`.
#[inline(always)]
fn bbr_update_model_common<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &mut S,
    p: &Bbr3Params,
    rs: &Sample,
    sample_bw: u32,
    rand: &mut R,
) {
    // `bbr_check_drain` acts only in STARTUP and DRAIN.
    if matches!(bbr.mode, Mode::Startup | Mode::Drain) {
        bbr_check_drain(bbr, sk, p, rand);
    }
    bbr_update_cycle_phase(bbr, sk, p, rs, sample_bw, rand);
    bbr_update_min_rtt(bbr, sk, rs, rand);
}

/// Whether `bbr_run_fast_path` runs: an app-limited ACK below the max bandwidth with
/// no loss or CE in the round, after a control update that left `try_fast_path` set.
fn bbr_fast_path_eligible(bbr: &Bbr, rs: &Sample, sample_bw: u32) -> bool {
    // The sample's flag first: a cwnd-limited flow decides on it alone.
    FAST_PATH
        && rs.is_app_limited
        && bbr.try_fast_path()
        && sample_bw < bbr.max_bw()
        && !bbr.loss_in_round()
        && !bbr.ecn_in_round()
}

/// `bbr_main`, the `cong_control` hook: after the glue processed an ACK and built its
/// rate sample `rs`, update the model, then the pacing rate and cwnd. Returns what the
/// fast path decided.
///
/// `bbr_run_fast_path` (on an eligible ACK, only DRAIN's check, the cycle phase and
/// the min-RTT filters run; if none of mode, min_rtt and `try_fast_path` changes, the
/// control update is skipped as well) and `bbr_update_model` share their last three
/// steps: here they run once, after the model's first part when the fast path is
/// not eligible.
pub fn bbr_main<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &mut S,
    p: &Bbr3Params,
    rs: &Sample,
    rand: &mut R,
) -> FastPath {
    let mut none = PacedAt::NONE;
    bbr_main_paced(bbr, sk, p, rs, rand, &mut none)
}

/// [`bbr_main`] with what the socket's pacing rate was computed from (see
/// [`PacedAt`]): a flow that keeps it skips recomputing an unchanged rate.
#[inline(always)]
pub(super) fn bbr_main_paced<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &mut S,
    p: &Bbr3Params,
    rs: &Sample,
    rand: &mut R,
    paced: &mut PacedAt,
) -> FastPath {
    bbr_update_round_start(bbr, sk, rs);
    if bbr.round_start() {
        bbr.rounds_since_probe = bbr.rounds_since_probe.saturating_add(1);
        ecn::bbr_update_ecn_alpha(bbr, sk, p);
    }
    if bbr.ecn_eligible() && rs.is_ece {
        bbr.set_ecn_in_round(true);
    }
    let sample_bw = bbr_calculate_bw_sample(rs);
    let valid = bbr_update_latest_delivery_signals(bbr, sk, rs, sample_bw);

    // On the fast path, the mode and min_rtt before its steps (`None`: not taken).
    let prev = if bbr_fast_path_eligible(bbr, rs, sample_bw) {
        Some((bbr.mode, bbr.min_rtt_us))
    } else {
        bbr_update_model_slow(bbr, sk, p, rs, sample_bw, valid);
        None
    };
    bbr_update_model_common(bbr, sk, p, rs, sample_bw, rand);
    let fast_path = match prev {
        None => FastPath::NotTaken,
        Some((mode, min_rtt_us))
            if bbr.mode == mode && bbr.min_rtt_us == min_rtt_us && bbr.try_fast_path() =>
        {
            FastPath::Skipped
        }
        Some(_) => FastPath::ControlOnly,
    };
    if fast_path != FastPath::Skipped {
        bbr_update_gains(bbr);
        let bw = bbr.bw();
        bbr_set_pacing_rate(bbr, sk, bw, u32::from(bbr.pacing_gain), paced);
        bbr_set_cwnd(bbr, sk, p, rs.acked_sacked, bw, u32::from(bbr.cwnd_gain));
        bbr_bound_cwnd_for_inflight_model(bbr, sk);
    }

    bbr_advance_latest_delivery_signals(bbr, rs, sample_bw);
    bbr.prev_ca_state = sk.icsk_ca_state();
    if rs.lost > 0 {
        bbr.set_loss_in_cycle(true);
    }
    if rs.delivered_ce > 0 {
        bbr.set_ecn_in_cycle(true);
    }
    fast_path
}

/// `bbr_cwnd_event` for `CA_EVENT_TX_START` (the only event it acts on here): a
/// restart from idle while app-limited starts a new aggregation epoch and paces at
/// the estimate (PROBE_BW) or may end PROBE_RTT.
pub fn bbr_cwnd_event_tx_start<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &mut S,
    rand: &mut R,
) {
    if sk.app_limited() == 0 {
        return;
    }
    bbr.set_idle_restart(true);
    bbr.ack_epoch_mstamp = sk.mstamp();
    bbr.ack_epoch_acked = 0;
    if bbr.mode == Mode::ProbeBw {
        let bw = bbr.bw();
        let mut none = PacedAt::NONE;
        bbr_set_pacing_rate(bbr, sk, bw, BBR_UNIT, &mut none);
    } else if bbr.mode == Mode::ProbeRtt {
        bbr_check_probe_rtt_done(bbr, sk, rand);
    }
}

/// `bbr_tso_segs`: segments per TSO/GSO skb for `mss_now` and the device's
/// `gso_max_size` (the `tso_segs` hook).
pub fn bbr_tso_segs<S: BbrSock>(
    bbr: &Bbr,
    sk: &S,
    p: &Bbr3Params,
    mss_now: u32,
    gso_max_size: u32,
) -> u32 {
    pacing::bbr_tso_segs_generic(bbr, sk, p, mss_now, gso_max_size)
}

/// `bbr_tso_segs_goal`: segments per burst for `mss_cache` and the legacy 64 KB limit.
pub fn bbr_tso_segs_goal<S: BbrSock>(bbr: &Bbr, sk: &S, p: &Bbr3Params) -> u32 {
    pacing::bbr_tso_segs_generic(bbr, sk, p, sk.mss_cache(), GSO_LEGACY_MAX_SIZE)
}

impl Sample {
    /// The fields of the glue's rate sample that BBRv3 reads.
    pub const fn from_rate_sample(rs: &RateSample) -> Self {
        Sample {
            prior_delivered: rs.prior_delivered,
            delivered: rs.delivered,
            delivered_ce: rs.delivered_ce,
            lost: rs.lost,
            tx_in_flight: rs.tx_in_flight,
            interval_us: rs.interval_us,
            rtt_us: rs.rtt_us,
            losses: rs.losses,
            acked_sacked: rs.acked_sacked,
            prior_in_flight: rs.prior_in_flight,
            is_app_limited: rs.is_app_limited,
            is_ack_delayed: rs.is_ack_delayed,
            is_ece: rs.is_ece,
        }
    }
}

impl LostSkb {
    /// What BBRv3 reads of a lost segment's send snapshot (`pcount` segments).
    pub const fn from_tx(tx: &TxSnapshot, pcount: u32) -> Self {
        LostSkb {
            // The v3 snapshot keeps u32 stamps: the low 32 bits are what is tested.
            delivered_mstamp: tx.delivered_mstamp as u32,
            in_flight: tx.in_flight(),
            lost: tx.lost,
            is_app_limited: tx.is_app_limited(),
            pcount,
        }
    }
}

/// BBRv3's hook table (`tcp_bbr_cong_ops` of Google's v3 `tcp_bbr.c`): `cong_control`
/// replaces `cong_avoid` and the glue's pacing update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpBbr3;

impl TcpCongestionOps for TcpBbr3 {
    type Ca = Bbr;
    type Params = Bbr3Params;
    const NAME: &'static str = "bbr";
    const HAS_CONG_CONTROL: bool = true;

    fn init<R: RandomSource>(ca: &mut Bbr, sk: &mut TcpSock, p: &Bbr3Params, rand: &mut R) {
        let _ = (p, rand);
        let min_rtt = sk.tcp_min_rtt();
        bbr_init(ca, sk, min_rtt);
    }

    fn ssthresh(ca: &mut Bbr, sk: &TcpSock, p: &Bbr3Params) -> u32 {
        let _ = p;
        bbr_ssthresh(ca, sk)
    }

    fn undo_cwnd(ca: &mut Bbr, sk: &TcpSock, p: &Bbr3Params) -> u32 {
        let _ = (sk, p);
        bbr_undo_cwnd(ca)
    }

    fn set_state(ca: &mut Bbr, sk: &mut TcpSock, p: &Bbr3Params, new_state: CaState) {
        let _ = p;
        bbr_set_state(ca, sk, new_state);
    }

    /// Only `CA_EVENT_TX_START` acts; it may draw (PROBE_RTT's end), so without a
    /// random source the draws read 0: the glue calls [`Self::cwnd_event_with_random`].
    fn cwnd_event(ca: &mut Bbr, sk: &mut TcpSock, p: &Bbr3Params, event: CaEvent) {
        Self::cwnd_event_with_random(
            ca,
            sk,
            p,
            event,
            &mut crate::linux::tcp::ReplayedRandom::<0>::new(),
        );
    }

    fn cwnd_event_with_random<R: RandomSource>(
        ca: &mut Bbr,
        sk: &mut TcpSock,
        p: &Bbr3Params,
        event: CaEvent,
        rand: &mut R,
    ) {
        let _ = p;
        if event == CaEvent::TxStart {
            bbr_cwnd_event_tx_start(ca, sk, rand);
        }
    }

    fn cong_control<R: RandomSource>(
        ca: &mut Bbr,
        sk: &mut TcpSock,
        p: &Bbr3Params,
        ack: u32,
        flag: u32,
        rs: &RateSample,
        rand: &mut R,
    ) {
        let _ = (ack, flag);
        bbr_main(ca, sk, p, &Sample::from_rate_sample(rs), rand);
    }

    fn skb_marked_lost<R: RandomSource>(
        ca: &mut Bbr,
        sk: &mut TcpSock,
        p: &Bbr3Params,
        tx: &TxSnapshot,
        pcount: u32,
        rand: &mut R,
    ) {
        bbr_skb_marked_lost(ca, sk, p, &LostSkb::from_tx(tx, pcount), rand);
    }

    fn tso_segs(ca: &Bbr, sk: &TcpSock, p: &Bbr3Params, mss_now: u32) -> Option<u32> {
        // The device's GSO limit is the legacy 64 KB here (no driver to ask).
        Some(bbr_tso_segs(ca, sk, p, mss_now, GSO_LEGACY_MAX_SIZE))
    }
}

/// The arithmetic `crate::rfc::Bbr3` (draft-ietf-ccwg-bbr, in bytes) shares with this
/// kernel code: the pure cores the `bbr_*` functions above call, imported there rather
/// than copied, and the constants the draft and the kernel agree on.
pub(crate) mod shared {
    pub(crate) use super::bw_filter::{
        advance_max_filter, bw_sample_scaled, scale, take_max_sample,
    };
    pub(crate) use super::cwnd::bdp_scaled;
    pub(crate) use super::ecn::{ecn_alpha_next, ecn_cut};
    pub(crate) use super::lower_bounds::loss_lower_bound;
    pub(crate) use super::pacing::rate_bytes_per_sec_scaled;
    pub(crate) use super::params::{
        BBR_UNIT, BW_PROBE_CWND_GAIN, BW_PROBE_MAX_ROUNDS, CWND_GAIN, CWND_MIN_TARGET,
        EXTRA_ACKED_WIN_RTTS, FULL_BW_CNT, FULL_BW_THRESH, FULL_ECN_CNT, FULL_LOSS_CNT,
        MIN_RTT_WIN_SEC, PACING_GAIN, PACING_MARGIN_PERCENT, PROBE_RTT_CWND_GAIN,
        PROBE_RTT_MODE_MS, PROBE_RTT_WIN_MS, STARTUP_PACING_GAIN,
    };
    pub(crate) use super::probe_bw::pick_probe_wait;
    pub(crate) use super::upper_bounds::{
        ce_too_high, inflight_at_loss, inflight_hi_increments, inflight_hi_slope,
        inflight_hi_when_too_high, inflight_with_headroom, loss_too_high,
    };
}
