//! Everything a run depends on. A run is a pure function of one [`SimConfig`].

/// Which congestion controller decides cwnd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcKind {
    /// Linux-mode CUBIC (`congestion::linux::LinuxFlow`), in segments.
    Linux,
    /// RFC 9438 CUBIC in bytes (needs the library's RFC mode).
    Rfc9438,
}

/// How slow start ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlowStart {
    /// Only a loss (or ssthresh) ends slow start.
    Off,
    /// Linux HyStart (ACK train + delay increase).
    Hystart,
    /// RFC 9406 HyStart++ (needs the library's RFC mode).
    HystartPp,
}

/// The TSQ limit on bytes a flow may have in the host queues (qdisc + NIC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TsqMode {
    /// Current Linux: `max(2 truesize, pacing_rate >> 10)`, capped at
    /// `tcp_limit_output_bytes` (4 MiB) for unpaced flows.
    Auto,
    /// A fixed `tcp_limit_output_bytes` as in the 2012 patch (seed 002); TSO bursts are
    /// capped at half of it.
    Fixed(u64),
    /// No TSQ (kernels before 3.6).
    Off,
}

/// How many segments one TSO/GSO burst carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TsoMode {
    /// Linux `tcp_tso_autosize`: about 1 ms of the pacing rate, at most 64 KiB.
    Auto,
    /// One segment per skb.
    Off,
    /// A fixed number of segments per burst (kernels before 3.12 filled 64 KiB).
    Segs(u32),
}

/// How the socket buffers, and so the usable window, are set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowMode {
    /// Linux autotuning up to `max_bytes` (`tcp_rmem[2]`/`tcp_wmem[2]`).
    Auto {
        /// Largest socket buffer, bytes.
        max_bytes: u64,
    },
    /// `setsockopt(SO_SNDBUF/SO_RCVBUF)` of this many bytes, as nuttcp `-w` (Linux
    /// doubles the value).
    Fixed(u64),
}

pub use crate::app::AppModel;

/// How much the application sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    /// Exactly this many bytes (nuttcp `-n`).
    Bytes(u64),
    /// Bulk for this long, in ns (nuttcp `-T`).
    TimeNs(u64),
}

/// One simulated transfer over one path.
#[derive(Clone, Debug, PartialEq)]
pub struct SimConfig {
    /// Bottleneck rate, bit/s.
    pub rate_bps: u64,
    /// Sender NIC rate, bit/s.
    pub nic_rate_bps: u64,
    /// Base round-trip time (propagation, both directions), ns.
    pub rtt_ns: u64,
    /// IP MTU, bytes.
    pub mtu: u32,
    /// Bottleneck drop-tail buffer, bytes.
    pub buffer_bytes: u64,
    /// How much to send.
    pub amount: Amount,
    /// How the application writes it: bulk, rate-limited or on/off.
    pub app: AppModel,
    /// Socket buffers.
    pub window: WindowMode,
    /// Controller.
    pub cc: CcKind,
    /// Slow-start exit.
    pub slow_start: SlowStart,
    /// Whether TCP paces its packets (EDT, `SK_PACING_NEEDED`).
    pub pacing: bool,
    /// TSQ limit.
    pub tsq: TsqMode,
    /// TSO burst size.
    pub tso: TsoMode,
    /// Delay from the NIC finishing a burst to its TX completion, ns.
    pub tx_completion_ns: u64,
    /// The qdisc's limit in skbs (`txqueuelen`).
    pub txqueuelen: u32,
    /// The receiver ACKs every this many full segments.
    pub ack_ratio: u32,
    /// The receiver's delayed-ACK timeout, ns.
    pub delack_ns: u64,
    /// Random loss probability at the bottleneck.
    pub loss: f64,
    /// Largest extra one-way delay, ns (uniform; packets are never reordered).
    pub jitter_ns: u64,
    /// PRNG seed.
    pub seed: u64,
    /// Report interval, ns; `None`: only the summary.
    pub interval_ns: Option<u64>,
}

/// Linux sizes a socket buffer's overhead this way in 2011 kernels: the usable window is
/// `buffer - buffer >> tcp_adv_win_scale`, with `tcp_adv_win_scale = 2` (3/4).
pub const ADV_WIN_SCALE: u32 = 2;

/// Bytes of IP + TCP header with timestamps: MSS = MTU - 52 (1448 for 1500).
pub const HEADER_BYTES: u32 = 52;

/// Ethernet bytes on the wire beyond the IP packet: header 14 + FCS 4 + preamble 8 +
/// inter-frame gap 12.
pub const ETHERNET_OVERHEAD_BYTES: u32 = 38;

/// Buffer overhead Linux charges per skb on top of its payload (`truesize`), roughly
/// `sizeof(struct sk_buff)` + `skb_shared_info`; an approximation.
pub const SKB_OVERHEAD_BYTES: u32 = 768;

/// Linux `tcp_rmem[2]` default: 6 MiB.
pub const DEFAULT_AUTOTUNE_MAX_BYTES: u64 = 6 << 20;

impl SimConfig {
    /// A 10 Gbit/s, 20 ms path with 1500-byte packets, 10 s of bulk data, current
    /// Linux defaults on the sender.
    pub fn new() -> Self {
        SimConfig {
            rate_bps: 10_000_000_000,
            nic_rate_bps: 10_000_000_000,
            rtt_ns: 20_000_000,
            mtu: 1500,
            buffer_bytes: 25_000_000,
            amount: Amount::TimeNs(10_000_000_000),
            window: WindowMode::Auto {
                max_bytes: DEFAULT_AUTOTUNE_MAX_BYTES,
            },
            cc: CcKind::Linux,
            slow_start: SlowStart::Hystart,
            pacing: false,
            tsq: TsqMode::Auto,
            tso: TsoMode::Auto,
            tx_completion_ns: 100_000,
            txqueuelen: 1000,
            ack_ratio: 2,
            delack_ns: 40_000_000,
            loss: 0.0,
            jitter_ns: 0,
            seed: 1,
            interval_ns: None,
            app: AppModel::Bulk,
        }
    }

    /// Payload bytes per segment.
    pub fn mss(&self) -> u32 {
        self.mtu.saturating_sub(HEADER_BYTES).max(1)
    }

    /// Bytes one packet occupies on an Ethernet wire.
    pub fn wire_bytes(&self) -> u32 {
        self.mtu + ETHERNET_OVERHEAD_BYTES
    }

    /// The bandwidth-delay product, bytes.
    pub fn bdp_bytes(&self) -> u64 {
        (u128::from(self.rate_bps) * u128::from(self.rtt_ns) / 8_000_000_000) as u64
    }

    /// Refuses configurations no run could make sense of.
    pub fn validate(&self) -> Result<(), String> {
        self.app.validate()?;
        if self.mtu <= HEADER_BYTES {
            return Err(format!("--mtu must exceed {HEADER_BYTES} bytes"));
        }
        if self.rate_bps == 0 || self.nic_rate_bps == 0 {
            return Err("rates must be above 0".into());
        }
        if self.ack_ratio == 0 {
            return Err("--ack-ratio must be at least 1".into());
        }
        if self.buffer_bytes < u64::from(self.wire_bytes()) {
            return Err(format!(
                "--buffer must hold at least one packet: {} bytes or more at this MTU (got {})",
                self.wire_bytes(),
                self.buffer_bytes
            ));
        }
        if let TsoMode::Segs(0) = self.tso {
            return Err("--tso needs at least 1 segment".into());
        }
        if self.interval_ns == Some(0) {
            return Err("-i must be above 0".into());
        }
        match self.amount {
            Amount::Bytes(0) | Amount::TimeNs(0) => Err("nothing to send".into()),
            _ => Ok(()),
        }
    }
}

impl Default for SimConfig {
    fn default() -> Self {
        Self::new()
    }
}
