//! CUBIC as a hook table: `net/ipv4/tcp_cubic.c`'s `struct tcp_congestion_ops` on the
//! kernel glue of [`crate::linux::tcp`], so that `TcpFlow<CubicOps>` (or any caller of
//! the glue functions) runs CUBIC with HyStart exactly as the kernel's socket does.
//!
//! The arithmetic is not repeated here: every hook calls the functions the packed
//! [`crate::linux::Cubic`] runs too ([`LinuxCubic`] for `bictcp_update`,
//! `cubictcp_recalc_ssthresh` and the idle shift, [`LinuxHystart`] for the HyStart
//! round and its two detectors, the glue's `tcp_slow_start`/`tcp_cong_avoid_ai`).
//! What this module adds is where the kernel calls each of them:
//!
//! | hook | kernel function | here |
//! |---|---|---|
//! | `init` | `cubictcp_init()` | [`cubictcp_init`] |
//! | `ssthresh` | `cubictcp_recalc_ssthresh()` | [`LinuxCubic::recalc_ssthresh`] |
//! | `cong_avoid` | `cubictcp_cong_avoid()` | [`cubictcp_cong_avoid`] |
//! | `set_state` | `cubictcp_state()` | [`cubictcp_state`] |
//! | `undo_cwnd` | `tcp_reno_undo_cwnd()` | [`tcp_reno_undo_cwnd`] |
//! | `cwnd_event` | `cubictcp_cwnd_event()` (`CA_EVENT_TX_START`) | [`LinuxCubic::on_transmit_start`] |
//! | `pkts_acked` | `cubictcp_acked()` with `hystart_update()` | [`cubictcp_acked`] |
//!
//! ```
//! use congestion::cubic::LinuxCubicParams;
//! use congestion::linux::cubic_ops::CubicOps;
//! use congestion::linux::tcp::{ReplayedRandom, TcpAck, TcpSysctl};
//! use congestion::linux::{TcpFlow, TcpSocketConfig};
//!
//! let params = LinuxCubicParams::default();
//! let sysctl = TcpSysctl::new();
//! let mut socket = TcpSocketConfig::new();
//! socket.initial_srtt_us = 20_000;
//! let mut rand = ReplayedRandom::<1>::new(); // CUBIC draws no random numbers
//! let mut flow = TcpFlow::<CubicOps>::new(&params, &socket, 0, &mut rand)?;
//! flow.transmit(&params, 0, 10, &mut rand); // the initial window leaves
//! // Two segments ACKed 20 ms later: slow start grows cwnd by two, and HyStart has
//! // taken the delay sample.
//! let ack = TcpAck { acked: 2, rtt_us: Some(20_000), ce_delta: 0, ece: false };
//! flow.ack(&params, &sysctl, 20_000, &ack, &mut rand);
//! assert_eq!(flow.socket().snd_cwnd, 12);
//! assert_eq!(flow.ca().cubic.delay_min, 20_000);
//! # Ok::<(), congestion::ConfigError>(())
//! ```
//!
//! [`crate::linux::Cubic`] is the same hooks on a hot/cold layout (the common ACK touches
//! one 64-byte line);
//! both replay the 35 traces of `tests/data/linux-cubic` byte for byte
//! (`tests/linux_traces.rs` through the packed flow, `tests/linux_cubic_on_glue.rs`
//! through these hooks).

use crate::cubic::{LinuxCubic, LinuxCubicParams};
use crate::hystart::{HystartExit, HystartInput, LinuxHystart, PacingStatus};
use crate::linux::CaState;
use crate::linux::tcp::{
    CaEvent, RandomSource, TcpCongestionOps, TcpSock, tcp_cong_avoid_ai, tcp_slow_start,
};

/// CUBIC's private per-flow state (`struct bictcp`, 60 bytes in the kernel), and which
/// HyStart detector last ended slow start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CubicCa {
    /// The CUBIC half of `struct bictcp`.
    pub cubic: LinuxCubic,
    /// The HyStart half of `struct bictcp`.
    pub hystart: LinuxHystart,
    /// Not a kernel field: the detector that set `found` (`None` since init or the
    /// last RTO), for observers and the traces' `hs_reason` column.
    pub hystart_exit: Option<HystartExit>,
}

// The kernel's ICSK_CA_PRIV_SIZE.
const _: () = assert!(core::mem::size_of::<CubicCa>() <= 104);

/// The hook table of `tcp_cubic.c` (`.name = "cubic"`), on [`LinuxCubicParams`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CubicOps;

/// `bictcp_hystart_reset()`: a HyStart round from now (`bictcp_clock_us`, the low 32
/// bits of `tcp_mstamp`) until `snd_nxt` is acknowledged.
// Linux net/ipv4/tcp_cubic.c bictcp_hystart_reset()
fn bictcp_hystart_reset(ca: &mut CubicCa, sk: &TcpSock) {
    // Truncation on purpose: the kernel's HyStart clock is u32 µs.
    ca.hystart.start_round(sk.tcp_mstamp as u32, sk.snd_nxt);
}

/// `bictcp_reset()`: the CUBIC half and `found` are cleared; the HyStart round fields
/// stay as they were.
// Linux net/ipv4/tcp_cubic.c bictcp_reset()
fn bictcp_reset(ca: &mut CubicCa) {
    ca.cubic.reset();
    ca.hystart.found = false;
    ca.hystart_exit = None;
}

/// `cubictcp_init()`: reset; with HyStart a round starts now, without it a configured
/// `initial_ssthresh` replaces the socket's.
// Linux net/ipv4/tcp_cubic.c cubictcp_init()
pub fn cubictcp_init(ca: &mut CubicCa, sk: &mut TcpSock, p: &LinuxCubicParams) {
    bictcp_reset(ca);
    let cfg = p.config();
    if cfg.hystart {
        bictcp_hystart_reset(ca, sk);
    }
    if !cfg.hystart && cfg.initial_ssthresh != 0 {
        sk.snd_ssthresh = cfg.initial_ssthresh;
    }
}

/// `cubictcp_cong_avoid()`: nothing unless cwnd-limited; slow start below ssthresh,
/// then `bictcp_update()` at `tcp_jiffies32` and additive increase by CUBIC's `cnt`.
// Linux net/ipv4/tcp_cubic.c cubictcp_cong_avoid()
pub fn cubictcp_cong_avoid(ca: &mut CubicCa, sk: &mut TcpSock, p: &LinuxCubicParams, acked: u32) {
    if !sk.tcp_is_cwnd_limited() {
        return;
    }
    let mut acked = acked;
    if sk.in_slow_start() {
        acked = tcp_slow_start(sk, acked);
        if acked == 0 {
            return;
        }
    }
    ca.cubic.update(p, sk.snd_cwnd, acked, sk.tcp_jiffies32);
    let cnt = ca.cubic.cnt;
    tcp_cong_avoid_ai(sk, cnt, acked);
}

/// `cubictcp_state()`: entering Loss (an RTO) forgets everything CUBIC learned, and a
/// new HyStart round starts.
// Linux net/ipv4/tcp_cubic.c cubictcp_state()
pub fn cubictcp_state(ca: &mut CubicCa, sk: &TcpSock, new_state: CaState) {
    if new_state == CaState::Loss {
        bictcp_reset(ca);
        bictcp_hystart_reset(ca, sk);
    }
}

/// `tcp_reno_undo_cwnd()`: the larger of cwnd and the cwnd before the reduction.
// Linux net/ipv4/tcp_cong.c tcp_reno_undo_cwnd(): max(cwnd, prior_cwnd)
pub const fn tcp_reno_undo_cwnd(sk: &TcpSock) -> u32 {
    if sk.snd_cwnd > sk.prior_cwnd {
        sk.snd_cwnd
    } else {
        sk.prior_cwnd
    }
}

/// `cubictcp_acked()`: a delay sample (`rtt_us` ≥ 0; 0 counts as 1 µs) outside the
/// first second of an epoch lowers `delay_min`, and in slow start feeds HyStart, whose
/// exit sets ssthresh to cwnd. HyStart reads `sk_pacing_rate` as the last event left it.
// Linux net/ipv4/tcp_cubic.c cubictcp_acked()
pub fn cubictcp_acked(ca: &mut CubicCa, sk: &mut TcpSock, p: &LinuxCubicParams, rtt_us: i32) {
    let Ok(rtt_us) = u32::try_from(rtt_us) else {
        return;
    };
    if ca.cubic.in_sample_blackout(sk.tcp_jiffies32) {
        return;
    }
    let delay = rtt_us.max(1);
    ca.cubic.on_delay_sample(delay);
    if ca.hystart.found || !sk.in_slow_start() || !p.config().hystart {
        return;
    }
    // Linux net/ipv4/tcp_cubic.c hystart_update()
    let input = HystartInput {
        // Truncation on purpose: bictcp_clock_us() is u32 µs.
        now_us: sk.tcp_mstamp as u32,
        delay_us: delay,
        delay_min_us: ca.cubic.delay_min,
        snd_una: sk.snd_una,
        snd_nxt: sk.snd_nxt,
        cwnd: sk.snd_cwnd,
        pacing_rate: sk.sk_pacing_rate,
        pacing_status: PacingStatus::from_code(sk.sk_pacing_status),
        gso_max_size: sk.sk_gso_max_size,
    };
    if let Some(exit) = ca.hystart.on_delay_sample(p, &input) {
        sk.snd_ssthresh = sk.snd_cwnd;
        ca.hystart_exit = Some(exit);
    }
}

impl TcpCongestionOps for CubicOps {
    type Ca = CubicCa;
    type Params = LinuxCubicParams;
    const NAME: &'static str = "cubic";

    fn init<R: RandomSource>(ca: &mut CubicCa, sk: &mut TcpSock, p: &LinuxCubicParams, _: &mut R) {
        cubictcp_init(ca, sk, p);
    }

    fn ssthresh(ca: &mut CubicCa, sk: &TcpSock, p: &LinuxCubicParams) -> u32 {
        ca.cubic.recalc_ssthresh(p, sk.snd_cwnd)
    }

    fn undo_cwnd(_: &mut CubicCa, sk: &TcpSock, _: &LinuxCubicParams) -> u32 {
        tcp_reno_undo_cwnd(sk)
    }

    fn cong_avoid(ca: &mut CubicCa, sk: &mut TcpSock, p: &LinuxCubicParams, _ack: u32, acked: u32) {
        cubictcp_cong_avoid(ca, sk, p, acked);
    }

    fn set_state(ca: &mut CubicCa, sk: &mut TcpSock, _: &LinuxCubicParams, new_state: CaState) {
        cubictcp_state(ca, sk, new_state);
    }

    // Linux net/ipv4/tcp_cubic.c cubictcp_cwnd_event(): only CA_EVENT_TX_START
    fn cwnd_event(ca: &mut CubicCa, sk: &mut TcpSock, _: &LinuxCubicParams, event: CaEvent) {
        if event == CaEvent::TxStart {
            ca.cubic.on_transmit_start(sk.tcp_jiffies32, sk.lsndtime);
        }
    }

    fn pkts_acked(
        ca: &mut CubicCa,
        sk: &mut TcpSock,
        p: &LinuxCubicParams,
        _acked: u32,
        rtt_us: i32,
        _in_flight: u32,
    ) {
        cubictcp_acked(ca, sk, p, rtt_us);
    }
}

#[cfg(test)]
mod tests;
