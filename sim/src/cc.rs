//! The sender's congestion controller: a run-time choice, like the library's
//! `AnyController`, driven by a simulator that counts segments.
//!
//! - Linux mode ([`LinuxFlow`]) through its own segment API: the simulator is a
//!   kernel-like stack that knows `packets_out` after each send (`transmit`), the
//!   segments delivered by each ACK, and makes one loss event per window.
//! - RFC mode ([`RfcFlow`]) through the [`CongestionController`] trait in bytes:
//!   segments are converted at `mss` bytes each, sequence numbers likewise. Its initial
//!   window is TCP's IW10 (RFC 6928), not QUIC's RFC 9002 default, so both modes start
//!   alike; its pacing rate is the library's bytes-mode `tcp_update_pacing_rate`.

use congestion::cubic::{LinuxCubicConfig, RfcCubicConfig};
use congestion::hystart::{HystartExit, PacingStatus};
use congestion::linux::{LinuxFlow, LinuxSocketConfig};
use congestion::pacing::{BytesPacingInput, PacingRateConfig, PacingRateParams, pacing_rate_bytes};
use congestion::rfc::{RfcFlow, RfcFlowConfig, SlowStartKind};
use congestion::{
    AckEvent, CongestionController, CongestionEvent, Duration, Instant, Phase, SentEvent,
    WindowUnit,
};

use crate::config::{CcKind, SimConfig, SlowStart};

/// The controller of one simulated flow.
#[derive(Clone, Debug)]
pub enum SimController {
    /// Linux-mode CUBIC + HyStart + socket glue, in segments.
    Linux(Box<LinuxFlow>),
    /// RFC 9438 CUBIC with the chosen slow start, in bytes.
    Rfc {
        /// The flow.
        flow: Box<RfcFlow>,
        /// Bytes per segment.
        mss: u64,
        /// Pacing-rate ratios (Linux's defaults).
        pacing: PacingRateParams,
    },
}

fn instant(now_ns: u64) -> Instant {
    Instant::from_micros(now_ns / 1000)
}

fn segments(bytes: u64, mss: u64) -> u32 {
    (bytes / mss.max(1)).min(u64::from(u32::MAX)) as u32
}

impl SimController {
    /// The controller `cfg` asks for, or why it cannot be built.
    pub fn new(cfg: &SimConfig) -> Result<Self, String> {
        let err = |e: congestion::ConfigError| format!("controller: {e:?}");
        match cfg.cc {
            CcKind::Linux => {
                let mut c = LinuxCubicConfig::new();
                c.hystart = match cfg.slow_start {
                    SlowStart::Off => false,
                    SlowStart::Hystart => true,
                    SlowStart::HystartPp => {
                        return Err(
                            "Linux mode has Linux HyStart only: use --cc rfc9438 for hystartpp"
                                .into(),
                        );
                    }
                };
                let mut s = LinuxSocketConfig::new();
                s.mss = cfg.mss();
                s.pacing_status = if cfg.pacing {
                    PacingStatus::Needed
                } else {
                    PacingStatus::None
                };
                let flow = LinuxFlow::new(c.validate().map_err(err)?, s, Instant::ZERO);
                Ok(SimController::Linux(Box::new(flow.map_err(err)?)))
            }
            CcKind::Rfc9438 => {
                let mss = u64::from(cfg.mss());
                let mut cubic = RfcCubicConfig::new();
                cubic.mss_bytes = mss;
                let mut c = RfcFlowConfig::new();
                c.cubic = cubic;
                c.slow_start = match cfg.slow_start {
                    SlowStart::Off => SlowStartKind::Standard,
                    SlowStart::Hystart => SlowStartKind::LinuxHystart,
                    SlowStart::HystartPp => SlowStartKind::HystartPlusPlus,
                };
                c.paced = cfg.pacing;
                // RFC 6928: TCP's initial window of 10 segments.
                c.initial_window_bytes = Some(10 * mss);
                Ok(SimController::Rfc {
                    flow: Box::new(RfcFlow::new(c, Instant::ZERO).map_err(err)?),
                    mss,
                    pacing: PacingRateConfig::new().validate().map_err(err)?,
                })
            }
        }
    }

    /// After a send: `in_flight` segments are outstanding and `snd_nxt` is the next
    /// new segment.
    pub fn on_transmit(&mut self, now_ns: u64, in_flight: u32, snd_nxt: u32) {
        match self {
            SimController::Linux(f) => f.transmit(instant(now_ns), in_flight),
            SimController::Rfc { flow, mss, .. } => flow.on_sent(
                instant(now_ns),
                &SentEvent {
                    in_flight_after: u64::from(in_flight) * *mss,
                    largest_sent: u64::from(snd_nxt) * *mss,
                },
            ),
        }
    }

    /// An ACK that delivered `delivered` segments (cumulatively or by SACK), with its
    /// RTT sample and the highest segment it covers (exclusive).
    pub fn on_ack(&mut self, now_ns: u64, delivered: u32, rtt_us: Option<u32>, highest: u32) {
        match self {
            SimController::Linux(f) => f.ack(instant(now_ns), delivered, rtt_us),
            SimController::Rfc { flow, mss, .. } => CongestionController::on_ack(
                &mut **flow,
                instant(now_ns),
                &AckEvent {
                    acked: u64::from(delivered) * *mss,
                    rtt: rtt_us.map(|r| Duration::from_micros(u64::from(r))),
                    largest_acked: u64::from(highest) * *mss,
                    app_limited: false,
                },
            ),
        }
    }

    /// Whether the stack must hold back window growth during its fast recovery (Linux
    /// mode: the glue leaves recovery at once and the stack runs PRR); RFC mode keeps
    /// its own recovery and must see every delivered byte.
    pub fn stack_owns_recovery(&self) -> bool {
        matches!(self, SimController::Linux(_))
    }

    fn event(&mut self, now_ns: u64, e: CongestionEvent) {
        match self {
            SimController::Linux(f) => f.on_congestion_event(instant(now_ns), e),
            SimController::Rfc { flow, .. } => flow.on_congestion_event(instant(now_ns), e),
        }
    }

    /// One loss event (fast retransmit); the caller calls it once per window.
    pub fn on_loss(&mut self, now_ns: u64) {
        self.event(now_ns, CongestionEvent::Loss);
    }

    /// Local congestion (the qdisc refused a packet): Linux enters CWR, the same
    /// reduction as an ECN echo.
    pub fn on_local_congestion(&mut self, now_ns: u64) {
        self.event(now_ns, CongestionEvent::Ecn);
    }

    /// A retransmission timeout; the head segment is resent at once.
    pub fn on_rto(&mut self, now_ns: u64) {
        self.event(now_ns, CongestionEvent::RetransmissionTimeout);
    }

    /// Congestion window, whole segments.
    pub fn cwnd_segments(&self) -> u32 {
        match self {
            SimController::Linux(f) => f.state().cwnd,
            SimController::Rfc { flow, mss, .. } => segments(flow.cwnd(), *mss),
        }
    }

    /// Slow-start threshold, whole segments (saturating).
    pub fn ssthresh_segments(&self) -> u32 {
        match self {
            SimController::Linux(f) => f.state().ssthresh,
            SimController::Rfc { flow, mss, .. } => segments(flow.ssthresh(), *mss),
        }
    }

    /// Which Linux HyStart detector ended slow start, if one did (Linux mode).
    pub fn hystart_exit(&self) -> Option<HystartExit> {
        match self {
            SimController::Linux(f) => f.hystart_exit(),
            SimController::Rfc { .. } => None,
        }
    }

    /// The pacing rate, bytes/s (0: none yet; `u64::MAX`: unlimited).
    pub fn pacing_rate(&self) -> u64 {
        match self {
            SimController::Linux(f) => f.pacing_rate(),
            SimController::Rfc { flow, pacing, .. } => pacing_rate_bytes(
                pacing,
                &BytesPacingInput {
                    cwnd_bytes: flow.cwnd(),
                    ssthresh_bytes: flow.ssthresh(),
                    in_flight_bytes: flow.in_flight(),
                    srtt_us: flow.srtt_us().min(u64::from(u32::MAX)) as u32,
                },
            )
            .as_bytes_per_second(),
        }
    }
}

/// Forwarding, so that the library's send path can read the window it polls.
impl CongestionController for SimController {
    fn unit(&self) -> WindowUnit {
        match self {
            SimController::Linux(f) => f.unit(),
            SimController::Rfc { flow, .. } => flow.unit(),
        }
    }
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        match self {
            SimController::Linux(f) => f.on_sent(now, sent),
            SimController::Rfc { flow, .. } => flow.on_sent(now, sent),
        }
    }
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        match self {
            SimController::Linux(f) => CongestionController::on_ack(&mut **f, now, ack),
            SimController::Rfc { flow, .. } => CongestionController::on_ack(&mut **flow, now, ack),
        }
    }
    fn on_congestion_event(&mut self, now: Instant, event: CongestionEvent) {
        match self {
            SimController::Linux(f) => f.on_congestion_event(now, event),
            SimController::Rfc { flow, .. } => flow.on_congestion_event(now, event),
        }
    }
    fn on_spurious_congestion(&mut self, now: Instant) {
        match self {
            SimController::Linux(f) => f.on_spurious_congestion(now),
            SimController::Rfc { flow, .. } => flow.on_spurious_congestion(now),
        }
    }
    fn on_transmit_start(&mut self, now: Instant) {
        match self {
            SimController::Linux(f) => f.on_transmit_start(now),
            SimController::Rfc { flow, .. } => flow.on_transmit_start(now),
        }
    }
    fn cwnd(&self) -> u64 {
        match self {
            SimController::Linux(f) => f.cwnd(),
            SimController::Rfc { flow, .. } => flow.cwnd(),
        }
    }
    fn ssthresh(&self) -> u64 {
        match self {
            SimController::Linux(f) => f.ssthresh(),
            SimController::Rfc { flow, .. } => flow.ssthresh(),
        }
    }
    fn phase(&self) -> Phase {
        match self {
            SimController::Linux(f) => f.phase(),
            SimController::Rfc { flow, .. } => flow.phase(),
        }
    }
}
