//! The EDT pacer: every packet gets an Earliest Departure Time, as Linux's TCP stamps
//! `skb->tstamp` for the fq qdisc or for its own pacing timer.
//!
//! It only computes times (ns, caller's clock): hand packets to an fq-like qdisc with
//! them, or wait until [`next_departure_ns`](EdtPacer::next_departure_ns) yourself.
//!
//! After each paced packet the next departure moves forward by `len / rate`, except:
//! - the first [`UNPACED_SEGMENTS`] segments of a flow leave unpaced (sch_fq's rule,
//!   which TCP's internal pacing copies);
//! - a sender that comes back late (the next departure already lies in the past) gets
//!   credit for the lateness, but at most half of the packet's own time is forgiven,
//!   so a late sender catches up without bursting at line rate.

use crate::pacing::bandwidth::Rate;

/// Segments a flow sends before pacing starts.
// Linux net/ipv4/tcp_output.c tcp_update_skb_after_send(): "sch_fq does not pace first 10 MSS"
pub const UNPACED_SEGMENTS: u32 = 10;

/// Departure-time state of one flow: 16 bytes, `Copy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct EdtPacer {
    /// Linux `tcp_wstamp_ns`: the earliest departure of the next packet, ns.
    next_departure_ns: u64,
    /// Linux `data_segs_out`: segments sent so far, saturating.
    segments_sent: u32,
}

impl EdtPacer {
    /// A new flow: nothing sent, no departure time yet.
    pub const fn new() -> Self {
        EdtPacer {
            next_departure_ns: 0,
            segments_sent: 0,
        }
    }

    /// The earliest time, in ns, at which the next packet may leave (it may lie in the
    /// past: then it may leave now).
    pub const fn next_departure_ns(&self) -> u64 {
        self.next_departure_ns
    }

    /// Segments sent so far (saturates at `u32::MAX`; the kernel's counter wraps and
    /// briefly stops pacing after 2^32 segments, which this deliberately does not).
    pub const fn segments_sent(&self) -> u32 {
        self.segments_sent
    }

    /// Whether a packet sent now would have to wait (its departure lies after `now_ns`).
    // Linux net/ipv4/tcp_output.c tcp_pacing_check(): tcp_wstamp_ns > tcp_clock_cache
    pub const fn must_wait(&self, now_ns: u64) -> bool {
        self.next_departure_ns > now_ns
    }

    /// A packet (or TSO burst) of `len_bytes` carrying `segments` segments is sent at
    /// `now_ns`; returns its departure time, then moves the next departure forward.
    ///
    /// `paced` is false when the flow does not pace at all (Linux `SK_PACING_NONE`):
    /// the packet is stamped but the next departure does not move. A rate that does not
    /// pace ([`Rate::is_pacing`] false) has the same effect.
    ///
    /// Departure times never go backwards: the returned time is at least every earlier
    /// one and at least `now_ns`. Addition saturates at `u64::MAX` ns (year 2554).
    pub fn on_send(
        &mut self,
        now_ns: u64,
        len_bytes: u64,
        segments: u32,
        rate: Rate,
        paced: bool,
    ) -> u64 {
        let prior_ns = self.next_departure_ns;
        // Linux __tcp_transmit_skb(): tcp_wstamp_ns = max(tcp_wstamp_ns, tcp_clock_cache)
        if now_ns > self.next_departure_ns {
            self.next_departure_ns = now_ns;
        }
        let departure_ns = self.next_departure_ns;
        // Linux __tcp_transmit_skb(): data_segs_out += tcp_skb_pcount(skb), before pacing.
        self.segments_sent = self.segments_sent.saturating_add(segments);
        if !paced || self.segments_sent < UNPACED_SEGMENTS {
            return departure_ns;
        }
        let Some(len_ns) = rate.transmit_time_ns(len_bytes) else {
            return departure_ns;
        };
        // How far the departure clock jumped because the sender was late.
        let credit_ns = departure_ns - prior_ns;
        // Linux tcp_update_skb_after_send(): len_ns -= min(len_ns / 2, credit)
        let forgiven_ns = if len_ns / 2 < credit_ns {
            len_ns / 2
        } else {
            credit_ns
        };
        self.next_departure_ns = departure_ns.saturating_add(len_ns - forgiven_ns);
        departure_ns
    }
}

#[cfg(test)]
mod tests;
