//! The kernel-style algorithms' C calls do what their Rust calls do: the same long
//! event sequence goes to the Rust type (`linux::{Bbr, Bbr3, Dctcp, Prague}`) and, from
//! Rust, to the C ABI, and every getter agrees after every event. BBR v1 and v3 run over
//! a modelled bottleneck (1 segment per ms, 10 ms of propagation, a drop every 97th
//! segment reported 3 segments later, an RTO at the end) with the same generator behind
//! both random sources; DCTCP and Prague run a pseudo-random script of transmits, ACKs
//! with CE counts, losses, undos and RTOs.

use congestion::Instant;
use congestion::linux::bbr::{BbrAck, DeliveredSegment, Flight, Sent};
use congestion::linux::bbr3::Bbr3Ack;
use congestion::linux::dctcp::DctcpConfig;
use congestion::linux::prague::PragueConfig;
use congestion::linux::tcp::{RandomSource, TcpAck, TcpSysctl};
use congestion::linux::{Bbr, Bbr3, Bbr3Config, BbrConfig, Dctcp, Prague, TcpSocketConfig};
use congestion_ffi::*;
use std::ffi::c_void;

/// A small LCG: the same draws for the Rust flow and, through the callback, the C one.
#[derive(Clone, Copy)]
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (self.0 >> 33) as u32
    }
}

impl RandomSource for Lcg {
    fn below(&mut self, ceil: u32) -> u32 {
        self.next() % ceil.max(1)
    }
}

unsafe extern "C" fn lcg_below(ctx: *mut c_void, ceil: u32) -> u32 {
    // SAFETY: the test passes a live `Lcg` as the context.
    let lcg = unsafe { &mut *ctx.cast::<Lcg>() };
    lcg.next() % ceil.max(1)
}

fn flight(f: Flight) -> CongestionFlight {
    CongestionFlight {
        packets_out: f.packets_out,
        sacked_out: f.sacked_out,
        lost_out: f.lost_out,
        retrans_out: f.retrans_out,
    }
}

fn c_seg(s: &DeliveredSegment) -> CongestionDeliveredSegment {
    CongestionDeliveredSegment {
        departure_ns: s.sent.departure_ns,
        snapshot: CongestionTxSnapshot {
            first_tx_mstamp: s.sent.snapshot.first_tx_mstamp,
            delivered_mstamp: s.sent.snapshot.delivered_mstamp,
            delivered: s.sent.snapshot.delivered,
            lost: s.sent.snapshot.lost,
            flags: s.sent.snapshot.packed_flags(),
            in_flight: s.sent.snapshot.in_flight(),
        },
        end_seq: s.end_seq,
        retransmitted: u8::from(s.retransmitted),
        sacked: u8::from(s.sacked),
    }
}

fn get<S, T: Default>(s: &S, f: unsafe extern "C" fn(*const S, *mut T) -> i32) -> T {
    let mut v = T::default();
    assert_eq!(unsafe { f(s, &mut v) }, CONGESTION_OK);
    v
}

/// One BBR flow both ways: the Rust flow and the C state, with their own generators
/// started alike.
trait BothBbr {
    fn send(&mut self, now: u64, f: Flight) -> Sent;
    fn ack(&mut self, now: u64, segs: &mut [DeliveredSegment], a: &AckFacts);
    fn rto(&mut self, now: u64, prior: Flight, f: Flight, lost: &[Sent], una: u32, nxt: u32);
    /// (cwnd, ssthresh, pacing, mode, bw, next departure) from Rust and from C.
    fn views(&self) -> ([u64; 6], [u64; 6]);
}

struct AckFacts {
    una: u32,
    nxt: u32,
    rtt: u32,
    prior: Flight,
    flight: Flight,
    lost: Vec<Sent>,
}

fn raw_ssthresh(s: u32) -> u64 {
    if s >= 0x7fff_ffff {
        CONGESTION_SSTHRESH_NONE
    } else {
        u64::from(s)
    }
}

struct V1 {
    p: congestion::linux::BbrParams,
    rust: Bbr,
    rr: Lcg,
    cp: Box<CongestionLinuxBbrParams>,
    c: Box<CongestionLinuxBbrState>,
    cr: Box<Lcg>,
}

impl V1 {
    fn new() -> Self {
        let mut cfg = BbrConfig::new();
        cfg.initial_rtt_us = 10_000;
        let p = cfg.validate().unwrap();
        let mut rr = Lcg(7);
        let rust = Bbr::new(&p, Instant::from_micros(1_000_000), &mut rr);
        let mut cc = unsafe { std::mem::zeroed::<CongestionLinuxBbrConfig>() };
        unsafe { congestion_linux_bbr_config_default(&mut cc) };
        cc.initial_rtt_us = 10_000;
        let mut cp = Box::new(unsafe { std::mem::zeroed::<CongestionLinuxBbrParams>() });
        let mut c = Box::new(unsafe { std::mem::zeroed::<CongestionLinuxBbrState>() });
        let mut cr = Box::new(Lcg(7));
        let rand = random(&mut cr);
        unsafe {
            assert_eq!(
                congestion_linux_bbr_params_init(
                    &mut *cp,
                    size_of::<CongestionLinuxBbrParams>(),
                    &cc
                ),
                0
            );
            assert_eq!(
                congestion_linux_bbr_init(
                    &mut *c,
                    size_of::<CongestionLinuxBbrState>(),
                    &*cp,
                    1_000_000,
                    &rand
                ),
                0
            );
        }
        V1 {
            p,
            rust,
            rr,
            cp,
            c,
            cr,
        }
    }
}

fn random(l: &mut Box<Lcg>) -> CongestionRandom {
    CongestionRandom {
        below: Some(lcg_below),
        ctx: std::ptr::from_mut::<Lcg>(l).cast(),
        value: 0,
    }
}

impl BothBbr for V1 {
    fn send(&mut self, now: u64, f: Flight) -> Sent {
        let sent = self
            .rust
            .on_send(&self.p, Instant::from_micros(now), f, &mut self.rr);
        let rand = random(&mut self.cr);
        let (mut dep, mut snap) = (0, CongestionTxSnapshot::default());
        assert_eq!(
            unsafe {
                congestion_linux_bbr_on_send(
                    &mut *self.c,
                    now,
                    flight(f),
                    &rand,
                    &mut dep,
                    &mut snap,
                )
            },
            0
        );
        assert_eq!(
            (dep, snap),
            (
                sent.departure_ns,
                c_seg(&DeliveredSegment {
                    sent,
                    ..Default::default()
                })
                .snapshot
            )
        );
        sent
    }

    fn ack(&mut self, now: u64, segs: &mut [DeliveredSegment], a: &AckFacts) {
        let mut c: Vec<_> = segs.iter().map(c_seg).collect();
        let mut ack = BbrAck {
            snd_una: a.una,
            snd_nxt: a.nxt,
            delivered: segs,
            delivered_count: c.len() as u32,
            newly_lost: a.lost.len() as u32,
            rtt_us: Some(a.rtt),
            srtt_us: 10_000,
            ack_maybe_delayed: false,
            prior_flight: a.prior,
            flight: a.flight,
            undo: false,
        };
        self.rust
            .on_ack(&self.p, Instant::from_micros(now), &mut ack, &mut self.rr);
        let cack = CongestionLinuxBbrAck {
            delivered: c.as_mut_ptr(),
            delivered_len: c.len(),
            snd_una: a.una,
            snd_nxt: a.nxt,
            delivered_count: c.len() as u32,
            newly_lost: a.lost.len() as u32,
            rtt_us: i64::from(a.rtt),
            srtt_us: 10_000,
            ack_maybe_delayed: 0,
            undo: 0,
            prior_flight: flight(a.prior),
            flight: flight(a.flight),
        };
        let rand = random(&mut self.cr);
        assert_eq!(
            unsafe { congestion_linux_bbr_on_ack(&mut *self.c, now, &cack, &rand) },
            0
        );
    }

    fn rto(&mut self, now: u64, _prior: Flight, f: Flight, lost: &[Sent], una: u32, nxt: u32) {
        let n = lost.len() as u32;
        self.rust.on_rto(
            &self.p,
            Instant::from_micros(now),
            f,
            n,
            una,
            nxt,
            0,
            &mut self.rr,
        );
        let rand = random(&mut self.cr);
        assert_eq!(
            unsafe {
                congestion_linux_bbr_on_rto(&mut *self.c, now, flight(f), n, una, nxt, 0, &rand)
            },
            0
        );
    }

    fn views(&self) -> ([u64; 6], [u64; 6]) {
        let r = &self.rust;
        let rust = [
            u64::from(r.cwnd()),
            raw_ssthresh(r.ssthresh()),
            r.pacing_rate(),
            r.mode() as u64,
            u64::from(r.bw()),
            r.next_departure_ns(),
        ];
        let c = &*self.c;
        let ffi = [
            get(c, congestion_linux_bbr_cwnd),
            get(c, congestion_linux_bbr_ssthresh),
            get(c, congestion_linux_bbr_pacing_rate),
            u64::from(get(c, congestion_linux_bbr_mode)),
            u64::from(get(c, congestion_linux_bbr_bw)),
            get(c, congestion_linux_bbr_next_departure_ns),
        ];
        let _ = &self.cp;
        (rust, ffi)
    }
}

struct V3 {
    p: congestion::linux::Bbr3Params,
    rust: Bbr3,
    rr: Lcg,
    cp: Box<CongestionLinuxBbr3Params>,
    c: Box<CongestionLinuxBbr3State>,
    cr: Box<Lcg>,
}

impl V3 {
    fn new() -> Self {
        let mut cfg = Bbr3Config::new();
        cfg.initial_rtt_us = 10_000;
        let p = cfg.validate().unwrap();
        let mut rr = Lcg(11);
        let rust = Bbr3::new(&p, Instant::from_micros(1_000_000), &mut rr);
        let mut cc = unsafe { std::mem::zeroed::<CongestionLinuxBbrConfig>() };
        unsafe { congestion_linux_bbr_config_default(&mut cc) };
        cc.initial_rtt_us = 10_000;
        let mut cp = Box::new(unsafe { std::mem::zeroed::<CongestionLinuxBbr3Params>() });
        let mut c = Box::new(unsafe { std::mem::zeroed::<CongestionLinuxBbr3State>() });
        let mut cr = Box::new(Lcg(11));
        let rand = random(&mut cr);
        unsafe {
            assert_eq!(
                congestion_linux_bbr3_params_init(
                    &mut *cp,
                    size_of::<CongestionLinuxBbr3Params>(),
                    &cc
                ),
                0
            );
            assert_eq!(
                congestion_linux_bbr3_init(
                    &mut *c,
                    size_of::<CongestionLinuxBbr3State>(),
                    &*cp,
                    1_000_000,
                    &rand
                ),
                0
            );
        }
        V3 {
            p,
            rust,
            rr,
            cp,
            c,
            cr,
        }
    }
}

impl BothBbr for V3 {
    fn send(&mut self, now: u64, f: Flight) -> Sent {
        let sent = self
            .rust
            .on_send(&self.p, Instant::from_micros(now), f, &mut self.rr);
        let rand = random(&mut self.cr);
        let (mut dep, mut snap) = (0, CongestionTxSnapshot::default());
        assert_eq!(
            unsafe {
                congestion_linux_bbr3_on_send(
                    &mut *self.c,
                    now,
                    flight(f),
                    &rand,
                    &mut dep,
                    &mut snap,
                )
            },
            0
        );
        assert_eq!(
            (dep, snap),
            (
                sent.departure_ns,
                c_seg(&DeliveredSegment {
                    sent,
                    ..Default::default()
                })
                .snapshot
            )
        );
        sent
    }

    fn ack(&mut self, now: u64, segs: &mut [DeliveredSegment], a: &AckFacts) {
        let mut c: Vec<_> = segs.iter().map(c_seg).collect();
        let lost: Vec<_> = a.lost.iter().map(|s| s.snapshot).collect();
        let clost: Vec<_> = a
            .lost
            .iter()
            .map(|&sent| {
                c_seg(&DeliveredSegment {
                    sent,
                    ..Default::default()
                })
                .snapshot
            })
            .collect();
        let mut ack = Bbr3Ack {
            snd_una: a.una,
            snd_nxt: a.nxt,
            delivered: segs,
            delivered_count: c.len() as u32,
            newly_lost: &lost,
            rtt_us: Some(a.rtt),
            srtt_us: 10_000,
            ack_maybe_delayed: false,
            ece: false,
            nothing_queued: false,
            is_cwnd_limited: true,
            prior_flight: a.prior,
            flight: a.flight,
            undo: false,
        };
        self.rust
            .on_ack(&self.p, Instant::from_micros(now), &mut ack, &mut self.rr);
        let cack = CongestionLinuxBbr3Ack {
            delivered: c.as_mut_ptr(),
            delivered_len: c.len(),
            newly_lost: clost.as_ptr(),
            newly_lost_len: clost.len(),
            snd_una: a.una,
            snd_nxt: a.nxt,
            delivered_count: c.len() as u32,
            srtt_us: 10_000,
            rtt_us: i64::from(a.rtt),
            ack_maybe_delayed: 0,
            ece: 0,
            nothing_queued: 0,
            is_cwnd_limited: 1,
            undo: 0,
            prior_flight: flight(a.prior),
            flight: flight(a.flight),
        };
        let rand = random(&mut self.cr);
        assert_eq!(
            unsafe { congestion_linux_bbr3_on_ack(&mut *self.c, now, &cack, &rand) },
            0
        );
    }

    fn rto(&mut self, now: u64, prior: Flight, f: Flight, lost: &[Sent], una: u32, nxt: u32) {
        let snaps: Vec<_> = lost.iter().map(|s| s.snapshot).collect();
        let rto = congestion::linux::bbr3::Bbr3Rto {
            prior_flight: prior,
            flight: f,
            newly_lost: &snaps,
            snd_una: una,
            snd_nxt: nxt,
            timeouts: 0,
            nothing_queued: false,
        };
        self.rust
            .on_rto(&self.p, Instant::from_micros(now), &rto, &mut self.rr);
        let csnaps: Vec<_> = lost
            .iter()
            .map(|&sent| {
                c_seg(&DeliveredSegment {
                    sent,
                    ..Default::default()
                })
                .snapshot
            })
            .collect();
        let crto = CongestionLinuxBbr3Rto {
            newly_lost: csnaps.as_ptr(),
            newly_lost_len: csnaps.len(),
            prior_flight: flight(prior),
            flight: flight(f),
            snd_una: una,
            snd_nxt: nxt,
            timeouts: 0,
            nothing_queued: 0,
        };
        let rand = random(&mut self.cr);
        assert_eq!(
            unsafe { congestion_linux_bbr3_on_rto(&mut *self.c, now, &crto, &rand) },
            0
        );
    }

    fn views(&self) -> ([u64; 6], [u64; 6]) {
        let r = &self.rust;
        let rust = [
            u64::from(r.cwnd()),
            raw_ssthresh(r.ssthresh()),
            r.pacing_rate(),
            r.mode() as u64,
            u64::from(r.bw()),
            r.next_departure_ns(),
        ];
        let c = &*self.c;
        let ffi = [
            get(c, congestion_linux_bbr3_cwnd),
            get(c, congestion_linux_bbr3_ssthresh),
            get(c, congestion_linux_bbr3_pacing_rate),
            u64::from(get(c, congestion_linux_bbr3_mode)),
            u64::from(get(c, congestion_linux_bbr3_bw)),
            get(c, congestion_linux_bbr3_next_departure_ns),
        ];
        let _ = &self.cp;
        (rust, ffi)
    }
}

/// The bottleneck model of the module docs, for 3 s of virtual time; returns how many
/// segments were acknowledged.
fn run_bbr(flow: &mut dyn BothBbr) -> u32 {
    const T0: u64 = 1_000_000;
    let mut segs: Vec<(Sent, u64, bool)> = Vec::new(); // sent, ack time, dropped
    let mut fl = Flight::default();
    let (mut acked, mut link_free) = (0u32, T0);
    let mut now = T0;
    while now < T0 + 3_000_000 {
        while (acked as usize) < segs.len() && segs[acked as usize].1 <= now {
            let (sent, at, dropped) = segs[acked as usize];
            let prior = fl;
            fl.packets_out -= 1;
            let mut delivered = Vec::new();
            let mut lost = Vec::new();
            if dropped {
                // Counted lost and gone (the model never retransmits).
                lost.push(sent);
            } else {
                delivered.push(DeliveredSegment {
                    sent,
                    end_seq: acked + 1,
                    ..Default::default()
                });
            }
            acked += 1;
            let facts = AckFacts {
                una: acked,
                nxt: segs.len() as u32,
                rtt: (at - sent.departure_ns / 1000) as u32,
                prior,
                flight: fl,
                lost,
            };
            flow.ack(at, &mut delivered, &facts);
            let (r, c) = flow.views();
            assert_eq!(r, c, "after the ACK at {at}");
        }
        loop {
            let (r, _) = flow.views();
            if u64::from(fl.packets_out) >= r[0] || r[5] > now * 1000 {
                break;
            }
            let sent = flow.send(now, fl);
            let n = segs.len() as u64;
            let dropped = n % 97 == 96;
            let start = link_free.max(now);
            if !dropped {
                link_free = start + 1_000;
            }
            // A drop is reported 3 segments' time after it would have left.
            segs.push((
                sent,
                start + 1_000 + 10_000 + if dropped { 3_000 } else { 0 },
                dropped,
            ));
            fl.packets_out += 1;
        }
        now += 100;
    }
    // Everything outstanding times out.
    let prior = fl;
    let lost: Vec<Sent> = segs[acked as usize..].iter().map(|s| s.0).collect();
    fl.lost_out = fl.packets_out;
    flow.rto(now, prior, fl, &lost, acked, segs.len() as u32);
    let (r, c) = flow.views();
    assert_eq!(r, c, "after the RTO");
    assert_eq!(r[0], 1, "cwnd 1 after the RTO");
    acked
}

#[test]
#[cfg_attr(miri, ignore = "thousands of ACKs: too slow under Miri")]
fn bbr_through_c_is_bbr() {
    let mut v1 = V1::new();
    assert!(run_bbr(&mut v1) > 2_500);
    let mut v3 = V3::new();
    assert!(run_bbr(&mut v3) > 2_500);
}

/// One event of the DCTCP/Prague script.
fn script(seed: u64, steps: usize, mut step: impl FnMut(u32, u64, &mut Lcg)) {
    let mut lcg = Lcg(seed);
    let mut now = 0;
    for _ in 0..steps {
        now += u64::from(lcg.next() % 3_000);
        let kind = lcg.next() % 100;
        step(kind, now, &mut lcg);
    }
}

macro_rules! tcp_flow_test {
    ($name:ident, $flow:ty, $params:expr, $cfg:ident, $cfg_default:ident, $set:expr,
     $pinit:ident, $init:ident, $transmit:ident, $ack:ident, $loss:ident, $undo:ident,
     $rto:ident, $cwnd:ident, $ssthresh:ident, $pacing:ident, $ca:ident, $inflight:ident,
     $pty:ty, $sty:ty) => {
        #[test]
        #[cfg_attr(miri, ignore = "thousands of events: too slow under Miri")]
        fn $name() {
            let p = $params;
            let sysctl = TcpSysctl::new();
            let mut socket = TcpSocketConfig::new();
            socket.initial_srtt_us = 10_000;
            let mut rust = <$flow>::new(&p, &socket, 0, &mut Lcg(0)).unwrap();
            let mut cfg = unsafe { std::mem::zeroed::<$cfg>() };
            unsafe { $cfg_default(&mut cfg) };
            cfg.socket.initial_srtt_us = 10_000;
            $set(&mut cfg);
            let mut cp = Box::new(unsafe { std::mem::zeroed::<$pty>() });
            let mut c = Box::new(unsafe { std::mem::zeroed::<$sty>() });
            unsafe {
                assert_eq!($pinit(&mut *cp, size_of::<$pty>(), &cfg), 0);
                assert_eq!($init(&mut *c, size_of::<$sty>(), &*cp, 0), 0);
            }
            let mut nothing = Lcg(0);
            let mut seen = 0u32; // CA states visited, one bit each
            script(5, 20_000, |kind, now, lcg| {
                let s = rust.socket();
                let (out, cwnd) = (s.packets_out, s.snd_cwnd);
                match kind {
                    0..=39 => {
                        let n = cwnd.saturating_sub(out).min(lcg.next() % 8);
                        rust.transmit(&p, now, out + n, &mut nothing);
                        assert_eq!(unsafe { $transmit(&mut *c, now, out + n) }, 0);
                    }
                    40..=89 => {
                        let acked = out.min(lcg.next() % 4);
                        let ce = if lcg.next() % 3 == 0 {
                            lcg.next() % 3
                        } else {
                            0
                        };
                        let rtt = 10_000 + lcg.next() % 5_000;
                        let ack = TcpAck {
                            acked,
                            rtt_us: Some(rtt),
                            ce_delta: ce,
                            ece: false,
                        };
                        rust.ack(&p, &sysctl, now, &ack, &mut nothing);
                        let mut o = 9;
                        assert_eq!(
                            unsafe { $ack(&mut *c, now, acked, i64::from(rtt), ce, 0, &mut o) },
                            0
                        );
                    }
                    90..=94 => {
                        let e = rust.loss(&p, now, &mut nothing);
                        let mut f = 9;
                        assert_eq!(unsafe { $loss(&mut *c, now, &mut f) }, 0);
                        assert_eq!(f, u8::from(e));
                    }
                    95..=97 => {
                        let u = rust.undo(&p, now, &mut nothing);
                        let mut f = 9;
                        assert_eq!(unsafe { $undo(&mut *c, now, &mut f) }, 0);
                        assert_eq!(f, u8::from(u));
                    }
                    _ => {
                        rust.rto(&p, now, 1, &mut nothing);
                        assert_eq!(unsafe { $rto(&mut *c, now, 1) }, 0);
                    }
                }
                let s = rust.socket();
                let r = [
                    u64::from(s.snd_cwnd),
                    raw_ssthresh(s.snd_ssthresh),
                    s.sk_pacing_rate,
                    s.icsk_ca_state as u64,
                    u64::from(s.packets_out),
                ];
                let cs = &*c;
                let f = [
                    get(cs, $cwnd),
                    get(cs, $ssthresh),
                    get(cs, $pacing),
                    u64::from(get(cs, $ca)),
                    get(cs, $inflight),
                ];
                assert_eq!(r, f, "event {kind} at {now}");
                seen |= 1 << r[3];
            });
            // Open, CWR (CE marks), Recovery (losses) and Loss (RTOs) were all visited.
            assert_eq!(seen & 0b11101, 0b11101, "states seen: {seen:b}");
        }
    };
}

tcp_flow_test!(
    dctcp_through_c_is_dctcp,
    Dctcp,
    DctcpConfig::new().validate().unwrap(),
    CongestionLinuxDctcpConfig,
    congestion_linux_dctcp_config_default,
    |_: &mut CongestionLinuxDctcpConfig| {},
    congestion_linux_dctcp_params_init,
    congestion_linux_dctcp_init,
    congestion_linux_dctcp_on_transmit,
    congestion_linux_dctcp_on_ack,
    congestion_linux_dctcp_on_loss,
    congestion_linux_dctcp_on_undo,
    congestion_linux_dctcp_on_rto,
    congestion_linux_dctcp_cwnd,
    congestion_linux_dctcp_ssthresh,
    congestion_linux_dctcp_pacing_rate,
    congestion_linux_dctcp_ca_state,
    congestion_linux_dctcp_in_flight,
    CongestionLinuxDctcpParams,
    CongestionLinuxDctcpState
);

tcp_flow_test!(
    prague_through_c_is_prague,
    Prague,
    PragueConfig::new().validate().unwrap(),
    CongestionLinuxPragueConfig,
    congestion_linux_prague_config_default,
    |_: &mut CongestionLinuxPragueConfig| {},
    congestion_linux_prague_params_init,
    congestion_linux_prague_init,
    congestion_linux_prague_on_transmit,
    congestion_linux_prague_on_ack,
    congestion_linux_prague_on_loss,
    congestion_linux_prague_on_undo,
    congestion_linux_prague_on_rto,
    congestion_linux_prague_cwnd,
    congestion_linux_prague_ssthresh,
    congestion_linux_prague_pacing_rate,
    congestion_linux_prague_ca_state,
    congestion_linux_prague_in_flight,
    CongestionLinuxPragueParams,
    CongestionLinuxPragueState
);
