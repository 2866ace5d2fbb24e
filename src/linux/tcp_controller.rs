//! [`TcpController`]: a [`TcpFlow`] (DCTCP, Prague, any algorithm on the kernel glue
//! without a delivery-rate sampler) behind the crate's one trait,
//! [`CongestionController`], in segments.

use core::borrow::Borrow;
use core::fmt;

use crate::controller::{
    AckEvent, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, WindowUnit,
};
use crate::linux::bbr::trait_board::{rtt_us, segments};
use crate::linux::tcp::{RandomSource, TcpAck, TcpCongestionOps, TcpSysctl, after};
use crate::linux::{CaState, TCP_INFINITE_SSTHRESH, TcpFlow};
use crate::pacing::{Rate, default_send_quantum_bytes};
use crate::time::Instant;

/// A [`TcpFlow`] driven through [`CongestionController`], in segments.
///
/// # Mapping of the trait's calls
///
/// - [`on_sent`](CongestionController::on_sent): segments above `packets_out` are new
///   ([`TcpFlow::send`]: the restart after idle, then the transmit); a lower or equal
///   count is taken as it is ([`TcpFlow::transmit`]). `snd_nxt` follows
///   `largest_sent + 1`.
/// - [`on_ack`](CongestionController::on_ack): [`TcpFlow::ack`] with `acked` (at most
///   `packets_out`), the RTT sample and [`AckEvent::ce_delta`] as AccECN's CE delta
///   (counted before `in_ack_event`, as the kernel does). `snd_una` moves to
///   `largest_acked + 1` when ahead of the count, so the stack's numbering ends
///   recovery (RFC 9002 §7.3.2, the kernel's `high_seq`).
/// - [`on_ecn`](CongestionController::on_ecn), for a classic stack that reports CE
///   apart from its ACKs: an ACK of nothing new carrying the CE rise and ECN-Echo.
/// - [`on_loss`](CongestionController::on_loss): [`TcpFlow::loss`] (fast retransmit;
///   nothing new in Recovery or Loss), then the lost segments leave `packets_out`
///   (the trait counts them out at once). Persistent congestion is a timeout.
/// - [`on_retransmission_timeout`](CongestionController::on_retransmission_timeout):
///   [`TcpFlow::rto`] with the head retransmitted at once (in flight 1 afterwards;
///   reporting it with `on_sent` at 1 adds nothing).
/// - [`on_spurious_congestion`](CongestionController::on_spurious_congestion):
///   [`TcpFlow::undo`].
///
/// The per-packet calls are the trait's defaults (no snapshot). The controller holds
/// the caller's [`RandomSource`] `R` (DCTCP and Prague draw nothing today), the
/// parameters through `P` (owned, `&'static`, `Arc`, ...) and the host's [`TcpSysctl`].
/// ```
/// use congestion::linux::dctcp::DctcpConfig;
/// use congestion::linux::tcp::{ReplayedRandom, TcpSysctl};
/// use congestion::linux::{DctcpController, TcpSocketConfig};
/// use congestion::{AckEvent, CongestionController, Duration, Instant, SentEvent};
///
/// let params = DctcpConfig::new().validate()?;
/// let mut socket = TcpSocketConfig::new();
/// socket.initial_srtt_us = 10_000;
/// let rand = ReplayedRandom::<1>::new(); // DCTCP draws nothing
/// let mut flow =
///     DctcpController::new(params, TcpSysctl::new(), &socket, Instant::ZERO, rand)?;
/// flow.on_sent(Instant::ZERO, &SentEvent::new(10, 9)); // the initial window
/// // 2 segments ACKed after 10 ms, 1 of them CE-marked, on the same ACK: CWR, and
/// // alpha = 1024 - 1024/16 + (1 << 6)/2 = 992, ssthresh = 10 - (10 · 992 >> 11) = 6.
/// let ack = AckEvent::new(2, 1, Some(Duration::from_millis(10))).with_ce(1);
/// flow.on_ack(Instant::from_micros(10_000), &ack);
/// assert_eq!((flow.flow().ca().dctcp_alpha, flow.ssthresh()), (992, Some(6)));
/// # Ok::<(), congestion::ConfigError>(())
/// ```
pub struct TcpController<O: TcpCongestionOps, R, P = <O as TcpCongestionOps>::Params> {
    flow: TcpFlow<O>,
    sysctl: TcpSysctl,
    rand: R,
    params: P,
}

/// DCTCP ([`linux::Dctcp`](crate::linux::Dctcp)) through the trait.
pub type DctcpController<R, P = crate::linux::dctcp::DctcpParams> =
    TcpController<crate::linux::dctcp::DctcpOps, R, P>;

/// TCP Prague ([`linux::Prague`](crate::linux::Prague)) through the trait.
pub type PragueController<R, P = crate::linux::prague::PragueParams> =
    TcpController<crate::linux::prague::PragueOps, R, P>;

// The flow (socket and private state), the sysctls, a random fn and owned parameters.
const _: () = assert!(core::mem::size_of::<DctcpController<crate::linux::RandomFn>>() <= 288);
const _: () = assert!(core::mem::size_of::<PragueController<crate::linux::RandomFn>>() <= 384);

impl<O: TcpCongestionOps, R: Clone, P: Clone> Clone for TcpController<O, R, P> {
    fn clone(&self) -> Self {
        TcpController {
            flow: self.flow,
            sysctl: self.sysctl,
            rand: self.rand.clone(),
            params: self.params.clone(),
        }
    }
}

impl<O: TcpCongestionOps, R: Copy, P: Copy> Copy for TcpController<O, R, P> {}

impl<O: TcpCongestionOps, R: PartialEq, P: PartialEq> PartialEq for TcpController<O, R, P>
where
    O::Ca: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.flow.socket() == other.flow.socket()
            && self.flow.ca() == other.flow.ca()
            && self.sysctl == other.sysctl
            && self.rand == other.rand
            && self.params == other.params
    }
}

impl<O: TcpCongestionOps, R: Eq, P: Eq> Eq for TcpController<O, R, P> where O::Ca: Eq {}

impl<O: TcpCongestionOps, R: fmt::Debug, P> fmt::Debug for TcpController<O, R, P>
where
    O::Ca: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TcpController")
            .field("flow", &self.flow)
            .field("sysctl", &self.sysctl)
            .field("rand", &self.rand)
            .finish()
    }
}

#[cfg(feature = "defmt")]
impl<O: TcpCongestionOps, R, P> defmt::Format for TcpController<O, R, P> {
    fn format(&self, f: defmt::Formatter<'_>) {
        let sk = self.flow.socket();
        defmt::write!(
            f,
            "TcpController {{ {=str} cwnd {=u32} packets_out {=u32} }}",
            O::NAME,
            sk.snd_cwnd,
            sk.packets_out
        )
    }
}

impl<O: TcpCongestionOps, R: RandomSource, P: Borrow<O::Params>> TcpController<O, R, P> {
    /// A connection established at `now` with `socket`'s values ([`TcpFlow::new`]),
    /// under `sysctl`, drawing from `rand`.
    pub fn new(
        params: P,
        sysctl: TcpSysctl,
        socket: &crate::linux::TcpSocketConfig,
        now: Instant,
        mut rand: R,
    ) -> Result<Self, crate::ConfigError> {
        let flow = TcpFlow::new(params.borrow(), socket, now.as_micros(), &mut rand)?;
        Ok(TcpController {
            flow,
            sysctl,
            rand,
            params,
        })
    }

    /// The flow (its socket fields and the algorithm's state).
    pub const fn flow(&self) -> &TcpFlow<O> {
        &self.flow
    }

    /// The random source.
    pub const fn random_source(&self) -> &R {
        &self.rand
    }

    /// The parameters.
    pub fn params(&self) -> &O::Params {
        self.params.borrow()
    }

    /// The host settings.
    pub const fn sysctl(&self) -> &TcpSysctl {
        &self.sysctl
    }

    /// A timeout, the head retransmitted at once if anything was in flight.
    fn timeout(&mut self, now: Instant) {
        let head = u32::from(self.flow.socket().packets_out > 0);
        let p = self.params.borrow();
        self.flow.rto(p, now.as_micros(), head, &mut self.rand);
    }
}

impl<O: TcpCongestionOps, R: RandomSource, P: Borrow<O::Params>> CongestionController
    for TcpController<O, R, P>
{
    fn unit(&self) -> WindowUnit {
        WindowUnit::Segments
    }

    /// `snd_nxt` moves to `largest_sent + 1` first, as the kernel advances it before
    /// `tcp_cwnd_validate()` records the send.
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        let nxt = (sent.largest_sent as u32).wrapping_add(1);
        let (sk, _) = self.flow.parts_mut();
        if after(nxt, sk.snd_nxt) {
            sk.snd_nxt = nxt;
        }
        let after_send = segments(sent.in_flight_after);
        let out = sk.packets_out;
        let p = self.params.borrow();
        let now_us = now.as_micros();
        if after_send > out {
            let n = after_send - out;
            self.flow.send(p, &self.sysctl, now_us, n, &mut self.rand);
        } else {
            self.flow.transmit(p, now_us, after_send, &mut self.rand);
        }
    }

    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        let (sk, _) = self.flow.parts_mut();
        let acked = segments(ack.acked).min(sk.packets_out);
        if let Some(largest) = ack.largest_acked {
            // The stack's numbering moves snd_una ahead of the count (lost packets
            // never acknowledged), never past snd_nxt nor back.
            let una = (largest as u32).wrapping_add(1);
            let by_count = sk.snd_una.wrapping_add(acked);
            if after(una, by_count) && !after(una, sk.snd_nxt) {
                sk.snd_una = una.wrapping_sub(acked);
            }
        }
        let tcp_ack = TcpAck {
            acked,
            rtt_us: rtt_us(ack),
            ce_delta: segments(ack.ce_delta),
            ece: false,
        };
        let p = self.params.borrow();
        self.flow
            .ack(p, &self.sysctl, now.as_micros(), &tcp_ack, &mut self.rand);
    }

    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        if loss.persistent_congestion {
            self.timeout(now);
            return;
        }
        let p = self.params.borrow();
        self.flow.loss(p, now.as_micros(), &mut self.rand);
        let (sk, _) = self.flow.parts_mut();
        sk.packets_out = sk.packets_out.saturating_sub(segments(loss.lost));
    }

    /// An ACK of nothing new carrying the CE rise and ECN-Echo.
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        if ecn.ce_increase == 0 {
            return;
        }
        let tcp_ack = TcpAck {
            acked: 0,
            rtt_us: None,
            ce_delta: segments(ecn.ce_increase),
            ece: true,
        };
        let p = self.params.borrow();
        self.flow
            .ack(p, &self.sysctl, now.as_micros(), &tcp_ack, &mut self.rand);
    }

    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.timeout(now);
    }

    /// The amount leaves `packets_out`; not a congestion signal.
    fn on_discarded(&mut self, _now: Instant, amount: u64) {
        let (sk, _) = self.flow.parts_mut();
        sk.packets_out = sk.packets_out.saturating_sub(segments(amount));
    }

    fn on_spurious_congestion(&mut self, now: Instant) {
        let p = self.params.borrow();
        self.flow.undo(p, now.as_micros(), &mut self.rand);
    }

    /// Nothing: the restart after idle runs on the next send of new data.
    fn on_transmit_start(&mut self, _now: Instant) {}

    fn cwnd(&self) -> u64 {
        u64::from(self.flow.socket().snd_cwnd)
    }

    /// `None` while `snd_ssthresh` is infinite.
    fn ssthresh(&self) -> Option<u64> {
        let s = self.flow.socket().snd_ssthresh;
        (s < TCP_INFINITE_SSTHRESH).then_some(u64::from(s))
    }

    /// Recovery and CWR as [`Phase::Recovery`]; Loss (after a timeout) and a window
    /// below ssthresh as slow start; otherwise congestion avoidance.
    fn phase(&self) -> Phase {
        let sk = self.flow.socket();
        match sk.icsk_ca_state {
            CaState::Recovery | CaState::Cwr => Phase::Recovery,
            CaState::Loss => Phase::SlowStart,
            _ if sk.snd_cwnd < sk.snd_ssthresh => Phase::SlowStart,
            _ => Phase::CongestionAvoidance,
        }
    }

    /// `packets_out` (lost segments left it when reported).
    fn in_flight(&self) -> u64 {
        u64::from(self.flow.socket().packets_out)
    }

    /// `sk_pacing_rate`.
    fn pacing_rate(&self) -> Rate {
        Rate::from_bytes_per_second(self.flow.socket().sk_pacing_rate)
    }

    fn mss_bytes(&self) -> u64 {
        u64::from(self.flow.socket().mss_cache)
    }

    /// `tcp_tso_autosize` on `sk_pacing_rate` and `tcp_min_rtt()`, host defaults.
    fn send_quantum_bytes(&self) -> u64 {
        let sk = self.flow.socket();
        default_send_quantum_bytes(self.pacing_rate(), sk.tcp_min_rtt(), self.mss_bytes())
    }

    /// The algorithm's `min_tso_segs` hook, if it has one.
    fn min_tso_segs(&self) -> Option<u32> {
        O::min_tso_segs(self.flow.ca(), self.flow.socket(), self.params.borrow())
    }
}
