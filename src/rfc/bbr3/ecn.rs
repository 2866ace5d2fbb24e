//! ECN: "the congestion controller response MUST treat any CE marks as congestion"
//! (§3.7), which specifies no response of its own. This one is the v3 kernel's, with
//! its arithmetic: `ecn_alpha`, an EWMA of the per-round CE fraction
//! (`bbr_update_ecn_alpha`); once per round outside bandwidth probing,
//! `inflight_shortterm` cut by `alpha / 3` (`bbr_ecn_lower_bounds`); while probing, a
//! CE fraction above one half ends the probe as too-high loss does
//! (`bbr_is_inflight_too_high`); and two rounds of it end Startup
//! (`bbr_check_ecn_too_high_in_startup`).
//!
//! Where they differ: the kernel reacts only on routes marked as shallow-threshold
//! ECN (`TCP_ECN_LOW`) and once min_rtt is at most 5 ms; the draft's MUST covers any CE
//! mark, so here every CE mark counts. QUIC reports CE as packet counts (RFC 9000
//! §19.3.2), so fractions are of packets, not bytes. The kernel's quick re-probe after
//! CE marks cease (`bbr_ecn_reprobe_gain`) is not implemented.

use super::params::{GAIN_UNIT, STARTUP_FULL_ECN_COUNT};
use super::{Bbr3, Bbr3Params, State};
use crate::linux::bbr3::shared::ce_too_high;
use crate::linux::bbr3::shared::scale;
use crate::linux::bbr3::shared::{ecn_alpha_next, ecn_cut};
use crate::linux::tcp::RandomSource;
use crate::time::Instant;

/// The CE ratio (/256) at which a round counts toward Startup's ECN exit: the
/// kernel's `bbr_ecn_thresh`.
const ECN_THRESH: u64 = (GAIN_UNIT / 2) as u64;

impl Bbr3 {
    /// Counts this ACK's newly acknowledged and newly CE-marked packets; a CE mark
    /// makes this a congested round.
    pub(super) fn note_ecn(&mut self, new_ce: u32, acked_packets: u32) {
        // draft-ietf-ccwg-bbr §3.7: CE marks count as congestion in this round
        self.m.alpha_acked_packets = self.m.alpha_acked_packets.saturating_add(acked_packets);
        self.m.alpha_ce_packets = self.m.alpha_ce_packets.saturating_add(new_ce);
        if new_ce > 0 {
            self.m.ecn_in_round = true;
        }
    }

    /// At a round start: fold the round's CE fraction into `ecn_alpha` (the kernel's
    /// EWMA, gain 1/16) and count Startup's high-CE rounds.
    pub(super) fn update_ecn_alpha(&mut self, p: &Bbr3Params) {
        let acked = self.m.alpha_acked_packets.min(i32::MAX as u32) as i32;
        let ce = self.m.alpha_ce_packets.min(acked as u32) as i32;
        // Linux net/ipv4/tcp_bbr.c bbr_update_ecn_alpha(): the EWMA of the round's CE ratio
        let Some((alpha, ce_ratio)) = ecn_alpha_next(self.m.ecn_alpha, acked, ce) else {
            return;
        };
        self.m.ecn_alpha = alpha;
        if self.m.full_bw_reached || self.m.state != State::Startup {
            return;
        }
        // Linux net/ipv4/tcp_bbr.c bbr_check_ecn_too_high_in_startup(): a round at or above half CE
        if ce_ratio >= ECN_THRESH {
            self.m.startup_ecn_rounds = self.m.startup_ecn_rounds.saturating_add(1);
        } else {
            self.m.startup_ecn_rounds = 0;
        }
        // Linux net/ipv4/tcp_bbr.c bbr_check_ecn_too_high_in_startup(): 2 rounds end Startup
        if self.m.startup_ecn_rounds >= STARTUP_FULL_ECN_COUNT {
            self.handle_queue_too_high_in_startup(p);
        }
    }

    /// At the end of a round-start ACK: the next round's CE counts start empty (they
    /// are kept until then so that the probe test of this ACK sees the whole round, as
    /// the kernel's `rs->delivered_ce` covers about a round).
    pub(super) fn end_ecn_round(&mut self) {
        if self.m.round_start {
            self.m.alpha_acked_packets = 0;
            self.m.alpha_ce_packets = 0;
        }
    }

    /// The kernel's ECN cap on `inflight_shortterm` for a round with CE marks:
    /// `inflight_shortterm × (1 − alpha/3)`; `u32::MAX` (no cap) without.
    pub(super) fn ecn_lower_bound(&mut self) -> u32 {
        if !self.m.ecn_in_round {
            return u32::MAX;
        }
        if self.m.inflight_shortterm == u32::MAX {
            self.m.inflight_shortterm = self.cwnd;
        }
        // Linux net/ipv4/tcp_bbr.c bbr_ecn_lower_bounds(): inflight_lo * ecn_cut >> 8
        scale(self.m.inflight_shortterm, ecn_cut(self.m.ecn_alpha))
    }

    /// While this ACK's sample reflects probing, more than half of the round's
    /// packets CE-marked is too high a flight (`HandleInflightTooHigh()` with the
    /// sample's `tx_in_flight`). Returns true when it changed the state.
    pub(super) fn ecn_probe_too_high<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        rand: &mut R,
    ) -> bool {
        if !self.m.is_bw_probe_sample || self.m.alpha_ce_packets == 0 {
            return false;
        }
        let acked = self.m.alpha_acked_packets.min(i32::MAX as u32) as i32;
        let ce = self.m.alpha_ce_packets.min(i32::MAX as u32) as i32;
        // Linux net/ipv4/tcp_bbr.c bbr_is_inflight_too_high(): delivered_ce > delivered * 50%
        if !ce_too_high(ce, acked) {
            return false;
        }
        let before = self.m.state;
        self.handle_inflight_too_high(p, now, self.rs.is_app_limited, self.rs.tx_in_flight, rand);
        self.m.state != before
    }
}
