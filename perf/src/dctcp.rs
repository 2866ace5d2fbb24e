//! DCTCP on the project's congestion-avoidance stream (`benches/common`), beside the
//! kernel's `tcp_dctcp.c` hooks (`scripts/kernel-dctcp.sh`, perf/kernel/dctcp_stream.c).
//!
//! Every [`CE_EVERY_ACKS`]th ACK reports both its segments CE-marked (AccECN's CE
//! delta), so DCTCP's alpha tracks a 2 % marking rate (about 20/1024) instead of
//! decaying to 0. Two wrappers:
//!
//! - [`OursDctcpHooks`]: the hooks alone on a `TcpSock` and `DctcpCa`, as `tcp_ack()`
//!   calls them (`in_ack_event`, then `cong_avoid` = `tcp_reno_cong_avoid`), the flow
//!   window-limited; a loss is `ssthresh` and cwnd set to it. What the kernel harness
//!   runs, call for call. The CWR reduction a CE mark causes is the socket glue's, not a
//!   hook's, so neither side takes it.
//! - [`OursDctcp`]: the whole `linux::Dctcp` flow (`TcpFlow`: `tcp_ack`, the CA state
//!   machine with CWR and PRR on CE, Recovery on loss, `tcp_cong_control`, the pacing
//!   rate), as a TCP stack drives it.

use crate::common::{START_US, StreamController};
use congestion::linux::dctcp::{DctcpCa, DctcpOps, DctcpParams};
use congestion::linux::tcp::{TcpAck, TcpCongestionOps, TcpSock, TcpSysctl, ack_flags};
use congestion::linux::{Dctcp, TCP_INFINITE_SSTHRESH, TcpSocketConfig};

/// One ACK in this many reports its 2 segments CE-marked.
pub const CE_EVERY_ACKS: u32 = 50;

/// A `RandomSource` DCTCP never reads.
#[derive(Clone, Copy, Default)]
struct NoDraws;

impl congestion::linux::tcp::RandomSource for NoDraws {
    fn below(&mut self, _ceil: u32) -> u32 {
        0
    }
}

/// The DCTCP hooks alone, as the kernel harness calls them.
#[derive(Clone)]
pub struct OursDctcpHooks {
    p: DctcpParams,
    sk: TcpSock,
    ca: DctcpCa,
    in_flight: u32,
    acks: u32,
}

impl OursDctcpHooks {
    /// Kernel defaults, IW10, window-limited.
    pub fn new() -> Self {
        let p = DctcpParams::new();
        let mut sk = TcpSock {
            snd_cwnd: 10,
            snd_ssthresh: TCP_INFINITE_SSTHRESH,
            snd_cwnd_clamp: u32::MAX,
            is_cwnd_limited: true,
            ..TcpSock::default()
        };
        sk.set_clock(START_US);
        let mut ca = DctcpCa::default();
        DctcpOps::init(&mut ca, &mut sk, &p, &mut NoDraws);
        OursDctcpHooks {
            p,
            sk,
            ca,
            in_flight: 0,
            acks: 0,
        }
    }
}

impl Default for OursDctcpHooks {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursDctcpHooks {
    fn name(&self) -> &'static str {
        "congestion DCTCP hooks"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, _rtt_us: u64) {
        self.in_flight -= packets;
        self.acks += 1;
        let sk = &mut self.sk;
        sk.set_clock(now_us);
        sk.snd_una = sk.snd_una.wrapping_add(packets);
        sk.delivered = sk.delivered.wrapping_add(packets);
        if self.acks.is_multiple_of(CE_EVERY_ACKS) {
            sk.delivered_ce = sk.delivered_ce.wrapping_add(packets);
        }
        let flags = ack_flags::DATA_ACKED;
        DctcpOps::in_ack_event(&mut self.ca, sk, &self.p, flags);
        let ack = sk.snd_una;
        DctcpOps::cong_avoid(&mut self.ca, sk, &self.p, ack, packets);
    }

    #[inline(always)]
    fn send(&mut self, _now_us: u64, packets: u32) {
        self.in_flight += packets;
        self.sk.snd_nxt = self.sk.snd_nxt.wrapping_add(packets);
    }

    fn loss(&mut self, _now_us: u64) {
        self.in_flight -= 1;
        let ssthresh = DctcpOps::ssthresh(&mut self.ca, &self.sk, &self.p);
        self.sk.snd_ssthresh = ssthresh;
        self.sk.snd_cwnd = ssthresh;
        self.sk.snd_cwnd_cnt = 0;
    }

    fn rto(&mut self, _now_us: u64) {
        unimplemented!("the DCTCP streams have no timeout")
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

/// The whole `linux::Dctcp` flow, as a TCP stack drives it.
#[derive(Clone)]
pub struct OursDctcp {
    p: DctcpParams,
    sysctl: TcpSysctl,
    flow: Dctcp,
    in_flight: u32,
    acks: u32,
}

impl OursDctcp {
    /// Kernel defaults, MSS 1200, IW10.
    pub fn new() -> Self {
        let p = DctcpParams::new();
        let mut socket = TcpSocketConfig::new();
        socket.mss = crate::common::PACKET_BYTES;
        let flow = Dctcp::new(&p, &socket, START_US, &mut NoDraws).expect("kernel defaults");
        OursDctcp {
            p,
            sysctl: TcpSysctl::new(),
            flow,
            in_flight: 0,
            acks: 0,
        }
    }
}

impl Default for OursDctcp {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursDctcp {
    fn name(&self) -> &'static str {
        "congestion linux::Dctcp"
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
        unimplemented!("the DCTCP streams have no timeout")
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

/// DCTCP's alpha now (checks).
pub fn alpha_of(h: &OursDctcpHooks) -> u32 {
    h.ca.dctcp_alpha
}
