//! The sender's congestion controller: the library's [`AnyController`] (run-time
//! choice, no `dyn`), driven through the [`CongestionController`] trait by a simulator
//! that counts segments.
//!
//! - Linux mode ([`LinuxFlow`]) counts segments: the trait's amounts are segments and
//!   the simulator is the kernel-like stack its glue expects (`on_sent` with the
//!   segments in flight after each send, the segments delivered by each ACK, one loss
//!   event per window).
//! - RFC mode ([`RfcFlow`]) counts bytes: segments are converted at `mss` bytes each,
//!   sequence numbers likewise. Its initial window is TCP's IW10 (RFC 6928), not QUIC's
//!   RFC 9002 default, so both modes start alike; its pacing rate is the library's
//!   bytes-mode `tcp_update_pacing_rate`.

use congestion::cubic::{LinuxCubicConfig, RfcCubicConfig};
use congestion::hystart::{HystartExit, PacingStatus};
use congestion::linux::{LinuxFlow, LinuxFlowConfig, LinuxSocketConfig};
use congestion::pacing::{BytesPacingInput, PacingRateConfig, PacingRateParams, pacing_rate_bytes};
use congestion::rfc::{RfcFlow, RfcFlowConfig, SlowStartKind};
use congestion::{
    AckEvent, AnyController, CongestionController, CongestionEvent, Duration, Instant, Phase,
    SentEvent, WindowUnit,
};

use crate::config::{CcKind, SimConfig, SlowStart};

/// The controller of one simulated flow.
#[derive(Clone, Debug)]
pub struct SimController {
    any: AnyController,
    mss: u64,
    pacing: PacingRateParams,
}

fn instant(now_ns: u64) -> Instant {
    Instant::from_micros(now_ns / 1000)
}

impl SimController {
    /// The controller `cfg` asks for, or why it cannot be built.
    pub fn new(cfg: &SimConfig) -> Result<Self, String> {
        let err = |e: congestion::ConfigError| format!("controller: {e:?}");
        let mss = u64::from(cfg.mss());
        let any = match cfg.cc {
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
                let flow = LinuxFlow::new(LinuxFlowConfig::from_parts(c, s), Instant::ZERO);
                AnyController::Linux(flow.map_err(err)?)
            }
            CcKind::Rfc9438 => {
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
                AnyController::Rfc(RfcFlow::new(c, Instant::ZERO).map_err(err)?)
            }
        };
        Ok(SimController {
            any,
            mss,
            pacing: PacingRateConfig::new().validate().map_err(err)?,
        })
    }

    /// The library's controller (what the send path polls).
    pub fn controller(&self) -> &AnyController {
        &self.any
    }

    /// `segments` in the controller's unit.
    fn amount(&self, segments: u32) -> u64 {
        match self.any.unit() {
            WindowUnit::Segments => u64::from(segments),
            WindowUnit::Bytes => u64::from(segments) * self.mss,
        }
    }

    /// An amount in the controller's unit as whole segments (saturating).
    fn segments(&self, amount: u64) -> u32 {
        let segs = match self.any.unit() {
            WindowUnit::Segments => amount,
            WindowUnit::Bytes => amount / self.mss.max(1),
        };
        segs.min(u64::from(u32::MAX)) as u32
    }

    /// After a send: `in_flight` segments are outstanding and `snd_nxt` is the next
    /// new segment.
    pub fn on_transmit(&mut self, now_ns: u64, in_flight: u32, snd_nxt: u32) {
        let sent = SentEvent {
            in_flight_after: self.amount(in_flight),
            largest_sent: self.amount(snd_nxt),
        };
        self.any.on_sent(instant(now_ns), &sent);
    }

    /// An ACK that delivered `delivered` segments (cumulatively or by SACK), with its
    /// RTT sample and the highest segment it covers (exclusive).
    pub fn on_ack(&mut self, now_ns: u64, delivered: u32, rtt_us: Option<u32>, highest: u32) {
        let ack = AckEvent {
            acked: self.amount(delivered),
            rtt: rtt_us.map(|r| Duration::from_micros(u64::from(r))),
            largest_acked: self.amount(highest),
            app_limited: false,
        };
        self.any.on_ack(instant(now_ns), &ack);
    }

    /// Whether the stack must hold back window growth during its fast recovery (Linux
    /// mode: the glue leaves recovery at once and the stack runs PRR); RFC mode keeps
    /// its own recovery and must see every delivered byte.
    pub fn stack_owns_recovery(&self) -> bool {
        self.any.unit() == WindowUnit::Segments
    }

    /// One loss event (fast retransmit); the caller calls it once per window.
    pub fn on_loss(&mut self, now_ns: u64) {
        self.any
            .on_congestion_event(instant(now_ns), CongestionEvent::Loss);
    }

    /// Local congestion (the qdisc refused a packet): Linux enters CWR, the same
    /// reduction as an ECN echo.
    pub fn on_local_congestion(&mut self, now_ns: u64) {
        self.any
            .on_congestion_event(instant(now_ns), CongestionEvent::Ecn);
    }

    /// A retransmission timeout; the head segment is resent at once.
    pub fn on_rto(&mut self, now_ns: u64) {
        self.any
            .on_congestion_event(instant(now_ns), CongestionEvent::RetransmissionTimeout);
    }

    /// Congestion window, whole segments.
    pub fn cwnd_segments(&self) -> u32 {
        self.segments(self.any.cwnd())
    }

    /// Slow-start threshold, whole segments (saturating).
    pub fn ssthresh_segments(&self) -> u32 {
        self.segments(self.any.ssthresh())
    }

    /// The controller's phase.
    pub fn phase(&self) -> Phase {
        self.any.phase()
    }

    /// Which Linux HyStart detector ended slow start, if one did (Linux mode).
    pub fn hystart_exit(&self) -> Option<HystartExit> {
        match &self.any {
            AnyController::Linux(f) => f.hystart_exit(),
            _ => None,
        }
    }

    /// The pacing rate, bytes/s (0: none yet; `u64::MAX`: unlimited).
    pub fn pacing_rate(&self) -> u64 {
        match &self.any {
            AnyController::Linux(f) => f.pacing_rate(),
            AnyController::Rfc(flow) => pacing_rate_bytes(
                &self.pacing,
                &BytesPacingInput {
                    cwnd_bytes: flow.cwnd(),
                    ssthresh_bytes: flow.ssthresh(),
                    in_flight_bytes: flow.in_flight(),
                    srtt_us: flow.srtt_us().min(u64::from(u32::MAX)) as u32,
                },
            )
            .as_bytes_per_second(),
            _ => 0,
        }
    }
}
