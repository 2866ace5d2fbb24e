//! The socket model of `shared/conformance/linux-dctcp/README.md` (which
//! `linux-prague` shares): the harness's events driven through the library's kernel
//! glue (`congestion::linux::tcp`) for any algorithm that fills its hook table. Each
//! algorithm adds its parameters and its columns ([`TcpAlgorithm`]).

use crate::{Event, Mode, Problem, Row, running, set_u32, zeros_after};
use congestion::Instant;
use congestion::linux::tcp::{
    AckOutcome, ReplayedRandom, TcpAck, TcpCongestionOps, TcpSock, TcpSysctl,
    tcp_update_pacing_rate,
};
use congestion::linux::{TcpFlow, TcpSocketConfig};
use core::fmt::{self, Write};

/// One algorithm's part of the replay: its hook table, its module parameters as `set`
/// keys, and its columns.
pub(crate) trait TcpAlgorithm {
    /// The hook table.
    type Ops: TcpCongestionOps;
    /// The CSV header line (without the newline).
    const HEADER: &'static str;
    /// Columns after `idx,ev` (for the all-zero rows before `init`).
    const CELLS: usize;
    /// Whether the harness ends `init`, `loss`, `rto` and `undo` with the glue's pacing
    /// update `P()` (not for algorithms that set the pacing rate themselves).
    const MODEL_PACING_AFTER_EVENTS: bool;

    /// `set KEY VALUE` for a module parameter: `None` if `key` is not one.
    fn set<'a>(
        params: &mut <Self::Ops as TcpCongestionOps>::Params,
        key: &'a str,
        value: u64,
    ) -> Option<Result<(), Problem<'a>>>;

    /// The row's cells after `idx,ev,t_us`.
    fn write_state<W: Write>(
        out: &mut W,
        sk: &TcpSock,
        ca: &<Self::Ops as TcpCongestionOps>::Ca,
    ) -> fmt::Result;
}

/// Replay state: the settings, and the flow once `init` ran.
pub(crate) struct TcpModelReplay<A: TcpAlgorithm> {
    params: <A::Ops as TcpCongestionOps>::Params,
    socket: TcpSocketConfig,
    sysctl: TcpSysctl,
    flow: Option<TcpFlow<A::Ops>>,
    /// The algorithms replayed here draw no random numbers; an empty queue.
    rand: ReplayedRandom<1>,
}

impl<A: TcpAlgorithm> TcpModelReplay<A> {
    /// Before any event: the defaults, no socket.
    pub(crate) fn new(params: <A::Ops as TcpCongestionOps>::Params) -> Self {
        TcpModelReplay {
            params,
            socket: TcpSocketConfig::new(),
            sysctl: TcpSysctl::new(),
            flow: None,
            rand: ReplayedRandom::new(),
        }
    }

    /// The harness's `P()` after `init`, `loss`, `rto`, `undo` (a model convention:
    /// the kernel next updates the rate on the following ACK).
    fn pacing_after_event(sysctl: &TcpSysctl, flow: &mut TcpFlow<A::Ops>) {
        if A::MODEL_PACING_AFTER_EVENTS {
            tcp_update_pacing_rate(flow.parts_mut().0, sysctl);
        }
    }
}

impl<'a, A: TcpAlgorithm> Mode<'a> for TcpModelReplay<A> {
    fn write_header<W: Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str(A::HEADER)?;
        out.write_str("\n")
    }

    fn set(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let key = ev.key()?;
        let value: u64 = ev.int(1)?;
        if let Some(result) = A::set(&mut self.params, key, value) {
            return result;
        }
        let s = &mut self.socket;
        match key {
            "init_cwnd" => s.init_cwnd = set_u32(key, value)?,
            "init_ssthresh" => s.init_ssthresh = set_u32(key, value)?,
            "cwnd_clamp" => s.cwnd_clamp = set_u32(key, value)?,
            "mss" => s.mss = set_u32(key, value)?,
            "srtt_us" => s.initial_srtt_us = set_u32(key, value)?,
            "iss" => s.iss = set_u32(key, value)?,
            "max_pacing_rate" => s.max_pacing_rate = value,
            "rto_ms" => s.rto_ms = set_u32(key, value)?,
            "hdr_len" => s.header_len = set_u32(key, value)?,
            "pacing_status" => {
                s.pacing_status =
                    u8::try_from(value)
                        .ok()
                        .filter(|v| *v <= 2)
                        .ok_or(Problem::BadChoice {
                            key,
                            expected: "expected 0, 1 or 2",
                        })?
            }
            "pacing_ss_ratio" => self.sysctl.pacing_ss_ratio = set_u32(key, value)?,
            "pacing_ca_ratio" => self.sysctl.pacing_ca_ratio = set_u32(key, value)?,
            "model_pacing" => self.sysctl.update_pacing_rate = value != 0,
            "slow_start_after_idle" => self.sysctl.slow_start_after_idle = value != 0,
            other => return Err(Problem::UnknownKey(other)),
        }
        Ok(())
    }

    fn has_flow(&self) -> bool {
        self.flow.is_some()
    }

    /// The flow from the init values (the algorithm's `init`), `P()` (unless the
    /// algorithm paces itself), then the first transmit.
    fn init(&mut self, now: Instant, ev: Option<&Event<'a>>) -> Result<(), Problem<'a>> {
        let n = ev.map_or(Ok(None), |ev| ev.opt_int::<u32>(1))?;
        let now_us = now.as_micros();
        let mut flow = TcpFlow::<A::Ops>::new(&self.params, &self.socket, now_us, &mut self.rand)
            .map_err(Problem::Config)?;
        Self::pacing_after_event(&self.sysctl, &mut flow);
        let n = n.unwrap_or(flow.socket().snd_cwnd);
        flow.transmit(&self.params, now_us, n, &mut self.rand);
        self.flow = Some(flow);
        Ok(())
    }

    fn event(&mut self, now: Instant, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let flow = running(&mut self.flow, ev)?;
        let p = &self.params;
        let sysctl = &self.sysctl;
        let rand = &mut self.rand;
        let now_us = now.as_micros();
        match ev.keyword {
            "ack" => {
                let (acked, rtt, in_flight) = ev.ack_args::<u32>()?;
                let ce_delta: u32 = ev.int(4)?;
                let ece = match ev.arg(5) {
                    None => false,
                    Some("ece") => true,
                    Some(_) => {
                        return Err(Problem::BadChoice {
                            key: "ack",
                            expected: "the sixth word of `ack` may only be `ece`",
                        });
                    }
                };
                let ack = TcpAck {
                    acked,
                    // RTT -1 (any negative): no sample.
                    rtt_us: u32::try_from(rtt).ok(),
                    ce_delta,
                    ece,
                };
                if flow.ack(p, sysctl, now_us, &ack, rand) != AckOutcome::Discarded {
                    flow.transmit(p, now_us, in_flight, rand);
                }
            }
            "loss" => {
                if flow.loss(p, now_us, rand) {
                    Self::pacing_after_event(sysctl, flow);
                }
            }
            "rto" => {
                flow.rto(p, now_us, ev.opt_int(1)?.unwrap_or(1), rand);
                Self::pacing_after_event(sysctl, flow);
            }
            "undo" => {
                if flow.undo(p, now_us, rand) {
                    Self::pacing_after_event(sysctl, flow);
                }
            }
            "send" => flow.send(p, sysctl, now_us, ev.int(1)?, rand),
            other => return Err(Problem::UnknownEvent(other)),
        }
        Ok(())
    }

    /// The row: `set` rows print time 0; all zeros before `init`.
    fn write_row<W: Write>(&mut self, out: &mut W, row: Row<'_>) -> fmt::Result {
        let Row { idx, keyword, t_us } = row;
        let Some(flow) = self.flow.as_ref() else {
            zeros_after(out, idx, keyword, A::CELLS)?;
            return out.write_str("\n");
        };
        let t = if keyword == "set" { 0 } else { t_us };
        write!(out, "{idx},{keyword},{t}")?;
        A::write_state(out, flow.socket(), flow.ca())?;
        out.write_str("\n")
    }
}
