//! The sender's congestion controller: the library's [`AnyController`] (run-time
//! choice, no `dyn`), driven through the [`CongestionController`] trait by a simulator
//! that counts segments.
//!
//! - Linux mode ([`linux::Cubic`]) counts segments: the trait's amounts are segments and
//!   the simulator is the kernel-like stack its glue expects (`on_sent` with the
//!   segments in flight after each send, the segments delivered by each ACK, one loss
//!   event per window).
//! - RFC mode ([`rfc::Cubic`]) counts bytes: segments are converted at `mss` bytes each,
//!   sequence numbers likewise. Its initial window is TCP's IW10 (RFC 6928), not QUIC's
//!   RFC 9002 default, so both modes start alike; its pacing rate is the library's
//!   bytes-mode `tcp_update_pacing_rate`.
//!   `rfc::{Dctcp, Prague}` (`--cc dctcp-rfc|prague-rfc`) are the same driver with the
//!   scalable responses; each ACK's AccECN CE delta reaches them in `AckEvent::ce_delta`.
//! - RFC-mode BBRv3 (`rfc::Bbr3`, `--cc bbr3-rfc`) is driven packet by packet with
//!   snapshots kept in the scoreboard ([`RfcBbr3Engine`], `cc_rfc_bbr3.rs`).
//! - The 2.6.35 profile ([`v2_6_35::Cubic`], `--kernel 2.6.35`) counts segments like
//!   today's Linux mode. Its clock is the kernel's `jiffies` at `--hz`; the simulated
//!   host has been up `SimConfig::uptime_ns` (`--uptime`, 1000 s by default) when the transfer starts, because 2.6.35's
//!   HyStart drops every RTT sample while `jiffies - epoch_start < HZ` (with
//!   `epoch_start` 0 that is the first second of jiffies) and while `jiffies >= 2^31`.
//!   That kernel had no pacing rate; when flags give its host today's pacing, TSQ or
//!   autosizing, those read today's `tcp_update_pacing_rate` of its cwnd and srtt.

use congestion::cubic::{LinuxCubicConfig, RfcCubicConfig};
use congestion::hystart::{HystartExit, PacingStatus};
use congestion::linux::bbr::{Flight, Sent};
use congestion::linux::{self, LinuxSocketConfig};
use congestion::pacing::Rate;
use congestion::pacing::{
    BytesPacingInput, LinuxPacingInput, PACING_CA_RATIO_PERCENT, PACING_SS_RATIO_PERCENT,
    PacingRateConfig, PacingRateParams, linux_pacing_rate, pacing_rate_bytes,
};
use congestion::rfc::{self, SlowStartKind};
use congestion::v2_6_35::{self, HystartExit2635};
use congestion::{
    AckEvent, AnyController, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase,
    SentEvent, WindowUnit,
};

use crate::cc_linux::{LinuxAck, LinuxEngine, LinuxRto};
use crate::cc_rfc_bbr3::RfcBbr3Engine;
use crate::config::{CcKind, Kernel, SimConfig, SlowStart};

/// The 2.6.35 initial window for an MSS (`tcp_init_cwnd`, RFC 3390): 2 segments above
/// 1460 bytes, 3 above 1095, else 4.
// Linux 2.6.35 net/ipv4/tcp_input.c tcp_init_cwnd()
pub const fn initial_window_2635(mss: u32) -> u32 {
    if mss > 1460 {
        2
    } else if mss > 1095 {
        3
    } else {
        4
    }
}

/// Which library type decides: one [`AnyController`] (driven through the trait), or a
/// Linux-mode flow driven event by event ([`LinuxEngine`]: BBR, BBRv3, DCTCP, Prague),
/// or RFC-mode BBRv3 driven packet by packet ([`RfcBbr3Engine`]).
#[derive(Clone, Debug)]
enum Engine {
    Any(AnyController),
    Linux(LinuxEngine),
    RfcBbr3(Box<RfcBbr3Engine>),
}

/// A congestion window alone, in segments: what the library's send path polls for a
/// [`LinuxEngine`] or [`RfcBbr3Engine`] flow (it reads only the unit and cwnd; the
/// events go to the flow).
#[derive(Clone, Copy, Debug)]
pub struct WindowView(u64);

impl CongestionController for WindowView {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Segments
    }
    fn on_sent(&mut self, _: Instant, _: &SentEvent) {}
    fn on_ack(&mut self, _: Instant, _: &AckEvent) {}
    fn on_loss(&mut self, _: Instant, _: &LossEvent) {}
    fn on_ecn(&mut self, _: Instant, _: &EcnEvent) {}
    fn on_retransmission_timeout(&mut self, _: Instant) {}
    fn on_discarded(&mut self, _: Instant, _: u64) {}
    fn on_spurious_congestion(&mut self, _: Instant) {}
    fn on_transmit_start(&mut self, _: Instant) {}
    fn cwnd(&self) -> u64 {
        self.0
    }
    fn ssthresh(&self) -> Option<u64> {
        None
    }
    fn phase(&self) -> Phase {
        Phase::CongestionAvoidance
    }
    fn in_flight(&self) -> u64 {
        0
    }
    fn pacing_rate(&self) -> Rate {
        Rate::UNLIMITED
    }
    fn mss_bytes(&self) -> u64 {
        1
    }
    fn send_quantum_bytes(&self) -> u64 {
        1
    }
}

/// What one ACK did, for the controller.
pub struct AckReport<'a> {
    /// Segments newly delivered, cumulatively or by SACK.
    pub delivered: u32,
    /// What a CUBIC may grow by (0 during the stack's own fast recovery).
    pub grow: u32,
    /// The ACK's RTT sample, µs.
    pub rtt_us: Option<u32>,
    /// The highest segment the ACK covers (exclusive).
    pub highest: u32,
    /// Segments newly reported CE-marked.
    pub ce_delta: u32,
    /// The Linux-mode flows' view: counters, sequence numbers, segments.
    pub linux: LinuxAck<'a>,
}

/// The controller of one simulated flow.
#[derive(Clone, Debug)]
pub struct SimController {
    engine: Engine,
    /// `cwnd` of a [`LinuxEngine`] flow, kept for the send path's poll.
    window: WindowView,
    /// The controller's window unit, which never changes: kept here rather than asked
    /// of the controller at every conversion.
    unit: WindowUnit,
    mss: u64,
    pacing: PacingRateParams,
    /// Added to the simulated clock before the controller sees it, µs.
    clock_offset_us: u64,
    /// RFC 6298 smoothed RTT of the samples given to [`on_ack`](Self::on_ack), µs ×8
    /// (the kernel's `srtt_us`), for the 2.6.35 profile's pacing rate.
    srtt_us_x8: u32,
    /// The 2.6.35 profile's current HyStart round, as the simulator saw it begin.
    round: Option<HystartRound>,
}

/// A 2.6.35 HyStart round (`bictcp_hystart_reset`) as the simulator saw it begin: what
/// the ACK-train test counts from, kept to explain where slow start ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HystartRound {
    /// Simulated time of the ACK that began the round, ns.
    pub start_ns: u64,
    /// `round_start`: the sender's jiffies at that ACK.
    pub start_jiffies: u32,
    /// `end_seq`: the round ends when an ACK passes it.
    pub end_seq: u32,
    /// cwnd before that ACK, segments.
    pub cwnd: u32,
}

/// What the 2.6.35 ACK-train and delay tests were comparing when HyStart ended slow
/// start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hystart2635Exit {
    /// The round the exit came in.
    pub round: HystartRound,
    /// The sender's jiffies at the exit.
    pub jiffies: u32,
    /// `delay_min`, jiffies << 3; the train fires after `delay_min >> 4` jiffies.
    pub delay_min: u32,
}

fn instant_at(now_ns: u64, offset_us: u64) -> Instant {
    Instant::from_micros(now_ns / 1000 + offset_us)
}

impl SimController {
    /// The controller `cfg` asks for, or why it cannot be built.
    pub fn new(cfg: &SimConfig) -> Result<Self, String> {
        let err = |e: congestion::ConfigError| format!("controller: {e:?}");
        let mss = u64::from(cfg.mss());
        if cfg.cc == CcKind::RfcBbr3 {
            let engine = RfcBbr3Engine::new(cfg)?;
            return Ok(SimController {
                window: WindowView(u64::from(engine.cwnd_segments())),
                engine: Engine::RfcBbr3(Box::new(engine)),
                unit: WindowUnit::Segments,
                mss,
                pacing: PacingRateConfig::new().validate().map_err(err)?,
                clock_offset_us: 0,
                srtt_us_x8: 0,
                round: None,
            });
        }
        if let Some(engine) = LinuxEngine::new(cfg)? {
            return Ok(SimController {
                window: WindowView(u64::from(engine.cwnd())),
                engine: Engine::Linux(engine),
                unit: WindowUnit::Segments,
                mss,
                pacing: PacingRateConfig::new().validate().map_err(err)?,
                clock_offset_us: 0,
                srtt_us_x8: 0,
                round: None,
            });
        }
        let any = match (cfg.cc, cfg.kernel) {
            (CcKind::Linux, Kernel::Linux2635) => {
                let mut c = v2_6_35::CubicConfig::new();
                c.hystart = match cfg.slow_start {
                    SlowStart::Off => false,
                    SlowStart::Hystart => true,
                    SlowStart::HystartPp => {
                        return Err("the 2.6.35 kernel had Linux HyStart only: \
                                    --slow-start hystart or off"
                            .into());
                    }
                };
                c.hz = cfg.hz;
                c.mss = cfg.mss();
                c.init_cwnd = initial_window_2635(cfg.mss());
                let flow = v2_6_35::Cubic::new(c, instant_at(0, cfg.uptime_ns / 1000));
                AnyController::V2_6_35Cubic(flow.map_err(err)?)
            }
            (CcKind::Linux, Kernel::Linux6) => {
                let mut c = LinuxCubicConfig::new();
                c.hystart = match cfg.slow_start {
                    SlowStart::Off => false,
                    SlowStart::Hystart => true,
                    SlowStart::HystartPp => {
                        return Err(
                            "Linux mode has Linux HyStart only: use --cc cubic-rfc for hystartpp"
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
                let flow = linux::Cubic::new(linux::CubicConfig::from_parts(c, s), Instant::ZERO);
                AnyController::LinuxCubic(flow.map_err(err)?)
            }
            (CcKind::Rfc9438, _) => {
                let mut cubic = RfcCubicConfig::new();
                cubic.mss_bytes = mss;
                let mut c = rfc::CubicConfig::new();
                c.cubic = cubic;
                c.slow_start = match cfg.slow_start {
                    SlowStart::Off => SlowStartKind::Standard,
                    SlowStart::Hystart => SlowStartKind::LinuxHystart,
                    SlowStart::HystartPp => SlowStartKind::HystartPlusPlus,
                };
                c.paced = cfg.pacing;
                // RFC 6928: TCP's initial window of 10 segments.
                c.initial_window_bytes = Some(10 * mss);
                AnyController::RfcCubic(rfc::Cubic::new(c, Instant::ZERO).map_err(err)?)
            }
            (CcKind::RfcNewReno, _) => {
                let mut c = rfc::NewRenoConfig::new();
                c.cubic.mss_bytes = mss;
                c.slow_start = match cfg.slow_start {
                    SlowStart::Off => SlowStartKind::Standard,
                    SlowStart::Hystart => SlowStartKind::LinuxHystart,
                    SlowStart::HystartPp => SlowStartKind::HystartPlusPlus,
                };
                c.paced = cfg.pacing;
                // RFC 6928: TCP's initial window of 10 segments.
                c.initial_window_bytes = Some(10 * mss);
                AnyController::RfcNewReno(rfc::NewReno::new(c, Instant::ZERO).map_err(err)?)
            }
            (CcKind::RfcDctcp | CcKind::RfcPrague, _) => {
                let mut c = rfc::DctcpConfig::new();
                c.cubic.mss_bytes = mss;
                c.slow_start = match cfg.slow_start {
                    SlowStart::Off => SlowStartKind::Standard,
                    SlowStart::Hystart => SlowStartKind::LinuxHystart,
                    SlowStart::HystartPp => SlowStartKind::HystartPlusPlus,
                };
                c.paced = cfg.paces();
                // RFC 6928: TCP's initial window of 10 segments.
                c.initial_window_bytes = Some(10 * mss);
                c.scalable.classic_ecn_fallback = cfg.classic_ecn_fallback;
                if cfg.cc == CcKind::RfcDctcp {
                    AnyController::RfcDctcp(rfc::Dctcp::new(c, Instant::ZERO).map_err(err)?)
                } else {
                    AnyController::RfcPrague(rfc::Prague::new(c, Instant::ZERO).map_err(err)?)
                }
            }
            (CcKind::Bbr | CcKind::Bbr3 | CcKind::Dctcp | CcKind::Prague | CcKind::RfcBbr3, _) => {
                return Err(format!(
                    "--cc {}: no Linux-mode flow was built",
                    cfg.cc.word()
                ));
            }
        };
        let clock_offset_us = match any {
            AnyController::V2_6_35Cubic(_) => cfg.uptime_ns / 1000,
            _ => 0,
        };
        Ok(SimController {
            unit: any.unit(),
            window: WindowView(0),
            engine: Engine::Any(any),
            mss,
            pacing: PacingRateConfig::new().validate().map_err(err)?,
            clock_offset_us,
            srtt_us_x8: 0,
            round: None,
        })
    }

    fn instant(&self, now_ns: u64) -> Instant {
        instant_at(now_ns, self.clock_offset_us)
    }

    /// The controller's window unit.
    pub fn unit(&self) -> WindowUnit {
        self.unit
    }

    /// The library's controller (what the send path polls).
    pub fn controller(&self) -> &dyn CongestionController {
        match &self.engine {
            Engine::Any(any) => any,
            Engine::Linux(_) | Engine::RfcBbr3(_) => &self.window,
        }
    }

    /// Whether each segment's send must go through [`on_segment_sent`](Self::on_segment_sent)
    /// and each ACK report its segments (BBR's per-segment sampler).
    pub fn samples_per_segment(&self) -> bool {
        match &self.engine {
            Engine::Linux(e) => e.samples_per_segment(),
            Engine::RfcBbr3(_) => true,
            Engine::Any(_) => false,
        }
    }

    /// Segment `seq` leaves at `now_ns` with `flight` before it is counted: what the
    /// scoreboard keeps with it.
    pub fn on_segment_sent(&mut self, now_ns: u64, flight: Flight, seq: u32) -> Sent {
        match &mut self.engine {
            Engine::Linux(e) => e.on_segment_sent(now_ns, flight),
            Engine::RfcBbr3(e) => e.on_segment_sent(now_ns, seq),
            Engine::Any(_) => Sent::default(),
        }
    }

    /// The application has nothing more to send now.
    pub fn on_app_limited(&mut self, now_ns: u64, flight: Flight) {
        match &mut self.engine {
            Engine::Linux(e) => e.on_app_limited(now_ns, flight),
            Engine::RfcBbr3(e) => e.on_app_limited(),
            Engine::Any(_) => {}
        }
    }

    /// Whether CE marks reach the controller itself, in each ACK (DCTCP, Prague,
    /// BBRv3, in both modes); otherwise the stack answers the first mark of a window
    /// with one classic ECN reduction ([`on_local_congestion`](Self::on_local_congestion)'s CWR).
    pub fn hears_ce_counts(&self) -> bool {
        matches!(
            self.engine,
            Engine::Linux(_)
                | Engine::RfcBbr3(_)
                | Engine::Any(AnyController::RfcDctcp(_) | AnyController::RfcPrague(_))
        )
    }

    /// `segments` in the controller's unit.
    fn amount(&self, segments: u32) -> u64 {
        match self.unit {
            WindowUnit::Segments => u64::from(segments),
            WindowUnit::Bytes => u64::from(segments) * self.mss,
        }
    }

    /// An amount in the controller's unit as whole segments (saturating).
    fn segments(&self, amount: u64) -> u32 {
        let segs = match self.unit {
            WindowUnit::Segments => amount,
            WindowUnit::Bytes => amount / self.mss.max(1),
        };
        segs.min(u64::from(u32::MAX)) as u32
    }

    /// After a send: `in_flight` segments are outstanding and `snd_nxt` is the next
    /// new segment.
    pub fn on_transmit(&mut self, now_ns: u64, flight: Flight, snd_una: u32, snd_nxt: u32) {
        let in_flight = flight.in_flight();
        let sent = SentEvent::new(self.amount(in_flight), self.amount(snd_nxt));
        let now = self.instant(now_ns);
        match &mut self.engine {
            Engine::Any(any) => any.on_sent(now, &sent),
            Engine::Linux(e) => {
                e.on_transmit(now_ns, flight, snd_una, snd_nxt);
                self.window = WindowView(u64::from(e.cwnd()));
            }
            Engine::RfcBbr3(e) => e.on_transmit(flight, snd_una, snd_nxt),
        }
    }

    /// An ACK.
    pub fn on_ack(&mut self, now_ns: u64, report: AckReport<'_>) {
        let AckReport {
            grow: delivered,
            rtt_us,
            highest,
            ..
        } = report;
        let snd_una = report.linux.snd_una;
        if let Engine::Linux(e) = &mut self.engine {
            let mut linux = report.linux;
            linux.ce_delta = report.ce_delta;
            linux.delivered = report.delivered;
            e.on_ack(now_ns, linux);
            self.window = WindowView(u64::from(e.cwnd()));
            return;
        }
        if let Engine::RfcBbr3(e) = &mut self.engine {
            let mut linux = report.linux;
            linux.ce_delta = report.ce_delta;
            e.on_ack(now_ns, linux);
            self.window = WindowView(u64::from(e.cwnd_segments()));
            return;
        }
        // The scalable responses read CE with the ACK, in packets (one MSS each).
        let ce_delta = match &self.engine {
            Engine::Any(AnyController::RfcDctcp(_) | AnyController::RfcPrague(_)) => {
                u64::from(report.ce_delta)
            }
            _ => 0,
        };
        // Linux mode (segments) reads `largest_acked` as TCP's cumulative ACK, RFC mode
        // (bytes) as the highest packet covered. Exclusive: 0 covers no segment, so the
        // ACK names none.
        let largest_acked = match self.unit {
            WindowUnit::Segments => Some(u64::from(snd_una)),
            WindowUnit::Bytes => (highest > 0).then(|| self.amount(highest)),
        };
        let ack = AckEvent {
            acked: self.amount(delivered),
            rtt: rtt_us.map(|r| Duration::from_micros(u64::from(r))),
            largest_acked,
            app_limited: false,
            ce_delta,
        };
        if let Some(r) = rtt_us {
            // RFC 6298 §2.3 in the kernel's ×8 fixed point (tcp_rtt_estimator).
            self.srtt_us_x8 = if self.srtt_us_x8 == 0 {
                r.saturating_mul(8)
            } else {
                let srtt = i64::from(self.srtt_us_x8);
                (srtt + i64::from(r) - (srtt >> 3)).clamp(1, i64::from(u32::MAX)) as u32
            };
        }
        let now = self.instant(now_ns);
        let cwnd_before = self.cwnd_segments();
        let Engine::Any(any) = &mut self.engine else {
            return;
        };
        any.on_ack(now, &ack);
        if let AnyController::V2_6_35Cubic(f) = any {
            // bictcp_hystart_reset moves end_seq to snd_nxt: a new round began on this ACK.
            let b = f.bictcp();
            if self.round.is_none_or(|r| r.end_seq != b.end_seq) {
                self.round = Some(HystartRound {
                    start_ns: now_ns,
                    start_jiffies: b.round_start,
                    end_seq: b.end_seq,
                    cwnd: cwnd_before,
                });
            }
        }
    }

    /// Where the 2.6.35 profile's HyStart stood on the last ACK: its round and the
    /// ACK-train and delay tests' inputs (`None` for other controllers).
    pub fn hystart_2635_state(&self, now_ns: u64) -> Option<Hystart2635Exit> {
        match &self.engine {
            Engine::Any(AnyController::V2_6_35Cubic(f)) => Some(Hystart2635Exit {
                round: self.round?,
                jiffies: f.jiffies(self.instant(now_ns)),
                delay_min: f.bictcp().delay_min,
            }),
            _ => None,
        }
    }

    /// Whether the stack must hold back window growth during its fast recovery (Linux
    /// mode: the glue leaves recovery at once and the stack runs PRR); RFC mode keeps
    /// its own recovery and must see every delivered byte.
    ///
    /// The 2.6.35 profile must see every delivered segment as well: it keeps its own
    /// `snd_una` from them and stays in Disorder, moderating cwnd to the flight plus 3,
    /// until that passes the loss's `high_seq`; its recovery is instant (the cwnd cut)
    /// and the era's rate halving is the stack's.
    pub fn stack_owns_recovery(&self) -> bool {
        matches!(self.engine, Engine::Any(AnyController::LinuxCubic(_)))
    }

    /// One loss event (fast retransmit); the caller calls it once per window (its own
    /// fast-recovery model decides what one event is, as the kernels it models do), so
    /// the report names no packet.
    pub fn on_loss(&mut self, now_ns: u64) {
        let now = self.instant(now_ns);
        match &mut self.engine {
            Engine::Any(any) => any.on_loss(now, &LossEvent::episode(0)),
            Engine::Linux(e) => {
                e.on_loss(now_ns);
                self.window = WindowView(u64::from(e.cwnd()));
            }
            // It hears each lost packet with the ACK that marked it.
            Engine::RfcBbr3(_) => {}
        }
    }

    /// Local congestion (the qdisc refused a packet): Linux enters CWR, the same
    /// reduction as an ECN echo.
    /// Also the classic response to a CE mark (RFC 3168) of a controller that does not
    /// read CE counts. The Linux-mode flows driven event by event take no such event
    /// from the qdisc (not modelled for them).
    pub fn on_local_congestion(&mut self, now_ns: u64) {
        let now = self.instant(now_ns);
        if let Engine::Any(any) = &mut self.engine {
            any.on_ecn(now, &EcnEvent::episode(1));
        }
    }

    /// A retransmission timeout; the head segment is resent at once.
    pub fn on_rto(&mut self, now_ns: u64, rto: LinuxRto<'_>) {
        let now = self.instant(now_ns);
        match &mut self.engine {
            Engine::Any(any) => any.on_retransmission_timeout(now),
            Engine::Linux(e) => {
                e.on_rto(now_ns, rto);
                self.window = WindowView(u64::from(e.cwnd()));
            }
            Engine::RfcBbr3(e) => {
                e.on_rto(now_ns, rto);
                self.window = WindowView(u64::from(e.cwnd_segments()));
            }
        }
    }

    /// Congestion window, whole segments.
    pub fn cwnd_segments(&self) -> u32 {
        match &self.engine {
            Engine::Any(any) => self.segments(any.cwnd()),
            Engine::Linux(e) => e.cwnd(),
            Engine::RfcBbr3(e) => e.cwnd_segments(),
        }
    }

    /// Slow-start threshold, whole segments (saturating).
    pub fn ssthresh_segments(&self) -> u32 {
        match &self.engine {
            Engine::Any(any) => self.segments(any.ssthresh().unwrap_or(u64::MAX)),
            Engine::Linux(e) => e.ssthresh(),
            // The draft's BBR keeps no ssthresh.
            Engine::RfcBbr3(_) => u32::MAX,
        }
    }

    /// The controller's phase.
    pub fn phase(&self) -> Phase {
        match &self.engine {
            Engine::Any(any) => any.phase(),
            Engine::Linux(e) => e.phase(),
            Engine::RfcBbr3(e) => e.phase(),
        }
    }

    /// Which Linux HyStart detector ended slow start, if one did (Linux mode).
    pub fn hystart_exit(&self) -> Option<HystartExit> {
        let Engine::Any(any) = &self.engine else {
            return None;
        };
        match any {
            AnyController::LinuxCubic(f) => f.hystart_exit(),
            // Both detectors on one ACK count as the ACK train, which the kernel tests first.
            AnyController::V2_6_35Cubic(f) => f.hystart_exit().map(|e| match e {
                HystartExit2635::DelayIncrease => HystartExit::DelayIncrease,
                HystartExit2635::AckTrain | HystartExit2635::Both => HystartExit::AckTrain,
            }),
            _ => None,
        }
    }

    /// The pacing rate, bytes/s (0: none yet; `u64::MAX`: unlimited).
    pub fn pacing_rate(&self) -> u64 {
        let any = match &self.engine {
            Engine::Any(any) => any,
            Engine::Linux(e) => return e.pacing_rate(),
            Engine::RfcBbr3(e) => return e.pacing_rate(),
        };
        match any {
            AnyController::LinuxCubic(f) => f.sk_pacing_rate(),
            AnyController::RfcCubic(flow) => pacing_rate_bytes(
                &self.pacing,
                &BytesPacingInput {
                    cwnd_bytes: flow.cwnd(),
                    ssthresh_bytes: flow.ssthresh().unwrap_or(u64::MAX),
                    in_flight_bytes: flow.in_flight(),
                    srtt_us: flow.srtt_us(),
                },
            )
            .as_bytes_per_second(),
            AnyController::RfcNewReno(flow) => pacing_rate_bytes(
                &self.pacing,
                &BytesPacingInput {
                    cwnd_bytes: flow.cwnd(),
                    ssthresh_bytes: flow.ssthresh().unwrap_or(u64::MAX),
                    in_flight_bytes: flow.in_flight(),
                    srtt_us: flow.srtt_us(),
                },
            )
            .as_bytes_per_second(),
            // The classic driver's own rule (Linux's in bytes, from ClassicConfig::new).
            AnyController::RfcDctcp(_) | AnyController::RfcPrague(_) => {
                any.pacing_rate().as_bytes_per_second()
            }
            AnyController::V2_6_35Cubic(f) => linux_pacing_rate(&LinuxPacingInput {
                mss: self.mss.min(u64::from(u32::MAX)) as u32,
                cwnd: self.cwnd_segments(),
                ssthresh: self.ssthresh_segments(),
                packets_out: f.socket_view().packets_out,
                srtt_us_x8: self.srtt_us_x8,
                ss_ratio_percent: PACING_SS_RATIO_PERCENT,
                ca_ratio_percent: PACING_CA_RATIO_PERCENT,
                max_rate: u64::MAX,
            }),
            _ => 0,
        }
    }
}
