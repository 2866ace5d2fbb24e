//! Linux-mode BBR (`linux::Bbr`, or `linux::Bbr3` with the `bbr3` feature) with its
//! send side (the EDT departure time and the sampler's snapshot of every segment,
//! `bbr_tso_segs_goal` for the burst size) on the fake ACK source, behind a small
//! scoreboard: the `Sent` record of each of the last 64 segments, in a ring.
//!
//! Descriptor bits: 0..8 time since the previous descriptor (µs, plus 40), 8..12
//! segments acknowledged cumulatively, 12..28 the RTT sample (ms·16, 0 = none), 28..32
//! the event: 0..=11 an ACK, 12 the oldest outstanding segment lost (marked on this
//! ACK, retransmitted by the next send), 13 a timeout, 14..=15 an ACK the receiver may
//! have delayed.

use crate::registers::{next_descriptor, report_aux, report_cwnd};
use congestion::Instant;
use congestion::linux::bbr::{DeliveredSegment, Flight, Sent};

#[cfg(not(feature = "bbr3"))]
use congestion::linux::bbr::BbrAck;
#[cfg(feature = "bbr3")]
use congestion::linux::bbr3::{Bbr3Ack, Bbr3Rto};
#[cfg(not(feature = "bbr3"))]
use congestion::linux::{Bbr as Flow, BbrConfig as Config};
#[cfg(feature = "bbr3")]
use congestion::linux::{Bbr3 as Flow, Bbr3Config as Config};

/// Segments the ring remembers (a power of two).
const RING: usize = 64;

/// Randomness from the NIC (BBR's PROBE_BW phase draws): the next descriptor's bits.
struct NicRandom;

impl congestion::linux::tcp::RandomSource for NicRandom {
    fn below(&mut self, ceil: u32) -> u32 {
        ((u64::from(next_descriptor()) * u64::from(ceil)) >> 32) as u32
    }
}

/// Build the flow, then serve descriptors forever.
pub fn run() -> ! {
    let mut config = Config::new();
    config.mss = 1200;
    let Ok(params) = config.validate() else {
        crate::halt()
    };
    let mut rand = NicRandom;
    let mut now_us: u64 = 1_000_000;
    let mut flow = Flow::new(&params, Instant::from_micros(now_us), &mut rand);
    let mut ring = [Sent::default(); RING];
    let mut flight = Flight::default();
    let mut snd_una: u32 = 0;
    let mut snd_nxt: u32 = 0;
    let mut retransmit_due = false;
    loop {
        let d = next_descriptor();
        now_us = now_us.wrapping_add(u64::from(40 + (d & 0xff)));
        let now = Instant::from_micros(now_us);
        let acked = ((d >> 8) & 0xf).min(flight.packets_out);
        let rtt_field = (d >> 12) & 0xffff;
        let rtt_us = (rtt_field != 0).then(|| rtt_field.wrapping_mul(1000) >> 4);
        let event = d >> 28;
        let prior = flight;
        if event == 13 {
            // A timeout: every outstanding segment is lost.
            let newly = flight.packets_out.wrapping_sub(flight.lost_out);
            flight.lost_out = flight.packets_out;
            flight.retrans_out = 0;
            #[cfg(not(feature = "bbr3"))]
            flow.on_rto(&params, now, flight, newly, snd_una, snd_nxt, 0, &mut rand);
            #[cfg(feature = "bbr3")]
            {
                let _ = newly;
                let lost = [ring[snd_una as usize % RING].snapshot];
                let rto = Bbr3Rto {
                    prior_flight: prior,
                    flight,
                    newly_lost: &lost,
                    snd_una,
                    snd_nxt,
                    timeouts: 0,
                    nothing_queued: false,
                };
                flow.on_rto(&params, now, &rto, &mut rand);
            }
            retransmit_due = true;
        } else {
            let mut newly_lost = 0;
            if event == 12 && flight.lost_out == 0 && flight.packets_out > acked {
                flight.lost_out = 1;
                newly_lost = 1;
                retransmit_due = true;
            }
            // Cumulatively acknowledged segments, oldest first, at most 8 reported.
            let mut delivered = [DeliveredSegment::default(); 8];
            let n = (acked as usize).min(delivered.len());
            for (i, seg) in delivered.iter_mut().take(n).enumerate() {
                let seq = snd_una.wrapping_add(newly_lost).wrapping_add(i as u32);
                *seg = DeliveredSegment {
                    sent: ring[seq as usize % RING],
                    end_seq: seq.wrapping_add(1),
                    retransmitted: false,
                    sacked: newly_lost != 0,
                };
            }
            if newly_lost == 0 {
                snd_una = snd_una.wrapping_add(acked);
                flight.packets_out -= acked;
                if flight.lost_out > 0 && flight.retrans_out > 0 && acked > 0 {
                    flight.lost_out = 0;
                    flight.retrans_out = 0;
                }
            } else {
                flight.sacked_out = flight.sacked_out.wrapping_add(acked);
            }
            #[cfg(not(feature = "bbr3"))]
            {
                let mut ack = BbrAck {
                    snd_una,
                    snd_nxt,
                    delivered: &mut delivered[..n],
                    delivered_count: acked,
                    newly_lost,
                    rtt_us,
                    srtt_us: rtt_us.unwrap_or(0),
                    ack_maybe_delayed: event >= 14,
                    prior_flight: prior,
                    flight,
                    undo: false,
                };
                flow.on_ack(&params, now, &mut ack, &mut rand);
            }
            #[cfg(feature = "bbr3")]
            {
                let lost = [ring[snd_una as usize % RING].snapshot];
                let mut ack = Bbr3Ack {
                    snd_una,
                    snd_nxt,
                    delivered: &mut delivered[..n],
                    delivered_count: acked,
                    newly_lost: &lost[..newly_lost as usize],
                    rtt_us,
                    srtt_us: rtt_us.unwrap_or(0),
                    ack_maybe_delayed: event >= 14,
                    ece: false,
                    nothing_queued: false,
                    is_cwnd_limited: true,
                    prior_flight: prior,
                    flight,
                    undo: false,
                };
                flow.on_ack(&params, now, &mut ack, &mut rand);
            }
            if newly_lost != 0 {
                flight.sacked_out = 0;
            }
        }
        // Send one burst: the retransmission first, then new segments, as many as the
        // window and the TSO goal allow, each stamped with its departure time.
        let burst = flow.tso_segs_goal(&params);
        let mut sent = 0;
        while sent < burst && flight.in_flight() < flow.cwnd() && sent < RING as u32 / 2 {
            let s = flow.on_send(&params, now, flight, &mut rand);
            if retransmit_due {
                retransmit_due = false;
                ring[snd_una as usize % RING] = s;
                flight.retrans_out = flight.retrans_out.wrapping_add(1);
            } else {
                ring[snd_nxt as usize % RING] = s;
                snd_nxt = snd_nxt.wrapping_add(1);
                flight.packets_out = flight.packets_out.wrapping_add(1);
            }
            report_aux(s.departure_ns as u32);
            sent += 1;
        }
        report_cwnd(flow.cwnd());
        report_aux(flow.pacing_rate() as u32 ^ flow.mode() as u32);
    }
}
