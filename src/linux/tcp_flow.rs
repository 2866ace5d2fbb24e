//! [`TcpFlow`]: a Linux-mode flow of any algorithm that fills [`TcpCongestionOps`].

use crate::error::ConfigError;
use crate::linux::CaState;
use crate::linux::state::TCP_INFINITE_SSTHRESH;
use crate::linux::tcp::{
    AckOutcome, GSO_LEGACY_MAX_SIZE, RandomSource, TcpAck, TcpCongestionOps, TcpSock, TcpSysctl,
    tcp_ack, tcp_enter_loss, tcp_enter_recovery, tcp_slow_start_after_idle_check,
    tcp_timeout_mark_lost, tcp_try_undo, tcp_write_xmit,
};
use core::fmt;

/// A socket's starting values: what the handshake and the route give it. A flow
/// validates them in [`TcpFlow::new`] (see [`TcpFlow`]'s example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TcpSocketConfig {
    /// The route's initial window (`TCP_INIT_CWND`, 10), segments; also the
    /// restart window after idle.
    pub init_cwnd: u32,
    /// The initial ssthresh (`TCP_INFINITE_SSTHRESH` unless a route metric sets one).
    pub init_ssthresh: u32,
    /// `snd_cwnd_clamp`, segments.
    pub cwnd_clamp: u32,
    /// `mss_cache`, bytes.
    pub mss: u32,
    /// The handshake's RTT sample, µs (0: none).
    pub initial_srtt_us: u32,
    /// The initial send sequence, segments.
    pub iss: u32,
    /// `sk_max_pacing_rate`, bytes per second.
    pub max_pacing_rate: u64,
    /// `icsk_rto`, jiffies (ms): read by the restart after idle.
    pub rto_ms: u32,
    /// Bytes of headers per packet (`tcp_mss_to_mtu`: 52 for IPv4 with timestamps).
    pub header_len: u32,
    /// `sk_pacing_status`: 0 none, 1 needed, 2 fq.
    pub pacing_status: u8,
}

impl TcpSocketConfig {
    /// The kernel's defaults: IW10, no ssthresh, no clamp, MSS 1448, RTO 200 ms.
    pub const fn new() -> Self {
        TcpSocketConfig {
            init_cwnd: 10,
            init_ssthresh: TCP_INFINITE_SSTHRESH,
            cwnd_clamp: u32::MAX,
            mss: 1448,
            initial_srtt_us: 0,
            iss: 0,
            max_pacing_rate: u64::MAX,
            rto_ms: 200,
            header_len: 52,
            pacing_status: 0,
        }
    }

    /// Refuses a zero initial window or one above the clamp, a zero MSS, and a pacing
    /// status other than 0, 1, 2.
    pub const fn validate(&self) -> Result<(), ConfigError> {
        if self.init_cwnd == 0 || self.init_cwnd > self.cwnd_clamp {
            return Err(ConfigError::InitialWindowOutOfRange);
        }
        if self.mss == 0 {
            return Err(ConfigError::ZeroMss);
        }
        if self.pacing_status > 2 {
            return Err(ConfigError::ParamOutOfRange {
                field: "pacing_status",
                min: 0,
                max: 2,
            });
        }
        Ok(())
    }
}

impl Default for TcpSocketConfig {
    fn default() -> Self {
        Self::new()
    }
}

/// A Linux-mode flow of any algorithm that fills [`TcpCongestionOps`]: the kernel's
/// socket fields ([`TcpSock`]) and the algorithm's private `Ca`, plain `Copy` data,
/// driven through the glue of [`crate::linux::tcp`] event by event, in segments.
///
/// [`Dctcp`](crate::linux::Dctcp) and [`Prague`](crate::linux::Prague) are this type
/// for DCTCP and TCP Prague. The calls are the kernel's events: an ACK, a transmit, a
/// fast-retransmit loss, an RTO, an undo. The module parameters (`&O::Params`) and the
/// host settings ([`TcpSysctl`]) are validated once and shared by every flow.
///
/// As in the kernel, `sk_pacing_rate` changes on ACKs (`tcp_cong_control`), not on a
/// loss, an RTO or an undo; algorithms with `cong_control` (Prague) set it themselves.
///
/// ```
/// use congestion::linux::dctcp::DctcpConfig;
/// use congestion::linux::tcp::{ReplayedRandom, TcpAck, TcpSysctl};
/// use congestion::linux::{CaState, Dctcp, TcpSocketConfig};
///
/// let params = DctcpConfig::new().validate()?;
/// let sysctl = TcpSysctl::new();
/// let mut socket = TcpSocketConfig::new();
/// socket.initial_srtt_us = 10_000;
/// let mut rand = ReplayedRandom::<1>::new(); // DCTCP draws no random numbers
/// let mut flow = Dctcp::new(&params, &socket, 0, &mut rand)?;
/// flow.transmit(&params, 0, 10, &mut rand); // the initial window leaves
/// // 2 segments ACKed after 10 ms, 1 of them CE-marked: DCTCP enters CWR.
/// let ack = TcpAck { acked: 2, rtt_us: Some(10_000), ce_delta: 1, ece: false };
/// flow.ack(&params, &sysctl, 10_000, &ack, &mut rand);
/// flow.transmit(&params, 10_000, 9, &mut rand);
/// assert_eq!(flow.socket().icsk_ca_state, CaState::Cwr);
/// // The ACK ends DCTCP's first round: alpha = 1024 - 1024/16 + (1 << 6)/2 = 992;
/// // then ssthresh = 10 - (10·992 >> 11) = 6.
/// assert_eq!(flow.ca().dctcp_alpha, 992);
/// assert_eq!(flow.socket().snd_ssthresh, 6);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
pub struct TcpFlow<O: TcpCongestionOps> {
    sk: TcpSock,
    ca: O::Ca,
    init_cwnd: u32,
}

impl<O: TcpCongestionOps> Clone for TcpFlow<O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O: TcpCongestionOps> Copy for TcpFlow<O> {}

impl<O: TcpCongestionOps> fmt::Debug for TcpFlow<O>
where
    O::Ca: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(O::NAME)
            .field("sk", &self.sk)
            .field("ca", &self.ca)
            .finish()
    }
}

impl<O: TcpCongestionOps> TcpFlow<O> {
    /// A connection established at `now_us` with `socket`'s values: the algorithm's
    /// `init` runs (with `rand` for algorithms that draw), nothing is in flight yet.
    pub fn new<R: RandomSource>(
        p: &O::Params,
        socket: &TcpSocketConfig,
        now_us: u64,
        rand: &mut R,
    ) -> Result<Self, ConfigError> {
        socket.validate()?;
        let mut sk = TcpSock::default();
        sk.set_clock(now_us);
        sk.snd_cwnd = socket.init_cwnd;
        sk.snd_ssthresh = socket.init_ssthresh;
        sk.snd_cwnd_clamp = socket.cwnd_clamp;
        sk.mss_cache = socket.mss;
        // tcp_rtt_estimator keeps srtt scaled by 8 (wrapping u32).
        sk.srtt_us = socket.initial_srtt_us.wrapping_shl(3);
        sk.snd_una = socket.iss;
        sk.snd_nxt = socket.iss;
        sk.cwnd_usage_seq = socket.iss;
        sk.lsndtime = sk.tcp_jiffies32;
        sk.sk_max_pacing_rate = socket.max_pacing_rate;
        sk.icsk_rto = socket.rto_ms;
        sk.header_len = socket.header_len;
        sk.sk_pacing_status = socket.pacing_status;
        sk.sk_gso_max_size = GSO_LEGACY_MAX_SIZE;
        sk.icsk_ca_state = CaState::Open;
        let mut ca = O::Ca::default();
        O::init(&mut ca, &mut sk, p, rand);
        Ok(TcpFlow {
            sk,
            ca,
            init_cwnd: socket.init_cwnd,
        })
    }

    /// The socket fields.
    pub const fn socket(&self) -> &TcpSock {
        &self.sk
    }

    /// The algorithm's private state.
    pub const fn ca(&self) -> &O::Ca {
        &self.ca
    }

    /// Both, for a caller that models more of the socket (a trace replay's
    /// conventions); the glue's invariants are the caller's to keep.
    pub fn parts_mut(&mut self) -> (&mut TcpSock, &mut O::Ca) {
        (&mut self.sk, &mut self.ca)
    }

    /// The sender has transmitted until `in_flight` segments are outstanding
    /// ([`tcp_write_xmit`]). Times may go backwards; every clock reader copes.
    pub fn transmit<R: RandomSource>(
        &mut self,
        p: &O::Params,
        now_us: u64,
        in_flight: u32,
        rand: &mut R,
    ) {
        self.sk.set_clock(now_us);
        tcp_write_xmit::<O, R>(&mut self.ca, &mut self.sk, p, in_flight, rand);
    }

    /// The application queues `n` new segments with nothing in flight being
    /// acknowledged: first the restart after idle (for algorithms without
    /// `cong_control`), then the transmit (saturating at `u32::MAX` in flight).
    pub fn send<R: RandomSource>(
        &mut self,
        p: &O::Params,
        sysctl: &TcpSysctl,
        now_us: u64,
        n: u32,
        rand: &mut R,
    ) {
        self.sk.set_clock(now_us);
        let (ca, sk) = (&mut self.ca, &mut self.sk);
        tcp_slow_start_after_idle_check::<O, R>(ca, sk, p, sysctl, self.init_cwnd, rand);
        let in_flight = sk.packets_out.saturating_add(n);
        tcp_write_xmit::<O, R>(ca, sk, p, in_flight, rand);
    }

    /// An ACK ([`tcp_ack`]); call [`transmit`](Self::transmit) afterwards with what is
    /// in flight once the stack has sent in response (not after a discarded ACK).
    pub fn ack<R: RandomSource>(
        &mut self,
        p: &O::Params,
        sysctl: &TcpSysctl,
        now_us: u64,
        ack: &TcpAck,
        rand: &mut R,
    ) -> AckOutcome {
        self.sk.set_clock(now_us);
        tcp_ack::<O, R>(&mut self.ca, &mut self.sk, p, sysctl, ack, rand)
    }

    /// Fast retransmit: a loss detected by duplicate ACKs or RACK
    /// ([`tcp_enter_recovery`]). Ignored in Recovery and Loss (returns `false`).
    pub fn loss<R: RandomSource>(&mut self, p: &O::Params, now_us: u64, rand: &mut R) -> bool {
        self.sk.set_clock(now_us);
        tcp_enter_recovery::<O, R>(&mut self.ca, &mut self.sk, p, false, rand)
    }

    /// A retransmission timeout ([`tcp_enter_loss`]), after which `retransmitted`
    /// segments (usually 1, the head) are sent again at once.
    pub fn rto<R: RandomSource>(
        &mut self,
        p: &O::Params,
        now_us: u64,
        retransmitted: u32,
        rand: &mut R,
    ) {
        self.sk.set_clock(now_us);
        tcp_timeout_mark_lost(&mut self.sk);
        tcp_enter_loss::<O, R>(&mut self.ca, &mut self.sk, p, rand);
        self.sk.packets_out = retransmitted;
        if retransmitted > 0 {
            self.sk.lsndtime = self.sk.tcp_jiffies32;
        }
        // Linux net/ipv4/tcp_timer.c tcp_retransmit_timer(): icsk_retransmits++ (u8)
        self.sk.icsk_retransmits = self.sk.icsk_retransmits.wrapping_add(1);
    }

    /// The last reduction proved spurious ([`tcp_try_undo`]); `false` if none may be
    /// undone.
    pub fn undo<R: RandomSource>(&mut self, p: &O::Params, now_us: u64, rand: &mut R) -> bool {
        self.sk.set_clock(now_us);
        tcp_try_undo::<O, R>(&mut self.ca, &mut self.sk, p, rand)
    }
}
