//! The 2.6.35 profile: the harness socket model of
//! `shared/conformance/linux-2.6.35/README.md`, driven through
//! `congestion::v2_6_35::Linux2635Flow`, with that folder's columns.

use super::Event;
use congestion::cubic::HystartDetect;
use congestion::v2_6_35::{Linux2635Config, Linux2635Flow};
use congestion::{Duration, Instant};
use std::fmt::Write;

/// Replay state: the configuration being built by `set`, and the flow once `init` ran.
pub struct Replay2635 {
    config: Linux2635Config,
    flow: Option<Linux2635Flow>,
    now_us: u64,
}

impl Replay2635 {
    /// The CSV header, exactly as the reference traces print it.
    pub const HEADER: &'static str = "idx,ev,t_us,jiffies,cwnd,ssthresh,cwnd_cnt,ca_state,cnt,last_max_cwnd,loss_cwnd,last_cwnd,last_time,origin_point,bic_K,delay_min,epoch_start,ack_cnt,tcp_cwnd,delayed_ack,sample_cnt,found,round_start,end_seq,last_jiffies,curr_rtt,snd_una,snd_nxt,packets_out,high_seq,prior_ssthresh,undo_marker,retransmits,rtt_us_passed,hs_reason";

    /// Before any event: the 2.6.35 defaults, no socket.
    pub fn new() -> Self {
        Replay2635 {
            config: Linux2635Config::new(),
            flow: None,
            now_us: 0,
        }
    }

    /// The flow, once initialised.
    pub fn flow(&self) -> Option<&Linux2635Flow> {
        self.flow.as_ref()
    }

    /// Applies one event.
    pub fn apply(&mut self, ev: &Event<'_>) -> Result<(), String> {
        if ev.keyword == "set" {
            return self.set(ev);
        }
        let t = ev.time()?;
        self.now_us = t;
        let now = Instant::from_micros(t);
        if ev.keyword == "init" {
            return self.init(now, ev.opt_int::<u32>(1)?);
        }
        if self.flow.is_none() {
            self.init(now, None)?;
        }
        let Some(flow) = self.flow.as_mut() else {
            return Err("no flow".into());
        };
        flow.clear_rtt_us_passed();
        match ev.keyword {
            "ack" => {
                let acked: u32 = ev.int(1)?;
                let rtt: i64 = ev.int(2)?;
                let in_flight: u32 = ev.int(3)?;
                // RTT -1 (any negative): no sample.
                let rtt = u64::try_from(rtt).ok().map(Duration::from_micros);
                flow.ack(now, acked, rtt);
                flow.transmit(now, in_flight);
            }
            "loss" => flow.loss(now),
            "rto" => flow.rto(now, ev.opt_int(1)?.unwrap_or(1)),
            "undo" => flow.undo(now),
            "ecn" => flow.ecn(now),
            "send" => {
                let n: u32 = ev.int(1)?;
                let out = flow.socket_view().packets_out;
                flow.transmit(now, out.saturating_add(n));
            }
            other => return Err(format!("unknown event `{other}`")),
        }
        Ok(())
    }

    fn init(&mut self, now: Instant, n: Option<u32>) -> Result<(), String> {
        let mut flow = Linux2635Flow::new(self.config, now).map_err(|e| e.to_string())?;
        let n = n.unwrap_or(flow.state().cwnd);
        flow.transmit(now, n);
        self.flow = Some(flow);
        Ok(())
    }

    fn set(&mut self, ev: &Event<'_>) -> Result<(), String> {
        let key = *ev.args.first().ok_or("`set` needs a key")?;
        let value: u64 = ev.int(1)?;
        let v32 = u32::try_from(value).map_err(|_| format!("`set {key}`: {value} too large"))?;
        let flag = value != 0;
        let c = &mut self.config;
        match key {
            "hz" => c.hz = v32,
            "beta" => c.beta = v32,
            "bic_scale" => c.bic_scale = v32,
            "fast_convergence" => c.fast_convergence = flag,
            "tcp_friendliness" => c.tcp_friendliness = flag,
            "hystart" => c.hystart = flag,
            "hystart_detect" => {
                c.hystart_detect = HystartDetect::from_bits(u8::try_from(value).unwrap_or(u8::MAX))
                    .map_err(|e| e.to_string())?
            }
            "hystart_low_window" => c.hystart_low_window = v32,
            "initial_ssthresh" => c.initial_ssthresh = v32,
            "init_cwnd" => c.init_cwnd = v32,
            "init_ssthresh" => c.init_ssthresh = v32,
            "cwnd_clamp" => c.cwnd_clamp = v32,
            "mss" => c.mss = v32,
            "iss" => c.iss = v32,
            "gso" => c.gso = flag,
            "gso_max_size" => c.gso_max_size = v32,
            "reordering" => c.reordering = v32,
            "tso_win_divisor" => c.tso_win_divisor = v32,
            other => return Err(format!("unknown `set` key `{other}`")),
        }
        // Module parameters and sysctls take effect at once on a running flow; a bad
        // value is reported at once whether or not a flow runs yet.
        self.config
            .validate()
            .map_err(|e| format!("`set {key} {value}`: {e}"))?;
        if let Some(flow) = self.flow.as_mut() {
            flow.set_config(self.config).map_err(|e| e.to_string())?;
            flow.clear_rtt_us_passed();
        }
        Ok(())
    }

    /// Writes the row for event `idx`; all zeros (and `rtt_us_passed` -1) before init.
    pub fn write_row(&self, out: &mut String, idx: usize, keyword: &str) -> std::fmt::Result {
        let Some(f) = self.flow.as_ref() else {
            write!(out, "{idx},{keyword}")?;
            for _ in 0..31 {
                out.push_str(",0");
            }
            return writeln!(out, ",-1,0");
        };
        let s = f.state();
        let b = &s.bictcp;
        let v = f.socket_view();
        let t = self.now_us;
        let reason = f.hystart_exit().map_or(0, |e| e.bits());
        writeln!(
            out,
            "{idx},{keyword},{t},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{reason}",
            f.jiffies(Instant::from_micros(t)),
            s.cwnd,
            s.ssthresh,
            s.cwnd_cnt,
            f.ca_state() as u8,
            b.cnt,
            b.last_max_cwnd,
            b.loss_cwnd,
            b.last_cwnd,
            b.last_time,
            b.origin_point,
            b.bic_k,
            b.delay_min,
            b.epoch_start,
            b.ack_cnt,
            b.tcp_cwnd,
            b.delayed_ack,
            b.sample_cnt,
            b.found,
            b.round_start,
            b.end_seq,
            b.last_jiffies,
            b.curr_rtt,
            v.snd_una,
            v.snd_nxt,
            v.packets_out,
            v.high_seq,
            v.prior_ssthresh,
            u8::from(v.undo_marker),
            v.retransmits,
            f.rtt_us_passed(),
        )
    }
}

/// Replays `text` on the 2.6.35 profile and returns the CSV.
pub fn replay(text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut replay = Replay2635::new();
    writeln!(out, "{}", Replay2635::HEADER).map_err(|e| e.to_string())?;
    for (idx, (line_no, event)) in super::parse(text).enumerate() {
        replay
            .apply(&event)
            .map_err(|e| format!("line {line_no}: {e}"))?;
        replay
            .write_row(&mut out, idx + 1, event.keyword)
            .map_err(|e| e.to_string())?;
    }
    Ok(out)
}
