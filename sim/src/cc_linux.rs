//! The Linux-mode flows a TCP stack drives event by event (`congestion::linux::{Bbr,
//! Bbr3, Dctcp, Prague}`), with the simulator as that stack.
//!
//! - BBR v1 and v3 sample the delivery rate per segment: every (re)transmitted segment
//!   gets `on_send` with the scoreboard's counters before it is counted, and the
//!   returned `Sent` (departure time, `TxSnapshot`) is kept with the segment in the
//!   scoreboard; each ACK hands back the segments it delivered (SACKed first) and the
//!   snapshots of those it marked lost. Their recovery (Recovery on `lost_out > 0`,
//!   its end at `high_seq`) is the flow's own.
//! - DCTCP and Prague are `TcpFlow`s, which count segments as one sequence space. The
//!   simulator maps its SACK scoreboard onto it: the flow's `snd_una` counts every
//!   segment delivered (cumulatively or by SACK), its `packets_out` is the
//!   scoreboard's flight (`tcp_packets_in_flight`), so an ACK's `acked` is what it
//!   newly delivered, as the kernel's `delivered` counts it, and a round
//!   (`snd_una` passing the `snd_nxt` of its start) ends one flight later. CE marks
//!   reach them as AccECN CE counts; a fast-retransmit loss enters Recovery (PRR).
//!
//! Randomness comes from the simulator's own seeded generator through
//! [`RandomSource`], so a run stays a pure function of its flags and `--seed`.

use congestion::Instant;
use congestion::Phase;
use congestion::hystart::PacingStatus;
use congestion::linux::bbr::BbrMode;
use congestion::linux::bbr::{BbrAck, Flight, Sent};
use congestion::linux::bbr3::Mode as Bbr3Mode;
use congestion::linux::bbr3::{Bbr3Ack, Bbr3Rto};
use congestion::linux::dctcp::{DctcpConfig, DctcpParams};
use congestion::linux::prague::{PragueConfig, PragueParams};
use congestion::linux::tcp::{RandomSource, TcpAck, TcpSysctl, TxSnapshot};
use congestion::linux::{
    Bbr, Bbr3, Bbr3Config, Bbr3Params, BbrConfig, BbrParams, CaState, Dctcp, Prague,
    TcpSocketConfig,
};

use crate::config::{CcKind, SimConfig};
use crate::rng::SplitMix64;
use crate::scoreboard::AckDetail;

/// The simulator's generator as the library's [`RandomSource`]
/// (`get_random_u32_below`).
#[derive(Clone, Debug)]
pub struct SimRandom(SplitMix64);

impl RandomSource for SimRandom {
    fn below(&mut self, ceil: u32) -> u32 {
        self.0.below(u64::from(ceil.max(1))) as u32
    }
}

/// What one ACK did, as the simulator's scoreboard saw it.
pub struct LinuxAck<'a> {
    /// Segments newly delivered (cumulatively or by SACK).
    pub delivered: u32,
    /// The ACK's RTT sample, µs.
    pub rtt_us: Option<u32>,
    /// Segments newly reported CE-marked (the AccECN count's increase).
    pub ce_delta: u32,
    /// `snd_una` and `snd_nxt` after the ACK.
    pub snd_una: u32,
    /// Next new segment.
    pub snd_nxt: u32,
    /// The scoreboard's counters before and after the ACK.
    pub prior_flight: Flight,
    /// After.
    pub flight: Flight,
    /// The stack's smoothed RTT, µs.
    pub srtt_us: u32,
    /// Segments newly marked lost.
    pub newly_lost: u32,
    /// The delivered segments and the lost ones' snapshots (BBR).
    pub detail: &'a mut AckDetail,
}

/// A retransmission timeout, after the scoreboard marked everything lost.
pub struct LinuxRto<'a> {
    /// Counters before and after the marking.
    pub prior_flight: Flight,
    /// After.
    pub flight: Flight,
    /// Segments newly marked lost, and their snapshots.
    pub newly_lost: u32,
    /// Snapshots of the newly lost.
    pub lost: &'a [TxSnapshot],
    /// `snd_una`, `snd_nxt`.
    pub snd_una: u32,
    /// Next new segment.
    pub snd_nxt: u32,
    /// Timeouts since the last forward progress.
    pub timeouts: u32,
}

/// BBRv3 reads the stack's record of window use (`tcp_cwnd_validate()`).
#[derive(Clone, Copy, Debug, Default)]
pub struct CwndUse {
    is_cwnd_limited: bool,
    max_packets_out: u32,
    cwnd_usage_seq: u32,
}

/// One Linux-mode flow driven event by event.
#[derive(Clone, Debug)]
pub enum LinuxFlow {
    /// BBR v1.
    Bbr(Bbr, BbrParams),
    /// BBRv3 and its stack-side window-use record.
    Bbr3(Bbr3, Bbr3Params, CwndUse),
    /// DCTCP.
    Dctcp(Dctcp, DctcpParams),
    /// TCP Prague.
    Prague(Prague, PragueParams),
}

/// A flow, its generator and the host settings.
#[derive(Clone, Debug)]
pub struct LinuxEngine {
    flow: LinuxFlow,
    rand: SimRandom,
    sysctl: TcpSysctl,
}

fn at(now_ns: u64) -> Instant {
    Instant::from_micros(now_ns / 1000)
}

impl LinuxEngine {
    /// The flow `cfg.cc` names (`None` for the controllers `AnyController` holds).
    pub fn new(cfg: &SimConfig) -> Result<Option<Self>, String> {
        let err = |e: congestion::ConfigError| format!("--cc {}: {e:?}", cfg.cc.word());
        let mss = cfg.mss();
        // The handshake's RTT sample seeds srtt and the pacing rate, as on a socket.
        let syn_rtt_us = (cfg.handshake_rtt_ns() / 1000).clamp(1, u64::from(u32::MAX)) as u32;
        // Draws of its own, apart from the link's loss and jitter stream.
        let mut rand = SimRandom(SplitMix64::new(cfg.seed ^ 0x4242_5252_0000_0001));
        let flow = match cfg.cc {
            CcKind::Bbr => {
                let mut c = BbrConfig::new();
                c.mss = mss;
                c.initial_rtt_us = syn_rtt_us;
                c.pacing_status = PacingStatus::Needed;
                c.max_tcp_header = cfg.header_bytes();
                let p = c.validate().map_err(err)?;
                LinuxFlow::Bbr(Bbr::new(&p, at(0), &mut rand), p)
            }
            CcKind::Bbr3 => {
                let mut c = Bbr3Config::new();
                c.mss = mss;
                c.initial_rtt_us = syn_rtt_us;
                c.pacing_status = PacingStatus::Needed;
                c.max_tcp_header = cfg.header_bytes();
                let p = c.validate().map_err(err)?;
                LinuxFlow::Bbr3(Bbr3::new(&p, at(0), &mut rand), p, CwndUse::default())
            }
            CcKind::Dctcp | CcKind::Prague => {
                let mut s = TcpSocketConfig::new();
                s.mss = mss;
                s.initial_srtt_us = syn_rtt_us;
                s.header_len = cfg.header_bytes();
                s.pacing_status = u8::from(cfg.paces());
                if cfg.cc == CcKind::Dctcp {
                    let p = DctcpConfig::new().validate().map_err(err)?;
                    let f = Dctcp::new(&p, &s, 0, &mut rand).map_err(err)?;
                    LinuxFlow::Dctcp(f, p)
                } else {
                    let p = PragueConfig::new().validate().map_err(err)?;
                    let f = Prague::new(&p, &s, 0, &mut rand).map_err(err)?;
                    LinuxFlow::Prague(f, p)
                }
            }
            _ => return Ok(None),
        };
        Ok(Some(LinuxEngine {
            flow,
            rand,
            sysctl: TcpSysctl::new(),
        }))
    }

    /// Whether the flow samples per segment: the scoreboard must keep each segment's
    /// `Sent` and report delivered and lost segments.
    pub fn samples_per_segment(&self) -> bool {
        matches!(self.flow, LinuxFlow::Bbr(..) | LinuxFlow::Bbr3(..))
    }

    /// One segment (new or retransmitted) leaves at `now_ns`, `flight` the counters
    /// before it is counted: what to keep with it.
    pub fn on_segment_sent(&mut self, now_ns: u64, flight: Flight) -> Sent {
        let rand = &mut self.rand;
        match &mut self.flow {
            LinuxFlow::Bbr(f, p) => f.on_send(p, at(now_ns), flight, rand),
            LinuxFlow::Bbr3(f, p, _) => f.on_send(p, at(now_ns), flight, rand),
            LinuxFlow::Dctcp(..) | LinuxFlow::Prague(..) => Sent::default(),
        }
    }

    /// After a burst (or a transmit attempt that sent nothing): the flight, `snd_una`
    /// and `snd_nxt` as they now stand.
    pub fn on_transmit(&mut self, now_ns: u64, flight: Flight, snd_una: u32, snd_nxt: u32) {
        let now_us = now_ns / 1000;
        let rand = &mut self.rand;
        match &mut self.flow {
            LinuxFlow::Bbr(..) => {}
            LinuxFlow::Bbr3(f, _, u) => {
                // Linux net/ipv4/tcp_output.c tcp_cwnd_validate(): a new round of window use
                let lim = flight.in_flight() >= f.cwnd();
                if snd_una >= u.cwnd_usage_seq
                    || lim
                    || (!u.is_cwnd_limited && flight.packets_out > u.max_packets_out)
                {
                    u.is_cwnd_limited = lim;
                    u.max_packets_out = flight.packets_out;
                    u.cwnd_usage_seq = snd_nxt;
                }
            }
            LinuxFlow::Dctcp(f, p) => f.transmit(p, now_us, flight.in_flight(), rand),
            LinuxFlow::Prague(f, p) => f.transmit(p, now_us, flight.in_flight(), rand),
        }
    }

    /// The application has nothing more to send now (BBR's app-limited mark).
    pub fn on_app_limited(&mut self, now_ns: u64, flight: Flight) {
        match &mut self.flow {
            LinuxFlow::Bbr(f, p) => f.on_app_limited(p, at(now_ns), flight, true),
            LinuxFlow::Bbr3(f, p, _) => f.on_app_limited(p, at(now_ns), flight, true),
            LinuxFlow::Dctcp(..) | LinuxFlow::Prague(..) => {}
        }
    }

    /// A fast-retransmit loss, once per episode (the BBRs find it themselves from
    /// `lost_out`).
    pub fn on_loss(&mut self, now_ns: u64) {
        let now_us = now_ns / 1000;
        let rand = &mut self.rand;
        match &mut self.flow {
            LinuxFlow::Dctcp(f, p) => {
                f.loss(p, now_us, rand);
            }
            LinuxFlow::Prague(f, p) => {
                f.loss(p, now_us, rand);
            }
            LinuxFlow::Bbr(..) | LinuxFlow::Bbr3(..) => {}
        }
    }

    /// An ACK.
    pub fn on_ack(&mut self, now_ns: u64, a: LinuxAck<'_>) {
        let rand = &mut self.rand;
        let count = a.detail.delivered.len() as u32;
        match &mut self.flow {
            LinuxFlow::Bbr(f, p) => {
                let mut ack = BbrAck {
                    snd_una: a.snd_una,
                    snd_nxt: a.snd_nxt,
                    delivered: &mut a.detail.delivered,
                    delivered_count: a.delivered.max(count),
                    newly_lost: a.newly_lost,
                    rtt_us: a.rtt_us,
                    srtt_us: a.srtt_us,
                    ack_maybe_delayed: false,
                    prior_flight: a.prior_flight,
                    flight: a.flight,
                    undo: false,
                };
                f.on_ack(p, at(now_ns), &mut ack, rand);
            }
            LinuxFlow::Bbr3(f, p, u) => {
                let mut ack = Bbr3Ack {
                    snd_una: a.snd_una,
                    snd_nxt: a.snd_nxt,
                    delivered: &mut a.detail.delivered,
                    delivered_count: a.delivered.max(count),
                    newly_lost: &a.detail.lost,
                    rtt_us: a.rtt_us,
                    srtt_us: a.srtt_us,
                    ack_maybe_delayed: false,
                    ece: a.ce_delta > 0,
                    nothing_queued: false,
                    is_cwnd_limited: u.is_cwnd_limited,
                    prior_flight: a.prior_flight,
                    flight: a.flight,
                    undo: false,
                };
                f.on_ack(p, at(now_ns), &mut ack, rand);
            }
            LinuxFlow::Dctcp(f, p) => {
                let ack = tcp_ack(f.socket(), &a);
                f.ack(p, &self.sysctl, now_ns / 1000, &ack, rand);
            }
            LinuxFlow::Prague(f, p) => {
                let ack = tcp_ack(f.socket(), &a);
                f.ack(p, &self.sysctl, now_ns / 1000, &ack, rand);
            }
        }
    }

    /// A retransmission timeout.
    pub fn on_rto(&mut self, now_ns: u64, r: LinuxRto<'_>) {
        let rand = &mut self.rand;
        match &mut self.flow {
            LinuxFlow::Bbr(f, p) => f.on_rto(
                p,
                at(now_ns),
                r.flight,
                r.newly_lost,
                r.snd_una,
                r.snd_nxt,
                r.timeouts,
                rand,
            ),
            LinuxFlow::Bbr3(f, p, _) => {
                let rto = Bbr3Rto {
                    prior_flight: r.prior_flight,
                    flight: r.flight,
                    newly_lost: r.lost,
                    snd_una: r.snd_una,
                    snd_nxt: r.snd_nxt,
                    timeouts: r.timeouts,
                    nothing_queued: false,
                };
                f.on_rto(p, at(now_ns), &rto, rand);
            }
            // The head is resent right after; its transmit counts it.
            LinuxFlow::Dctcp(f, p) => f.rto(p, now_ns / 1000, 0, rand),
            LinuxFlow::Prague(f, p) => f.rto(p, now_ns / 1000, 0, rand),
        }
    }

    /// `snd_cwnd`, segments.
    pub fn cwnd(&self) -> u32 {
        match &self.flow {
            LinuxFlow::Bbr(f, _) => f.cwnd(),
            LinuxFlow::Bbr3(f, _, _) => f.cwnd(),
            LinuxFlow::Dctcp(f, _) => f.socket().snd_cwnd,
            LinuxFlow::Prague(f, _) => f.socket().snd_cwnd,
        }
    }

    /// `snd_ssthresh`, segments.
    pub fn ssthresh(&self) -> u32 {
        match &self.flow {
            LinuxFlow::Bbr(f, _) => f.ssthresh(),
            LinuxFlow::Bbr3(f, _, _) => f.ssthresh(),
            LinuxFlow::Dctcp(f, _) => f.socket().snd_ssthresh,
            LinuxFlow::Prague(f, _) => f.socket().snd_ssthresh,
        }
    }

    /// `sk_pacing_rate`, bytes/s.
    pub fn pacing_rate(&self) -> u64 {
        match &self.flow {
            LinuxFlow::Bbr(f, _) => f.pacing_rate(),
            LinuxFlow::Bbr3(f, _, _) => f.pacing_rate(),
            LinuxFlow::Dctcp(f, _) => f.socket().sk_pacing_rate,
            LinuxFlow::Prague(f, _) => f.socket().sk_pacing_rate,
        }
    }

    /// The phase for the trace: STARTUP is slow start for the BBRs; Recovery, Loss and
    /// CWR are recovery.
    pub fn phase(&self) -> Phase {
        let (state, slow) = match &self.flow {
            LinuxFlow::Bbr(f, _) => (f.ca_state(), f.mode() == BbrMode::Startup),
            LinuxFlow::Bbr3(f, _, _) => (f.ca_state(), f.mode() == Bbr3Mode::Startup),
            LinuxFlow::Dctcp(f, _) => (f.socket().icsk_ca_state, f.socket().in_slow_start()),
            LinuxFlow::Prague(f, _) => (f.socket().icsk_ca_state, f.socket().in_slow_start()),
        };
        match state {
            CaState::Recovery | CaState::Loss | CaState::Cwr => Phase::Recovery,
            _ if slow => Phase::SlowStart,
            _ => Phase::CongestionAvoidance,
        }
    }
}

/// The ACK in the flow's sequence space, where `snd_una` counts delivered segments
/// (see the module docs); what would pass `snd_nxt` is clamped to it.
fn tcp_ack(sk: &congestion::linux::tcp::TcpSock, a: &LinuxAck<'_>) -> TcpAck {
    let room = sk.snd_nxt.wrapping_sub(sk.snd_una);
    TcpAck {
        acked: a.delivered.min(room),
        rtt_us: a.rtt_us,
        ce_delta: a.ce_delta,
        ece: false,
    }
}
