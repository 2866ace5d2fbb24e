//! The control parameters (§5.6): pacing rate, send quantum and cwnd, from the model.

use super::params::{BW_SCALE, BW_UNIT, GAIN_UNIT, PACING_MARGIN_PERCENT, SEND_QUANTUM_MAX};
use super::{Bbr3, Bbr3Params, State};
use crate::linux::bbr3::shared::bdp_scaled;
use crate::linux::bbr3::shared::inflight_with_headroom;
use crate::linux::bbr3::shared::rate_bytes_per_sec_scaled;

/// `pacing_gain × bw × (100 − PacingMarginPercent) / 100` in bytes/s, at least 1: the
/// kernel's `bbr_rate_bytes_per_sec` arithmetic with a bandwidth already in bytes.
pub(super) fn rate_for(bw: u32, gain: u32) -> u64 {
    // draft-ietf-ccwg-bbr §5.6.2 SetPacingRateWithGain(): the kernel's bbr_rate_bytes_per_sec()
    rate_bytes_per_sec_scaled(u64::from(bw), 1, gain, PACING_MARGIN_PERCENT, BW_SCALE)
}

impl Bbr3 {
    /// `SetPacingRateWithGain()` (§5.6.2): before the pipe is full, only upward.
    pub(super) fn set_pacing_rate_with_gain(&mut self, gain: u32) {
        let rate = rate_for(self.m.bw, gain);
        if self.m.full_bw_reached || rate > self.pacing_rate {
            self.pacing_rate = rate;
        }
    }

    /// `SetSendQuantum()` (§5.6.3): 1 ms of the pacing rate, within [2 SMSS, 64 KB].
    pub(super) fn set_send_quantum(&mut self, p: &Bbr3Params) {
        // draft-ietf-ccwg-bbr §5.6.3 SetSendQuantum(): pacing_rate * 1 ms, min 64 KB, max 2 SMSS
        let quantum = (self.pacing_rate / 1000).min(u64::from(SEND_QUANTUM_MAX)) as u32;
        // draft-ietf-ccwg-bbr §5.6.3 SetSendQuantum(): at least 2 SMSS
        self.send_quantum = quantum.max(2 * p.smss());
    }

    /// `BDPMultiple(gain)` (§5.6.4.2): `gain × bw × min_rtt`, rounded up (the kernel's
    /// `bbr_bdp` arithmetic at [`BW_UNIT`]); `C.InitialCwnd` before any RTT sample.
    /// Saturates at `u32::MAX - 1` (the kernel keeps the low 32 bits).
    pub(super) fn bdp_multiple(&self, p: &Bbr3Params, bw: u32, gain: u32) -> u32 {
        if self.m.min_rtt_us == u32::MAX {
            return p.config().initial_cwnd;
        }
        // Linux net/ipv4/tcp_bbr.c bbr_bdp(), at BW_UNIT = 2^16 bytes per µs
        let bdp = bdp_scaled(bw, self.m.min_rtt_us, gain, BW_UNIT);
        bdp.min(u64::from(u32::MAX - 1)) as u32
    }

    /// `QuantizationBudget()` (§5.6.4.2): at least the QUIC offload budget (the send
    /// quantum, plus what a pacing offload holds: §5.5.8.2) and `BBR.MinPipeCwnd`;
    /// 2 SMSS more in ProbeBW_UP. The kernel budgets three TSO bursts (§5.5.8.1).
    fn quantization_budget(&self, p: &Bbr3Params, inflight_cap: u32) -> u32 {
        // draft-ietf-ccwg-bbr §5.5.8.2 UpdateOffloadBudget(): send_quantum (+ pacing offload)
        let offload_budget = self
            .send_quantum
            .saturating_add(p.config().pacing_offload_bytes);
        // draft-ietf-ccwg-bbr §5.6.4.2 QuantizationBudget(): max(cap, offload_budget, MinPipeCwnd)
        let mut cap = inflight_cap.max(offload_budget).max(p.min_pipe_cwnd());
        if self.m.state == State::ProbeBwUp {
            // draft-ietf-ccwg-bbr §5.6.4.2 QuantizationBudget(): + 2 SMSS in ProbeBW_UP
            cap = cap.saturating_add(2 * p.smss());
        }
        cap.min(u32::MAX - 1)
    }

    /// `Inflight(bw, gain)` (§5.6.4.2).
    pub(super) fn inflight(&self, p: &Bbr3Params, bw: u32, gain: u32) -> u32 {
        self.quantization_budget(p, self.bdp_multiple(p, bw, gain))
    }

    /// `TargetInflight()` (§5.3.3.8.2): `min(BBR.bdp, C.cwnd)`. The kernel's
    /// `bbr_target_inflight` adds the quantization budget to the BDP.
    pub(super) fn target_inflight(&self, p: &Bbr3Params) -> u32 {
        // draft-ietf-ccwg-bbr §5.3.3.8.2 TargetInflight(): min(BBR.bdp, C.cwnd)
        self.bdp_multiple(p, self.m.bw, GAIN_UNIT).min(self.cwnd)
    }

    /// `InflightWithHeadroom()` (§5.3.3.9): the kernel's arithmetic, with one SMSS of
    /// least headroom and a floor of `BBR.MinPipeCwnd`.
    pub(super) fn inflight_with_headroom(&self, p: &Bbr3Params) -> u32 {
        // Linux net/ipv4/tcp_bbr.c bbr_inflight_with_headroom(): max(hi - max(hi * 15%, 1), min)
        inflight_with_headroom(self.m.inflight_longterm, p.smss(), p.min_pipe_cwnd())
    }

    /// `ProbeRTTCwnd()` (§5.6.4.5): half the BDP, at least `BBR.MinPipeCwnd`.
    pub(super) fn probe_rtt_cwnd(&self, p: &Bbr3Params) -> u32 {
        // draft-ietf-ccwg-bbr §5.6.4.5 ProbeRTTCwnd(): max(BDPMultiple(0.5), MinPipeCwnd)
        self.bdp_multiple(p, self.m.bw, super::params::PROBE_RTT_CWND_GAIN)
            .max(p.min_pipe_cwnd())
    }

    /// `SetCwnd()` (§5.6.4.6) with `UpdateMaxInflight()` (§5.6.4.2),
    /// `BoundCwndForProbeRTT()` (§5.6.4.5) and `BoundCwndForModel()` (§5.6.4.7).
    /// Before the pipe is full the draft grows while `C.delivered < C.InitialCwnd`; the
    /// kernel's `bbr_set_cwnd` while `cwnd < 2 × init_cwnd`. The kernel grows nothing on
    /// an ACK that delivered nothing; the draft's steps, followed here, add 0.
    pub(super) fn set_cwnd(&mut self, p: &Bbr3Params, newly_acked: u32) {
        // draft-ietf-ccwg-bbr §5.6.4.2 UpdateMaxInflight(): BDPMultiple(cwnd_gain) + extra_acked
        let cap = self
            .bdp_multiple(p, self.m.bw, self.m.cwnd_gain)
            .saturating_add(self.m.extra_acked);
        let max_inflight = self.quantization_budget(p, cap);
        if self.m.full_bw_reached {
            // draft-ietf-ccwg-bbr §5.6.4.6 SetCwnd(): min(cwnd + newly_acked, max_inflight) once the pipe was full
            self.cwnd = self.cwnd.saturating_add(newly_acked).min(max_inflight);
        } else if self.cwnd < max_inflight || self.s.delivered < p.config().initial_cwnd {
            // draft-ietf-ccwg-bbr §5.6.4.6: grow by what was acknowledged
            self.cwnd = self.cwnd.saturating_add(newly_acked);
        }
        // draft-ietf-ccwg-bbr §5.6.4.6 SetCwnd(): C.cwnd = max(C.cwnd, MinPipeCwnd)
        self.cwnd = self.cwnd.max(p.min_pipe_cwnd());
        if self.m.state == State::ProbeRtt {
            // draft-ietf-ccwg-bbr §5.6.4.5 BoundCwndForProbeRTT()
            self.cwnd = self.cwnd.min(self.probe_rtt_cwnd(p));
        }
        self.bound_cwnd_for_model(p);
    }

    /// `BoundCwndForModel()` (§5.6.4.7): `inflight_longterm` while probing (and in
    /// DOWN), less headroom in CRUISE and ProbeRTT; `inflight_shortterm` always; never
    /// below `BBR.MinPipeCwnd`.
    fn bound_cwnd_for_model(&mut self, p: &Bbr3Params) {
        let mut cap = u32::MAX;
        if self.m.state.is_probe_bw() && self.m.state != State::ProbeBwCruise {
            cap = self.m.inflight_longterm;
        } else if matches!(self.m.state, State::ProbeRtt | State::ProbeBwCruise) {
            cap = self.inflight_with_headroom(p);
        }
        // draft-ietf-ccwg-bbr §5.6.4.7 BoundCwndForModel(): min(cap, inflight_shortterm), at least MinPipeCwnd
        let cap = cap.min(self.m.inflight_shortterm).max(p.min_pipe_cwnd());
        self.cwnd = self.cwnd.min(cap);
    }
}
