//! Our Linux-mode BBR flows behind a TCP stack's scoreboard, and the scoreboard alone
//! (the stream's own cost, subtracted).

use super::{BbrController, Phase, RING, XorShift};
use crate::common::{PACKET_BYTES, RTT_US, START_US, StreamController};
use congestion::Instant;
use congestion::linux::bbr::{BbrAck, BbrMode, DeliveredSegment, Flight, Sent};
use congestion::linux::bbr3::{Bbr3Ack, Mode};
use congestion::linux::tcp::TxSnapshot;
use congestion::linux::{Bbr, Bbr3, Bbr3Config, Bbr3Params, BbrConfig, BbrParams};

const NONE: u32 = u32::MAX;

/// What a TCP stack keeps: per segment its `Sent` record, the wire (segments in
/// transmission order, the oldest delivered first), `snd_una`/`snd_nxt`, the
/// counters, and at most one hole (a lost segment, until its retransmission arrives).
#[derive(Clone)]
pub(crate) struct Scoreboard {
    segs: Vec<Sent>,
    /// (sequence, send time µs) in transmission order.
    wire: Vec<(u32, u64)>,
    wire_head: u32,
    wire_len: u32,
    snd_una: u32,
    snd_nxt: u32,
    flight: Flight,
    /// The lost segment not yet delivered again, or [`NONE`].
    hole: u32,
    /// One past the highest SACKed segment.
    high_sacked: u32,
    /// Drop the oldest segment on the wire before the next ACK.
    pending_loss: bool,
    /// The hole waits for its retransmission.
    retransmit_due: bool,
    losses: u32,
}

/// What one ACK did to the scoreboard.
#[derive(Clone, Copy)]
pub(crate) struct AckOut {
    pub(crate) delivered: [DeliveredSegment; 2],
    pub(crate) n: usize,
    pub(crate) newly_lost: u32,
    pub(crate) lost_snapshot: TxSnapshot,
    pub(crate) prior_flight: Flight,
}

impl Scoreboard {
    pub(crate) fn new() -> Self {
        Scoreboard {
            segs: vec![Sent::default(); RING],
            wire: vec![(0, 0); RING],
            wire_head: 0,
            wire_len: 0,
            snd_una: 0,
            snd_nxt: 0,
            flight: Flight::default(),
            hole: NONE,
            high_sacked: 0,
            pending_loss: false,
            retransmit_due: false,
            losses: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn due(&self, now_us: u64) -> u32 {
        let mut n = 0;
        for i in 0..2 {
            if i < self.wire_len {
                let (_, sent) = self.wire[(self.wire_head.wrapping_add(i)) as usize & (RING - 1)];
                if sent + RTT_US <= now_us {
                    n += 1;
                }
            }
        }
        n
    }

    #[inline(always)]
    fn pop(&mut self) -> u32 {
        let (seq, _) = self.wire[self.wire_head as usize & (RING - 1)];
        self.wire_head = self.wire_head.wrapping_add(1);
        self.wire_len -= 1;
        seq
    }

    /// Take `packets` segments off the wire (after dropping the oldest if a loss is
    /// pending) and update the scoreboard as the ACK reporting them would.
    #[inline(always)]
    pub(crate) fn ack(&mut self, packets: u32) -> AckOut {
        let mut out = AckOut {
            delivered: [DeliveredSegment::default(); 2],
            n: 0,
            newly_lost: 0,
            lost_snapshot: TxSnapshot::default(),
            prior_flight: self.flight,
        };
        if self.pending_loss {
            self.pending_loss = false;
            if self.hole == NONE && self.wire_len > packets {
                let seq = self.pop();
                self.hole = seq;
                self.high_sacked = seq;
                self.flight.lost_out += 1;
                self.retransmit_due = true;
                self.losses += 1;
                out.newly_lost = 1;
                out.lost_snapshot = self.segs[seq as usize & (RING - 1)].snapshot;
            }
        }
        for _ in 0..packets.min(2) {
            if self.wire_len == 0 {
                break;
            }
            let seq = self.pop();
            let sent = self.segs[seq as usize & (RING - 1)];
            let mut seg = DeliveredSegment {
                sent,
                end_seq: seq.wrapping_add(1),
                retransmitted: false,
                sacked: false,
            };
            if self.hole == NONE {
                self.snd_una = seq.wrapping_add(1);
                self.flight.packets_out -= 1;
            } else if seq == self.hole {
                seg.retransmitted = true;
                let una = self.high_sacked.max(seq.wrapping_add(1));
                self.flight.packets_out -= una - self.snd_una;
                self.snd_una = una;
                self.flight.sacked_out = 0;
                self.flight.lost_out = 0;
                self.flight.retrans_out = 0;
                self.hole = NONE;
            } else {
                seg.sacked = true;
                self.flight.sacked_out += 1;
                self.high_sacked = seq.wrapping_add(1);
            }
            out.delivered[out.n] = seg;
            out.n += 1;
        }
        out
    }

    /// The next segment to send: the hole's retransmission if due, else new data.
    /// Returns its sequence number and the counters before it is counted.
    #[inline(always)]
    pub(crate) fn next_send(&mut self, now_us: u64) -> (u32, Flight) {
        let prior = self.flight;
        let seq = if self.retransmit_due {
            self.retransmit_due = false;
            self.flight.retrans_out += 1;
            self.hole
        } else {
            let seq = self.snd_nxt;
            self.snd_nxt = seq.wrapping_add(1);
            self.flight.packets_out += 1;
            assert!(
                (self.flight.packets_out as usize) < RING,
                "flight above RING"
            );
            seq
        };
        self.wire[(self.wire_head.wrapping_add(self.wire_len)) as usize & (RING - 1)] =
            (seq, now_us);
        self.wire_len += 1;
        (seq, prior)
    }

    #[inline(always)]
    pub(crate) fn record(&mut self, seq: u32, sent: Sent) {
        self.segs[seq as usize & (RING - 1)] = sent;
    }

    #[inline(always)]
    pub(crate) fn in_flight(&self) -> u32 {
        self.flight.in_flight()
    }

    /// The counters now.
    pub(crate) fn flight(&self) -> Flight {
        self.flight
    }

    /// `(snd_una, snd_nxt)`.
    pub(crate) fn seqs(&self) -> (u32, u32) {
        (self.snd_una, self.snd_nxt)
    }

    /// Drop the oldest segment on the wire before the next ACK.
    pub(crate) fn lose_next(&mut self) {
        self.pending_loss = true;
    }
}

fn at(us: u64) -> Instant {
    Instant::from_micros(us)
}

/// `linux::Bbr` (BBR v1 + `tcp_rate.c` + the socket glue), MSS 1200, IW10.
#[derive(Clone)]
pub struct OursBbr {
    params: BbrParams,
    flow: Bbr,
    rand: XorShift,
    sb: Scoreboard,
}

impl OursBbr {
    /// Kernel defaults, MSS 1200 bytes.
    pub fn new() -> Self {
        let mut config = BbrConfig::new();
        config.mss = PACKET_BYTES;
        let params = config.validate().expect("kernel defaults are valid");
        let mut rand = XorShift::new();
        let flow = Bbr::new(&params, at(START_US), &mut rand);
        OursBbr {
            params,
            flow,
            rand,
            sb: Scoreboard::new(),
        }
    }

    /// The flow.
    pub fn flow(&self) -> &Bbr {
        &self.flow
    }
}

impl Default for OursBbr {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursBbr {
    fn name(&self) -> &'static str {
        "congestion linux::Bbr"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        let mut out = self.sb.ack(packets);
        let mut ack = BbrAck {
            snd_una: self.sb.snd_una,
            snd_nxt: self.sb.snd_nxt,
            delivered: &mut out.delivered[..out.n],
            delivered_count: out.n as u32,
            newly_lost: out.newly_lost,
            rtt_us: Some(rtt_us as u32),
            srtt_us: RTT_US as u32,
            ack_maybe_delayed: false,
            prior_flight: out.prior_flight,
            flight: self.sb.flight,
            undo: false,
        };
        self.flow
            .on_ack(&self.params, at(now_us), &mut ack, &mut self.rand);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        for _ in 0..packets {
            let (seq, prior) = self.sb.next_send(now_us);
            let sent = self
                .flow
                .on_send(&self.params, at(now_us), prior, &mut self.rand);
            self.sb.record(seq, sent);
        }
    }

    fn loss(&mut self, _now_us: u64) {
        self.sb.pending_loss = true;
    }

    fn rto(&mut self, _now_us: u64) {
        unimplemented!("the BBR streams have no timeout")
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.flow.cwnd()
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.sb.in_flight()
    }
}

impl BbrController for OursBbr {
    fn phase(&self) -> Phase {
        match self.flow.mode() {
            BbrMode::Startup => Phase::Startup,
            BbrMode::Drain => Phase::Drain,
            BbrMode::ProbeBw => Phase::ProbeBw,
            BbrMode::ProbeRtt => Phase::ProbeRtt,
        }
    }

    fn losses(&self) -> u32 {
        self.sb.losses
    }

    #[inline(always)]
    fn due(&self, now_us: u64) -> u32 {
        self.sb.due(now_us)
    }

    #[inline(always)]
    fn may_send(&self, now_us: u64) -> bool {
        self.flow.next_departure_ns() <= now_us * 1000
    }
}

/// `linux::Bbr3` (Google's BBRv3 + its sampler + the socket glue), MSS 1200, IW10, no ECN.
#[derive(Clone)]
pub struct OursBbr3 {
    params: Bbr3Params,
    flow: Bbr3,
    rand: XorShift,
    sb: Scoreboard,
}

impl OursBbr3 {
    /// Kernel defaults, MSS 1200 bytes.
    pub fn new() -> Self {
        let mut config = Bbr3Config::new();
        config.mss = PACKET_BYTES;
        let params = config.validate().expect("kernel defaults are valid");
        let mut rand = XorShift::new();
        let flow = Bbr3::new(&params, at(START_US), &mut rand);
        OursBbr3 {
            params,
            flow,
            rand,
            sb: Scoreboard::new(),
        }
    }

    /// The flow.
    pub fn flow(&self) -> &Bbr3 {
        &self.flow
    }
}

impl Default for OursBbr3 {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursBbr3 {
    fn name(&self) -> &'static str {
        "congestion linux::Bbr3"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        let mut out = self.sb.ack(packets);
        let lost = [out.lost_snapshot];
        let mut ack = Bbr3Ack {
            snd_una: self.sb.snd_una,
            snd_nxt: self.sb.snd_nxt,
            delivered: &mut out.delivered[..out.n],
            delivered_count: out.n as u32,
            newly_lost: &lost[..out.newly_lost as usize],
            rtt_us: Some(rtt_us as u32),
            srtt_us: RTT_US as u32,
            ack_maybe_delayed: false,
            ece: false,
            nothing_queued: false,
            is_cwnd_limited: true,
            prior_flight: out.prior_flight,
            flight: self.sb.flight,
            undo: false,
        };
        self.flow
            .on_ack(&self.params, at(now_us), &mut ack, &mut self.rand);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        for _ in 0..packets {
            let (seq, prior) = self.sb.next_send(now_us);
            let sent = self
                .flow
                .on_send(&self.params, at(now_us), prior, &mut self.rand);
            self.sb.record(seq, sent);
        }
    }

    fn loss(&mut self, _now_us: u64) {
        self.sb.pending_loss = true;
    }

    fn rto(&mut self, _now_us: u64) {
        unimplemented!("the BBR streams have no timeout")
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.flow.cwnd()
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.sb.in_flight()
    }
}

impl BbrController for OursBbr3 {
    fn phase(&self) -> Phase {
        match self.flow.mode() {
            Mode::Startup => Phase::Startup,
            Mode::Drain => Phase::Drain,
            Mode::ProbeBw => Phase::ProbeBw,
            Mode::ProbeRtt => Phase::ProbeRtt,
        }
    }

    fn losses(&self) -> u32 {
        self.sb.losses
    }

    #[inline(always)]
    fn due(&self, now_us: u64) -> u32 {
        self.sb.due(now_us)
    }

    #[inline(always)]
    fn may_send(&self, now_us: u64) -> bool {
        self.flow.next_departure_ns() <= now_us * 1000
    }
}

/// The scoreboard alone at a fixed window of 2000 packets (about BBR's 2 BDP here):
/// what the TCP stream costs without a controller, to subtract.
#[derive(Clone)]
pub struct NullTcp {
    sb: Scoreboard,
}

impl NullTcp {
    /// An empty scoreboard.
    pub fn new() -> Self {
        NullTcp {
            sb: Scoreboard::new(),
        }
    }
}

impl Default for NullTcp {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for NullTcp {
    fn name(&self) -> &'static str {
        "TCP stream alone"
    }

    #[inline(always)]
    fn ack(&mut self, _now_us: u64, packets: u32, _rtt_us: u64) {
        let out = self.sb.ack(packets);
        std::hint::black_box(&out.delivered);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        for _ in 0..packets {
            let (seq, _) = self.sb.next_send(now_us);
            let sent = Sent {
                departure_ns: now_us * 1000,
                snapshot: TxSnapshot::default(),
            };
            self.sb.record(seq, std::hint::black_box(sent));
        }
    }

    fn loss(&mut self, _now_us: u64) {
        self.sb.pending_loss = true;
    }

    fn rto(&mut self, _now_us: u64) {
        unimplemented!("the BBR streams have no timeout")
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        std::hint::black_box(2000)
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.sb.in_flight()
    }
}

/// The null stream has no phases; it reports PROBE_RTT so that the PROBE_RTT stream's
/// wait ends at once and its snapshot follows the warm-up directly.
impl BbrController for NullTcp {
    fn phase(&self) -> Phase {
        Phase::ProbeRtt
    }

    fn losses(&self) -> u32 {
        self.sb.losses
    }

    #[inline(always)]
    fn due(&self, now_us: u64) -> u32 {
        self.sb.due(now_us)
    }

    #[inline(always)]
    fn may_send(&self, _now_us: u64) -> bool {
        true
    }
}
