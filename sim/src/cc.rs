//! The sender's congestion controller: a run-time choice, like the library's
//! `AnyController`, driven in segments.
//!
//! Linux mode ([`LinuxFlow`]) is used through its own segment API because the
//! simulator *is* a kernel-like stack: it knows `packets_out` after each send
//! (`transmit`), the segments delivered by each ACK, and one loss event per window.

use congestion::cubic::LinuxCubicConfig;
use congestion::hystart::PacingStatus;
use congestion::linux::{LinuxFlow, LinuxSocketConfig};
use congestion::{
    AckEvent, CongestionController, CongestionEvent, Instant, Phase, SentEvent, WindowUnit,
};

use crate::config::{CcKind, SimConfig, SlowStart};

/// The controller of one simulated flow.
#[derive(Clone, Debug)]
pub enum SimController {
    /// Linux-mode CUBIC + HyStart + socket glue.
    Linux(Box<LinuxFlow>),
}

fn instant(now_ns: u64) -> Instant {
    Instant::from_micros(now_ns / 1000)
}

impl SimController {
    /// The controller `cfg` asks for, or why it cannot be built.
    pub fn new(cfg: &SimConfig) -> Result<Self, String> {
        match (cfg.cc, cfg.slow_start) {
            (CcKind::Rfc9438, _) | (_, SlowStart::HystartPp) => Err(
                "--cc rfc9438 and --slow-start hystartpp need the library's RFC mode, \
                 not merged into this build yet"
                    .into(),
            ),
            (CcKind::Linux, ss) => {
                let mut c = LinuxCubicConfig::new();
                c.hystart = ss == SlowStart::Hystart;
                let params = c.validate().map_err(|e| format!("{e:?}"))?;
                let mut s = LinuxSocketConfig::new();
                s.mss = cfg.mss();
                s.pacing_status = if cfg.pacing {
                    PacingStatus::Needed
                } else {
                    PacingStatus::None
                };
                let flow =
                    LinuxFlow::new(params, s, Instant::ZERO).map_err(|e| format!("{e:?}"))?;
                Ok(SimController::Linux(Box::new(flow)))
            }
        }
    }

    /// After a send: `in_flight` segments are outstanding.
    pub fn on_transmit(&mut self, now_ns: u64, in_flight: u32) {
        match self {
            SimController::Linux(f) => f.transmit(instant(now_ns), in_flight),
        }
    }

    /// An ACK that delivered `delivered` segments (cumulatively or by SACK).
    pub fn on_ack(&mut self, now_ns: u64, delivered: u32, rtt_us: Option<u32>) {
        match self {
            SimController::Linux(f) => f.ack(instant(now_ns), delivered, rtt_us),
        }
    }

    /// One loss event (fast retransmit); the caller calls it once per window.
    pub fn on_loss(&mut self, now_ns: u64) {
        match self {
            SimController::Linux(f) => f.loss(instant(now_ns)),
        }
    }

    /// Local congestion (the qdisc refused a packet): Linux enters CWR.
    pub fn on_local_congestion(&mut self, now_ns: u64) {
        match self {
            SimController::Linux(f) => f.ecn(instant(now_ns)),
        }
    }

    /// A retransmission timeout; the head segment is resent at once.
    pub fn on_rto(&mut self, now_ns: u64) {
        match self {
            SimController::Linux(f) => f.rto(instant(now_ns), 1),
        }
    }

    /// Congestion window, segments.
    pub fn cwnd(&self) -> u32 {
        match self {
            SimController::Linux(f) => f.state().cwnd,
        }
    }

    /// Slow-start threshold, segments.
    pub fn ssthresh(&self) -> u32 {
        match self {
            SimController::Linux(f) => f.state().ssthresh,
        }
    }

    /// Phase, as the library names it.
    pub fn phase(&self) -> Phase {
        match self {
            SimController::Linux(f) => f.phase(),
        }
    }

    /// Which HyStart detector ended slow start, if one did (since the last RTO).
    pub fn hystart_exit(&self) -> Option<congestion::hystart::HystartExit> {
        match self {
            SimController::Linux(f) => f.hystart_exit(),
        }
    }

    /// The controller's pacing rate, bytes/s (0: none yet).
    pub fn pacing_rate(&self) -> u64 {
        match self {
            SimController::Linux(f) => f.pacing_rate(),
        }
    }
}

/// Forwarding, so that the library's send path can read the window it polls.
impl CongestionController for SimController {
    fn unit(&self) -> WindowUnit {
        match self {
            SimController::Linux(f) => f.unit(),
        }
    }
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        match self {
            SimController::Linux(f) => f.on_sent(now, sent),
        }
    }
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        match self {
            SimController::Linux(f) => CongestionController::on_ack(&mut **f, now, ack),
        }
    }
    fn on_congestion_event(&mut self, now: Instant, event: CongestionEvent) {
        match self {
            SimController::Linux(f) => f.on_congestion_event(now, event),
        }
    }
    fn on_spurious_congestion(&mut self, now: Instant) {
        match self {
            SimController::Linux(f) => f.on_spurious_congestion(now),
        }
    }
    fn on_transmit_start(&mut self, now: Instant) {
        match self {
            SimController::Linux(f) => f.on_transmit_start(now),
        }
    }
    fn cwnd(&self) -> u64 {
        match self {
            SimController::Linux(f) => CongestionController::cwnd(&**f),
        }
    }
    fn ssthresh(&self) -> u64 {
        match self {
            SimController::Linux(f) => CongestionController::ssthresh(&**f),
        }
    }
    fn phase(&self) -> Phase {
        match self {
            SimController::Linux(f) => f.phase(),
        }
    }
}
