//! Everything a run depends on. A run is a pure function of one [`SimConfig`].

/// Which congestion controller decides cwnd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcKind {
    /// Linux-mode CUBIC (`congestion::linux::Cubic`), in segments.
    Linux,
    /// RFC 9438 CUBIC in bytes (needs the library's RFC mode).
    Rfc9438,
    /// RFC 9002 NewReno in bytes (`congestion::rfc::NewReno`, the same driver).
    RfcNewReno,
    /// Linux-mode BBR v1 (`congestion::linux::Bbr`), per-segment delivery-rate samples.
    Bbr,
    /// Linux-mode BBRv3 (`congestion::linux::Bbr3`).
    Bbr3,
    /// Linux-mode DCTCP (`congestion::linux::Dctcp`), ECT(0), AccECN CE counts.
    Dctcp,
    /// Linux-mode TCP Prague (`congestion::linux::Prague`), ECT(1), AccECN CE counts.
    Prague,
    /// RFC-mode BBRv3 in bytes (`congestion::rfc::Bbr3`, draft-ietf-ccwg-bbr),
    /// per-packet delivery-rate snapshots kept in the scoreboard.
    RfcBbr3,
    /// RFC-mode DCTCP in bytes (`congestion::rfc::Dctcp`), ECT(0), CE counts per ACK.
    RfcDctcp,
    /// RFC-mode Prague in bytes (`congestion::rfc::Prague`), ECT(1), CE counts per ACK.
    RfcPrague,
}

impl CcKind {
    /// The `--cc` word (the crate's vocabulary, as the replay's `Cc::WORDS`).
    pub const fn word(self) -> &'static str {
        match self {
            CcKind::Linux => "cubic",
            CcKind::Rfc9438 => "cubic-rfc",
            CcKind::RfcNewReno => "newreno-rfc",
            CcKind::Bbr => "bbr",
            CcKind::Bbr3 => "bbr3",
            CcKind::Dctcp => "dctcp",
            CcKind::Prague => "prague",
            CcKind::RfcBbr3 => "bbr3-rfc",
            CcKind::RfcDctcp => "dctcp-rfc",
            CcKind::RfcPrague => "prague-rfc",
        }
    }

    /// Whether the algorithm paces itself whatever `--pacing` says (Linux `bbr_init()`
    /// and `prague_init()` set `SK_PACING_NEEDED`; the draft's BBR paces, RFC 9331 §4.3
    /// asks a Prague sender to).
    pub const fn paces_itself(self) -> bool {
        matches!(
            self,
            CcKind::Bbr | CcKind::Bbr3 | CcKind::Prague | CcKind::RfcBbr3 | CcKind::RfcPrague
        )
    }

    /// The ECN codepoint its packets carry with `--ecn on`: ECT(1) for the L4S sender
    /// (Prague, `TCP_CONG_WANTS_ECT_1`), ECT(0) for the classic ones (RFC 3168 CUBIC
    /// and NewReno, DCTCP, in both modes); BBR v1 and v3 (both modes) send not-ECT
    /// (v1 has no ECN response, v3's needs a datacenter's shallow marking, not
    /// modelled).
    pub const fn ect(self, ecn: bool) -> Ect {
        match (ecn, self) {
            (false, _) | (true, CcKind::Bbr | CcKind::Bbr3 | CcKind::RfcBbr3) => Ect::NotEct,
            (true, CcKind::Prague | CcKind::RfcPrague) => Ect::Ect1,
            (true, _) => Ect::Ect0,
        }
    }
}

/// A packet's ECN codepoint (RFC 3168, RFC 9331).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ect {
    /// Not ECN-capable: an AQM drops where it would mark.
    NotEct,
    /// ECT(0): classic ECN.
    Ect0,
    /// ECT(1): the L4S identifier.
    Ect1,
}

/// The bottleneck's queue discipline (`--aqm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AqmKind {
    /// Drop tail only (the default).
    DropTail,
    /// L4S step marking: CE when a packet's sojourn exceeds the threshold, ns (a
    /// not-ECT packet is dropped instead).
    Step {
        /// Sojourn threshold, ns.
        threshold_ns: u64,
    },
    /// RFC 9332's coupled DualQ with Linux `dualpi2`'s defaults (see `crate::aqm`).
    DualQ,
    /// A classic single-queue AQM: the PI2 core of `dualpi2` alone (classic marking
    /// `p'²`, 15 ms target), marking ECT(0) and ECT(1) alike, as an RFC 3168 AQM does
    /// (see `crate::aqm`).
    Pi2,
}

/// Which Linux kernel's CUBIC profile decides cwnd in Linux mode (`--kernel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Today's Linux (6.x): `congestion::linux::Cubic`, the default.
    Linux6,
    /// Linux 2.6.35 (2010-11, the seed-000 kernel): `congestion::v2_6_35::Cubic`,
    /// HyStart timed in jiffies of `hz`.
    Linux2635,
}

/// The kernel timer frequencies 2.6.35 could be built with (`CONFIG_HZ`).
pub const VALID_HZ: [u32; 3] = [100, 250, 1000];

/// 2.6.35's `CONFIG_HZ` default (`kernel/Kconfig.hz`: `HZ_250`).
pub const DEFAULT_HZ: u32 = 250;

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

/// The size a 2.6.35 writer gives each skb (`tcp_xmit_size_goal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeGoal {
    /// Every skb a whole GSO skb (the default; see docs/simulator.md for why).
    Gso,
    /// The GSO skb bounded to half the largest window the receiver has advertised
    /// (`tcp_bound_to_half_wnd`), as read when the writer writes: after a 2-segment
    /// SYN-ACK window the first buffer-full goes into one-segment skbs.
    HalfWindow,
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
    /// `tcp_rmem[1]`: the receive buffer an autotuned receiver starts with, bytes; 3/4
    /// of it is the first window. `None`: [`DEFAULT_RMEM_BYTES`], or the maximum's
    /// window if that is smaller. Unused with a fixed buffer ([`WindowMode::Fixed`]).
    pub rmem_default_bytes: Option<u64>,
    /// Controller.
    pub cc: CcKind,
    /// Which kernel's Linux-mode profile (`--kernel`); RFC mode has none.
    pub kernel: Kernel,
    /// The 2.6.35 profile's jiffies per second (`--hz`); unused by today's kernel.
    pub hz: u32,
    /// How long the 2.6.35 host has been up when the transfer starts, ns (`--uptime`):
    /// where its jiffies stand, so the phase of the tick against the first send (HyStart
    /// and TSO deferral count whole ticks). Unused by today's kernel.
    pub uptime_ns: u64,
    /// Slow-start exit.
    pub slow_start: SlowStart,
    /// Whether TCP paces its packets (EDT, `SK_PACING_NEEDED`).
    pub pacing: bool,
    /// TSQ limit.
    pub tsq: TsqMode,
    /// TSO burst size.
    pub tso: TsoMode,
    /// How large the 2.6.35 host's writer builds its skbs (`--size-goal`).
    pub size_goal: SizeGoal,
    /// Delay from the NIC finishing a burst to its TX completion, ns.
    pub tx_completion_ns: u64,
    /// The qdisc's limit in skbs (`txqueuelen`).
    pub txqueuelen: u32,
    /// The receiver ACKs every this many full segments.
    pub ack_ratio: u32,
    /// TCP timestamps on (`tcp_timestamps`, default): 12 bytes of every segment's
    /// header; off, MSS = MTU - 40 (seed 000's HZ=1000 table).
    pub timestamps: bool,
    /// The receiver's delayed-ACK timeout, ns. A 2.6.35 receiver (`receiver_hz`) uses
    /// the kernel's adaptive `ato` in jiffies instead (`crate::delack`).
    pub delack_ns: u64,
    /// How many segments the receiver ACKs one by one at the start of the connection
    /// (Linux quick-ACK mode: `tcp_incr_quickack` on the first data segment sets
    /// `rcv_wnd / (2 · rcv_mss)`, at most `TCP_MAX_QUICKACKS` = 16, where `rcv_wnd` is
    /// the initial window of `tcp_select_initial_window`). See [`quickacks_for`].
    pub quickacks: u32,
    /// `Some(n)`: the receiver's window grows as a 2.6.35 receiver's `rcv_ssthresh` does,
    /// from `n` segments (its initial window) by 2 segments per in-order data segment up
    /// to the window clamp, and while it grows every segment is ACKed at once
    /// (`tcp_grow_window` sets `icsk_ack.quick |= 1`); the advertised window is at most
    /// `rcv_ssthresh` (`__tcp_select_window`). `None`: the window is the buffer's from the
    /// first segment and only [`quickacks`](Self::quickacks) are ACKed one by one
    /// (today's receiver as calibrated against the testbed; see docs/simulator.md).
    pub rcv_ssthresh_growth: Option<u32>,
    /// `Some(hz)`: the receiver is a 2.6.35 one on jiffies of `hz`: it keeps its own RTT
    /// estimate (`rcv_rtt_est`, from timestamps if [`timestamps`](Self::timestamps) and
    /// once per window) and times autotuning with it (see `rcv_rtt`). `None`: today's
    /// receiver, autotuning timed in ns with the sender's smoothed RTT. See
    /// [`receiver_hz_for`].
    pub receiver_hz: Option<u32>,
    /// The receiver's uptime at the first send, ns: where its jiffies ticks fall. Its
    /// phase is unknown; one rule for all runs: [`DEFAULT_UPTIME_NS`], a tick at the
    /// first send, whatever phase the sender's clock is given.
    pub receiver_uptime_ns: u64,

    /// The bottleneck's queue discipline.
    pub aqm: AqmKind,
    /// Whether the sender negotiates ECN (`--ecn`): its packets carry
    /// [`CcKind::ect`]'s codepoint and it hears CE marks as AccECN counts.
    pub ecn: bool,
    /// Whether `prague-rfc` detects a classic ECN bottleneck and falls back
    /// (`--classic-ecn-fallback`; `congestion::rfc::ScalableConfig::classic_ecn_fallback`).
    pub classic_ecn_fallback: bool,
    /// Bottleneck statistics (queueing delay, utilisation) count packets reaching it
    /// from this time on, ns (a preset's warm-up).
    pub measure_from_ns: u64,

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

/// The TCP timestamp option's share of [`HEADER_BYTES`] (10 bytes padded to 12).
pub const TIMESTAMP_OPTION_BYTES: u32 = 12;

/// Ethernet bytes on the wire beyond the IP packet: header 14 + FCS 4 + preamble 8 +
/// inter-frame gap 12.
pub const ETHERNET_OVERHEAD_BYTES: u32 = 38;

/// Buffer overhead Linux charges per skb on top of its payload (`truesize`), roughly
/// `sizeof(struct sk_buff)` + `skb_shared_info`; an approximation.
pub const SKB_OVERHEAD_BYTES: u32 = 768;

/// Linux `TCP_MAX_QUICKACKS`: the receiver ACKs at most this many segments one by one
/// at the start of a connection (`tcp_incr_quickack`).
pub const MAX_QUICKACKS: u32 = 16;

/// Today's receiver: `TCP_DEFAULT_INIT_RCVWND` = 10 segments of initial window, so
/// `tcp_incr_quickack` gives 10 / 2 = 5 quick ACKs.
pub const QUICKACKS_TODAY: u32 = 5;

/// The quick ACKs at the start of a connection of a receiver of `kernel`'s era with
/// segments of `mss` bytes: `rcv_wnd / (2 · mss)` (2 if that is 0), at most 16. A
/// 2.6.35 receiver's initial window is `tcp_select_initial_window`'s `init_cwnd` in
/// segments (2 above 3 × 1460 bytes of MSS, 3 above 1460, else 4), so a
/// jumbo-frame receiver quick-ACKs 1 segment, a 1448-byte one 2. (The kernel clamps the
/// initial window so only while the MSS exceeds `1 << rcv_wscale`: always for jumbo
/// frames up to 1 GiB buffers, for 1448 bytes up to `tcp_rmem[2]` of about 90 MiB.)
// Linux 2.6.35 net/ipv4/tcp_output.c tcp_select_initial_window(); tcp_input.c tcp_incr_quickack()
pub const fn quickacks_for(kernel: Kernel, mss: u32) -> u32 {
    let q = initial_receive_segments(kernel, mss) / 2;
    if q == 0 {
        2
    } else if q > MAX_QUICKACKS {
        MAX_QUICKACKS
    } else {
        q
    }
}

/// The initial receive window, segments, of a receiver of `kernel`'s era with segments
/// of `mss` bytes: today's `TCP_DEFAULT_INIT_RCVWND` (10); for 2.6.35 the `init_cwnd` of
/// `tcp_select_initial_window` (2 above 3 × 1460 bytes of MSS, 3 above 1460, else 4).
// Linux 2.6.35 net/ipv4/tcp_output.c tcp_select_initial_window()
pub const fn initial_receive_segments(kernel: Kernel, mss: u32) -> u32 {
    match kernel {
        Kernel::Linux6 => 10,
        Kernel::Linux2635 => {
            if mss > 1460 * 3 {
                2
            } else if mss > 1460 {
                3
            } else {
                4
            }
        }
    }
}

/// How a receiver of `kernel`'s era grows its window (see
/// [`SimConfig::rcv_ssthresh_growth`]): from its initial window for 2.6.35, not
/// modelled for today's receiver.
// Linux 2.6.35 net/ipv4/tcp_input.c tcp_grow_window(), tcp_event_data_recv()
pub const fn rcv_ssthresh_growth_for(kernel: Kernel, mss: u32) -> Option<u32> {
    match kernel {
        Kernel::Linux6 => None,
        Kernel::Linux2635 => Some(initial_receive_segments(kernel, mss)),
    }
}

/// The clock a receiver of `kernel`'s era keeps its RTT estimate and autotuning on
/// (see [`SimConfig::receiver_hz`]): jiffies at `hz` for 2.6.35, none today.
// Linux 2.6.35 net/ipv4/tcp_input.c tcp_rcv_rtt_update(), tcp_rcv_space_adjust()
pub const fn receiver_hz_for(kernel: Kernel, hz: u32) -> Option<u32> {
    match kernel {
        Kernel::Linux6 => None,
        Kernel::Linux2635 => Some(hz),
    }
}

/// The largest GSO skb, bytes (`sk_gso_max_size` = 65536 in 2.6.35).
pub const GSO_MAX_SIZE_BYTES: u32 = 65_536;

/// The 2.6.35 host's default uptime at the transfer's start: 1000 s, as the reference
/// traces start (jiffies 250 000 at HZ=250), clear of the first second of jiffies and of
/// the half of the jiffies cycle where that kernel's HyStart is blind; the first send
/// falls on a tick.
pub const DEFAULT_UPTIME_NS: u64 = 1_000_000_000_000;

/// The longest `--uptime`: 20 days, below 2^31 jiffies at HZ=1000 (24.8 days), past
/// which 2.6.35's HyStart drops every sample.
pub const MAX_UPTIME_NS: u64 = 20 * 86_400 * 1_000_000_000;

/// The largest receive window TCP can advertise: a 16-bit window field shifted by the
/// window scale, which is at most 14 (65535 << 14 = 1,073,725,440 bytes).
// RFC 7323 §2.3; Linux net/ipv4/tcp_output.c tcp_select_initial_window()
// (TCP_MAX_WSCALE = 14)
pub const MAX_WINDOW_BYTES: u64 = 65_535 << 14;

/// The largest `-w`: Linux doubles the request and 3/4 of that is window
/// (`ceil(3w/2)` bytes), which must fit in [`MAX_WINDOW_BYTES`]: 715,816,960 bytes.
pub const MAX_FIXED_BUFFER_BYTES: u64 = MAX_WINDOW_BYTES * 2 / 3;

/// The largest `--autotune-max`: 3/4 of it (`ceil(3b/4)` bytes) is the window it can
/// grow to, which must fit in [`MAX_WINDOW_BYTES`]: 1,431,633,920 bytes.
pub const MAX_AUTOTUNE_BYTES: u64 = MAX_WINDOW_BYTES * 4 / 3;

/// The shortest `-i`: the interval lines print seconds with two decimals (nuttcp's
/// `%.2f sec`), so a shorter interval would print as `0.00 sec`.
pub const MIN_INTERVAL_NS: u64 = 10_000_000;

/// Linux `tcp_rmem[2]` default: 6 MiB.
pub const DEFAULT_AUTOTUNE_MAX_BYTES: u64 = 6 << 20;

/// The smallest autotuned buffer (`--autotune-max`, `--rmem-default`) at MSS `mss`: its
/// window, 3/4 of it (`tcp_adv_win_scale = 2`), must hold two segments, or delayed
/// ACKs, which wait for a second one, would stall the flow.
pub const fn least_autotuned_buffer(mss: u64) -> u64 {
    mss.saturating_mul(8).div_ceil(3)
}

/// Linux `tcp_rmem[1]` default before 4.20 (the seeds' kernels): 87380 B, whose 3/4
/// is a 65535-B window.
pub const DEFAULT_RMEM_BYTES: u64 = 87_380;

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
            rmem_default_bytes: None,
            cc: CcKind::Linux,
            kernel: Kernel::Linux6,
            hz: DEFAULT_HZ,
            uptime_ns: DEFAULT_UPTIME_NS,
            slow_start: SlowStart::Hystart,
            pacing: false,
            tsq: TsqMode::Auto,
            tso: TsoMode::Auto,
            size_goal: SizeGoal::Gso,
            tx_completion_ns: 100_000,
            txqueuelen: 1000,
            ack_ratio: 2,
            delack_ns: 40_000_000,
            timestamps: true,
            quickacks: QUICKACKS_TODAY,
            rcv_ssthresh_growth: None,
            receiver_hz: None,
            receiver_uptime_ns: DEFAULT_UPTIME_NS,
            aqm: AqmKind::DropTail,
            ecn: true,
            classic_ecn_fallback: true,
            measure_from_ns: 0,
            loss: 0.0,
            jitter_ns: 0,
            seed: 1,
            interval_ns: None,
            app: AppModel::Bulk,
        }
    }

    /// IP + TCP header bytes per segment.
    pub fn header_bytes(&self) -> u32 {
        if self.timestamps {
            HEADER_BYTES
        } else {
            HEADER_BYTES - TIMESTAMP_OPTION_BYTES
        }
    }

    /// Payload bytes per segment.
    pub fn mss(&self) -> u32 {
        self.mtu.saturating_sub(self.header_bytes()).max(1)
    }

    /// Bytes one packet occupies on an Ethernet wire.
    pub fn wire_bytes(&self) -> u32 {
        self.mtu + ETHERNET_OVERHEAD_BYTES
    }

    /// What nuttcp prints as msRTT, ns: its client times the data connection's
    /// `connect()` (nuttcp 7.1, `timeconn1`/`timeconn2` around the connect of stream 1),
    /// one handshake on the idle path before any data. Here that is the base RTT plus
    /// the SYN's serialisation on the NIC and at the bottleneck (the reverse path has
    /// none in this model, so the SYN-ACK adds nothing).
    pub fn handshake_rtt_ns(&self) -> u64 {
        let syn_wire = u64::from(self.syn_ip_bytes() + ETHERNET_OVERHEAD_BYTES);
        let serialise = |rate_bps: u64| syn_wire * 8 * 1_000_000_000 / rate_bps.max(1);
        self.rtt_ns + serialise(self.nic_rate_bps) + serialise(self.rate_bps)
    }

    /// IP + TCP bytes of a Linux SYN: 40 of headers, then MSS (4), SACK-permitted
    /// with the timestamp (12, or 4 as NOP NOP SACK-permitted without timestamps) and
    /// NOP + window scale (4).
    // Linux net/ipv4/tcp_output.c tcp_syn_options(), tcp_options_write()
    fn syn_ip_bytes(&self) -> u32 {
        40 + 4 + if self.timestamps { 12 } else { 4 } + 4
    }

    /// The bandwidth-delay product, bytes.
    pub fn bdp_bytes(&self) -> u64 {
        (u128::from(self.rate_bps) * u128::from(self.rtt_ns) / 8_000_000_000) as u64
    }

    /// The TSQ limit the sender's host applies: `--tsq-limit auto` means what the
    /// kernel does, and 2.6.35 had no TSQ (added in 3.6).
    pub fn effective_tsq(&self) -> TsqMode {
        match (self.kernel, self.tsq) {
            (Kernel::Linux2635, TsqMode::Auto) => TsqMode::Off,
            (_, t) => t,
        }
    }

    /// The TSO burst the sender's host builds: `--tso auto` means what the kernel
    /// does; 2.6.35 (before autosizing in 3.12) filled a whole GSO skb,
    /// `tcp_xmit_size_goal`: `(sk_gso_max_size - 1 - headers)` rounded down to whole
    /// MSS (7 segments of 8948 B, 45 of 1448 B).
    pub fn effective_tso(&self) -> TsoMode {
        match (self.kernel, self.tso) {
            (Kernel::Linux2635, TsoMode::Auto) => {
                let goal = GSO_MAX_SIZE_BYTES - 1 - self.header_bytes();
                TsoMode::Segs((goal / self.mss()).max(1))
            }
            (_, t) => t,
        }
    }

    /// Whether the sender paces: `--pacing on`, or an algorithm that always does.
    pub fn paces(&self) -> bool {
        self.pacing || self.cc.paces_itself()
    }

    /// Whether the host defers short TSO bursts as 2.6.35's `tcp_tso_should_defer`
    /// did (fixed-size bursts only; today's deferral is not modelled).
    pub fn tso_defer(&self) -> bool {
        self.kernel == Kernel::Linux2635
            && matches!(self.effective_tso(), TsoMode::Segs(n) if n > 1)
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
        if self.uptime_ns > MAX_UPTIME_NS {
            return Err(format!(
                "--uptime must be between 0 s and 20 days, not {} s",
                self.uptime_ns / 1_000_000_000
            ));
        }
        if !VALID_HZ.contains(&self.hz) {
            return Err(format!(
                "--hz must be one of 100, 250, 1000, not {}",
                self.hz
            ));
        }
        if self.kernel == Kernel::Linux2635 && self.cc != CcKind::Linux {
            return Err(
                "--kernel 2.6.35 selects a Linux-mode CUBIC profile: use it with --cc cubic".into(),
            );
        }
        if self.ack_ratio == 0 {
            return Err("--ack-ratio must be at least 1".into());
        }
        if self.txqueuelen == 0 {
            // A qdisc that holds nothing would put every send into CWR: a flow that
            // barely moves, with no error to say why.
            return Err("--txqueuelen must be at least 1 skb".into());
        }
        if self.buffer_bytes < u64::from(self.wire_bytes()) {
            return Err(format!(
                "--buffer must hold at least one packet: {} bytes or more at this MTU (got {})",
                self.wire_bytes(),
                self.buffer_bytes
            ));
        }
        if self.size_goal == SizeGoal::HalfWindow && !self.tso_defer() {
            return Err(
                "--size-goal half-window needs --kernel 2.6.35 with whole TSO skbs \
                        (--tso auto or a count above 1)"
                    .into(),
            );
        }
        if let (WindowMode::Auto { max_bytes }, Some(rmem)) = (self.window, self.rmem_default_bytes)
        {
            // The first window (3/4 of the buffer) must hold two segments, as for
            // --autotune-max, and autotuning starts at or below its maximum.
            let least = least_autotuned_buffer(u64::from(self.mss()));
            if !(least..=max_bytes.max(least)).contains(&rmem) {
                return Err(format!(
                    "--rmem-default must be {least} to {} bytes (two segments of window, up \
                     to --autotune-max), not {rmem}",
                    max_bytes.max(least),
                ));
            }
        }
        // The receiver could not advertise a larger window: past this the model would
        // hand the sender a window no TCP header carries.
        match self.window {
            WindowMode::Fixed(w) if w > MAX_FIXED_BUFFER_BYTES => {
                return Err(format!(
                    "-w must be 2·MSS to {MAX_FIXED_BUFFER_BYTES} bytes (682.7 MiB), not {w}: \
                     Linux doubles it and 3/4 is window, and window scale 14 advertises at \
                     most 65535 << 14 = {MAX_WINDOW_BYTES} bytes"
                ));
            }
            WindowMode::Auto { max_bytes } if max_bytes > MAX_AUTOTUNE_BYTES => {
                return Err(format!(
                    "--autotune-max must be 8/3·MSS to {MAX_AUTOTUNE_BYTES} bytes (1365.3 \
                     MiB), not {max_bytes}: 3/4 of it is window, and window scale 14 \
                     advertises at most 65535 << 14 = {MAX_WINDOW_BYTES} bytes"
                ));
            }
            _ => {}
        }
        if let TsoMode::Segs(0) = self.tso {
            return Err("--tso needs at least 1 segment".into());
        }
        if let Some(iv) = self.interval_ns.filter(|&iv| iv < MIN_INTERVAL_NS) {
            return Err(format!(
                "-i must be at least 10ms (interval lines print hundredths of a second), \
                 not {iv} ns"
            ));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msrtt_is_the_base_rtt_plus_the_syns_serialisation() {
        let mut c = SimConfig::new();
        c.rtt_ns = 20_000_000;
        c.rate_bps = 1_000_000;
        c.nic_rate_bps = 10_000_000_000;
        // SYN with timestamps: 60 B of IP + 38 B of Ethernet = 98 B = 784 bits:
        // 784 us at 1 Mbit/s, 78 ns at 10 Gbit/s.
        assert_eq!(c.handshake_rtt_ns(), 20_000_000 + 784_000 + 78);
        // Without timestamps the SYN is 8 bytes shorter: 90 B = 720 bits.
        c.timestamps = false;
        assert_eq!(c.handshake_rtt_ns(), 20_000_000 + 720_000 + 72);
    }

    #[test]
    fn the_largest_buffers_give_exactly_the_largest_window_scale_14_expresses() {
        // usable(2w) = 2w - (2w >> 2): 1431633920 - 357908480 = 1073725440.
        let w = MAX_FIXED_BUFFER_BYTES;
        assert_eq!(w, 715_816_960);
        assert_eq!(2 * w - ((2 * w) >> ADV_WIN_SCALE), MAX_WINDOW_BYTES);
        assert!(2 * (w + 1) - ((2 * (w + 1)) >> ADV_WIN_SCALE) > MAX_WINDOW_BYTES);
        let b = MAX_AUTOTUNE_BYTES;
        assert_eq!(b - (b >> ADV_WIN_SCALE), MAX_WINDOW_BYTES);
        assert!((b + 1) - ((b + 1) >> ADV_WIN_SCALE) > MAX_WINDOW_BYTES);
        let mut c = SimConfig::new();
        c.window = WindowMode::Fixed(w);
        assert!(c.validate().is_ok());
        c.window = WindowMode::Fixed(w + 1);
        assert!(c.validate().unwrap_err().contains("715816960"));
        c.window = WindowMode::Auto { max_bytes: b };
        assert!(c.validate().is_ok());
        c.window = WindowMode::Auto { max_bytes: b + 1 };
        assert!(c.validate().unwrap_err().contains("1431633920"));
    }
}
