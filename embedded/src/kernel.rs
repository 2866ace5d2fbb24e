//! The kernel-style algorithms behind the C ABI's `congestion_linux_{bbr,bbr3,dctcp,
//! prague}_*` calls (`linux::Bbr`, `Bbr3`, `Dctcp`, `Prague`) on the fake ACK source, one
//! chosen by the first descriptor. BBR keeps a ring of per-segment snapshots, as a
//! stack does; its random draws come from the NIC register (the caller's source, never a
//! generator hidden in the library).
//!
//! Descriptor bits: 0..8 time since the previous descriptor (µs, plus 40), 8..12 segments
//! acknowledged, 12..28 the RTT sample (ms·16, 0 = none), 28..32 the event: 0..=9 an
//! ACK, 10 an ACK whose segments carried CE (DCTCP, Prague) or a lost head segment (BBR),
//! 11 a fast-retransmit loss (DCTCP, Prague), 12 a timeout, 13 an undo, 14 and 15 an ACK.
//! After each descriptor the flow sends what its window allows, at most 16 segments.

use crate::registers::{next_descriptor, report_aux, report_cwnd};
use congestion::Instant;
use congestion::linux::bbr::{BbrAck, DeliveredSegment, Flight, Sent};
use congestion::linux::bbr3::{Bbr3Ack, Bbr3Params, Bbr3Rto};
use congestion::linux::dctcp::DctcpParams;
use congestion::linux::prague::PragueParams;
use congestion::linux::tcp::{RandomSource, TcpAck, TcpCongestionOps, TcpSysctl, TxSnapshot};
use congestion::linux::{Bbr, Bbr3, BbrParams, TcpFlow, TcpSocketConfig};

/// Draws from the NIC register: the caller's random source.
struct NicRandom;

impl RandomSource for NicRandom {
    fn below(&mut self, ceil: u32) -> u32 {
        next_descriptor() % ceil.max(1)
    }
}

/// Segments the firmware keeps snapshots for (its window never exceeds it).
const RING: u32 = 64;
/// Segments one ACK delivers at most (the descriptor's 4 bits).
const MAX_ACKED: usize = 15;

/// One decoded descriptor.
struct Event {
    now_us: u64,
    acked: u32,
    rtt_us: Option<u32>,
    kind: u32,
}

fn next_event(now_us: &mut u64) -> Event {
    let d = next_descriptor();
    *now_us = now_us.wrapping_add(u64::from(40 + (d & 0xff)));
    let rtt_field = (d >> 12) & 0xffff;
    Event {
        now_us: *now_us,
        acked: (d >> 8) & 0xf,
        rtt_us: (rtt_field != 0).then(|| rtt_field.wrapping_mul(1000) >> 4),
        kind: d >> 28,
    }
}

/// Stop here (a configuration the library refused; cannot happen with the defaults).
fn halt() -> ! {
    report_aux(u32::MAX);
    loop {
        core::hint::spin_loop();
    }
}

/// Build the chosen flow, then serve descriptors forever.
pub fn run() -> ! {
    match next_descriptor() & 3 {
        0 => run_bbr::<Bbr>(&BbrParams::new()),
        1 => run_bbr::<Bbr3>(&Bbr3Params::DEFAULT),
        2 => run_tcp_flow::<congestion::linux::dctcp::DctcpOps>(&DctcpParams::new()),
        _ => run_tcp_flow::<congestion::linux::prague::PragueOps>(&PragueParams::new()),
    }
}

/// BBR v1 and BBRv3 behind one loop.
trait BbrFlow: Sized {
    type Params;
    fn start(p: &Self::Params, now: Instant) -> Self;
    fn send(&mut self, p: &Self::Params, now: Instant, f: Flight) -> Sent;
    fn ack(&mut self, p: &Self::Params, now: Instant, a: AckView<'_>);
    fn rto(&mut self, p: &Self::Params, now: Instant, prior: Flight, f: Flight, una: u32, nxt: u32);
    fn cwnd(&self) -> u32;
    fn pacing_rate(&self) -> u64;
}

/// What one ACK did, for either version.
struct AckView<'a> {
    una: u32,
    nxt: u32,
    delivered: &'a mut [DeliveredSegment],
    lost: &'a [TxSnapshot],
    rtt_us: Option<u32>,
    prior: Flight,
    flight: Flight,
    undo: bool,
}

impl BbrFlow for Bbr {
    type Params = BbrParams;
    fn start(p: &BbrParams, now: Instant) -> Self {
        Bbr::new(p, now, &mut NicRandom)
    }
    fn send(&mut self, p: &BbrParams, now: Instant, f: Flight) -> Sent {
        self.on_send(p, now, f, &mut NicRandom)
    }
    fn ack(&mut self, p: &BbrParams, now: Instant, a: AckView<'_>) {
        let count = a.delivered.len() as u32;
        let mut ack = BbrAck {
            snd_una: a.una,
            snd_nxt: a.nxt,
            delivered: a.delivered,
            delivered_count: count,
            newly_lost: a.lost.len() as u32,
            rtt_us: a.rtt_us,
            srtt_us: a.rtt_us.unwrap_or(0),
            ack_maybe_delayed: false,
            prior_flight: a.prior,
            flight: a.flight,
            undo: a.undo,
        };
        self.on_ack(p, now, &mut ack, &mut NicRandom);
    }
    fn rto(&mut self, p: &BbrParams, now: Instant, _prior: Flight, f: Flight, una: u32, nxt: u32) {
        self.on_rto(p, now, f, f.lost_out, una, nxt, 0, &mut NicRandom);
    }
    fn cwnd(&self) -> u32 {
        Bbr::cwnd(self)
    }
    fn pacing_rate(&self) -> u64 {
        Bbr::pacing_rate(self)
    }
}

impl BbrFlow for Bbr3 {
    type Params = Bbr3Params;
    fn start(p: &Bbr3Params, now: Instant) -> Self {
        Bbr3::new(p, now, &mut NicRandom)
    }
    fn send(&mut self, p: &Bbr3Params, now: Instant, f: Flight) -> Sent {
        self.on_send(p, now, f, &mut NicRandom)
    }
    fn ack(&mut self, p: &Bbr3Params, now: Instant, a: AckView<'_>) {
        let count = a.delivered.len() as u32;
        let mut ack = Bbr3Ack {
            snd_una: a.una,
            snd_nxt: a.nxt,
            delivered: a.delivered,
            delivered_count: count,
            newly_lost: a.lost,
            rtt_us: a.rtt_us,
            srtt_us: a.rtt_us.unwrap_or(0),
            ack_maybe_delayed: false,
            ece: false,
            nothing_queued: false,
            is_cwnd_limited: true,
            prior_flight: a.prior,
            flight: a.flight,
            undo: a.undo,
        };
        self.on_ack(p, now, &mut ack, &mut NicRandom);
    }
    fn rto(&mut self, p: &Bbr3Params, now: Instant, prior: Flight, f: Flight, una: u32, nxt: u32) {
        let rto = Bbr3Rto {
            prior_flight: prior,
            flight: f,
            newly_lost: &[],
            snd_una: una,
            snd_nxt: nxt,
            timeouts: 0,
            nothing_queued: false,
        };
        self.on_rto(p, now, &rto, &mut NicRandom);
    }
    fn cwnd(&self) -> u32 {
        Bbr3::cwnd(self)
    }
    fn pacing_rate(&self) -> u64 {
        Bbr3::pacing_rate(self)
    }
}

/// A BBR flow with its ring of snapshots: `una..nxt` are outstanding.
fn run_bbr<F: BbrFlow>(p: &F::Params) -> ! {
    let mut now_us: u64 = 0;
    let mut flow = F::start(p, Instant::ZERO);
    let mut ring = [Sent::default(); RING as usize];
    let (mut una, mut nxt, mut lost_out) = (0u32, 0u32, 0u32);
    loop {
        let e = next_event(&mut now_us);
        let now = Instant::from_micros(e.now_us);
        let outstanding = nxt.wrapping_sub(una);
        let flight = |out: u32, lost: u32| Flight {
            packets_out: out,
            lost_out: lost.min(out),
            ..Flight::default()
        };
        match e.kind {
            12 => {
                let prior = flight(outstanding, lost_out);
                lost_out = outstanding;
                flow.rto(p, now, prior, flight(outstanding, lost_out), una, nxt);
            }
            kind => {
                let n = e.acked.min(outstanding) as usize;
                let mut delivered = [DeliveredSegment::default(); MAX_ACKED];
                let mut lost = [TxSnapshot::default(); 1];
                let mut lost_n = 0;
                for (i, d) in delivered.iter_mut().enumerate().take(n) {
                    let seq = una.wrapping_add(i as u32);
                    d.sent = ring[(seq % RING) as usize];
                    d.end_seq = seq.wrapping_add(1);
                }
                if kind == 10 && n < outstanding as usize {
                    // The first segment past what this ACK delivers is lost.
                    lost[0] = ring[(una.wrapping_add(n as u32) % RING) as usize].snapshot;
                    lost_n = 1;
                }
                let prior = flight(outstanding, lost_out);
                una = una.wrapping_add(n as u32);
                lost_out = (lost_out + lost_n as u32).min(nxt.wrapping_sub(una));
                let view = AckView {
                    una,
                    nxt,
                    delivered: delivered.get_mut(..n).unwrap_or_default(),
                    lost: lost.get(..lost_n).unwrap_or_default(),
                    rtt_us: e.rtt_us,
                    prior,
                    flight: flight(nxt.wrapping_sub(una), lost_out),
                    undo: kind == 13,
                };
                flow.ack(p, now, view);
                if kind == 13 {
                    lost_out = 0;
                }
            }
        }
        for _ in 0..16 {
            let out = nxt.wrapping_sub(una);
            if out >= flow.cwnd().min(RING) {
                break;
            }
            let sent = flow.send(p, now, flight(out, lost_out));
            ring[(nxt % RING) as usize] = sent;
            nxt = nxt.wrapping_add(1);
            report_aux(sent.departure_ns as u32);
        }
        report_cwnd(flow.cwnd());
        report_aux(flow.pacing_rate() as u32);
    }
}

/// DCTCP or Prague (`TcpFlow<O>`).
fn run_tcp_flow<O: TcpCongestionOps>(p: &O::Params) -> ! {
    let socket = TcpSocketConfig::new();
    let sysctl = TcpSysctl::new();
    let mut rand = NicRandom;
    let Ok(mut flow) = TcpFlow::<O>::new(p, &socket, 0, &mut rand) else {
        halt()
    };
    let mut now_us: u64 = 0;
    loop {
        let e = next_event(&mut now_us);
        match e.kind {
            11 => {
                flow.loss(p, e.now_us, &mut rand);
            }
            12 => flow.rto(p, e.now_us, 1, &mut rand),
            13 => {
                flow.undo(p, e.now_us, &mut rand);
            }
            kind => {
                let acked = e.acked.min(flow.socket().packets_out);
                let ce_delta = if kind == 10 { acked } else { 0 };
                let ack = TcpAck {
                    acked,
                    rtt_us: e.rtt_us,
                    ce_delta,
                    ece: false,
                };
                flow.ack(p, &sysctl, e.now_us, &ack, &mut rand);
            }
        }
        let s = flow.socket();
        let in_flight = s.snd_cwnd.min(s.packets_out.saturating_add(16));
        flow.transmit(p, e.now_us, in_flight, &mut rand);
        report_cwnd(flow.socket().snd_cwnd);
        report_aux(flow.socket().sk_pacing_rate as u32);
    }
}
