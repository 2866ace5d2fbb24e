//! DCTCP and TCP Prague (Linux mode, through the kernel glue) under arbitrary event
//! sequences: ACKs of zero segments, of more than is in flight, with more CE marks than
//! segments, RTT samples of 0 or an hour, time going backwards, losses, RTOs and undos
//! in every state, and DCTCP's `g` rewritten mid-flow (values above 10 refused).
//!
//! Invariants after every event: no panic; alpha within its range (DCTCP 0..=1024,
//! Prague's upscaled alpha within 0..=2^28); the state one the glue can reach; and, while
//! the input stays within sane sequence distances, at most one reduction per window: a
//! new CWR or Recovery starts only once `snd_una` has reached the previous
//! reduction's `high_seq` (unless an undo or an RTO came in between).
//!
//! Included by `#[path]` from `tests/l4s_fuzz.rs` and the cargo-fuzz targets
//! `dctcp_flow` and `prague_flow`, each of which also includes `bytes.rs` as `bytes`.

use crate::bytes::Bytes;
use congestion::linux::dctcp::{DCTCP_MAX_ALPHA, DctcpOps, DctcpParams};
use congestion::linux::prague::{PRAGUE_MAX_ALPHA, PragueConfig, PragueOps, PragueParams};
use congestion::linux::tcp::{
    AckOutcome, ReplayedRandom, TcpAck, TcpCongestionOps, TcpSysctl, before,
};
use congestion::linux::{CaState, TcpFlow, TcpSocketConfig};

/// Most events one input drives.
const MAX_EVENTS: usize = 2_000;
/// In flight above this, sequence distances stop meaning "before/after" for the
/// window invariant (only the no-panic and range checks remain).
const SANE_FLIGHT: u32 = 1 << 20;

/// What the body needs of an algorithm besides its hooks.
pub trait Fuzzed: TcpCongestionOps {
    /// Parameters from the input.
    fn params(b: &mut Bytes<'_>) -> Self::Params;
    /// A parameter rewrite mid-flow (a sysfs write), from the input.
    fn rewrite(p: &mut Self::Params, b: &mut Bytes<'_>);
    /// The algorithm's own invariants.
    fn check(ca: &Self::Ca);
}

impl Fuzzed for DctcpOps {
    fn params(b: &mut Bytes<'_>) -> DctcpParams {
        let mut p = DctcpParams::new();
        Self::rewrite(&mut p, b);
        p.set_dctcp_alpha_on_init(u32::from(b.u16()));
        p
    }

    fn rewrite(p: &mut DctcpParams, b: &mut Bytes<'_>) {
        let g = u32::from(b.u8() % 16);
        let old = p.dctcp_shift_g();
        match p.set_dctcp_shift_g(g) {
            Ok(()) => assert_eq!(p.dctcp_shift_g(), g),
            Err(_) => assert!(g > 10 && p.dctcp_shift_g() == old, "refused g changed"),
        }
    }

    fn check(ca: &Self::Ca) {
        assert!(
            ca.dctcp_alpha <= DCTCP_MAX_ALPHA,
            "alpha {} above 1024",
            ca.dctcp_alpha
        );
    }
}

impl Fuzzed for PragueOps {
    fn params(b: &mut Bytes<'_>) -> PragueParams {
        let mut c = PragueConfig::new();
        c.prague_rtt_target = match b.u8() % 4 {
            0 => 0,
            1 => b.u32(),
            _ => u32::from(b.u16()),
        };
        c.prague_rtt_transition = u32::from(b.u8() % 8);
        c.prague_alpha_mode = u32::from(b.u8() % 2);
        c.prague_cwnd_mode = u32::from(b.u8() % 4);
        c.prague_cwnd_transit = u32::from(b.u8() % 16);
        c.prague_burst_shift = u32::from(b.u8() % 80);
        match c.validate() {
            Ok(p) => p,
            Err(_) => {
                assert!(c.prague_burst_shift > 63, "a valid config was refused");
                PragueParams::new()
            }
        }
    }

    fn rewrite(p: &mut PragueParams, b: &mut Bytes<'_>) {
        let mut c = *p.config();
        c.prague_rtt_transition = u32::from(b.u8() % 8);
        c.prague_cwnd_mode = u32::from(b.u8() % 4);
        if let Ok(valid) = c.validate() {
            *p = valid;
        }
    }

    fn check(ca: &Self::Ca) {
        assert!(
            ca.upscaled_alpha <= PRAGUE_MAX_ALPHA << 4,
            "upscaled alpha {} above 2^28",
            ca.upscaled_alpha
        );
    }
}

/// A flight size: mostly near the current one, sometimes zero or absurd.
fn flight(b: &mut Bytes<'_>, packets_out: u32) -> u32 {
    match b.u8() % 16 {
        0 => 0,
        1 => b.u32(),
        2 => u32::MAX,
        _ => packets_out.saturating_add(u32::from(b.u8() % 24)),
    }
}

/// Runs one input through algorithm `O`.
pub fn run<O: Fuzzed>(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mut p = O::params(&mut b);
    let mut socket = TcpSocketConfig::new();
    socket.init_cwnd = u32::from(b.u8() % 64).max(1);
    socket.initial_srtt_us = u32::from(b.u16());
    socket.iss = b.u32();
    socket.mss = u32::from(b.u16()).max(1);
    let sysctl = TcpSysctl::new();
    let mut now: u64 = u64::from(b.u32());
    // Random draws: DCTCP and Prague take none; a short queue from the input anyway.
    let mut rand = ReplayedRandom::<4>::new();
    for _ in 0..4 {
        rand.push(b.u32());
    }
    let Ok(mut flow) = TcpFlow::<O>::new(&p, &socket, now, &mut rand) else {
        return;
    };
    let first = flight(&mut b, 0);
    flow.transmit(&p, now, first, &mut rand);
    let mut sane = first < SANE_FLIGHT;
    // The recovery point of the last reduction, while no undo or RTO forgave it.
    let mut last_high_seq: Option<u32> = None;
    for _ in 0..MAX_EVENTS {
        if b.is_empty() {
            break;
        }
        now = now.saturating_add_signed(b.time_step_us());
        let before_state = flow.socket().icsk_ca_state;
        let snd_una = flow.socket().snd_una;
        match b.u8() % 10 {
            0..=4 => {
                let acked = match b.u8() % 16 {
                    0 => 0,
                    1 => {
                        sane = false;
                        b.u32()
                    }
                    _ => u32::from(b.u8() % 16),
                };
                let ack = TcpAck {
                    acked,
                    rtt_us: b.rtt_us().map(|r| u32::try_from(r).unwrap_or(u32::MAX)),
                    // CE counts above the ACKed count, and absurd ones.
                    ce_delta: match b.u8() % 8 {
                        0 => b.u32(),
                        1..=3 => 0,
                        _ => u32::from(b.u8() % 24),
                    },
                    ece: b.u8() % 8 == 0,
                };
                if flow.ack(&p, &sysctl, now, &ack, &mut rand) != AckOutcome::Discarded {
                    let n = flight(&mut b, flow.socket().packets_out);
                    sane &= n < SANE_FLIGHT;
                    flow.transmit(&p, now, n, &mut rand);
                }
            }
            5 => {
                flow.loss(&p, now, &mut rand);
            }
            6 => {
                flow.rto(&p, now, u32::from(b.u8() % 3), &mut rand);
                last_high_seq = None;
            }
            7 => {
                if flow.undo(&p, now, &mut rand) {
                    last_high_seq = None;
                }
            }
            8 => {
                let n = u32::from(b.u8() % 32);
                flow.send(&p, &sysctl, now, n, &mut rand);
                sane &= flow.socket().packets_out < SANE_FLIGHT;
            }
            _ => O::rewrite(&mut p, &mut b),
        }
        let sk = flow.socket();
        O::check(flow.ca());
        assert!(
            matches!(
                sk.icsk_ca_state,
                CaState::Open | CaState::Cwr | CaState::Recovery | CaState::Loss
            ),
            "state {:?}",
            sk.icsk_ca_state
        );
        let reducing = matches!(sk.icsk_ca_state, CaState::Cwr | CaState::Recovery);
        let was_reducing = matches!(before_state, CaState::Cwr | CaState::Recovery);
        if reducing && !was_reducing {
            if let (true, Some(high_seq)) = (sane, last_high_seq) {
                assert!(
                    !before(snd_una, high_seq),
                    "a second reduction at snd_una {snd_una} before high_seq {high_seq}"
                );
            }
            last_high_seq = Some(sk.high_seq);
        }
    }
}
