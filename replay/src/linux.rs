//! Linux mode: the harness socket model of `shared/conformance/linux-cubic/README.md`,
//! driven through `congestion::linux::Cubic`.

use crate::pacing::{self, PacingReplay};
use crate::{Event, Mode, Problem, Row, running, set_u32, zeros_after};
use congestion::cubic::{HystartDetect, LinuxCubicConfig};
use congestion::hystart::{HystartExit, PacingStatus};
use congestion::linux::{Cubic, CubicConfig, LinuxSocketConfig};
use congestion::{ConfigError, CongestionController, Instant, LossEvent};
use core::fmt::{self, Write};

/// Replay state: the configuration being built by `set`, and the flow once `init` ran.
pub struct LinuxReplay {
    cubic: LinuxCubicConfig,
    socket: LinuxSocketConfig,
    flow: Option<Cubic>,
    /// The send path, for traces that use its events (extra columns).
    pacing: Option<PacingReplay>,
}

impl LinuxReplay {
    /// The CSV header, exactly as the reference traces print it.
    pub const HEADER: &'static str = "idx,ev,t_us,jiffies,cwnd,ssthresh,cwnd_cnt,ca_state,cnt,last_max_cwnd,last_cwnd,last_time,origin_point,bic_K,delay_min,epoch_start,ack_cnt,tcp_cwnd,found,sample_cnt,round_start,end_seq,last_ack,curr_rtt,snd_una,snd_nxt,packets_out,is_cwnd_limited,max_packets_out,srtt_us,pacing_rate,prior_cwnd,prior_ssthresh,hs_reason";

    /// Before any event: the kernel defaults, no socket.
    pub(crate) fn new() -> Self {
        LinuxReplay {
            cubic: LinuxCubicConfig::new(),
            socket: LinuxSocketConfig::new(),
            flow: None,
            pacing: None,
        }
    }

    /// A replay for `text`: with the send-path columns if it uses the send path's
    /// events or keys, else exactly the reference traces' columns.
    pub(crate) fn for_trace(text: &str) -> Result<Self, ConfigError> {
        let mut replay = LinuxReplay::new();
        if pacing::uses_pacing(text) {
            replay.pacing = Some(PacingReplay::new()?);
        }
        Ok(replay)
    }
}

impl<'a> Mode<'a> for LinuxReplay {
    fn write_header<W: Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str(Self::HEADER)?;
        if self.pacing.is_some() {
            out.write_str(pacing::EXTRA_HEADER)?;
        }
        out.write_str("\n")
    }

    /// `set KEY VALUE`: a module parameter, a socket field or a send-path setting.
    /// (`set mode linux` only names the default mode.)
    fn set(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        if ev.sets("mode") {
            return Ok(());
        }
        let key = ev.key()?;
        let value: u64 = ev.int(1)?;
        // (No `if let ... &&` chain: the crate builds on Rust 1.85.)
        let send_path_key = match self.pacing.as_mut() {
            Some(p) => p.set(key, value)?,
            None => false,
        };
        if send_path_key {
            return Ok(());
        }
        if matches!(key, "cwnd" | "ssthresh" | "clamp") {
            return self.set_live(key, set_u32(key, value)?);
        }
        if let Some(result) = set_module_param(&mut self.cubic, key, value) {
            result?;
        } else {
            self.set_socket_key(key, value)?;
        }
        // Module parameters and socket fields take effect at once on a running flow.
        if let Some(flow) = self.flow.as_mut() {
            let after_set = |error| Problem::ConfigAfterSet { key, error };
            flow.set_params(self.cubic.validate().map_err(after_set)?);
            flow.set_socket_config(self.socket).map_err(after_set)?;
        }
        Ok(())
    }

    fn init(&mut self, now: Instant, ev: Option<&Event<'a>>) -> Result<(), Problem<'a>> {
        let n = ev.map_or(Ok(None), |ev| ev.opt_int::<u32>(1))?;
        let config = CubicConfig::from_parts(self.cubic, self.socket);
        let mut flow = Cubic::new(config, now).map_err(Problem::Config)?;
        let n = n.unwrap_or(flow.state().cwnd);
        flow.transmit(now, n);
        self.flow = Some(flow);
        Ok(())
    }

    fn event(&mut self, now: Instant, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let flow = running(&mut self.flow, ev)?;
        match ev.keyword {
            "ack" => {
                let (acked, rtt, in_flight) = ev.ack_args::<u32>()?;
                // RTT -1 (any negative s32): no sample.
                let rtt = u32::try_from(rtt as i32).ok();
                flow.ack(now, acked, rtt);
                if let (Some(p), Some(rtt)) = (self.pacing.as_mut(), rtt) {
                    p.on_rtt(now, rtt);
                }
                flow.transmit(now, in_flight);
            }
            // `loss T` is the kernel's fast-retransmit step; with LOST [SEQ] the trait's
            // loss report (lost segments leave flight; SEQ before high_seq is ignored).
            "loss" => match ev.loss_args()? {
                None => flow.loss(now),
                Some(loss) => flow.on_loss(now, &loss),
            },
            "ecn" => {
                let snd_una = u64::from(flow.socket_view().snd_una);
                match ev.ecn_args(snd_una)? {
                    None => flow.ecn(now),
                    Some(ecn) => flow.on_ecn(now, &ecn),
                }
            }
            "persistent" => {
                let loss = ev.loss_args()?.unwrap_or(LossEvent {
                    persistent_congestion: true,
                    ..LossEvent::default()
                });
                flow.on_loss(now, &loss);
            }
            "discard" => flow.on_discarded(now, ev.int(1)?),
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
                None => return Err(Problem::UnknownEvent(kw)),
            },
            other => return Err(Problem::UnknownEvent(other)),
        }
        Ok(())
    }

    /// Writes the row for event `idx`; all zeros before the first `init`.
    fn write_row<W: Write>(&mut self, out: &mut W, row: Row<'_>) -> fmt::Result {
        let Row { idx, keyword, t_us } = row;
        let Some(f) = self.flow.as_ref() else {
            zeros_after(out, idx, keyword, 32)?;
            if let Some(p) = self.pacing.as_mut() {
                p.write_columns(out, None)?;
            }
            return out.write_str("\n");
        };
        let s = f.state();
        let c = &s.cubic;
        let h = &s.hystart;
        let v = f.socket_view();
        let t = t_us;
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
            f.sk_pacing_rate(),
            v.prior_cwnd,
            v.prior_ssthresh,
        )?;
        if let Some(p) = self.pacing.as_mut() {
            p.write_columns(out, Some(f))?;
        }
        out.write_str("\n")
    }

    fn has_flow(&self) -> bool {
        self.flow.is_some()
    }
}

impl LinuxReplay {
    /// `set KEY VALUE` for a socket field (the init values).
    fn set_socket_key<'a>(&mut self, key: &'a str, value: u64) -> Result<(), Problem<'a>> {
        let s = &mut self.socket;
        match key {
            "init_cwnd" => s.init_cwnd = set_u32(key, value)?,
            "init_ssthresh" => s.init_ssthresh = set_u32(key, value)?,
            "cwnd_clamp" => s.cwnd_clamp = set_u32(key, value)?,
            "mss" => s.mss = set_u32(key, value)?,
            "srtt_us" => s.initial_srtt_us = set_u32(key, value)?,
            "iss" => s.iss = set_u32(key, value)?,
            "pacing_status" => {
                s.pacing_status = match value {
                    0 => PacingStatus::None,
                    1 => PacingStatus::Needed,
                    2 => PacingStatus::Fq,
                    _ => {
                        return Err(Problem::BadChoice {
                            key,
                            expected: "expected 0, 1 or 2",
                        });
                    }
                }
            }
            "gso_max_size" => s.gso_max_size = set_u32(key, value)?,
            "max_pacing_rate" => s.max_pacing_rate = value,
            "pacing_ss_ratio" => s.pacing_ss_ratio = set_u32(key, value)?,
            "pacing_ca_ratio" => s.pacing_ca_ratio = set_u32(key, value)?,
            "model_pacing" => s.model_pacing = value != 0,
            other => return Err(Problem::UnknownKey(other)),
        }
        Ok(())
    }

    /// `cwnd`, `ssthresh`, `clamp`: write the socket now and the init value for later.
    fn set_live<'a>(&mut self, key: &str, value: u32) -> Result<(), Problem<'a>> {
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
}

/// `set KEY VALUE` for one of `tcp_cubic.c`'s module parameters: `None` if `key` is
/// not one. Shared by the packed flow's replay and the replay on the generic glue.
pub(crate) fn set_module_param<'a>(
    c: &mut LinuxCubicConfig,
    key: &'a str,
    value: u64,
) -> Option<Result<(), Problem<'a>>> {
    let flag = value != 0;
    let number = || set_u32(key, value);
    Some(match key {
        "beta" => number().map(|v| c.beta = v),
        "bic_scale" => number().map(|v| c.bic_scale = v),
        "fast_convergence" => {
            c.fast_convergence = flag;
            Ok(())
        }
        "tcp_friendliness" => {
            c.tcp_friendliness = flag;
            Ok(())
        }
        "hystart" => {
            c.hystart = flag;
            Ok(())
        }
        "hystart_detect" => HystartDetect::from_bits(u8::try_from(value).unwrap_or(u8::MAX))
            .map(|d| c.hystart_detect = d)
            .map_err(|error| Problem::ConfigAfterSet { key, error }),
        "hystart_low_window" => number().map(|v| c.hystart_low_window = v),
        "hystart_ack_delta_us" => number().map(|v| c.hystart_ack_delta_us = v),
        "initial_ssthresh" => number().map(|v| c.initial_ssthresh = v),
        _ => return None,
    })
}
