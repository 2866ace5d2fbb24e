//! RFC-mode BBRv3 (`congestion::rfc::Bbr3`, draft-ietf-ccwg-bbr) on the simulator's
//! TCP-like stack, in bytes: every segment is one packet of MSS bytes.
//!
//! The stack drives it as the library's call order asks: each (re)transmitted segment
//! gets `on_packet_sent`, and its snapshot is kept with it in the scoreboard as the
//! Linux-mode BBR wiring keeps `Sent`; an ACK hands each newly delivered segment to
//! `on_packet_acked` (SACKed first, then the cumulatively acknowledged, each with the
//! time it last left), one already marked lost and not resent to
//! `on_lost_packet_acked`, each segment it marked lost to `on_packet_lost`, then
//! `on_ack` once with the RTT sample, the smoothed RTT, the cumulative CE count and
//! whether the window was filled (`tcp_cwnd_validate()`'s record, as for Linux-mode
//! BBRv3).
//!
//! Packet numbers are the segments' sequence numbers, so a retransmission reuses its
//! segment's number: a recovery ends (RFC 9002 §7.3.2) when a segment sent after it
//! began is acknowledged, as TCP's `high_seq` says. An RTO (every segment not SACKed
//! lost) reports each loss, then persistent congestion (the draft's `OnEnterRTO()`).
//! Randomness comes from the run's seeded generator.

use congestion::Instant;
use congestion::Phase;
use congestion::linux::bbr::{Flight, Sent};
use congestion::rfc::bbr3::State as Bbr3State;
use congestion::rfc::{Bbr3, Bbr3Ack, Bbr3Config, Bbr3Params};

use crate::cc_linux::{CwndUse, LinuxAck, LinuxRto, SimRandom};
use crate::config::SimConfig;
use crate::rng::SplitMix64;

fn at(now_ns: u64) -> Instant {
    Instant::from_micros(now_ns / 1000)
}

/// An `rfc::Bbr3` flow, its parameters, its generator and the stack's records.
#[derive(Clone, Debug)]
pub struct RfcBbr3Engine {
    flow: Bbr3,
    params: Bbr3Params,
    rand: SimRandom,
    cwnd_use: CwndUse,
    mss: u32,
    /// The AccECN count so far, packets (what a QUIC ACK frame's ECN-CE count says).
    ce_count: u64,
}

impl RfcBbr3Engine {
    /// The flow for `cfg`: SMSS = the run's MSS, TCP's initial window of 10 segments
    /// (RFC 6928, as the other RFC-mode controllers here start).
    pub fn new(cfg: &SimConfig) -> Result<Self, String> {
        let err = |e: congestion::ConfigError| format!("--cc bbr3-rfc: {e:?}");
        let mss = cfg.mss();
        let mut c = Bbr3Config::quic(mss);
        // RFC 6928: TCP's initial window of 10 segments.
        c.initial_cwnd = mss.saturating_mul(10);
        let params = c.validate().map_err(err)?;
        Ok(RfcBbr3Engine {
            flow: Bbr3::new(&params, at(0)),
            params,
            // Draws of its own, apart from the link's loss and jitter stream.
            rand: SimRandom(SplitMix64::new(cfg.seed ^ 0x4242_5252_0000_0003)),
            cwnd_use: CwndUse::default(),
            mss,
            ce_count: 0,
        })
    }

    /// Segment `seq` leaves at `now_ns` (new or resent): what to keep with it.
    pub fn on_segment_sent(&mut self, now_ns: u64, seq: u32) -> Sent {
        let snapshot =
            self.flow
                .on_packet_sent(at(now_ns), u64::from(seq), self.mss, &mut self.rand);
        Sent {
            departure_ns: now_ns,
            snapshot,
        }
    }

    /// After a transmit attempt: the window-use record BBR reads.
    pub fn on_transmit(&mut self, flight: Flight, snd_una: u32, snd_nxt: u32) {
        let cwnd = self.cwnd_segments();
        self.cwnd_use.on_transmit(cwnd, flight, snd_una, snd_nxt);
    }

    /// Nothing more to send now (`CheckIfApplicationLimited()`).
    pub fn on_app_limited(&mut self) {
        self.flow.on_app_limited();
    }

    /// An ACK, with the scoreboard's delivered and lost segments.
    pub fn on_ack(&mut self, now_ns: u64, a: LinuxAck<'_>) {
        let now = at(now_ns);
        let d = a.detail;
        for (seg, &after_loss) in d.delivered.iter_mut().zip(&d.delivered_after_loss) {
            let pn = u64::from(seg.end_seq.wrapping_sub(1));
            let sent = at(seg.sent.departure_ns);
            let tx = &mut seg.sent.snapshot;
            if after_loss {
                self.flow.on_lost_packet_acked(tx, sent, pn, self.mss);
            } else {
                self.flow.on_packet_acked(tx, sent, pn, self.mss);
            }
        }
        for (tx, &seq) in d.lost.iter().zip(&d.lost_seq) {
            let (p, r) = (&self.params, &mut self.rand);
            self.flow
                .on_packet_lost(p, now, tx, u64::from(seq), self.mss, r);
        }
        self.ce_count += u64::from(a.ce_delta);
        let mut ack = Bbr3Ack::default();
        ack.rtt_us = a.rtt_us.map(u64::from);
        ack.srtt_us = u64::from(a.srtt_us);
        ack.ecn_ce_count = self.ce_count;
        ack.is_cwnd_limited = self.cwnd_use.is_cwnd_limited();
        self.flow.on_ack(&self.params, now, &ack, &mut self.rand);
    }

    /// A retransmission timeout: each segment newly marked lost, then persistent
    /// congestion.
    pub fn on_rto(&mut self, now_ns: u64, r: LinuxRto<'_>) {
        let now = at(now_ns);
        for (tx, &seq) in r.lost.iter().zip(r.lost_seq) {
            let (p, rand) = (&self.params, &mut self.rand);
            self.flow
                .on_packet_lost(p, now, tx, u64::from(seq), self.mss, rand);
        }
        self.flow.on_persistent_congestion(&self.params);
    }

    /// `C.cwnd` in whole segments: the flow's bytes in flight are the stack's segments
    /// × MSS, so one more segment fits exactly when it fits in the floor.
    pub fn cwnd_segments(&self) -> u32 {
        self.flow.cwnd() / self.mss.max(1)
    }

    /// `C.pacing_rate`, bytes/s.
    pub fn pacing_rate(&self) -> u64 {
        self.flow.pacing_rate()
    }

    /// Startup is slow start; an RFC 9002 recovery is not visible, so the rest is
    /// congestion avoidance.
    pub fn phase(&self) -> Phase {
        match self.flow.state() {
            Bbr3State::Startup => Phase::SlowStart,
            _ => Phase::CongestionAvoidance,
        }
    }
}
