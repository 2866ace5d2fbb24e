//! Our flows in the BBR cold benchmark: `linux::Bbr` and `linux::Bbr3` behind the
//! TCP scoreboard of `crate::bbr`.

use super::{ScriptFlow, Stack};
use crate::bbr::Phase;
use crate::bbr::ours::{AckOut, Scoreboard};
use crate::common::{PACKET_BYTES, RTT_US, START_US};
use congestion::Instant;
use congestion::linux::bbr::{BbrAck, BbrMode, DeliveredSegment, Flight, Sent};
use congestion::linux::bbr3::{Bbr3Ack, Mode as Bbr3Mode};
use congestion::linux::tcp::{RandomSource, TxSnapshot};
use congestion::linux::{Bbr, Bbr3, Bbr3Config, Bbr3Params, BbrConfig, BbrParams};

/// A [`RandomSource`] that always draws 0 (stateless, so replays repeat).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroRandom;

impl RandomSource for ZeroRandom {
    fn below(&mut self, _ceil: u32) -> u32 {
        0
    }
}

/// Our TCP flows' ACK: what `BbrAck` / `Bbr3Ack` carry.
#[derive(Clone, Copy)]
pub struct TcpAckIn {
    now_us: u64,
    out: AckOut,
    snd_una: u32,
    snd_nxt: u32,
    flight: Flight,
    rtt_us: u32,
}

/// Our TCP flows' send: the time and the counters before it.
#[derive(Clone, Copy)]
pub struct TcpSendIn {
    now_us: u64,
    seq: u32,
    prior: Flight,
}

/// The TCP scoreboard of `crate::bbr` as the stack side.
#[derive(Clone)]
pub struct TcpStack(Scoreboard, Option<u32>);

impl<F: ScriptFlow<AckIn = TcpAckIn, SendIn = TcpSendIn, SendOut = Sent>> Stack<F> for TcpStack {
    fn new() -> Self {
        TcpStack(Scoreboard::new(), None)
    }
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) -> TcpAckIn {
        let out = self.0.ack(packets);
        let (snd_una, snd_nxt) = self.0.seqs();
        TcpAckIn {
            now_us,
            out,
            snd_una,
            snd_nxt,
            flight: self.0.flight(),
            rtt_us: rtt_us as u32,
        }
    }
    fn send(&mut self, now_us: u64) -> TcpSendIn {
        let (seq, prior) = self.0.next_send(now_us);
        self.1 = Some(seq);
        TcpSendIn { now_us, seq, prior }
    }
    fn keep(&mut self, out: Sent) {
        if let Some(seq) = self.1.take() {
            self.0.record(seq, out);
        }
    }
    fn lose(&mut self, _flow: &mut F, _sh: &F::Shared, _now_us: u64) {
        self.0.lose_next();
    }
    fn in_flight(&self) -> u32 {
        self.0.in_flight()
    }
    fn due(&self, now_us: u64) -> u32 {
        self.0.due(now_us)
    }
}

/// `linux::Bbr`, the flow alone (192 bytes).
#[derive(Clone)]
pub struct ColdBbr(Bbr);

impl ColdBbr {
    /// The flow.
    pub fn flow(&self) -> &Bbr {
        &self.0
    }
}

impl ScriptFlow for ColdBbr {
    const NAME: &'static str = "bbr";
    type Shared = BbrParams;
    type AckIn = TcpAckIn;
    type SendIn = TcpSendIn;
    type SendOut = Sent;
    fn shared() -> BbrParams {
        let mut config = BbrConfig::new();
        config.mss = PACKET_BYTES;
        config.validate().expect("kernel defaults are valid")
    }
    fn fresh(p: &BbrParams) -> Self {
        ColdBbr(Bbr::new(p, Instant::from_micros(START_US), &mut ZeroRandom))
    }
    #[inline(always)]
    fn ack(&mut self, p: &BbrParams, a: &TcpAckIn) {
        let mut delivered = a.out.delivered;
        let mut ack = BbrAck {
            snd_una: a.snd_una,
            snd_nxt: a.snd_nxt,
            delivered: &mut delivered[..a.out.n],
            delivered_count: a.out.n as u32,
            newly_lost: a.out.newly_lost,
            rtt_us: Some(a.rtt_us),
            srtt_us: RTT_US as u32,
            ack_maybe_delayed: false,
            prior_flight: a.out.prior_flight,
            flight: a.flight,
            undo: false,
        };
        self.0
            .on_ack(p, Instant::from_micros(a.now_us), &mut ack, &mut ZeroRandom);
    }
    #[inline(always)]
    fn send(&mut self, p: &BbrParams, s: &TcpSendIn) -> Sent {
        let _ = s.seq;
        self.0
            .on_send(p, Instant::from_micros(s.now_us), s.prior, &mut ZeroRandom)
    }
    fn cwnd_packets(&self, _: &BbrParams) -> u32 {
        self.0.cwnd()
    }
    fn may_send(&self, _: &BbrParams, now_us: u64) -> bool {
        self.0.next_departure_ns() <= now_us * 1000
    }
    fn phase(&self) -> Phase {
        match self.0.mode() {
            BbrMode::Startup => Phase::Startup,
            BbrMode::Drain => Phase::Drain,
            BbrMode::ProbeBw => Phase::ProbeBw,
            BbrMode::ProbeRtt => Phase::ProbeRtt,
        }
    }
    fn in_recovery(&self) -> bool {
        self.0.ca_state() != congestion::linux::CaState::Open
    }
}

/// `linux::Bbr3`, the flow alone (256 bytes).
#[derive(Clone)]
pub struct ColdBbr3(Bbr3);

impl ColdBbr3 {
    /// The flow.
    pub fn flow(&self) -> &Bbr3 {
        &self.0
    }
}

impl ScriptFlow for ColdBbr3 {
    const NAME: &'static str = "bbr3";
    type Shared = Bbr3Params;
    type AckIn = TcpAckIn;
    type SendIn = TcpSendIn;
    type SendOut = Sent;
    fn shared() -> Bbr3Params {
        let mut config = Bbr3Config::new();
        config.mss = PACKET_BYTES;
        config.validate().expect("kernel defaults are valid")
    }
    fn fresh(p: &Bbr3Params) -> Self {
        ColdBbr3(Bbr3::new(
            p,
            Instant::from_micros(START_US),
            &mut ZeroRandom,
        ))
    }
    #[inline(always)]
    fn ack(&mut self, p: &Bbr3Params, a: &TcpAckIn) {
        let mut delivered = a.out.delivered;
        let lost: [TxSnapshot; 1] = [a.out.lost_snapshot];
        let mut ack = Bbr3Ack {
            snd_una: a.snd_una,
            snd_nxt: a.snd_nxt,
            delivered: &mut delivered[..a.out.n],
            delivered_count: a.out.n as u32,
            newly_lost: &lost[..a.out.newly_lost as usize],
            rtt_us: Some(a.rtt_us),
            srtt_us: RTT_US as u32,
            ack_maybe_delayed: false,
            ece: false,
            nothing_queued: false,
            is_cwnd_limited: true,
            prior_flight: a.out.prior_flight,
            flight: a.flight,
            undo: false,
        };
        self.0
            .on_ack(p, Instant::from_micros(a.now_us), &mut ack, &mut ZeroRandom);
    }
    #[inline(always)]
    fn send(&mut self, p: &Bbr3Params, s: &TcpSendIn) -> Sent {
        self.0
            .on_send(p, Instant::from_micros(s.now_us), s.prior, &mut ZeroRandom)
    }
    fn cwnd_packets(&self, _: &Bbr3Params) -> u32 {
        self.0.cwnd()
    }
    fn may_send(&self, _: &Bbr3Params, now_us: u64) -> bool {
        self.0.next_departure_ns() <= now_us * 1000
    }
    fn phase(&self) -> Phase {
        match self.0.mode() {
            Bbr3Mode::Startup => Phase::Startup,
            Bbr3Mode::Drain => Phase::Drain,
            Bbr3Mode::ProbeBw => Phase::ProbeBw,
            Bbr3Mode::ProbeRtt => Phase::ProbeRtt,
        }
    }
    fn in_recovery(&self) -> bool {
        self.0.ca_state() != congestion::linux::CaState::Open
    }
}

/// The delivered segments of a script step, for the tests.
pub fn delivered_of(a: &TcpAckIn) -> &[DeliveredSegment] {
    &a.out.delivered[..a.out.n]
}
