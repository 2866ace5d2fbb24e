//! RFC mode (`set mode rfc9438`): the trace language driving `RfcFlow` in bytes, with
//! the sequence model and columns of `tests/replay/rfc.rs`.

use crate::trace::{Error, Event};
use congestion::rfc::{RfcFlow, RfcFlowConfig, SlowStartKind};
use congestion::{
    AckEvent, CongestionController, CongestionEvent, Duration, Instant, Phase, SentEvent,
};
use core::fmt::{self, Write};

/// The CSV header of RFC mode.
pub const HEADER: &str = "idx,ev,t_us,cwnd,ssthresh,phase,w_max,k_us,w_est,cwnd_prior,t_epoch_us,cwnd_epoch,in_flight,srtt_us,min_rtt_us,cwnd_limited,css_rounds,mss";

/// Replay state for RFC mode.
pub struct RfcReplay {
    config: RfcFlowConfig,
    flow: Option<RfcFlow>,
    now_us: u64,
    snd_una: u64,
    snd_nxt: u64,
}

impl RfcReplay {
    /// Before any event: RFC defaults.
    pub fn new() -> Self {
        RfcReplay {
            config: RfcFlowConfig::new(),
            flow: None,
            now_us: 0,
            snd_una: 0,
            snd_nxt: 0,
        }
    }

    /// Applies one event.
    pub fn apply(&mut self, ev: &Event<'_>) -> Result<(), Error> {
        if ev.keyword == "set" {
            return self.set(ev);
        }
        let t: u64 = ev.time()?;
        self.now_us = t;
        let now = Instant::from_micros(t);
        if ev.keyword == "init" {
            return self.init(now, ev.opt_int(1)?);
        }
        if self.flow.is_none() {
            self.init(now, None)?;
        }
        let Some(flow) = self.flow.as_mut() else {
            return Err("no flow");
        };
        match ev.keyword {
            "ack" => {
                let acked: u64 = ev.int(1)?;
                let rtt: i64 = ev.int(2)?;
                let in_flight: u64 = ev.int(3)?;
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
            _ => return Err("unknown event"),
        }
        Ok(())
    }

    fn init(&mut self, now: Instant, bytes: Option<u64>) -> Result<(), Error> {
        let mut flow = RfcFlow::new(self.config, now).map_err(|_| "bad RFC-mode settings")?;
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

    fn set(&mut self, ev: &Event<'_>) -> Result<(), Error> {
        let key = ev.arg(0).ok_or("`set` needs a key")?;
        let word = ev.arg(1).ok_or("`set` needs a value")?;
        match key {
            "mode" if word == "rfc9438" => return Ok(()),
            "mode" => return Err("another mode inside an rfc9438 trace"),
            "slow_start" => {
                self.config.slow_start = match word {
                    "off" => SlowStartKind::Standard,
                    "hystart" => SlowStartKind::LinuxHystart,
                    "hystartpp" => SlowStartKind::HystartPlusPlus,
                    _ => return Err("slow_start: off, hystart or hystartpp"),
                };
                return Ok(());
            }
            _ => {}
        }
        let value: u64 = ev.int(1)?;
        let v32 = u32::try_from(value).map_err(|_| "value too large")?;
        let c = &mut self.config.cubic;
        match key {
            "mss" => {
                c.mss_bytes = value;
                if let Some(flow) = self.flow.as_mut() {
                    return flow.set_mss(value).map_err(|_| "bad MSS");
                }
                return Ok(());
            }
            "paced" => self.config.paced = value != 0,
            "init_cwnd" => self.config.initial_window_bytes = Some(value),
            "init_ssthresh" => self.config.initial_ssthresh_bytes = value,
            "beta" => c.beta_permille = v32,
            "ecn_beta" => c.ecn_beta_permille = v32,
            "c" => c.c_permille = v32,
            "fast_convergence" => c.fast_convergence = value != 0,
            "reno_friendly" => c.reno_friendly = value != 0,
            _ => return Err("unknown `set` key in rfc9438 mode"),
        }
        if let Some(flow) = self.flow.as_mut() {
            flow.set_cubic_config(self.config.cubic)
                .map_err(|_| "bad CUBIC settings")?;
        }
        Ok(())
    }

    /// Writes the row for event `idx`; zeros (phase `ss`) before the first `init`.
    pub fn write_row(&self, out: &mut impl Write, idx: usize, keyword: &str) -> fmt::Result {
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
        write!(
            out,
            "{idx},{keyword},{},{},{},{phase},",
            self.now_us,
            f.cwnd(),
            f.ssthresh()
        )?;
        write!(
            out,
            "{},{},{},{},",
            c.w_max_bytes, c.k_us, c.w_est_bytes, c.cwnd_prior_bytes
        )?;
        // -1: no epoch / no RTT sample yet (the host prints these through i128).
        match c.epoch_start {
            Some(e) => write!(out, "{},", e.as_micros())?,
            None => out.write_str("-1,")?,
        }
        write!(
            out,
            "{},{},{},",
            c.cwnd_epoch_bytes,
            f.in_flight(),
            f.srtt_us()
        )?;
        match f.min_rtt_us() {
            u64::MAX => out.write_str("-1,")?,
            m => write!(out, "{m},")?,
        }
        writeln!(
            out,
            "{},{},{}",
            u8::from(f.last_ack_cwnd_limited()),
            f.hystart_pp().css_rounds,
            f.params().mss(),
        )
    }
}
