//! The 2.6.35 profile: the harness socket model of
//! `shared/conformance/linux-2.6.35/README.md`, driven through
//! `congestion::v2_6_35::Cubic`, with that folder's columns.

use crate::{Event, Mode, Problem, Row, running, set_u32, zeros_after};
use congestion::cubic::HystartDetect;
use congestion::v2_6_35::{Cubic, CubicConfig};
use congestion::{Duration, Instant};
use core::fmt::{self, Write};

/// Replay state: the configuration being built by `set`, and the flow once `init` ran.
pub struct Replay2635 {
    config: CubicConfig,
    flow: Option<Cubic>,
}

impl Replay2635 {
    /// The CSV header, exactly as the reference traces print it.
    pub const HEADER: &'static str = "idx,ev,t_us,jiffies,cwnd,ssthresh,cwnd_cnt,ca_state,cnt,last_max_cwnd,loss_cwnd,last_cwnd,last_time,origin_point,bic_K,delay_min,epoch_start,ack_cnt,tcp_cwnd,delayed_ack,sample_cnt,found,round_start,end_seq,last_jiffies,curr_rtt,snd_una,snd_nxt,packets_out,high_seq,prior_ssthresh,undo_marker,retransmits,rtt_us_passed,hs_reason";

    /// Before any event: the 2.6.35 defaults, no socket.
    pub(crate) fn new() -> Self {
        Replay2635 {
            config: CubicConfig::new(),
            flow: None,
        }
    }
}

impl<'a> Mode<'a> for Replay2635 {
    fn write_header<W: Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str(Self::HEADER)?;
        out.write_str("\n")
    }

    /// `set KEY VALUE`: a module parameter or a sysctl (all `u32`).
    fn set(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let key = ev.key()?;
        let value: u64 = ev.int(1)?;
        let v32 = set_u32(key, value)?;
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
                    .map_err(|error| Problem::ConfigAfterSet { key, error })?
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
            other => return Err(Problem::UnknownKey(other)),
        }
        // Module parameters and sysctls take effect at once on a running flow; a bad
        // value is reported at once whether or not a flow runs yet.
        let after_set = |error| Problem::ConfigAfterSet { key, error };
        self.config.validate().map_err(after_set)?;
        if let Some(flow) = self.flow.as_mut() {
            flow.set_config(self.config).map_err(after_set)?;
            flow.clear_rtt_us_passed();
        }
        Ok(())
    }

    fn init(&mut self, now: Instant, ev: Option<&Event<'a>>) -> Result<(), Problem<'a>> {
        let n = ev.map_or(Ok(None), |ev| ev.opt_int::<u32>(1))?;
        let mut flow = Cubic::new(self.config, now).map_err(Problem::Config)?;
        let n = n.unwrap_or(flow.state().cwnd);
        flow.transmit(now, n);
        self.flow = Some(flow);
        Ok(())
    }

    fn event(&mut self, now: Instant, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let flow = running(&mut self.flow, ev)?;
        flow.clear_rtt_us_passed();
        match ev.keyword {
            "ack" => {
                let (acked, rtt, in_flight) = ev.ack_args::<u32>()?;
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
            other => return Err(Problem::UnknownEvent(other)),
        }
        Ok(())
    }

    /// Writes the row for event `idx`; all zeros (and `rtt_us_passed` -1) before init.
    fn write_row<W: Write>(&mut self, out: &mut W, row: Row<'_>) -> fmt::Result {
        let Row { idx, keyword, t_us } = row;
        let Some(f) = self.flow.as_ref() else {
            zeros_after(out, idx, keyword, 31)?;
            return writeln!(out, ",-1,0");
        };
        let s = f.state();
        let b = &s.bictcp;
        let v = f.socket_view();
        let t = t_us;
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

    fn has_flow(&self) -> bool {
        self.flow.is_some()
    }
}
