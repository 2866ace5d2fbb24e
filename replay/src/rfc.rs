//! RFC mode (`set mode rfc9438`): the trace language driving `congestion::rfc::Cubic`,
//! in bytes; `set mode newreno` drives `congestion::rfc::NewReno` with the same
//! settings (NewReno reads no CUBIC key) and the same events.
//!
//! Settings (`set KEY VALUE`; before `init`, except where noted):
//! - `mss BYTES` (default 1200; after `init` it changes the running flow's MSS),
//! - `slow_start off|hystart|hystartpp` (default `hystartpp`),
//! - `paced 0|1` (default 0: HyStart++'s `L = 8` segments applies),
//! - `init_cwnd BYTES` (default RFC 9002's `min(10·MSS, max(14720, 2·MSS))`),
//! - `init_ssthresh BYTES` (default none),
//! - `beta`, `ecn_beta`, `c` in thousandths (700, 700, 400), `fast_convergence 0|1`,
//!   `reno_friendly 0|1` (both 1); after `init` these apply to the running flow.
//!
//! `init_cwnd`/`init_ssthresh`/`slow_start`/`paced` after `init` only affect a later `init`.
//!
//! Events: `init T [BYTES]` builds the flow and sends BYTES (default: the initial
//! window); `ack T ACKED_BYTES RTT_US INFLIGHT_AFTER_BYTES` (RTT −1: no sample);
//! `loss T [LOST_BYTES [PN]]` (without PN the loss is always a new congestion event;
//! with it, a loss of a packet sent before the current recovery began only leaves
//! flight), `ecn T [CE_INCREASE]` (with it: judged by the last acknowledged byte),
//! `rto T`, `persistent T [LOST_BYTES]` (QUIC persistent congestion), `discard T BYTES`,
//! `undo T`, `idle T` (transmit start after idle), `send T BYTES`. Packet numbers are
//! the replay's byte sequence (`snd_nxt` after the packet). Any event before `init`
//! initialises the flow at its time first.
//!
//! Sequence model: the replay counts bytes sent (`snd_nxt`) and acked (`snd_una`).
//! An `ack` first acknowledges ACKED bytes (`largest_acked = snd_una`), then the sender
//! sends until INFLIGHT_AFTER bytes are in flight (`snd_nxt = max(snd_nxt, snd_una +
//! INFLIGHT_AFTER)`, `largest_sent = snd_nxt`). HyStart rounds end when `snd_una`
//! reaches the `snd_nxt` of the round's start; recovery ends when `snd_una` passes the
//! `snd_nxt` at the congestion event.
//!
//! **Cwnd-limited rule** (`Cubic`'s "Window use"): a send (an `ack`'s refill, `send`,
//! `init`) after which `in_flight + MSS >= cwnd` marks its round window-limited until
//! `snd_una` reaches that send's `snd_nxt`; an `ack` counts as cwnd-limited when its
//! round is so marked or the bytes in flight just before it (the previous event's
//! INFLIGHT_AFTER, or after `send`) plus one MSS reach cwnd. Otherwise it grows nothing
//! and CUBIC's clock pauses until the next cwnd-limited ACK (RFC 9438 §5.8). The
//! `cwnd_limited` column shows the verdict of the last ACK.
//!
//! CSV columns: `idx,ev,t_us,cwnd,ssthresh,phase` (phase `ss`, `css`, `ca`, `recovery`),
//! then CUBIC's `w_max,k_us,w_est,cwnd_prior,t_epoch_us` (−1 = no epoch), `cwnd_epoch`
//! (NewReno: `bytes_acked,cwnd_prior`), then `in_flight,srtt_us,min_rtt_us` (−1 =
//! none), `cwnd_limited,css_rounds,mss`. ssthresh "none" prints as
//! 18446744073709551615 (`u64::MAX`).

use crate::{Event, Mode, Problem, Row, running, set_u32};
use congestion::cubic::{RfcCubic, RfcCubicConfig};
use congestion::rfc::{Classic, CubicConfig, NewRenoWindow, SlowStartKind, WindowAdjustment};
use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, Phase, SentEvent};
use core::fmt::{self, Write};

/// What a growth algorithm adds to the CSV: its name in `set mode`, its columns
/// between `phase` and `in_flight`, and their values.
pub trait GrowthColumns: WindowAdjustment {
    /// The `set mode` name.
    const MODE: &'static str;
    /// The whole CSV header.
    const HEADER: &'static str;
    /// The row before any flow, after `idx,ev`.
    const ZERO_ROW: &'static str;
    /// Writes this algorithm's columns, each preceded by a comma.
    fn write_columns<W: Write>(&self, out: &mut W) -> fmt::Result;
}

impl GrowthColumns for RfcCubic {
    const MODE: &'static str = "rfc9438";
    const HEADER: &'static str = "idx,ev,t_us,cwnd,ssthresh,phase,w_max,k_us,w_est,cwnd_prior,t_epoch_us,cwnd_epoch,in_flight,srtt_us,min_rtt_us,cwnd_limited,css_rounds,mss";
    const ZERO_ROW: &'static str = "0,0,0,ss,0,0,0,0,-1,0,0,0,-1,0,0,0";
    fn write_columns<W: Write>(&self, out: &mut W) -> fmt::Result {
        let t_epoch = self.epoch_start().map_or(-1, |e| e.as_micros() as i128);
        write!(
            out,
            ",{},{},{},{},{t_epoch},{}",
            self.w_max_bytes,
            self.k_us,
            self.w_est_bytes,
            self.cwnd_prior_bytes,
            self.cwnd_epoch_bytes,
        )
    }
}

impl GrowthColumns for NewRenoWindow {
    const MODE: &'static str = "newreno";
    const HEADER: &'static str = "idx,ev,t_us,cwnd,ssthresh,phase,bytes_acked,cwnd_prior,in_flight,srtt_us,min_rtt_us,cwnd_limited,css_rounds,mss";
    const ZERO_ROW: &'static str = "0,0,0,ss,0,0,0,0,-1,0,0,0";
    fn write_columns<W: Write>(&self, out: &mut W) -> fmt::Result {
        write!(out, ",{},{}", self.bytes_acked, self.cwnd_prior_bytes)
    }
}

/// Replay state for RFC mode (`G` = [`RfcCubic`]) or NewReno (`G` = [`NewRenoWindow`]).
pub struct RfcReplay<G: GrowthColumns> {
    config: CubicConfig,
    flow: Option<Classic<G>>,
    snd_una: u64,
    snd_nxt: u64,
}

impl<G: GrowthColumns> RfcReplay<G> {
    /// Before any event: RFC defaults.
    pub(crate) fn new() -> Self {
        RfcReplay {
            config: CubicConfig::new(),
            flow: None,
            snd_una: 0,
            snd_nxt: 0,
        }
    }
}

impl<'a, G: GrowthColumns> Mode<'a> for RfcReplay<G> {
    fn write_header<W: Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str(G::HEADER)?;
        out.write_str("\n")
    }

    /// `set KEY VALUE`.
    fn set(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let key = ev.key()?;
        let word = ev.arg(1).ok_or(Problem::MissingArgument {
            keyword: ev.keyword,
            position: 2,
        })?;
        match key {
            "mode" => {
                return if word == G::MODE {
                    Ok(())
                } else {
                    Err(Problem::BadChoice {
                        key,
                        expected: "the trace's first mode, set once",
                    })
                };
            }
            "slow_start" => {
                self.config.slow_start = match word {
                    "off" => SlowStartKind::Standard,
                    "hystart" => SlowStartKind::LinuxHystart,
                    "hystartpp" => SlowStartKind::HystartPlusPlus,
                    _ => {
                        return Err(Problem::BadChoice {
                            key,
                            expected: "off, hystart or hystartpp",
                        });
                    }
                };
                return Ok(());
            }
            _ => {}
        }
        let value: u64 = ev.int(1)?;
        let c: &mut RfcCubicConfig = &mut self.config.cubic;
        match key {
            "mss" => {
                c.mss_bytes = value;
                if let Some(flow) = self.flow.as_mut() {
                    return flow
                        .set_mss(value)
                        .map_err(|error| Problem::ConfigAfterSet { key, error });
                }
                return Ok(());
            }
            "paced" => self.config.paced = value != 0,
            "init_cwnd" => self.config.initial_window_bytes = Some(value),
            "init_ssthresh" => self.config.initial_ssthresh_bytes = Some(value),
            "beta" => c.beta_permille = set_u32(key, value)?,
            "ecn_beta" => c.ecn_beta_permille = set_u32(key, value)?,
            "c" => c.c_permille = set_u32(key, value)?,
            "fast_convergence" => c.fast_convergence = value != 0,
            "reno_friendly" => c.reno_friendly = value != 0,
            other => return Err(Problem::UnknownKey(other)),
        }
        if let Some(flow) = self.flow.as_mut() {
            flow.set_cubic_config(self.config.cubic)
                .map_err(|error| Problem::ConfigAfterSet { key, error })?;
        }
        Ok(())
    }

    fn init(&mut self, now: Instant, ev: Option<&Event<'a>>) -> Result<(), Problem<'a>> {
        let bytes = ev.map_or(Ok(None), |ev| ev.opt_int::<u64>(1))?;
        let mut flow = Classic::<G>::new(self.config, now).map_err(Problem::Config)?;
        let bytes = bytes.unwrap_or(flow.cwnd());
        self.snd_una = 0;
        self.snd_nxt = bytes;
        flow.on_sent(now, &SentEvent::new(bytes, bytes));
        self.flow = Some(flow);
        Ok(())
    }

    fn event(&mut self, now: Instant, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let flow = running(&mut self.flow, ev)?;
        match ev.keyword {
            "ack" => {
                let (acked, rtt, in_flight) = ev.ack_args::<u64>()?;
                let rtt = u64::try_from(rtt).ok().map(Duration::from_micros);
                self.snd_una = self.snd_una.saturating_add(acked);
                let ack = AckEvent {
                    acked,
                    rtt,
                    // Nothing acknowledged yet: the ACK names no byte.
                    largest_acked: (self.snd_una > 0).then_some(self.snd_una),
                    app_limited: false,
                    ce_delta: 0,
                };
                flow.on_ack(now, &ack);
                self.snd_nxt = self.snd_nxt.max(self.snd_una.saturating_add(in_flight));
                flow.on_sent(now, &SentEvent::new(in_flight, self.snd_nxt));
            }
            "loss" | "persistent" => {
                let loss = ev.loss_args()?.unwrap_or(LossEvent {
                    persistent_congestion: ev.keyword == "persistent",
                    ..LossEvent::default()
                });
                flow.on_loss(now, &loss);
            }
            "ecn" => match ev.ecn_args(self.snd_una)? {
                Some(ecn) => flow.on_ecn(now, &ecn),
                // `ecn T`: a CE mark judged as a new congestion event, as before.
                None => flow.on_ecn(
                    now,
                    &congestion::EcnEvent {
                        ce_increase: 1,
                        newest_acked: congestion::SentPacket::Unknown,
                    },
                ),
            },
            "rto" => flow.on_retransmission_timeout(now),
            "discard" => flow.on_discarded(now, ev.int(1)?),
            "undo" => flow.on_spurious_congestion(now),
            "idle" => flow.on_transmit_start(now),
            "send" => {
                let bytes: u64 = ev.int(1)?;
                self.snd_nxt = self.snd_nxt.saturating_add(bytes);
                flow.on_sent_counted(now, bytes, self.snd_nxt);
            }
            other => return Err(Problem::UnknownEvent(other)),
        }
        Ok(())
    }

    /// Writes the row for event `idx`; zeros (phase `ss`) before the first `init`.
    fn write_row<W: Write>(&mut self, out: &mut W, row: Row<'_>) -> fmt::Result {
        let Row { idx, keyword, t_us } = row;
        let Some(f) = self.flow.as_ref() else {
            return writeln!(out, "{idx},{keyword},{}", G::ZERO_ROW);
        };
        let phase = match f.phase() {
            Phase::SlowStart => "ss",
            Phase::ConservativeSlowStart => "css",
            Phase::CongestionAvoidance => "ca",
            Phase::Recovery => "recovery",
        };
        let min_rtt = if f.min_rtt_us() == u64::MAX {
            -1
        } else {
            f.min_rtt_us() as i128
        };
        write!(
            out,
            "{idx},{keyword},{},{},{},{phase}",
            t_us,
            f.cwnd(),
            f.ssthresh().unwrap_or(u64::MAX),
        )?;
        f.growth().write_columns(out)?;
        writeln!(
            out,
            ",{},{},{min_rtt},{},{},{}",
            f.in_flight(),
            f.srtt_us(),
            u8::from(f.last_ack_cwnd_limited()),
            f.hystart_pp().css_rounds(),
            f.params().mss(),
        )
    }

    fn has_flow(&self) -> bool {
        self.flow.is_some()
    }
}
