//! `BBR.min_rtt` and ProbeRTT (§5.3.4, §5.5.7), and restarting from idle (§5.4).

use super::params::{
    GAIN_UNIT, MIN_RTT_FILTER_LEN_US, PROBE_RTT_CWND_GAIN, PROBE_RTT_DURATION_US,
    PROBE_RTT_INTERVAL_US,
};
use super::{Bbr3, Bbr3Params, State};
use crate::linux::bbr3::AckPhase;
use crate::linux::tcp::RandomSource;
use crate::time::{Duration, Instant};

impl Bbr3 {
    /// `UpdateMinRTT()` (§5.3.4.3): the 5 s `probe_rtt_min_delay` filter feeds the 10 s
    /// `BBR.min_rtt`. The kernel (`bbr_update_min_rtt`) also refuses a delayed ACK's
    /// sample into an expired filter; QUIC's `latest_rtt` includes the peer's ACK delay
    /// and no flag says so, so the draft's rule is used as written.
    pub(super) fn update_min_rtt(&mut self, now: Instant) {
        // draft-ietf-ccwg-bbr §5.3.4.3: Now() > probe_rtt_min_stamp + ProbeRTTInterval
        self.m.probe_rtt_expired = now.saturating_duration_since(self.m.probe_rtt_min_stamp)
            > Duration::from_micros(PROBE_RTT_INTERVAL_US);
        if self.rs.rtt_us >= 0
            && (self.rs.rtt_us < i64::from(self.m.probe_rtt_min_us) || self.m.probe_rtt_expired)
        {
            self.m.probe_rtt_min_us = self.rs.rtt_us.min(i64::from(u32::MAX - 1)) as u32;
            self.m.probe_rtt_min_stamp = now;
        }
        // draft-ietf-ccwg-bbr §5.3.4.3: Now() > min_rtt_stamp + MinRTTFilterLen
        let min_rtt_expired = now.saturating_duration_since(self.m.min_rtt_stamp)
            > Duration::from_micros(MIN_RTT_FILTER_LEN_US);
        // draft-ietf-ccwg-bbr §5.3.4.3 UpdateMinRTT(): BBR.min_rtt follows a lower or an expired sample
        if self.m.probe_rtt_min_us < self.m.min_rtt_us || min_rtt_expired {
            self.m.min_rtt_us = self.m.probe_rtt_min_us;
            self.m.min_rtt_stamp = self.m.probe_rtt_min_stamp;
        }
    }

    /// `CheckProbeRTT()` (§5.3.4.3).
    pub(super) fn check_probe_rtt<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        rand: &mut R,
    ) {
        // draft-ietf-ccwg-bbr §5.3.4.3 CheckProbeRTT(): enter when the 5 s filter expired, not on an idle restart
        if self.m.state != State::ProbeRtt && self.m.probe_rtt_expired && !self.m.idle_restart {
            self.enter_probe_rtt();
            self.save_cwnd();
            self.m.probe_rtt_done_stamp = None;
            self.m.ack_phase = AckPhase::ProbeStopping;
            self.start_round();
        }
        if self.m.state == State::ProbeRtt {
            self.handle_probe_rtt(p, now, rand);
        }
        if self.rs.delivered > 0 {
            self.m.idle_restart = false;
        }
    }

    /// `EnterProbeRTT()` (§5.3.4.3).
    fn enter_probe_rtt(&mut self) {
        self.m.state = State::ProbeRtt;
        self.m.pacing_gain = GAIN_UNIT;
        self.m.cwnd_gain = PROBE_RTT_CWND_GAIN;
    }

    /// `HandleProbeRTT()` (§5.3.4.3): once the flight is at `ProbeRTTCwnd()`, hold it
    /// for 200 ms and a round.
    fn handle_probe_rtt<R: RandomSource>(&mut self, p: &Bbr3Params, now: Instant, rand: &mut R) {
        // draft-ietf-ccwg-bbr §5.3.4.3: ignore low rate samples during ProbeRTT
        self.s.mark_app_limited();
        // draft-ietf-ccwg-bbr §5.3.4.3 HandleProbeRTT(): at ProbeRTTCwnd, wait ProbeRTTDuration and a round
        if self.m.probe_rtt_done_stamp.is_none() && self.s.inflight <= self.probe_rtt_cwnd(p) {
            self.m.probe_rtt_done_stamp =
                Some(now.saturating_add(Duration::from_micros(PROBE_RTT_DURATION_US)));
            self.m.probe_rtt_round_done = false;
            self.start_round();
        } else if self.m.probe_rtt_done_stamp.is_some() {
            if self.m.round_start {
                self.m.probe_rtt_round_done = true;
            }
            if self.m.probe_rtt_round_done {
                self.check_probe_rtt_done(now, rand);
            }
        }
    }

    /// `CheckProbeRTTDone()` (§5.3.4.3).
    fn check_probe_rtt_done<R: RandomSource>(&mut self, now: Instant, rand: &mut R) {
        // A nested `if`, not a let chain: the crate builds on Rust 1.85.
        if let Some(done) = self.m.probe_rtt_done_stamp {
            if now > done {
                self.m.probe_rtt_min_stamp = now;
                self.restore_cwnd();
                self.exit_probe_rtt(now, rand);
            }
        }
    }

    /// `ExitProbeRTT()` (§5.3.4.4): to ProbeBW (DOWN, then at once CRUISE) if the pipe
    /// was full, else to Startup.
    fn exit_probe_rtt<R: RandomSource>(&mut self, now: Instant, rand: &mut R) {
        self.reset_short_term_model();
        if self.m.full_bw_reached {
            self.start_probe_bw_down(now, rand);
            self.start_probe_bw_cruise();
        } else {
            self.enter_startup();
        }
    }

    /// `HandleRestartFromIdle()` (§5.4.1), before each send.
    pub(super) fn handle_restart_from_idle<R: RandomSource>(&mut self, now: Instant, rand: &mut R) {
        if self.s.inflight != 0 || self.s.app_limited == 0 {
            return;
        }
        self.m.idle_restart = true;
        self.m.extra_acked_interval_start = now;
        if self.m.state.is_probe_bw() {
            self.set_pacing_rate_with_gain(GAIN_UNIT);
        } else if self.m.state == State::ProbeRtt {
            self.check_probe_rtt_done(now, rand);
        }
    }
}
