//! The socket as BBR's hooks see it: the kernel's whole [`TcpSock`], or a view over a
//! flow's packed [`FlowSock`] plus the event, so the per-ACK and per-send paths build
//! and write back no 224-byte socket.

use super::flow::Flight;
use super::flow_sock::FlowSock;
use crate::linux::CaState;
use crate::linux::tcp::ack_update_rtt::rtt_min_update;
use crate::linux::tcp::rate::RateSock;
use crate::linux::tcp::update_skb_after_send::edt_after_send;
use crate::linux::tcp::{RateSample, TcpSock};

/// ns per µs.
const NSEC_PER_USEC: u64 = 1000;

/// The `tcp_sock` fields BBR v1's model, pacing and cwnd steps read and write, under
/// the kernel's names (the sampler's fields come from [`RateSock`]).
pub trait BbrSock: RateSock {
    /// `snd_cwnd`.
    fn snd_cwnd(&self) -> u32;
    /// Sets `snd_cwnd`.
    fn set_snd_cwnd(&mut self, cwnd: u32);
    /// `snd_cwnd_clamp`.
    fn snd_cwnd_clamp(&self) -> u32;
    /// `snd_ssthresh`.
    fn snd_ssthresh(&self) -> u32;
    /// Sets `snd_ssthresh`.
    fn set_snd_ssthresh(&mut self, ssthresh: u32);
    /// `icsk_ca_state`.
    fn icsk_ca_state(&self) -> CaState;
    /// `tcp_packets_in_flight()`.
    fn packets_in_flight(&self) -> u32;
    /// `tcp_clock_cache`: this event's time, ns.
    fn tcp_clock_cache(&self) -> u64;
    /// `tcp_jiffies32`: this event's time in jiffies.
    fn tcp_jiffies32(&self) -> u32;
    /// `tcp_wstamp_ns`: the next segment's earliest departure, ns.
    fn tcp_wstamp_ns(&self) -> u64;
    /// How far the next departure is ahead of now, in whole µs (0 when it is past):
    /// `(max(tcp_wstamp_ns, tcp_clock_cache) - tcp_clock_cache) / NSEC_PER_USEC`.
    fn edt_ahead_us(&self) -> u64 {
        // Linux net/ipv4/tcp_bbr.c bbr_packets_in_net_at_edt(): edt_ns = max(tcp_wstamp_ns, now_ns)
        let now_ns = self.tcp_clock_cache();
        (self.tcp_wstamp_ns().max(now_ns) - now_ns) / NSEC_PER_USEC
    }
    /// `mss_cache`.
    fn mss_cache(&self) -> u32;
    /// `srtt_us` (scaled by 8).
    fn srtt_us(&self) -> u32;
    /// `sk_pacing_rate`, bytes per second.
    fn sk_pacing_rate(&self) -> u64;
    /// Sets `sk_pacing_rate`.
    fn set_sk_pacing_rate(&mut self, rate: u64);
    /// `sk_max_pacing_rate`.
    fn sk_max_pacing_rate(&self) -> u64;
    /// `sk_pacing_shift`.
    fn sk_pacing_shift(&self) -> u8;
    /// `ecn_flags` (BBRv3 reads `TCP_ECN_OK` and `TCP_ECN_LOW`).
    fn ecn_flags(&self) -> u8;
    /// `is_cwnd_limited` (BBRv3's probing reads it).
    fn is_cwnd_limited(&self) -> bool;
    /// A `bbr_tso_segs_goal()` kept from an earlier event at the current pacing rate,
    /// or 0 (none kept: the caller computes it). A whole socket keeps none.
    fn kept_tso_segs_goal(&self) -> u32 {
        0
    }
    /// Keeps `goal`, just computed at the current pacing rate, for later events (a
    /// whole socket does not).
    fn keep_tso_segs_goal(&mut self, goal: u32) {
        let _ = goal;
    }
}

impl BbrSock for TcpSock {
    fn snd_cwnd(&self) -> u32 {
        self.snd_cwnd
    }
    fn set_snd_cwnd(&mut self, cwnd: u32) {
        self.snd_cwnd = cwnd;
    }
    fn snd_cwnd_clamp(&self) -> u32 {
        self.snd_cwnd_clamp
    }
    fn snd_ssthresh(&self) -> u32 {
        self.snd_ssthresh
    }
    fn set_snd_ssthresh(&mut self, ssthresh: u32) {
        self.snd_ssthresh = ssthresh;
    }
    fn icsk_ca_state(&self) -> CaState {
        self.icsk_ca_state
    }
    fn packets_in_flight(&self) -> u32 {
        TcpSock::packets_in_flight(self)
    }
    fn tcp_clock_cache(&self) -> u64 {
        self.tcp_clock_cache
    }
    fn tcp_jiffies32(&self) -> u32 {
        self.tcp_jiffies32
    }
    fn tcp_wstamp_ns(&self) -> u64 {
        self.tcp_wstamp_ns
    }
    fn mss_cache(&self) -> u32 {
        self.mss_cache
    }
    fn srtt_us(&self) -> u32 {
        self.srtt_us
    }
    fn sk_pacing_rate(&self) -> u64 {
        self.sk_pacing_rate
    }
    fn set_sk_pacing_rate(&mut self, rate: u64) {
        self.sk_pacing_rate = rate;
    }
    fn sk_max_pacing_rate(&self) -> u64 {
        self.sk_max_pacing_rate
    }
    fn sk_pacing_shift(&self) -> u8 {
        self.sk_pacing_shift
    }
    fn ecn_flags(&self) -> u8 {
        self.ecn_flags
    }
    fn is_cwnd_limited(&self) -> bool {
        self.is_cwnd_limited
    }
}

/// An [`EventSock`]'s counters, and its srtt (`own`, unless borrowed as v1's).
pub(crate) trait StackFacts {
    fn flight(&self) -> &Flight;
    fn srtt_us(&self, own: u32) -> u32 {
        own
    }
}

impl StackFacts for Flight {
    fn flight(&self) -> &Flight {
        self
    }
}

impl StackFacts for (&Flight, &u32) {
    fn flight(&self) -> &Flight {
        self.0
    }
    fn srtt_us(&self, _: u32) -> u32 {
        self.1.wrapping_shl(3)
    }
}

/// The event's part of the socket a [`FlowSockView`] does not keep.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EventSock<F = Flight> {
    /// `tcp_mstamp`, µs.
    pub now_us: u64,
    /// `tcp_jiffies32`, derived from `now_us` once per event.
    pub jiffies: u32,
    /// The stack's counters.
    pub flight: F,
    /// `srtt_us` (scaled by 8), as the ACK reported it (0 on a send).
    pub srtt_us: u32,
    /// `delivered_ce` (v1 keeps none: 0).
    pub delivered_ce: u32,
    /// `ecn_flags` (v1: 0).
    pub ecn_flags: u8,
    /// `is_cwnd_limited` as the ACK reported it (v1: false).
    pub is_cwnd_limited: bool,
}

/// A flow's kept socket fields, read and written in place, with the event's values
/// for the rest: what [`FlowSock::load`] would build, without building it. Fields the
/// flow does not keep read as a fresh load has them (the sampler's `rate_*` record
/// empty) and their writes are dropped, as [`FlowSock::save`] drops
/// them.
pub(crate) struct FlowSockView<'a, C, F = Flight> {
    pub s: &'a mut FlowSock,
    pub e: EventSock<F>,
    /// The settings, read where they are kept rather than copied per event.
    pub c: &'a C,
}

/// The socket settings a [`FlowSockView`] reads from its flow's validated config.
pub(crate) trait ViewSettings {
    /// `mss_cache`.
    fn mss(&self) -> u32;
    /// `snd_cwnd_clamp`.
    fn cwnd_clamp(&self) -> u32;
    /// `sk_max_pacing_rate`.
    fn max_pacing_rate(&self) -> u64;
    /// `sk_pacing_shift`.
    fn pacing_shift(&self) -> u8;
}

impl ViewSettings for crate::linux::bbr::BbrConfig {
    fn mss(&self) -> u32 {
        self.mss
    }
    fn cwnd_clamp(&self) -> u32 {
        self.cwnd_clamp
    }
    fn max_pacing_rate(&self) -> u64 {
        self.max_pacing_rate
    }
    fn pacing_shift(&self) -> u8 {
        self.pacing_shift
    }
}

impl ViewSettings for crate::linux::bbr3::Bbr3Config {
    fn mss(&self) -> u32 {
        self.mss
    }
    fn cwnd_clamp(&self) -> u32 {
        self.cwnd_clamp
    }
    fn max_pacing_rate(&self) -> u64 {
        self.max_pacing_rate
    }
    fn pacing_shift(&self) -> u8 {
        self.pacing_shift
    }
}

impl<C: ViewSettings, F: StackFacts> FlowSockView<'_, C, F> {
    /// `__tcp_transmit_skb()` on the kept fields, something being in flight (no
    /// transmit-start event): the departure time (returned, ns), the data segment count
    /// (saturating at 10, all that is read) and `tcp_update_skb_after_send()`'s pacing
    /// step; `lsndtime` is not kept.
    #[inline]
    pub(crate) fn transmit(&mut self) -> u64 {
        // Linux net/ipv4/tcp_output.c __tcp_transmit_skb(): tcp_wstamp_ns = max(tcp_wstamp_ns, tcp_clock_cache)
        let prior_wstamp = self.s.tcp_wstamp_ns;
        let departure_ns = prior_wstamp.max(self.tcp_clock_cache());
        // Once at 10 (every send after the first nine) the count stays as it is, and
        // below 10 there is no pacing step.
        let segs_out = self.s.data_segs_out;
        if segs_out < 10 {
            self.s.data_segs_out = segs_out + 1;
        }
        // tcp_wstamp_ns = departure_ns, then the pacing step: one store of the result.
        // A flow's sk_pacing_status is never 0 (bbr_init() sets it), so it is not tested.
        self.s.tcp_wstamp_ns = if segs_out >= 9 {
            let (rate, mss) = (self.s.sk_pacing_rate, self.c.mss());
            edt_after_send(rate, 10, departure_ns, mss, prior_wstamp)
        } else {
            departure_ns
        };
        departure_ns
    }

    #[inline]
    pub(crate) fn ack_update_rtt_min(
        &mut self,
        rtt_us: Option<u32>,
        ack_maybe_delayed: bool,
        rs: &mut RateSample,
    ) {
        rs.rtt_us = match rtt_us {
            Some(rtt) => {
                let jiffies = self.tcp_jiffies32();
                rtt_min_update(&mut self.s.rtt_min, jiffies, rtt, ack_maybe_delayed);
                i64::from(rtt)
            }
            None => -1,
        };
        rs.is_ack_delayed = ack_maybe_delayed;
    }

    /// `tcp_rate_check_app_limited()` on the kept fields: the flow keeps no
    /// `write_seq`/`snd_nxt` (a fresh load has both 0, so "less than one segment
    /// queued" holds), which leaves the host queues, cwnd and retransmission tests.
    #[inline]
    pub(crate) fn check_app_limited(&mut self, host_queues_empty: bool) {
        let f = self.e.flight.flight();
        let in_flight = f.in_flight();
        // Linux net/ipv4/tcp_rate.c tcp_rate_check_app_limited(): in_flight < cwnd is strict
        if host_queues_empty && in_flight < self.s.snd_cwnd && f.lost_out <= f.retrans_out {
            let bubble = self.s.delivered.wrapping_add(in_flight);
            self.s.app_limited = if bubble == 0 { 1 } else { bubble };
        }
    }
}

impl<C: ViewSettings, F: StackFacts> RateSock for FlowSockView<'_, C, F> {
    fn pipe_empty(&self) -> bool {
        self.e.flight.flight().packets_out == 0
    }
    fn delivered(&self) -> u32 {
        self.s.delivered
    }
    fn lost(&self) -> u32 {
        self.s.lost
    }
    fn delivered_ce(&self) -> u32 {
        self.e.delivered_ce
    }
    fn mstamp(&self) -> u64 {
        self.e.now_us
    }
    fn min_rtt_us(&self) -> u32 {
        self.s.rtt_min.get()
    }
    fn first_tx_mstamp(&self) -> u64 {
        self.s.first_tx_mstamp
    }
    fn set_first_tx_mstamp(&mut self, us: u64) {
        self.s.first_tx_mstamp = us;
    }
    fn delivered_mstamp(&self) -> u64 {
        self.s.delivered_mstamp
    }
    fn set_delivered_mstamp(&mut self, us: u64) {
        self.s.delivered_mstamp = us;
    }
    fn app_limited(&self) -> u32 {
        self.s.app_limited
    }
    fn set_app_limited(&mut self, mark: u32) {
        self.s.app_limited = mark;
    }
    fn rate_record(&self) -> (u32, u32) {
        (0, 0)
    }
    fn set_rate_record(&mut self, delivered: u32, interval_us: u32, app_limited: bool) {
        let _ = (delivered, interval_us, app_limited);
    }
}

impl<C: ViewSettings, F: StackFacts> BbrSock for FlowSockView<'_, C, F> {
    fn snd_cwnd(&self) -> u32 {
        self.s.snd_cwnd
    }
    fn set_snd_cwnd(&mut self, cwnd: u32) {
        self.s.snd_cwnd = cwnd;
    }
    fn snd_cwnd_clamp(&self) -> u32 {
        self.c.cwnd_clamp()
    }
    fn snd_ssthresh(&self) -> u32 {
        self.s.snd_ssthresh
    }
    fn set_snd_ssthresh(&mut self, ssthresh: u32) {
        self.s.snd_ssthresh = ssthresh;
    }
    fn icsk_ca_state(&self) -> CaState {
        self.s.icsk_ca_state
    }
    fn packets_in_flight(&self) -> u32 {
        self.e.flight.flight().in_flight()
    }
    fn tcp_clock_cache(&self) -> u64 {
        // TcpSock::set_clock(): ns, saturating
        self.e.now_us.saturating_mul(1000)
    }
    fn tcp_jiffies32(&self) -> u32 {
        self.e.jiffies
    }
    fn tcp_wstamp_ns(&self) -> u64 {
        self.s.tcp_wstamp_ns
    }
    fn edt_ahead_us(&self) -> u64 {
        edt_ahead_us(self.s.tcp_wstamp_ns, self.e.now_us)
    }
    fn mss_cache(&self) -> u32 {
        self.c.mss()
    }
    fn srtt_us(&self) -> u32 {
        self.e.flight.srtt_us(self.e.srtt_us)
    }
    fn sk_pacing_rate(&self) -> u64 {
        self.s.sk_pacing_rate
    }
    fn set_sk_pacing_rate(&mut self, rate: u64) {
        // A new rate forgets the TSO goal kept for the old one.
        if rate != self.s.sk_pacing_rate {
            self.s.sk_pacing_rate = rate;
            self.s.tso_goal = 0;
        }
    }
    fn sk_max_pacing_rate(&self) -> u64 {
        self.c.max_pacing_rate()
    }
    fn kept_tso_segs_goal(&self) -> u32 {
        u32::from(self.s.tso_goal)
    }
    fn keep_tso_segs_goal(&mut self, goal: u32) {
        // bbr_tso_segs_goal() is at most 127 (min(segs, 0x7f)), and 0 is none: every
        // value passed fits in the u8 unchanged.
        self.s.tso_goal = goal as u8;
    }
    fn sk_pacing_shift(&self) -> u8 {
        self.c.pacing_shift()
    }
    fn ecn_flags(&self) -> u8 {
        self.e.ecn_flags
    }
    fn is_cwnd_limited(&self) -> bool {
        self.e.is_cwnd_limited
    }
}

/// [`BbrSock::edt_ahead_us`] with `tcp_clock_cache = now_us · 1000` saturated, as a
/// view derives it: `wstamp_ns / 1000 - now_us`, 0 when negative (no product).
///
/// Exact: unsaturated, `wstamp_ns >= 1000·now_us` gives `(wstamp_ns - 1000·now_us) /
/// 1000 = wstamp_ns / 1000 - now_us`, and below it both sides are 0; saturated, both
/// are 0 (`now_ns = u64::MAX`, `now_us > u64::MAX / 1000`). Checked on a grid in the tests.
pub(crate) const fn edt_ahead_us(wstamp_ns: u64, now_us: u64) -> u64 {
    (wstamp_ns / NSEC_PER_USEC).saturating_sub(now_us)
}

#[cfg(test)]
mod tests;
