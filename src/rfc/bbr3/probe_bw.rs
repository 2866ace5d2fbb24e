//! ProbeBW (§5.3.3): the cycle DOWN → CRUISE → REFILL → UP → DOWN.

use super::params::{
    BW_PROBE_MAX_ROUNDS, DEFAULT_CWND_GAIN, GAIN_UNIT, PROBE_DOWN_PACING_GAIN, PROBE_UP_CWND_GAIN,
    PROBE_UP_PACING_GAIN,
};
use super::{Bbr3, Bbr3Params, State};
use crate::linux::bbr3::AckPhase;
use crate::linux::bbr3::shared::pick_probe_wait;
use crate::linux::bbr3::shared::{inflight_hi_increments, inflight_hi_slope};
use crate::linux::tcp::RandomSource;
use crate::time::{Duration, Instant};

impl Bbr3 {
    /// `EnterProbeBW()` (§5.3.3.9).
    pub(super) fn enter_probe_bw<R: RandomSource>(&mut self, now: Instant, rand: &mut R) {
        self.m.cwnd_gain = DEFAULT_CWND_GAIN;
        self.start_probe_bw_down(now, rand);
    }

    /// `StartProbeBW_DOWN()` (§5.3.3.9): two draws from `rand` (`PickProbeWait()`).
    pub(super) fn start_probe_bw_down<R: RandomSource>(&mut self, now: Instant, rand: &mut R) {
        self.reset_congestion_signals();
        self.m.probe_up_acked_per_inc = u32::MAX;
        // draft-ietf-ccwg-bbr §5.3.3.8.2 PickProbeWait(): the kernel's bbr_pick_probe_wait() draws
        (self.m.rounds_since_probe_up, self.m.bw_probe_wait_us) = pick_probe_wait(rand);
        self.m.cycle_stamp = now;
        self.m.ack_phase = AckPhase::ProbeStopping;
        self.start_round();
        self.set_state(State::ProbeBwDown);
    }

    /// `StartProbeBW_CRUISE()` (§5.3.3.9). The kernel also lowers `inflight_lo` to
    /// `inflight_hi` here (`bbr_start_bw_probe_cruise`); the draft does not.
    pub(super) fn start_probe_bw_cruise(&mut self) {
        self.set_state(State::ProbeBwCruise);
    }

    /// `StartProbeBW_REFILL()` (§5.3.3.9).
    pub(super) fn start_probe_bw_refill(&mut self) {
        self.reset_short_term_model();
        self.m.bw_probe_up_rounds = 0;
        self.m.bw_probe_up_acked = 0;
        self.m.prev_probe_precautionary = false;
        self.m.ack_phase = AckPhase::Refilling;
        self.start_round();
        self.set_state(State::ProbeBwRefill);
    }

    /// `StartProbeBW_UP()` (§5.3.3.9).
    fn start_probe_bw_up(&mut self, p: &Bbr3Params, now: Instant, rate: u32) {
        self.m.ack_phase = AckPhase::ProbeStarting;
        self.start_round();
        self.reset_full_bw();
        self.m.full_bw = rate;
        self.m.cycle_stamp = now;
        self.set_state(State::ProbeBwUp);
        self.raise_inflight_longterm_slope(p);
    }

    /// A ProbeBW state and its gains (§5.6.1's table).
    fn set_state(&mut self, state: State) {
        self.m.state = state;
        (self.m.pacing_gain, self.m.cwnd_gain) = match state {
            State::ProbeBwDown => (PROBE_DOWN_PACING_GAIN, DEFAULT_CWND_GAIN),
            State::ProbeBwUp => (PROBE_UP_PACING_GAIN, PROBE_UP_CWND_GAIN),
            _ => (GAIN_UNIT, DEFAULT_CWND_GAIN),
        };
    }

    /// `UpdateProbeBWCyclePhase()` (§5.3.3.9), on ACKs that acknowledge data.
    pub(super) fn update_probe_bw_cycle_phase<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        rate: u32,
        is_cwnd_limited: bool,
        rand: &mut R,
    ) {
        if !self.m.full_bw_reached || self.newly_acked == 0 {
            return;
        }
        if self.adapt_long_term_model(p, is_cwnd_limited, now, rand) {
            return;
        }
        match self.m.state {
            State::ProbeBwDown => {
                if self.is_time_to_probe_bw(p, now) {
                    return;
                }
                if self.is_time_to_cruise(p) {
                    self.start_probe_bw_cruise();
                }
            }
            State::ProbeBwCruise => {
                self.is_time_to_probe_bw(p, now);
            }
            // After one round of REFILL, UP.
            State::ProbeBwRefill if self.m.round_start => {
                self.m.is_bw_probe_sample = true;
                self.start_probe_bw_up(p, now, rate);
            }
            State::ProbeBwUp => {
                let go_down = self.is_time_to_go_down(is_cwnd_limited, rate);
                if go_down {
                    self.m.prev_probe_too_high = false;
                    self.start_probe_bw_down(now, rand);
                }
            }
            _ => {}
        }
    }

    /// `IsTimeToProbeBW()` (§5.3.3.8.2): the random wall-clock wait passed, or as many
    /// rounds as Reno would take: REFILL.
    fn is_time_to_probe_bw(&mut self, p: &Bbr3Params, now: Instant) -> bool {
        // draft-ietf-ccwg-bbr §5.3.3.9 HasElapsedInPhase(): Now() > cycle_stamp + bw_probe_wait
        let waited = now.saturating_duration_since(self.m.cycle_stamp)
            > Duration::from_micros(u64::from(self.m.bw_probe_wait_us));
        if waited || self.is_reno_coexistence_probe_time(p) {
            self.start_probe_bw_refill();
            return true;
        }
        false
    }

    /// `IsRenoCoexistenceProbeTime()` (§5.3.3.8.2): `min(TargetInflight(), 63)` rounds.
    /// The draft writes `TargetInflight()`, a volume in bytes, as a round count; the
    /// kernel (`bbr_is_reno_coexistence_probe_time`) counts it in packets, as Reno
    /// grows one packet per round, and so does this: `TargetInflight() / SMSS`.
    fn is_reno_coexistence_probe_time(&self, p: &Bbr3Params) -> bool {
        // draft-ietf-ccwg-bbr §5.3.3.8.2 IsRenoCoexistenceProbeTime(): reno_rounds = TargetInflight() (in packets, as the kernel)
        // `smss` is validated nonzero; `max(1)` lets the compiler see it (no panic path).
        let reno_rounds = self.target_inflight(p) / p.smss().max(1);
        // Linux net/ipv4/tcp_bbr.c bbr_is_reno_coexistence_probe_time(): min(target, 63)
        let rounds = reno_rounds.min(BW_PROBE_MAX_ROUNDS);
        u32::from(self.m.rounds_since_probe_up) >= rounds
    }

    /// `IsTimeToCruise()` (§5.3.3.9): headroom below `inflight_longterm` and no more than
    /// the BDP in flight. The kernel counts what will be in the network at the next
    /// departure (`bbr_packets_in_net_at_edt`); the draft, and this, `C.inflight`.
    fn is_time_to_cruise(&self, p: &Bbr3Params) -> bool {
        // draft-ietf-ccwg-bbr §5.3.3.9 IsTimeToCruise(): C.inflight within headroom and the BDP
        if self.s.inflight > self.inflight_with_headroom(p) {
            return false;
        }
        self.s.inflight <= self.inflight(p, self.max_bw(), GAIN_UNIT)
    }

    /// `IsTimeToGoDown()` (§5.3.3.9).
    fn is_time_to_go_down(&mut self, is_cwnd_limited: bool, rate: u32) -> bool {
        // draft-ietf-ccwg-bbr §5.3.3.6: precautionary deceleration at inflight_longterm
        if self.m.prev_probe_too_high && self.s.inflight >= self.m.inflight_longterm {
            self.m.prev_probe_precautionary = true;
            return true;
        }
        // draft-ietf-ccwg-bbr §5.3.3.9 IsTimeToGoDown(): limited by inflight_longterm: restart the plateau test
        if is_cwnd_limited && self.cwnd >= self.m.inflight_longterm {
            self.reset_full_bw();
            self.m.full_bw = rate;
        } else if self.m.full_bw_now {
            return true;
        }
        false
    }

    /// `RaiseInflightLongtermSlope()` (§5.3.3.9): one SMSS per `cwnd / 2^rounds`
    /// acknowledged (the kernel's `bbr_raise_inflight_hi_slope`, with a floor of one
    /// SMSS for its one packet).
    pub(super) fn raise_inflight_longterm_slope(&mut self, p: &Bbr3Params) {
        let smss = p.smss();
        (self.m.probe_up_acked_per_inc, self.m.bw_probe_up_rounds) =
            inflight_hi_slope(self.cwnd, self.m.bw_probe_up_rounds, smss);
    }

    /// `ProbeInflightLongtermUpward()` (§5.3.3.9).
    fn probe_inflight_longterm_upward(&mut self, p: &Bbr3Params, is_cwnd_limited: bool) {
        if !is_cwnd_limited || self.cwnd < self.m.inflight_longterm {
            return;
        }
        // draft-ietf-ccwg-bbr §5.3.3.9 ProbeInflightLongtermUpward(): bw_probe_up_acked += RS.newly_acked
        self.m.bw_probe_up_acked = self.m.bw_probe_up_acked.saturating_add(self.newly_acked);
        if self.m.bw_probe_up_acked >= self.m.probe_up_acked_per_inc {
            // Linux net/ipv4/tcp_bbr.c bbr_probe_inflight_hi_upward(): delta, remainder
            let (delta, rest) =
                inflight_hi_increments(self.m.bw_probe_up_acked, self.m.probe_up_acked_per_inc);
            self.m.bw_probe_up_acked = rest;
            // draft-ietf-ccwg-bbr §5.3.3.9: inflight_longterm += delta * C.SMSS (the kernel: delta packets)
            let grow = delta.saturating_mul(p.smss());
            self.m.inflight_longterm = self
                .m
                .inflight_longterm
                .saturating_add(grow)
                .min(u32::MAX - 1);
        }
        if self.m.round_start {
            self.raise_inflight_longterm_slope(p);
        }
    }

    /// `AdaptLongTermModel()` (§5.3.3.9): returns true when it already decided a
    /// state change. Too-high loss is handled per lost packet (§5.5.10.2), as the
    /// draft says; the kernel's `bbr_adapt_upper_bounds` also tests each ACK's sample.
    /// A too-high CE ratio, the kernel's per-ACK signal, is tested here (`ecn.rs`).
    fn adapt_long_term_model<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        is_cwnd_limited: bool,
        now: Instant,
        rand: &mut R,
    ) -> bool {
        if self.m.ack_phase == AckPhase::ProbeStarting && self.m.round_start {
            self.m.ack_phase = AckPhase::ProbeFeedback;
        }
        if self.m.ack_phase == AckPhase::ProbeStopping && self.m.round_start {
            self.m.is_bw_probe_sample = false;
            self.m.ack_phase = AckPhase::Init;
            if self.m.state.is_probe_bw() && !self.rs.is_app_limited {
                self.advance_max_bw_filter();
            }
            // draft-ietf-ccwg-bbr §5.3.3.6: precautionary acceleration
            if self.m.state.is_probe_bw()
                && self.m.prev_probe_precautionary
                && !self.m.prev_probe_too_high
            {
                self.start_probe_bw_refill();
                return true;
            }
        }
        if self.ecn_probe_too_high(p, now, rand) {
            return true;
        }
        if !self.is_inflight_too_high(p) {
            if self.m.inflight_longterm == u32::MAX {
                return false;
            }
            if self.rs.tx_in_flight > self.m.inflight_longterm {
                // draft-ietf-ccwg-bbr §5.3.3.9 AdaptLongTermModel(): a safe flight above inflight_longterm raises it
                self.m.inflight_longterm = self.rs.tx_in_flight;
            }
            if self.m.state == State::ProbeBwUp {
                self.probe_inflight_longterm_upward(p, is_cwnd_limited);
            }
        }
        false
    }
}
