//! The congestion window: BDP, quantization budget, the ACK-aggregation allowance,
//! `bbr_set_cwnd`, and the gains each mode applies.

use super::pacing::bbr_tso_segs_goal;
use super::params::{
    ACK_EPOCH_ACKED_RESET_THRESH, BBR_SCALE, BBR_UNIT, BW_PROBE_CWND_GAIN, BW_UNIT, CWND_GAIN,
    CWND_MIN_TARGET, DRAIN_GAIN, EXTRA_ACKED_GAIN, EXTRA_ACKED_MAX_US, EXTRA_ACKED_WIN_RTTS,
    GSO_LEGACY_MAX_SIZE, PACING_GAIN, PROBE_RTT_CWND_GAIN, STARTUP_CWND_GAIN, STARTUP_PACING_GAIN,
};
use super::{Bbr, Bbr3Params, CyclePhase, Mode, Sample};
use crate::linux::CaState;
use crate::linux::bbr::BbrSock;

/// `bbr_bdp`: `ceil(bw * min_rtt * gain)` in packets; `init_cwnd` before any RTT
/// sample. The kernel's u64 arithmetic wraps for products beyond 2^64, and so does
/// this; the result keeps the low 32 bits as the kernel's `u32` does.
pub(super) fn bbr_bdp(bbr: &Bbr, bw: u32, gain: u32) -> u32 {
    if bbr.min_rtt_us == u32::MAX {
        return u32::from(bbr.init_cwnd);
    }
    bdp_scaled(bw, bbr.min_rtt_us, gain, BW_UNIT) as u32
}

/// The arithmetic of `bbr_bdp`, shared with `rfc::Bbr3` (bytes at its own `unit`, a
/// power of two): `ceil(bw * min_rtt * gain / 256 / unit)`, wrapping as the kernel's
/// u64 does (`unit` 0 reads as 1).
pub(crate) fn bdp_scaled(bw: u32, min_rtt_us: u32, gain: u32, unit: u64) -> u64 {
    let w = u64::from(bw) * u64::from(min_rtt_us);
    // Linux net/ipv4/tcp_bbr.c bbr_bdp(): (((w * gain) >> 8) + BW_UNIT - 1) / BW_UNIT
    ((w.wrapping_mul(u64::from(gain)) >> BBR_SCALE).wrapping_add(unit.wrapping_sub(1)))
        / unit.max(1)
}

/// `bbr_quantization_budget`: room for three TSO bursts, at least 4 packets, plus 2
/// in PROBE_UP so that gain cycling lifts the flight above a small BDP.
pub(super) fn bbr_quantization_budget<S: BbrSock>(
    bbr: &Bbr,
    sk: &S,
    p: &Bbr3Params,
    cwnd: u32,
) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_quantization_budget(): max(cwnd, 3 * tso_segs_goal, 4)
    let mut cwnd = cwnd.max(CWND_MIN_TARGET);
    if !tso_goal_below(cwnd, sk.mss_cache(), p) {
        cwnd = cwnd.max(bbr_tso_segs_goal(bbr, sk, p).wrapping_mul(3));
    }
    if bbr.mode == Mode::ProbeBw && bbr.cycle_idx == CyclePhase::Up {
        cwnd = cwnd.wrapping_add(2);
    }
    cwnd
}

/// Whether `3 * bbr_tso_segs_goal()` (wrapping, as the budget computes it) is at most
/// `cwnd` for any pacing rate and min_rtt, so the goal (a division) is skipped. The
/// goal is `max(min(bytes, cap) / mss, tcp_min_tso_segs)` with `cap` at most
/// `gso_max_size - 1`, so `cwnd * mss >= 3 * (gso_max_size - 1)` and `cwnd >= 3 *
/// tcp_min_tso_segs` (in u64: no wrap) suffice; cwnds just below compute the goal.
fn tso_goal_below(cwnd: u32, mss: u32, p: &Bbr3Params) -> bool {
    let cap_max = u64::from(GSO_LEGACY_MAX_SIZE.saturating_sub(1));
    u64::from(cwnd) * u64::from(mss) >= 3 * cap_max
        && u64::from(cwnd) >= 3 * u64::from(p.min_tso_segs())
}

/// `bbr_inflight`: the BDP at `gain` with the quantization budget.
pub(super) fn bbr_inflight<S: BbrSock>(
    bbr: &Bbr,
    sk: &S,
    p: &Bbr3Params,
    bw: u32,
    gain: u32,
) -> u32 {
    let inflight = bbr_bdp(bbr, bw, gain);
    bbr_quantization_budget(bbr, sk, p, inflight)
}

/// `bbr_target_inflight`: the BDP, unless congestion already cut cwnd below it.
pub(super) fn bbr_target_inflight<S: BbrSock>(bbr: &Bbr, sk: &S, p: &Bbr3Params) -> u32 {
    bbr_inflight(bbr, sk, p, bbr.bw(), BBR_UNIT).min(sk.snd_cwnd())
}

/// `bbr_ack_aggregation_cwnd`: the recent excess of ACKed data, at most 100 ms of
/// bandwidth.
/// `bw` is `bbr_bw()`, which the caller already read.
pub(super) fn bbr_ack_aggregation_cwnd(bbr: &Bbr, bw: u32) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_ack_aggregation_cwnd(): min(gain * extra_acked >> 8, bw * 100 ms)
    let max_aggr_cwnd = (u64::from(bw) * EXTRA_ACKED_MAX_US / BW_UNIT) as u32;
    let aggr_cwnd = (EXTRA_ACKED_GAIN * u32::from(bbr.extra_acked_max())) >> BBR_SCALE;
    aggr_cwnd.min(max_aggr_cwnd)
}

/// `bbr_probe_rtt_cwnd`: half the BDP, at least 4 packets.
pub(super) fn bbr_probe_rtt_cwnd(bbr: &Bbr) -> u32 {
    CWND_MIN_TARGET.max(bbr_bdp(bbr, bbr.bw(), PROBE_RTT_CWND_GAIN))
}

/// `bbr_save_cwnd`: remember the last good cwnd before recovery or PROBE_RTT cuts it.
pub(super) fn bbr_save_cwnd<S: BbrSock>(bbr: &mut Bbr, sk: &S) {
    if (bbr.prev_ca_state as u8) < CaState::Recovery as u8 && bbr.mode != Mode::ProbeRtt {
        bbr.prior_cwnd = sk.snd_cwnd();
    } else {
        bbr.prior_cwnd = bbr.prior_cwnd.max(sk.snd_cwnd());
    }
}

/// `bbr_update_ack_aggregation`: the windowed max of data ACKed beyond what `bw`
/// predicts since the epoch began. For a valid sample (the caller tests it).
pub(super) fn bbr_update_ack_aggregation<S: BbrSock>(bbr: &mut Bbr, sk: &S, rs: &Sample) {
    if rs.delivered < 0 {
        return;
    }
    if bbr.round_start() {
        bbr.extra_acked_win_rtts = (bbr.extra_acked_win_rtts + 1).min(0x1f);
        let thresh = if bbr.full_bw_reached() {
            EXTRA_ACKED_WIN_RTTS
        } else {
            1
        };
        if u32::from(bbr.extra_acked_win_rtts) >= thresh {
            bbr.extra_acked_win_rtts = 0;
            bbr.extra_acked_win_idx ^= 1;
            bbr.set_extra_acked_current(0);
        }
    }
    // Linux net/ipv4/tcp_bbr.c bbr_update_ack_aggregation(): expected = bw * epoch_us / BW_UNIT
    let epoch_us = tcp_stamp_us_delta(sk.delivered_mstamp(), bbr.ack_epoch_mstamp);
    let mut expected_acked = (u64::from(bbr.bw()) * u64::from(epoch_us) / BW_UNIT) as u32;
    let acked = bbr.ack_epoch_acked.wrapping_add(rs.acked_sacked);
    if bbr.ack_epoch_acked <= expected_acked || acked >= ACK_EPOCH_ACKED_RESET_THRESH {
        bbr.ack_epoch_mstamp = sk.delivered_mstamp();
        expected_acked = 0;
        // `ack_epoch_acked:20` saturates at 2^20 - 1.
        bbr.ack_epoch_acked = rs.acked_sacked.min(0xfffff);
    } else {
        // Below 2^20: no saturation.
        bbr.ack_epoch_acked = acked;
    }
    let extra_acked = bbr
        .ack_epoch_acked
        .wrapping_sub(expected_acked)
        .min(sk.snd_cwnd());
    if extra_acked > u32::from(bbr.extra_acked_current()) {
        // `extra_acked[]` is u16: the kernel keeps the low 16 bits.
        bbr.set_extra_acked_current(extra_acked as u16);
    }
}

const _: () = assert!(ACK_EPOCH_ACKED_RESET_THRESH <= 1 << 20);

/// `tcp_stamp_us_delta`: the glue's one copy.
pub(super) use crate::linux::tcp::rate::tcp_stamp_us_delta;

/// `bbr_set_cwnd`: grow toward the target (BDP at `gain` plus the aggregation
/// allowance and quantization budget) by what this ACK delivered; once the pipe was
/// full, snap down to the target. An ACK that delivered nothing only applies the caps.
/// `bw` is `bbr_bw()` (which the kernel's aggregation allowance reads again).
pub(super) fn bbr_set_cwnd<S: BbrSock>(
    bbr: &mut Bbr,
    sk: &mut S,
    p: &Bbr3Params,
    acked: u32,
    bw: u32,
    gain: u32,
) {
    let mut cwnd = sk.snd_cwnd();
    if acked != 0 {
        let target_cwnd = bbr_bdp(bbr, bw, gain).wrapping_add(bbr_ack_aggregation_cwnd(bbr, bw));
        let target_cwnd = bbr_quantization_budget(bbr, sk, p, target_cwnd);
        // The kernel clears `try_fast_path` here and sets it again when cwnd reached
        // its target; nothing reads it in between, so it is written once.
        let mut try_fast_path = false;
        if bbr.full_bw_reached() {
            cwnd = cwnd.wrapping_add(acked);
            if cwnd >= target_cwnd {
                cwnd = target_cwnd;
                try_fast_path = true;
            }
        } else if cwnd < target_cwnd || cwnd < 2 * u32::from(bbr.init_cwnd) {
            cwnd = cwnd.wrapping_add(acked);
        } else {
            try_fast_path = true;
        }
        bbr.set_try_fast_path(try_fast_path);
        cwnd = cwnd.max(CWND_MIN_TARGET);
    }
    sk.set_snd_cwnd(cwnd.min(sk.snd_cwnd_clamp()));
    if bbr.mode == Mode::ProbeRtt {
        sk.set_snd_cwnd(sk.snd_cwnd().min(bbr_probe_rtt_cwnd(bbr)));
    }
}

/// The pacing and cwnd gains of `mode` and `phase`, as `bbr_update_gains` picks them.
const fn gains(mode: Mode, phase: CyclePhase) -> (u32, u32) {
    match mode {
        Mode::Startup => (STARTUP_PACING_GAIN, STARTUP_CWND_GAIN),
        Mode::Drain => (DRAIN_GAIN, STARTUP_CWND_GAIN),
        Mode::ProbeBw => {
            let pacing = match phase {
                CyclePhase::Up => PACING_GAIN[0],
                CyclePhase::Down => PACING_GAIN[1],
                CyclePhase::Cruise => PACING_GAIN[2],
                CyclePhase::Refill => PACING_GAIN[3],
            };
            let mut cwnd = CWND_GAIN;
            if BW_PROBE_CWND_GAIN != 0 && matches!(phase, CyclePhase::Up) {
                // Linux net/ipv4/tcp_bbr.c bbr_update_gains(): cwnd_gain += BBR_UNIT * bw_probe_cwnd_gain / 4
                cwnd += BBR_UNIT * BW_PROBE_CWND_GAIN / 4;
            }
            (pacing, cwnd)
        }
        Mode::ProbeRtt => (BBR_UNIT, BBR_UNIT),
    }
}

/// [`gains`] for every `mode * 4 + phase`, packed `cwnd << 16 | pacing` (their order
/// in memory: one store; each fits the kernel's 10 bits: at most 710).
const GAINS: [u32; 16] = {
    const MODES: [Mode; 4] = [Mode::Startup, Mode::Drain, Mode::ProbeBw, Mode::ProbeRtt];
    const PHASES: [CyclePhase; 4] = [
        CyclePhase::Up,
        CyclePhase::Down,
        CyclePhase::Cruise,
        CyclePhase::Refill,
    ];
    let mut table = [0; 16];
    let mut i = 0;
    while i < 16 {
        let (pacing, cwnd) = gains(MODES[i / 4], PHASES[i % 4]);
        table[i] = cwnd << 16 | pacing;
        i += 1;
    }
    table
};

// `PacedAt::is` needs every pacing gain above 0.
const _: () = {
    let mut i = 0;
    while i < 16 {
        assert!(GAINS[i] & 0xffff != 0);
        i += 1;
    }
};

/// `bbr_update_gains`: the pacing and cwnd gains of the current mode and phase (one
/// table lookup instead of the kernel's switch; same values).
pub(super) fn bbr_update_gains(bbr: &mut Bbr) {
    let index = (bbr.mode as usize) << 2 | bbr.cycle_idx as usize;
    // Both enums are 2-bit: the index is below 16.
    let packed = GAINS[index & 15];
    bbr.pacing_gain = packed as u16;
    bbr.cwnd_gain = (packed >> 16) as u16;
}

#[cfg(test)]
mod tests;
