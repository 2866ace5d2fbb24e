//! `rfc::Bbr3Controller` (and `AnyController::RfcBbr3`): a transfer driven through
//! `CongestionController` leaves the flow exactly where the same events leave
//! `rfc::Bbr3` driven through its own API, after every step.

use congestion::linux::RandomFn;
use congestion::linux::tcp::{RandomSource, TxSnapshot};
use congestion::rfc::bbr3::State;
use congestion::rfc::{Bbr3, Bbr3Ack, Bbr3Config, Bbr3Controller, Bbr3Params};
use congestion::{
    AckEvent, AckedPacket, AnyController, CongestionController, Duration, EcnEvent, Instant,
    LossEvent, SentEvent,
};

const SMSS: u64 = 1000;

/// The same pseudo-random sequence for both paths (a small LCG).
#[derive(Clone, Copy)]
struct Lcg(u32);

impl RandomSource for Lcg {
    fn below(&mut self, ceil: u32) -> u32 {
        self.0 = self.0.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (self.0 >> 8) % ceil.max(1)
    }
}

/// rfc::Bbr3 driven by hand with the calls the wrapper documents.
struct Direct {
    p: Bbr3Params,
    f: Bbr3,
    rand: Lcg,
    ce: u64,
    srtt: u64,
    cwnd_limited: bool,
}

impl Direct {
    fn send(&mut self, now: Instant, pn: u64) -> TxSnapshot {
        let tx = self.f.on_packet_sent(now, pn, SMSS as u32, &mut self.rand);
        if self.f.bytes_in_flight() >= self.f.cwnd() {
            self.cwnd_limited = true;
        }
        tx
    }

    fn ack(
        &mut self,
        now: Instant,
        newest: (Instant, TxSnapshot, u64),
        bytes: u32,
        rtt: u64,
        ce: u64,
    ) {
        let (sent, mut tx, pn) = newest;
        self.f.on_packet_acked(&mut tx, sent, pn, bytes);
        self.ce += ce;
        self.srtt = if self.srtt == 0 {
            rtt
        } else {
            (self.srtt * 7 + rtt) / 8
        };
        let mut ack = Bbr3Ack::with_rtt_us(rtt);
        ack.srtt_us = self.srtt;
        ack.ecn_ce_count = self.ce;
        ack.is_cwnd_limited = self.cwnd_limited;
        let round = self.f.round_count();
        self.f.on_ack(&self.p, now, &ack, &mut self.rand);
        if self.f.round_count() != round {
            self.cwnd_limited = false;
        }
    }
}

struct Packet {
    pn: u64,
    at: Instant,
    tx: TxSnapshot,
}

/// Drives `through` (a trait object) and `direct` with one transfer: a path of 10 ms
/// and 100 packets per RTT in rounds; a loss burst in round 12, CE marks in rounds
/// 20–22, an idle gap in round 30.
fn run(through: &mut dyn CongestionController, direct: &mut Direct) -> Vec<State> {
    let mut next_pn = 0u64;
    let mut out: Vec<Packet> = Vec::new();
    let mut states = Vec::new();
    let mut t = 0u64;
    for round in 0..60u64 {
        if round == 30 {
            t += 300_000;
            through.on_transmit_start(Instant::from_micros(t));
        }
        // Send up to cwnd, 1 ms apart at most 100 per round.
        let now = Instant::from_micros(t);
        while through.in_flight() + SMSS <= through.cwnd() && out.len() < 100 {
            let pn = next_pn;
            next_pn += 1;
            let after = through.in_flight() + SMSS;
            let tx = through.on_packet_sent(now, &SentEvent::new(after, pn));
            let tx2 = direct.send(now, pn);
            assert_eq!(tx, tx2, "round {round} send {pn}");
            out.push(Packet { pn, at: now, tx });
        }
        t += 10_000;
        // The flight is acknowledged in ACKs of 4 packets, 100 µs apart; in round
        // 12 every 7th packet is lost instead.
        let flight: Vec<Packet> = std::mem::take(&mut out);
        let mut i = 0;
        while i < flight.len() {
            let now = Instant::from_micros(t + i as u64 * 25);
            let end = (i + 4).min(flight.len());
            let mut acked = Vec::new();
            for p in &flight[i..end] {
                if round == 12 && p.pn % 7 == 0 {
                    let loss = LossEvent::packet(SMSS, p.pn);
                    through.on_packet_lost(now, &loss, &p.tx);
                    direct.f.on_packet_lost(
                        &direct.p,
                        now,
                        &p.tx,
                        p.pn,
                        SMSS as u32,
                        &mut direct.rand,
                    );
                } else {
                    acked.push(p);
                }
            }
            if let Some(newest) = acked.last() {
                let bytes = acked.len() as u64 * SMSS;
                let ce = u64::from((20..23).contains(&round) && i % 8 == 0);
                let rtt = now.as_micros() - newest.at.as_micros();
                let ack =
                    AckEvent::new(bytes, newest.pn, Some(Duration::from_micros(rtt))).with_ce(ce);
                through.on_ack_sampled(now, &ack, &AckedPacket::new(newest.at, newest.tx));
                direct.ack(
                    now,
                    (newest.at, newest.tx, newest.pn),
                    bytes as u32,
                    rtt,
                    ce,
                );
            }
            assert_eq!(
                through.cwnd(),
                u64::from(direct.f.cwnd()),
                "round {round} ack {i}"
            );
            assert_eq!(through.in_flight(), u64::from(direct.f.bytes_in_flight()));
            assert_eq!(
                through.pacing_rate().as_bytes_per_second(),
                direct.f.pacing_rate()
            );
            assert_eq!(
                through.send_quantum_bytes(),
                u64::from(direct.f.send_quantum())
            );
            i = end;
        }
        states.push(direct.f.state());
    }
    states
}

fn direct() -> Direct {
    let p = Bbr3Config::quic(SMSS as u32).validate().unwrap();
    Direct {
        p,
        f: Bbr3::new(&p, Instant::ZERO),
        rand: Lcg(7),
        ce: 0,
        srtt: 0,
        cwnd_limited: false,
    }
}

#[test]
fn the_trait_path_equals_the_flows_own_api_step_by_step() {
    let config = Bbr3Config::quic(SMSS as u32);
    let mut through = Bbr3Controller::new(config, Instant::ZERO, Lcg(7)).unwrap();
    let mut d = direct();
    let states = run(&mut through, &mut d);
    assert_eq!(through.flow(), &d.f);
    // The transfer left Startup (sampled at each round's end) for ProbeBW.
    assert_eq!(states[0], State::Startup);
    assert!(states.iter().any(|s| s.is_probe_bw()));
    assert!(d.f.round_count() >= 60);
}

fn lcg_fn(ceil: u32) -> u32 {
    // The same draws as Lcg(7), from a static state (only the AnyController test uses it).
    use std::sync::atomic::{AtomicU32, Ordering};
    static STATE: AtomicU32 = AtomicU32::new(7);
    let mut lcg = Lcg(STATE.load(Ordering::SeqCst));
    let drawn = lcg.below(ceil);
    STATE.store(lcg.0, Ordering::SeqCst);
    drawn
}

#[test]
fn any_controller_rfc_bbr3_forwards_every_call() {
    let config = Bbr3Config::quic(SMSS as u32);
    let flow = Bbr3Controller::new(config, Instant::ZERO, RandomFn(lcg_fn)).unwrap();
    let mut any = AnyController::RfcBbr3(flow);
    let mut d = direct();
    run(&mut any, &mut d);
    let AnyController::RfcBbr3(flow) = &any else {
        unreachable!()
    };
    assert_eq!(flow.flow(), &d.f);
    println!(
        "size_of::<AnyController>() = {}",
        core::mem::size_of::<AnyController>()
    );
}

#[test]
fn the_other_events_map_to_the_documented_calls() {
    let config = Bbr3Config::quic(SMSS as u32);
    let p = config.validate().unwrap();
    let mut c = Bbr3Controller::new(config, Instant::ZERO, Lcg(1)).unwrap();
    let mut f = Bbr3::new(&p, Instant::ZERO);
    let mut r = Lcg(1);
    let t0 = Instant::ZERO;
    for pn in 0..10u64 {
        c.on_sent(t0, &SentEvent::new((pn + 1) * SMSS, pn));
        f.on_packet_sent(t0, pn, SMSS as u32, &mut r);
    }
    assert_eq!(c.flow(), &f);
    // A loss without snapshot, then persistent congestion.
    let now = Instant::from_micros(30_000);
    c.on_loss(
        now,
        &LossEvent::packet(SMSS, 2).with_persistent_congestion(true),
    );
    f.on_packet_lost(&p, now, &TxSnapshot::default(), 2, SMSS as u32, &mut r);
    f.on_persistent_congestion(&p);
    assert_eq!(c.flow(), &f);
    assert_eq!(c.phase(), congestion::Phase::Recovery);
    // CE marks are counted and handed over with the next ACK.
    c.on_ecn(now, &EcnEvent::episode(3));
    assert_eq!(c.ce_count(), 3);
    c.on_ack(now, &AckEvent::new(2 * SMSS, 1, None));
    f.on_packet_discarded(2 * SMSS as u32);
    let mut ack = Bbr3Ack::default();
    ack.ecn_ce_count = 3;
    ack.is_cwnd_limited = true;
    f.on_ack(&p, now, &ack, &mut r);
    assert_eq!(c.flow(), &f);
    c.on_discarded(now, SMSS);
    f.on_packet_discarded(SMSS as u32);
    c.on_spurious_congestion(now);
    f.on_spurious_loss();
    c.on_retransmission_timeout(now);
    f.on_persistent_congestion(&p);
    assert_eq!(c.flow(), &f);
    assert_eq!(c.ssthresh(), None);
    assert_eq!(c.mss_bytes(), SMSS);
}
