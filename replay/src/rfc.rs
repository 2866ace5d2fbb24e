//! RFC mode (`set mode rfc9438`): the trace language driving `congestion::rfc::RfcFlow`,
//! in bytes.
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
//! `loss T`, `ecn T`, `rto T`, `persistent T` (QUIC persistent congestion), `undo T`,
//! `idle T` (transmit start after idle), `send T BYTES`. Any event before `init`
//! initialises the flow at its time first.
//!
//! Sequence model: the replay counts bytes sent (`snd_nxt`) and acked (`snd_una`).
//! An `ack` first acknowledges ACKED bytes (`largest_acked = snd_una`), then the sender
//! sends until INFLIGHT_AFTER bytes are in flight (`snd_nxt = max(snd_nxt, snd_una +
//! INFLIGHT_AFTER)`, `largest_sent = snd_nxt`). HyStart rounds end when `snd_una`
//! reaches the `snd_nxt` of the round's start; recovery ends when `snd_una` passes the
//! `snd_nxt` at the congestion event.
//!
//! **Cwnd-limited rule** (`RfcFlow`'s "Window use"): a send (an `ack`'s refill, `send`,
//! `init`) after which `in_flight + MSS >= cwnd` marks its round window-limited until
//! `snd_una` reaches that send's `snd_nxt`; an `ack` counts as cwnd-limited when its
//! round is so marked or the bytes in flight just before it (the previous event's
//! INFLIGHT_AFTER, or after `send`) plus one MSS reach cwnd. Otherwise it grows nothing
//! and CUBIC's clock pauses until the next cwnd-limited ACK (RFC 9438 §5.8). The
//! `cwnd_limited` column shows the verdict of the last ACK.
//!
//! CSV columns: `idx,ev,t_us,cwnd,ssthresh,phase` (phase `ss`, `css`, `ca`, `recovery`),
//! then `w_max,k_us,w_est,cwnd_prior,t_epoch_us` (−1 = no epoch), `cwnd_epoch,
//! in_flight,srtt_us,min_rtt_us` (−1 = none), `cwnd_limited,css_rounds,mss`.
//! ssthresh "none" prints as 18446744073709551615 (`u64::MAX`).

use crate::{Event, Mode, Problem, Row, running, set_u32};
use congestion::cubic::RfcCubicConfig;
use congestion::rfc::{RfcFlow, RfcFlowConfig, SlowStartKind};
use congestion::{
    AckEvent, CongestionController, CongestionEvent, Duration, Instant, Phase, SentEvent,
};
use core::fmt::{self, Write};

/// Replay state for RFC mode.
pub struct RfcReplay {
    config: RfcFlowConfig,
    flow: Option<RfcFlow>,
    snd_una: u64,
    snd_nxt: u64,
}

impl RfcReplay {
    /// The CSV header of RFC mode.
    pub const HEADER: &'static str = "idx,ev,t_us,cwnd,ssthresh,phase,w_max,k_us,w_est,cwnd_prior,t_epoch_us,cwnd_epoch,in_flight,srtt_us,min_rtt_us,cwnd_limited,css_rounds,mss";

    /// Before any event: RFC defaults.
    pub(crate) fn new() -> Self {
        RfcReplay {
            config: RfcFlowConfig::new(),
            flow: None,
            snd_una: 0,
            snd_nxt: 0,
        }
    }
}

impl<'a> Mode<'a> for RfcReplay {
    fn write_header<W: Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str(Self::HEADER)?;
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
                return match word {
                    "rfc9438" => Ok(()),
                    _ => Err(Problem::BadChoice {
                        key,
                        expected: "another mode inside an rfc9438 trace",
                    }),
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
            "init_ssthresh" => self.config.initial_ssthresh_bytes = value,
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
        let mut flow = RfcFlow::new(self.config, now).map_err(Problem::Config)?;
        let bytes = bytes.unwrap_or(flow.cwnd());
        self.snd_una = 0;
        self.snd_nxt = bytes;
        flow.on_sent(
            now,
            &SentEvent {
                in_flight_after: bytes,
                largest_sent: bytes,
            },
        );
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
                    largest_acked: self.snd_una,
                    app_limited: false,
                };
                flow.on_ack(now, &ack);
                self.snd_nxt = self.snd_nxt.max(self.snd_una.saturating_add(in_flight));
                let sent = SentEvent {
                    in_flight_after: in_flight,
                    largest_sent: self.snd_nxt,
                };
                flow.on_sent(now, &sent);
            }
            "loss" => flow.on_congestion_event(now, CongestionEvent::Loss),
            "ecn" => flow.on_congestion_event(now, CongestionEvent::Ecn),
            "rto" => flow.on_congestion_event(now, CongestionEvent::RetransmissionTimeout),
            "persistent" => flow.on_congestion_event(now, CongestionEvent::PersistentCongestion),
            "undo" => flow.on_spurious_congestion(now),
            "idle" => flow.on_transmit_start(now),
            "send" => {
                let bytes: u64 = ev.int(1)?;
                self.snd_nxt = self.snd_nxt.saturating_add(bytes);
                let sent = SentEvent {
                    in_flight_after: flow.in_flight().saturating_add(bytes),
                    largest_sent: self.snd_nxt,
                };
                flow.on_sent(now, &sent);
            }
            other => return Err(Problem::UnknownEvent(other)),
        }
        Ok(())
    }

    /// Writes the row for event `idx`; zeros (phase `ss`) before the first `init`.
    fn write_row<W: Write>(&mut self, out: &mut W, row: Row<'_>) -> fmt::Result {
        let Row { idx, keyword, t_us } = row;
        let Some(f) = self.flow.as_ref() else {
            return writeln!(out, "{idx},{keyword},0,0,0,ss,0,0,0,0,-1,0,0,0,-1,0,0,0");
        };
        let phase = match f.phase() {
            Phase::SlowStart => "ss",
            Phase::ConservativeSlowStart => "css",
            Phase::CongestionAvoidance => "ca",
            Phase::Recovery => "recovery",
        };
        let c = f.cubic();
        let t_epoch = c.epoch_start.map_or(-1, |e| e.as_micros() as i128);
        let min_rtt = if f.min_rtt_us() == u64::MAX {
            -1
        } else {
            f.min_rtt_us() as i128
        };
        writeln!(
            out,
            "{idx},{keyword},{},{},{},{phase},{},{},{},{},{t_epoch},{},{},{},{min_rtt},{},{},{}",
            t_us,
            f.cwnd(),
            f.ssthresh(),
            c.w_max_bytes,
            c.k_us,
            c.w_est_bytes,
            c.cwnd_prior_bytes,
            c.cwnd_epoch_bytes,
            f.in_flight(),
            f.srtt_us(),
            u8::from(f.last_ack_cwnd_limited()),
            f.hystart_pp().css_rounds,
            f.params().mss(),
        )
    }

    fn has_flow(&self) -> bool {
        self.flow.is_some()
    }
}
