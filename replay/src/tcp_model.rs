//! The socket model of `shared/conformance/linux-dctcp/README.md` (which
//! `linux-prague` shares): the harness's events driven through the library's kernel
//! glue (`congestion::linux::tcp`) for any algorithm that fills its hook table. Each
//! algorithm adds its parameters and its columns ([`TcpAlgorithm`]).

use crate::{Event, Mode, Problem, Row, running, set_u32, zeros_after};
use congestion::Instant;
use congestion::linux::tcp::{
    AckOutcome, ReplayedRandom, TcpAck, TcpCongestionOps, TcpSock, TcpSysctl, tcp_ack,
    tcp_enter_loss, tcp_enter_recovery, tcp_slow_start_after_idle_check, tcp_try_undo,
    tcp_update_pacing_rate, tcp_write_xmit,
};
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

/// The socket init values of `set` (used by the next `init`) and the sysctls.
#[derive(Clone, Copy, Debug)]
struct SocketInit {
    init_cwnd: u32,
    init_ssthresh: u32,
    cwnd_clamp: u32,
    mss: u32,
    srtt_us: u32,
    iss: u32,
    max_pacing_rate: u64,
    rto_ms: u32,
    hdr_len: u32,
    pacing_status: u8,
}

impl SocketInit {
    const fn new() -> Self {
        SocketInit {
            init_cwnd: 10,
            init_ssthresh: 0x7fff_ffff,
            cwnd_clamp: u32::MAX,
            mss: 1448,
            srtt_us: 0,
            iss: 0,
            max_pacing_rate: u64::MAX,
            rto_ms: 200,
            hdr_len: 52,
            pacing_status: 0,
        }
    }
}

/// Replay state: the settings, and the socket and algorithm state once `init` ran.
pub(crate) struct TcpModelReplay<A: TcpAlgorithm> {
    params: <A::Ops as TcpCongestionOps>::Params,
    init: SocketInit,
    sysctl: TcpSysctl,
    flow: Option<(TcpSock, <A::Ops as TcpCongestionOps>::Ca)>,
}

impl<A: TcpAlgorithm> TcpModelReplay<A> {
    /// Before any event: the defaults, no socket.
    pub(crate) fn new(params: <A::Ops as TcpCongestionOps>::Params) -> Self {
        TcpModelReplay {
            params,
            init: SocketInit::new(),
            sysctl: TcpSysctl::new(),
            flow: None,
        }
    }

    /// The harness's `P()` after `loss`, `rto`, `undo` (a model convention).
    fn pacing_after_event(sysctl: &TcpSysctl, sk: &mut TcpSock) {
        if A::MODEL_PACING_AFTER_EVENTS {
            tcp_update_pacing_rate(sk, sysctl);
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
        let s = &mut self.init;
        match key {
            "init_cwnd" => s.init_cwnd = set_u32(key, value)?,
            "init_ssthresh" => s.init_ssthresh = set_u32(key, value)?,
            "cwnd_clamp" => s.cwnd_clamp = set_u32(key, value)?,
            "mss" => s.mss = set_u32(key, value)?,
            "srtt_us" => s.srtt_us = set_u32(key, value)?,
            "iss" => s.iss = set_u32(key, value)?,
            "max_pacing_rate" => s.max_pacing_rate = value,
            "rto_ms" => s.rto_ms = set_u32(key, value)?,
            "hdr_len" => s.hdr_len = set_u32(key, value)?,
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

    /// Zero state, the socket from the init values, the algorithm's `init`, `P()`
    /// (unless the algorithm paces itself), then the first transmit.
    fn init(&mut self, now: Instant, ev: Option<&Event<'a>>) -> Result<(), Problem<'a>> {
        let n = ev.map_or(Ok(None), |ev| ev.opt_int::<u32>(1))?;
        let s = &self.init;
        let mut sk = TcpSock::default();
        sk.set_clock(now.as_micros());
        sk.snd_cwnd = s.init_cwnd;
        sk.snd_ssthresh = s.init_ssthresh;
        sk.snd_cwnd_clamp = s.cwnd_clamp;
        sk.mss_cache = s.mss;
        sk.srtt_us = s.srtt_us.wrapping_shl(3);
        sk.snd_una = s.iss;
        sk.snd_nxt = s.iss;
        sk.cwnd_usage_seq = s.iss;
        sk.lsndtime = sk.tcp_jiffies32;
        sk.sk_max_pacing_rate = s.max_pacing_rate;
        sk.icsk_rto = s.rto_ms;
        sk.header_len = s.hdr_len;
        sk.sk_pacing_status = s.pacing_status;
        let mut ca = <A::Ops as TcpCongestionOps>::Ca::default();
        <A::Ops as TcpCongestionOps>::init(
            &mut ca,
            &mut sk,
            &self.params,
            &mut ReplayedRandom::<1>::new(),
        );
        Self::pacing_after_event(&self.sysctl, &mut sk);
        let n = n.unwrap_or(sk.snd_cwnd);
        tcp_write_xmit::<A::Ops>(&mut ca, &mut sk, &self.params, n);
        self.flow = Some((sk, ca));
        Ok(())
    }

    fn event(&mut self, now: Instant, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let (sk, ca) = running(&mut self.flow, ev)?;
        let p = &self.params;
        let sysctl = &self.sysctl;
        sk.set_clock(now.as_micros());
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
                    // RTT -1 (any negative s32): no sample.
                    rtt_us: u32::try_from(rtt).ok(),
                    ce_delta,
                    ece,
                };
                if tcp_ack::<A::Ops>(ca, sk, p, sysctl, &ack) != AckOutcome::Discarded {
                    tcp_write_xmit::<A::Ops>(ca, sk, p, in_flight);
                }
            }
            "loss" => {
                if tcp_enter_recovery::<A::Ops>(ca, sk, p, false) {
                    Self::pacing_after_event(sysctl, sk);
                }
            }
            "rto" => {
                let n: u32 = ev.opt_int(1)?.unwrap_or(1);
                tcp_enter_loss::<A::Ops>(ca, sk, p);
                // The RTO timer retransmits the head (or `n` segments) at once.
                sk.packets_out = n;
                if n > 0 {
                    sk.lsndtime = sk.tcp_jiffies32;
                }
                sk.icsk_retransmits = sk.icsk_retransmits.wrapping_add(1);
                Self::pacing_after_event(sysctl, sk);
            }
            "undo" => {
                if tcp_try_undo::<A::Ops>(ca, sk, p) {
                    Self::pacing_after_event(sysctl, sk);
                }
            }
            "send" => {
                let n: u32 = ev.int(1)?;
                let init_cwnd = self.init.init_cwnd;
                tcp_slow_start_after_idle_check::<A::Ops>(ca, sk, p, sysctl, init_cwnd);
                let in_flight = sk.packets_out.saturating_add(n);
                tcp_write_xmit::<A::Ops>(ca, sk, p, in_flight);
            }
            other => return Err(Problem::UnknownEvent(other)),
        }
        Ok(())
    }

    /// The row: `set` rows print time 0; all zeros before `init`.
    fn write_row<W: Write>(&mut self, out: &mut W, row: Row<'_>) -> fmt::Result {
        let Row { idx, keyword, t_us } = row;
        let Some((sk, ca)) = self.flow.as_ref() else {
            zeros_after(out, idx, keyword, A::CELLS)?;
            return out.write_str("\n");
        };
        let t = if keyword == "set" { 0 } else { t_us };
        write!(out, "{idx},{keyword},{t}")?;
        A::write_state(out, sk, ca)?;
        out.write_str("\n")
    }
}
