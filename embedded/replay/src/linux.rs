//! Linux mode: the harness socket model of `shared/conformance/linux-cubic/README.md`
//! driven through `LinuxFlow`, row for row as `tests/replay/linux.rs` prints it.

use crate::pacing::{self, PacingReplay};
use crate::trace::{Error, Event};
use congestion::Instant;
use congestion::cubic::{HystartDetect, LinuxCubicConfig};
use congestion::hystart::{HystartExit, PacingStatus};
use congestion::linux::{LinuxFlow, LinuxFlowConfig, LinuxSocketConfig};
use core::fmt::{self, Write};

/// The CSV header of the reference traces.
pub const HEADER: &str = "idx,ev,t_us,jiffies,cwnd,ssthresh,cwnd_cnt,ca_state,cnt,last_max_cwnd,last_cwnd,last_time,origin_point,bic_K,delay_min,epoch_start,ack_cnt,tcp_cwnd,found,sample_cnt,round_start,end_seq,last_ack,curr_rtt,snd_una,snd_nxt,packets_out,is_cwnd_limited,max_packets_out,srtt_us,pacing_rate,prior_cwnd,prior_ssthresh,hs_reason";

/// Replay state: the configuration being built by `set`, and the flow once `init` ran.
pub struct LinuxReplay {
    cubic: LinuxCubicConfig,
    socket: LinuxSocketConfig,
    flow: Option<LinuxFlow>,
    now_us: u64,
    pacing: Option<PacingReplay>,
}

impl LinuxReplay {
    /// A replay for `text`, with the send-path columns if the trace uses the send path.
    pub fn for_trace(text: &str) -> Result<Self, Error> {
        let pacing = if pacing::uses_pacing(text) {
            Some(PacingReplay::new()?)
        } else {
            None
        };
        Ok(LinuxReplay {
            cubic: LinuxCubicConfig::new(),
            socket: LinuxSocketConfig::new(),
            flow: None,
            now_us: 0,
            pacing,
        })
    }

    /// Writes the CSV header line.
    pub fn write_header(&self, out: &mut impl Write) -> fmt::Result {
        out.write_str(HEADER)?;
        if self.pacing.is_some() {
            out.write_str(pacing::EXTRA_HEADER)?;
        }
        out.write_str("\n")
    }

    /// Applies one event (`set mode linux` only names the default).
    pub fn apply(&mut self, ev: &Event<'_>) -> Result<(), Error> {
        if ev.sets("mode") {
            return Ok(());
        }
        if ev.keyword == "set" {
            return self.set(ev);
        }
        let t = ev.time()?;
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
                let acked: u32 = ev.int(1)?;
                let rtt: i64 = ev.int(2)?;
                let in_flight: u32 = ev.int(3)?;
                // RTT -1 (any negative s32): no sample.
                let rtt = u32::try_from(rtt as i32).ok();
                flow.ack(now, acked, rtt);
                if let (Some(p), Some(rtt)) = (self.pacing.as_mut(), rtt) {
                    p.on_rtt(now, rtt);
                }
                flow.transmit(now, in_flight);
            }
            "loss" => flow.loss(now),
            "ecn" => flow.ecn(now),
            "rto" => flow.rto(now, ev.opt_int(1)?.unwrap_or(1)),
            "undo" => flow.undo(now),
            "idle" => {
                if let Some(lsnd_us) = ev.opt_int::<u64>(1)? {
                    flow.set_last_send_jiffies(Instant::from_micros(lsnd_us).jiffies32());
                }
                flow.transmit_start(now);
            }
            "send" => {
                let n: u32 = ev.int(1)?;
                let out = flow.socket_view().packets_out;
                flow.transmit(now, out.saturating_add(n));
            }
            kw if PacingReplay::handles(kw) => match self.pacing.as_mut() {
                Some(p) => p.apply(ev, now, flow)?,
                None => return Err("unknown event"),
            },
            _ => return Err("unknown event"),
        }
        Ok(())
    }

    fn init(&mut self, now: Instant, n: Option<u32>) -> Result<(), Error> {
        self.cubic.validate().map_err(|_| "bad CUBIC settings")?;
        let config = LinuxFlowConfig::from_parts(self.cubic, self.socket);
        let mut flow = LinuxFlow::new(config, now).map_err(|_| "bad socket settings")?;
        let n = n.unwrap_or(flow.state().cwnd);
        flow.transmit(now, n);
        self.flow = Some(flow);
        Ok(())
    }

    fn set(&mut self, ev: &Event<'_>) -> Result<(), Error> {
        let key = ev.arg(0).ok_or("`set` needs a key")?;
        let value: u64 = ev.int(1)?;
        let v32 = u32::try_from(value).map_err(|_| "value too large")?;
        let flag = value != 0;
        if let Some(p) = self.pacing.as_mut()
            && p.set(key, v32)?
        {
            return Ok(());
        }
        let c = &mut self.cubic;
        let s = &mut self.socket;
        match key {
            "beta" => c.beta = v32,
            "bic_scale" => c.bic_scale = v32,
            "fast_convergence" => c.fast_convergence = flag,
            "tcp_friendliness" => c.tcp_friendliness = flag,
            "hystart" => c.hystart = flag,
            "hystart_detect" => {
                c.hystart_detect = HystartDetect::from_bits(u8::try_from(value).unwrap_or(u8::MAX))
                    .map_err(|_| "bad hystart_detect")?
            }
            "hystart_low_window" => c.hystart_low_window = v32,
            "hystart_ack_delta_us" => c.hystart_ack_delta_us = v32,
            "initial_ssthresh" => c.initial_ssthresh = v32,
            "init_cwnd" => s.init_cwnd = v32,
            "init_ssthresh" => s.init_ssthresh = v32,
            "cwnd_clamp" => s.cwnd_clamp = v32,
            "mss" => s.mss = v32,
            "srtt_us" => s.initial_srtt_us = v32,
            "iss" => s.iss = v32,
            "pacing_status" => {
                s.pacing_status = match value {
                    0 => PacingStatus::None,
                    1 => PacingStatus::Needed,
                    2 => PacingStatus::Fq,
                    _ => return Err("pacing_status: expected 0, 1 or 2"),
                }
            }
            "gso_max_size" => s.gso_max_size = v32,
            "max_pacing_rate" => s.max_pacing_rate = value,
            "pacing_ss_ratio" => s.pacing_ss_ratio = v32,
            "pacing_ca_ratio" => s.pacing_ca_ratio = v32,
            "model_pacing" => s.model_pacing = flag,
            "cwnd" | "ssthresh" | "clamp" => return self.set_live(key, v32),
            _ => return Err("unknown `set` key"),
        }
        // Module parameters and socket fields take effect at once on a running flow.
        if let Some(flow) = self.flow.as_mut() {
            flow.set_params(self.cubic.validate().map_err(|_| "bad CUBIC settings")?);
            flow.set_socket_config(self.socket)
                .map_err(|_| "bad socket settings")?;
        }
        Ok(())
    }

    /// `cwnd`, `ssthresh`, `clamp`: write the socket now and the init value for later.
    fn set_live(&mut self, key: &str, value: u32) -> Result<(), Error> {
        match key {
            "cwnd" => self.socket.init_cwnd = value,
            "ssthresh" => self.socket.init_ssthresh = value,
            _ => self.socket.cwnd_clamp = value,
        }
        if let Some(flow) = self.flow.as_mut() {
            match key {
                "cwnd" => flow.set_cwnd(value),
                "ssthresh" => flow.set_ssthresh(value),
                _ => flow.set_clamp(value),
            }
        }
        Ok(())
    }

    /// Writes the row for event `idx`; all zeros before the first `init`.
    pub fn write_row(&mut self, out: &mut impl Write, idx: usize, keyword: &str) -> fmt::Result {
        let Some(f) = self.flow.as_ref() else {
            write!(out, "{idx},{keyword}")?;
            for _ in 0..32 {
                out.write_str(",0")?;
            }
            if let Some(p) = self.pacing.as_mut() {
                p.write_columns(out, None)?;
            }
            return out.write_str("\n");
        };
        let s = f.state();
        let c = &s.cubic;
        let h = &s.hystart;
        let v = f.socket_view();
        let t = self.now_us;
        let reason = match f.hystart_exit() {
            None => 0,
            Some(HystartExit::AckTrain) => 1,
            Some(HystartExit::DelayIncrease) => 2,
        };
        write!(
            out,
            "{idx},{keyword},{t},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{reason}",
            Instant::from_micros(t).jiffies32(),
            s.cwnd,
            s.ssthresh,
            s.cwnd_cnt,
            f.ca_state() as u8,
            c.cnt,
            c.last_max_cwnd,
            c.last_cwnd,
            c.last_time,
            c.origin_point,
            c.bic_k,
            c.delay_min,
            c.epoch_start,
            c.ack_cnt,
            c.tcp_cwnd,
            u8::from(h.found),
            h.sample_cnt,
            h.round_start,
            h.end_seq,
            h.last_ack,
            h.curr_rtt,
            v.snd_una,
            v.snd_nxt,
            v.packets_out,
            u8::from(v.is_cwnd_limited),
            v.max_packets_out,
            v.srtt_us_x8,
            f.pacing_rate(),
            v.prior_cwnd,
            v.prior_ssthresh,
        )?;
        if let Some(p) = self.pacing.as_mut() {
            p.write_columns(out, Some(f))?;
        }
        out.write_str("\n")
    }
}
