//! TCP Prague on the project's congestion-avoidance stream (`benches/common`), on the
//! same stream as DCTCP (perf/src/dctcp.rs): every [`CE_EVERY_ACKS`]th ACK reports
//! both its segments CE-marked (AccECN's CE delta), so alpha tracks a 2 % marking rate.
//! Two wrappers, as for DCTCP:
//!
//! - [`OursPragueHooks`]: the hook alone on a `TcpSock` and `PragueCa`, as
//!   `tcp_cong_control()` calls it for a CA with its own `cong_control`
//!   (`prague_cong_control` with the ACK's rate sample: acked segments and their CE
//!   delta), the flow window-limited, the socket's `delivered`, `delivered_ce`,
//!   `snd_una`, `snd_nxt` and clock kept as `tcp_ack()` keeps them. The CWR reduction a
//!   CE mark causes is the socket glue's `set_state` call, not this hook's, so neither
//!   side takes it; a loss is `prague_state(Recovery)` then `Open`.
//! - [`OursPrague`]: the whole `linux::Prague` flow (`TcpFlow`: `tcp_ack`, the CA state
//!   machine with CWR on CE, Recovery on loss, the hooks), as a TCP stack drives it.

use crate::common::{PACKET_BYTES, START_US, StreamController};
use crate::dctcp::CE_EVERY_ACKS;
use congestion::linux::CaState;
use congestion::linux::prague::{
    PragueCa, PragueConfig, PragueParams, prague_cong_control, prague_init, prague_state,
};
use congestion::linux::tcp::{RateSample, TcpAck, TcpSock, TcpSysctl};
use congestion::linux::{Prague, TCP_INFINITE_SSTHRESH, TcpSocketConfig};

/// A `RandomSource` Prague never reads.
#[derive(Clone, Copy, Default)]
struct NoDraws;

impl congestion::linux::tcp::RandomSource for NoDraws {
    fn below(&mut self, _ceil: u32) -> u32 {
        0
    }
}

/// Kernel defaults.
fn params() -> PragueParams {
    PragueConfig::new().validate().expect("kernel defaults")
}

/// Prague's `cong_control` hook alone, as the kernel harness calls it.
#[derive(Clone)]
pub struct OursPragueHooks {
    p: PragueParams,
    sk: TcpSock,
    ca: PragueCa,
    /// The rate sample the stack fills per ACK (`tcp_rate_gen`); only the two fields
    /// Prague reads change, as in the C harness.
    rs: RateSample,
    in_flight: u32,
    acks: u32,
}

impl OursPragueHooks {
    /// Kernel defaults, MSS 1200, IW10, window-limited, a 25 ms smoothed RTT; slow
    /// start until the stream's warm-up loss, as for DCTCP.
    pub fn new() -> Self {
        let p = params();
        let mut sk = TcpSock {
            snd_cwnd: 10,
            snd_ssthresh: TCP_INFINITE_SSTHRESH,
            snd_cwnd_clamp: u32::MAX,
            is_cwnd_limited: true,
            ..TcpSock::default()
        };
        sk.mss_cache = PACKET_BYTES;
        // IPv4 with timestamps (MSS 1200, MTU 1252), no pacing cap, as a socket has.
        sk.header_len = 52;
        sk.sk_max_pacing_rate = u64::MAX;
        sk.srtt_us = 25_000 << 3;
        sk.set_clock(START_US);
        let mut ca = PragueCa::default();
        prague_init(&mut ca, &mut sk, &p);
        OursPragueHooks {
            p,
            sk,
            ca,
            rs: RateSample::default(),
            in_flight: 0,
            acks: 0,
        }
    }
}

impl Default for OursPragueHooks {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursPragueHooks {
    fn name(&self) -> &'static str {
        "congestion Prague hooks"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, _rtt_us: u64) {
        self.in_flight -= packets;
        self.acks += 1;
        let sk = &mut self.sk;
        sk.set_clock(now_us);
        sk.snd_una = sk.snd_una.wrapping_add(packets);
        sk.delivered = sk.delivered.wrapping_add(packets);
        let ce = if self.acks.is_multiple_of(CE_EVERY_ACKS) {
            packets
        } else {
            0
        };
        sk.delivered_ce = sk.delivered_ce.wrapping_add(ce);
        self.rs.acked_sacked = packets;
        self.rs.ece_delta = ce;
        prague_cong_control(&mut self.ca, sk, &self.p, &self.rs);
    }

    #[inline(always)]
    fn send(&mut self, _now_us: u64, packets: u32) {
        self.in_flight += packets;
        self.sk.snd_nxt = self.sk.snd_nxt.wrapping_add(packets);
    }

    fn loss(&mut self, _now_us: u64) {
        self.in_flight -= 1;
        prague_state(&mut self.ca, &self.sk, &self.p, CaState::Recovery);
        self.sk.icsk_ca_state = CaState::Recovery;
        prague_state(&mut self.ca, &self.sk, &self.p, CaState::Open);
        self.sk.icsk_ca_state = CaState::Open;
    }

    fn rto(&mut self, _now_us: u64) {
        unimplemented!("the Prague streams have no timeout")
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.sk.snd_cwnd
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }
}

/// The whole `linux::Prague` flow, as a TCP stack drives it.
#[derive(Clone)]
pub struct OursPrague {
    p: PragueParams,
    sysctl: TcpSysctl,
    flow: Prague,
    in_flight: u32,
    acks: u32,
}

impl OursPrague {
    /// Kernel defaults, MSS 1200, IW10.
    pub fn new() -> Self {
        let p = params();
        let mut socket = TcpSocketConfig::new();
        socket.mss = PACKET_BYTES;
        let flow = Prague::new(&p, &socket, START_US, &mut NoDraws).expect("kernel defaults");
        OursPrague {
            p,
            sysctl: TcpSysctl::new(),
            flow,
            in_flight: 0,
            acks: 0,
        }
    }
}

impl Default for OursPrague {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursPrague {
    fn name(&self) -> &'static str {
        "congestion linux::Prague"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        self.in_flight -= packets;
        self.acks += 1;
        let ce = if self.acks.is_multiple_of(CE_EVERY_ACKS) {
            packets
        } else {
            0
        };
        let ack = TcpAck {
            acked: packets,
            rtt_us: Some(rtt_us as u32),
            ce_delta: ce,
            ece: false,
        };
        self.flow
            .ack(&self.p, &self.sysctl, now_us, &ack, &mut NoDraws);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        self.in_flight += packets;
        self.flow
            .transmit(&self.p, now_us, self.in_flight, &mut NoDraws);
    }

    fn loss(&mut self, now_us: u64) {
        self.in_flight -= 1;
        self.flow.loss(&self.p, now_us, &mut NoDraws);
    }

    fn rto(&mut self, _now_us: u64) {
        unimplemented!("the Prague streams have no timeout")
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.flow.socket().snd_cwnd
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }
}

/// Prague's alpha now, × 2^24 (checks).
pub fn alpha_of(h: &OursPragueHooks) -> u64 {
    h.ca.upscaled_alpha >> 4
}
