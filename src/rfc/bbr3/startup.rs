//! Startup's exits (§5.3.1) and Drain (§5.3.2).

use super::params::{
    DEFAULT_CWND_GAIN, DRAIN_MAX_ROUNDS, DRAIN_PACING_GAIN, FULL_BW_COUNT, FULL_BW_THRESH,
    GAIN_UNIT, STARTUP_FULL_LOSS_COUNT,
};
use super::{Bbr3, Bbr3Params, State};
use crate::linux::bbr3::shared::loss_too_high;
use crate::linux::bbr3::shared::scale;
use crate::linux::tcp::RandomSource;
use crate::time::Instant;

impl Bbr3 {
    /// `ResetFullBW()` (§5.3.1.2).
    pub(super) fn reset_full_bw(&mut self) {
        self.m.full_bw = 0;
        self.m.full_bw_count = 0;
        self.m.full_bw_now = false;
    }

    /// `CheckFullBWReached()` (§5.3.1.2): three non-app-limited rounds without 25 %
    /// growth fill the pipe. The kernel (`bbr_check_full_bw_reached`) compares every
    /// ACK's sample against the threshold and counts only at round starts; the draft
    /// looks only at round starts, and that is what this does.
    pub(super) fn check_full_bw_reached(&mut self, rate: u32) {
        if self.m.full_bw_now || !self.m.round_start || self.rs.is_app_limited {
            return;
        }
        // Linux net/ipv4/tcp_bbr.c bbr_check_full_bw_reached(): bw_thresh = full_bw * 1.25 (>> 8)
        if rate >= scale(self.m.full_bw, FULL_BW_THRESH) {
            self.reset_full_bw();
            self.m.full_bw = rate;
            return;
        }
        self.m.full_bw_count = self.m.full_bw_count.saturating_add(1);
        // draft-ietf-ccwg-bbr §5.3.1.2: BBR.full_bw_now = (BBR.full_bw_count >= 3)
        self.m.full_bw_now = self.m.full_bw_count >= FULL_BW_COUNT;
        if self.m.full_bw_now {
            self.m.full_bw_reached = true;
        }
    }

    /// `CheckStartupDone()` (§5.3.1): the loss exit, then Drain once the pipe is full.
    pub(super) fn check_startup_done(&mut self, p: &Bbr3Params) {
        self.check_startup_high_loss(p);
        if self.m.state == State::Startup && self.m.full_bw_reached {
            self.enter_drain();
        }
    }

    /// `CheckStartupHighLoss()` (§5.3.1.3), at the end of each loss round: with
    /// selective ACKs, in recovery for a full round, a loss rate above 2 % of the
    /// sample's flight (the kernel's `bbr_is_inflight_too_high` arithmetic) and at least
    /// 6 discontiguous lost ranges in the round; without, any loss in recovery. The
    /// kernel counts loss-marking ACKs (`loss_events_in_round`) where the draft counts
    /// ranges; this counts ranges of packet numbers.
    pub(super) fn check_startup_high_loss(&mut self, p: &Bbr3Params) {
        if self.m.full_bw_reached || self.m.state != State::Startup {
            return;
        }
        if !self.m.loss_round_start {
            return;
        }
        let too_high = if p.config().has_selective_acks {
            self.in_recovery
                && self.m.round_count > self.recovery_round
                && self.m.lost_ranges_in_round >= STARTUP_FULL_LOSS_COUNT
                && loss_too_high(self.rs.lost, self.rs.tx_in_flight)
        } else {
            self.in_recovery && self.rs.lost > 0
        };
        self.m.lost_ranges_in_round = 0;
        if too_high {
            self.m.undo_state = Some(State::Startup);
            self.handle_queue_too_high_in_startup(p);
        }
    }

    /// The pipe is full (loss or ECN in Startup): `BBR.inflight_longterm` starts at
    /// `max(BBR.bdp, BBR.inflight_latest)` (§5.3.1.3; the kernel's
    /// `bbr_handle_queue_too_high_in_startup`, which adds the quantization budget).
    pub(super) fn handle_queue_too_high_in_startup(&mut self, p: &Bbr3Params) {
        self.m.full_bw_reached = true;
        let bdp = self.bdp_multiple(p, self.max_bw(), GAIN_UNIT);
        // draft-ietf-ccwg-bbr §5.3.1.3: inflight_longterm = max(BBR.bdp, BBR.inflight_latest)
        self.m.inflight_longterm = bdp.max(self.m.inflight_latest);
    }

    /// `EnterDrain()` (§5.3.2).
    pub(super) fn enter_drain(&mut self) {
        self.m.state = State::Drain;
        self.m.pacing_gain = DRAIN_PACING_GAIN;
        self.m.cwnd_gain = DEFAULT_CWND_GAIN;
        self.m.drain_start_round = self.m.round_count;
    }

    /// `CheckDrainDone()` (§5.3.2): into ProbeBW once the flight is at most the BDP
    /// (`Inflight(1.0)`), or after 3 rounds. The kernel compares what will still be in
    /// the network at the next departure time and has no round limit.
    pub(super) fn check_drain_done<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        rand: &mut R,
    ) {
        if self.m.state != State::Drain {
            return;
        }
        let bdp = self.inflight(p, self.m.bw, GAIN_UNIT);
        // draft-ietf-ccwg-bbr §5.3.2 CheckDrainDone(): round_count > drain_start_round + 3
        let timed_out =
            self.m.round_count > self.m.drain_start_round.saturating_add(DRAIN_MAX_ROUNDS);
        if self.s.inflight <= bdp || timed_out {
            self.enter_probe_bw(now, rand);
        }
    }
}
