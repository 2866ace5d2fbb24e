//! The socket model of `shared/conformance/linux-dctcp/README.md` (which
//! `linux-prague` shares, and `linux-cubic` too with instant recovery): the harness's
//! events driven through the library's kernel glue (`congestion::linux::tcp`) for any
//! algorithm that fills its hook table. Each algorithm adds its parameters and its
//! columns ([`TcpAlgorithm`]).
//!
//! Where the harness's model differs from the kernel, the difference is here, not in
//! the library's glue:
//! - `undo` clears `icsk_retransmits` when leaving any state but Open (the kernel's
//!   `tcp_try_undo_loss()` does it on leaving Loss only);
//! - with [`TcpAlgorithm::INSTANT_RECOVERY`] (the CUBIC traces), `loss` enters fast
//!   recovery and ends it at once, without PRR, and does so in Loss as well;
//! - with [`TcpAlgorithm::LOST_SEGMENTS_STAY_OUTSTANDING`] (the CUBIC traces), an ACK
//!   after `rto T 0` acknowledges segments the harness no longer counts;
//! - `P()`, the pacing update after `init`, `loss`, `rto` and `undo`.

use crate::{Event, Mode, Problem, Row, running, set_u32, zeros_after};
use congestion::Instant;
use congestion::linux::CaState;
use congestion::linux::tcp::{
    AckOutcome, CaEvent, GSO_LEGACY_MAX_SIZE, ReplayedRandom, TcpAck, TcpCongestionOps, TcpSock,
    TcpSysctl, tcp_end_cwnd_reduction, tcp_set_ca_state, tcp_update_pacing_rate,
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
    /// Whether `loss` enters fast recovery and leaves it at once (`set_state(Open)`,
    /// `tcp_end_cwnd_reduction()`), from Loss as from Open, as the CUBIC harness models
    /// it; otherwise recovery lasts until `snd_una` reaches `high_seq`, with PRR, and a
    /// `loss` in Recovery or Loss is ignored.
    const INSTANT_RECOVERY: bool = false;
    /// Whether an ACK of `ACKED > 0` segments that finds the harness's flight empty
    /// still acknowledges them. The CUBIC harness's `rto` empties `packets_out` where
    /// the kernel keeps the timed-out segments counted (as lost), so such an ACK finds
    /// a queue in the kernel and is processed in full; the replay counts the ACKed
    /// segments back into `packets_out` first. The DCTCP harness instead takes the
    /// kernel's `no_queue` path on its empty flight.
    const LOST_SEGMENTS_STAY_OUTSTANDING: bool = false;

    /// The host settings before any `set` (the kernel's defaults unless the harness
    /// models less of the socket).
    fn sysctl() -> TcpSysctl {
        TcpSysctl::new()
    }

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
    /// `sk_gso_max_size` for the next `init`.
    gso_max_size: u32,
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
            sysctl: A::sysctl(),
            gso_max_size: GSO_LEGACY_MAX_SIZE,
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
            "gso_max_size" => self.gso_max_size = set_u32(key, value)?,
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
        flow.parts_mut().0.sk_gso_max_size = self.gso_max_size;
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
                let ce_delta: u32 = ev.opt_int(4)?.unwrap_or(0);
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
                if A::LOST_SEGMENTS_STAY_OUTSTANDING && flow.socket().packets_out == 0 {
                    flow.parts_mut().0.packets_out = acked;
                }
                if flow.ack(p, sysctl, now_us, &ack, rand) != AckOutcome::Discarded {
                    flow.transmit(p, now_us, in_flight, rand);
                }
            }
            "loss" => {
                if A::INSTANT_RECOVERY && flow.socket().icsk_ca_state == CaState::Loss {
                    // The CUBIC harness runs its fast retransmit in Loss too, as from Open
                    // (the kernel never enters Recovery from Loss): Loss is relabelled so
                    // that the glue's tcp_enter_recovery() takes it.
                    flow.parts_mut().0.icsk_ca_state = CaState::Open;
                }
                if flow.loss(p, now_us, rand) {
                    if A::INSTANT_RECOVERY {
                        // The harness's tcp_try_undo_recovery() at once: Open, then
                        // the end of the reduction.
                        let (sk, ca) = flow.parts_mut();
                        tcp_set_ca_state::<A::Ops, _>(ca, sk, p, CaState::Open, rand);
                        tcp_end_cwnd_reduction::<A::Ops, _>(ca, sk, p, rand);
                    }
                    Self::pacing_after_event(sysctl, flow);
                }
            }
            "rto" => {
                flow.rto(p, now_us, ev.opt_int(1)?.unwrap_or(1), rand);
                Self::pacing_after_event(sysctl, flow);
            }
            "undo" => {
                let prior_state = flow.socket().icsk_ca_state;
                if flow.undo(p, now_us, rand) {
                    if prior_state != CaState::Open {
                        // The harness clears the timeout count leaving any state.
                        flow.parts_mut().0.icsk_retransmits = 0;
                    }
                    Self::pacing_after_event(sysctl, flow);
                }
            }
            "idle" => {
                // An explicit CA_EVENT_TX_START, optionally after setting lsndtime.
                let lsnd_us: Option<u64> = ev.opt_int(1)?;
                let (sk, ca) = flow.parts_mut();
                sk.set_clock(now_us);
                if let Some(lsnd_us) = lsnd_us {
                    sk.lsndtime = Instant::from_micros(lsnd_us).jiffies32();
                }
                A::Ops::cwnd_event_with_random(ca, sk, p, CaEvent::TxStart, rand);
                sk.lsndtime = sk.tcp_jiffies32;
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
