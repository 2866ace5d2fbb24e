//! What a BBR flow driven through [`CongestionController`](crate::CongestionController)
//! needs of a TCP stack's scoreboard, rebuilt from the trait's events: the segments
//! outstanding, `snd_una` and `snd_nxt`, the smoothed RTT, the timeouts since the last
//! progress and whether the last send round was limited by cwnd.
//!
//! The trait counts a lost packet out of flight at once (RFC 9002 §6.4, and the
//! trait's `on_loss`), where the kernel keeps it in `packets_out` as `lost_out` until
//! its retransmission is acknowledged. The controllers therefore hand each loss to
//! the flow as the ACK that marks it (`lost_out` = the newly lost, then they leave
//! `packets_out`): `tcp_packets_in_flight()` is the same either way.

use crate::controller::{AckEvent, SentEvent};
use crate::linux::bbr::Flight;
use crate::linux::tcp::seq::{after, before};

/// An amount in the trait's unit (segments here) as the kernel's `u32`, saturating.
pub(crate) const fn segments(amount: u64) -> u32 {
    if amount > u32::MAX as u64 {
        u32::MAX
    } else {
        amount as u32
    }
}

/// An RTT as the kernel's `ca_rtt_us`: µs, clamped to `s32` as the kernel carries it.
pub(crate) fn rtt_us(ack: &AckEvent) -> Option<u32> {
    ack.rtt.map(|d| d.as_micros().min(i32::MAX as u64) as u32)
}

/// The scoreboard a BBR controller keeps for a stack that reports through the trait.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct TraitBoard {
    /// Segments outstanding and not declared lost (the trait's in-flight count).
    pub packets_out: u32,
    /// One past the highest sequence (segments) acknowledged.
    pub snd_una: u32,
    /// One past the highest sequence sent.
    pub snd_nxt: u32,
    /// `tcp_sock.srtt_us`: the smoothed RTT, µs << 3 (0: no sample yet).
    pub srtt_us8: u32,
    /// `cwnd_usage_seq`: `snd_nxt` when the last cwnd-limited send happened.
    pub cwnd_usage_seq: u32,
    /// Retransmission timeouts since the last ACK of new data (`icsk_retransmits`).
    pub timeouts: u8,
    /// `tp->is_cwnd_limited`.
    pub cwnd_limited: bool,
}

const _: () = assert!(core::mem::size_of::<TraitBoard>() <= 24);

impl TraitBoard {
    /// A connection with nothing sent; `initial_rtt_us` seeds srtt (0: none).
    pub(crate) const fn new(initial_rtt_us: u32) -> Self {
        TraitBoard {
            packets_out: 0,
            snd_una: 0,
            snd_nxt: 0,
            // Linux net/ipv4/tcp_input.c tcp_rtt_estimator(): srtt is kept << 3
            srtt_us8: initial_rtt_us.wrapping_shl(3),
            cwnd_usage_seq: 0,
            timeouts: 0,
            cwnd_limited: false,
        }
    }

    /// The counters as the flow takes them (nothing SACKed, lost or retransmitted is
    /// left outstanding between events).
    pub(crate) const fn flight(&self) -> Flight {
        Flight {
            packets_out: self.packets_out,
            sacked_out: 0,
            lost_out: 0,
            retrans_out: 0,
        }
    }

    /// The segments a send adds: `in_flight_after` above what is outstanding (a lower
    /// count is the stack's correction and is taken as it is). `snd_nxt` follows
    /// `largest_sent` (one past it): the stack's numbering, not a count, since a hole
    /// (a lost segment) lets `snd_una` run ahead of the count.
    pub(crate) fn on_sent(&mut self, sent: &SentEvent) -> u32 {
        let after_send = segments(sent.in_flight_after);
        let added = after_send.saturating_sub(self.packets_out);
        self.packets_out = after_send;
        let nxt = (sent.largest_sent as u32).wrapping_add(1);
        if after(nxt, self.snd_nxt) {
            self.snd_nxt = nxt;
        }
        added
    }

    /// `tcp_cwnd_validate()`'s bookkeeping after a send with `cwnd`: cwnd-limited when
    /// the flight reached it; the flag is kept until `snd_una` passes the send that
    /// set it.
    pub(crate) fn validate_cwnd(&mut self, cwnd: u32) {
        // Linux net/ipv4/tcp_output.c tcp_cwnd_validate(): is_cwnd_limited over a round
        if self.packets_out >= cwnd {
            self.cwnd_limited = true;
            self.cwnd_usage_seq = self.snd_nxt;
        } else if !before(self.snd_una, self.cwnd_usage_seq) {
            self.cwnd_limited = false;
        }
    }

    /// The ACK's effect on the scoreboard: the acknowledged segments leave (at most
    /// what is outstanding), `snd_una` moves to one past `largest_acked` (or by the
    /// count without one), the RTT sample enters srtt. Returns `(prior flight, acked,
    /// end_seq of the newest acknowledged segment)`.
    pub(crate) fn on_ack(&mut self, ack: &AckEvent) -> (Flight, u32, u32) {
        let prior = self.flight();
        let acked = segments(ack.acked).min(self.packets_out);
        self.packets_out -= acked;
        let una = match ack.largest_acked {
            Some(largest) => (largest as u32).wrapping_add(1),
            None => self.snd_una.wrapping_add(acked),
        };
        if after(una, self.snd_una) {
            self.snd_una = una;
        }
        if after(self.snd_una, self.snd_nxt) {
            self.snd_nxt = self.snd_una;
        }
        if acked > 0 {
            self.timeouts = 0;
        }
        if let Some(rtt) = rtt_us(ack) {
            self.srtt_sample(rtt);
        }
        (prior, acked, self.snd_una)
    }

    /// `tcp_rtt_estimator()`'s srtt: the first sample as it is, then 7/8 old + 1/8 new.
    fn srtt_sample(&mut self, rtt_us: u32) {
        let m = i64::from(rtt_us);
        let srtt8 = i64::from(self.srtt_us8);
        // Linux net/ipv4/tcp_input.c tcp_rtt_estimator(): srtt += m - (srtt >> 3)
        let next = if srtt8 == 0 {
            m << 3
        } else {
            srtt8 + m - (srtt8 >> 3)
        };
        self.srtt_us8 = next.clamp(1, i64::from(u32::MAX)) as u32;
    }

    pub(crate) const fn srtt_us(&self) -> u32 {
        self.srtt_us8 >> 3
    }

    /// `lost` segments leave the flight (at most what is outstanding); returns the
    /// count and the flight before and with them marked lost.
    pub(crate) fn mark_lost(&mut self, lost: u64) -> (u32, Flight, Flight) {
        let lost = segments(lost).min(self.packets_out);
        let prior = self.flight();
        let marked = Flight {
            lost_out: lost,
            ..prior
        };
        (lost, prior, marked)
    }

    /// A retransmission timeout: every outstanding segment is lost; returns their
    /// count, the flight with them marked, and the earlier timeouts.
    pub(crate) fn timeout(&mut self) -> (u32, Flight, Flight, u32) {
        let (lost, prior, marked) = self.mark_lost(u64::from(self.packets_out));
        let earlier = u32::from(self.timeouts);
        self.timeouts = self.timeouts.saturating_add(1);
        (lost, prior, marked, earlier)
    }
}
