//! `struct tcp_sock`: the socket fields the glue keeps and the hooks read.

use crate::linux::CaState;
use crate::linux::tcp::minmax::Minmax;

/// The `tcp_sock` (and `inet_connection_sock`, `sock`) fields a congestion-control
/// module sees, in segments, with the kernel's names.
///
/// Sequence numbers count segments and wrap as `u32`; compare them with the kernel's
/// [`before()`](super::before)/[`after()`](super::after), never with `<`. Times are the
/// event's `now`: `tcp_mstamp` in µs, `tcp_clock_cache` in ns and `tcp_jiffies32` at
/// HZ = 1000, set by the glue at the start of every event.
///
/// `#[repr(C)]`, fields declared widest first (8-byte, then 4-byte, then 1-byte, each
/// group in the kernel's order) so that the fixed layout is as compact as Rust's own
/// (224 bytes): the BPF struct_ops programs of `bpf/` pass it between functions the
/// compiler keeps apart, and the kernel refuses their BTF if a struct's members are
/// not listed at ascending offsets, which Rust's reordering breaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct TcpSock {
    /// `tcp_mstamp`: this event's time, µs.
    pub tcp_mstamp: u64,
    /// `tcp_clock_cache`: this event's time, ns.
    pub tcp_clock_cache: u64,
    /// `sk_pacing_rate`: bytes per second.
    pub sk_pacing_rate: u64,
    /// `sk_max_pacing_rate`: the cap on `sk_pacing_rate`, bytes per second.
    pub sk_max_pacing_rate: u64,
    /// `tcp_wstamp_ns`: earliest departure time of the next segment, ns.
    pub tcp_wstamp_ns: u64,
    /// `first_tx_mstamp`: rate sampler, send time of the most recently delivered
    /// segment (start of the current send phase), µs.
    pub first_tx_mstamp: u64,
    /// `delivered_mstamp`: rate sampler, when `delivered` last grew, µs.
    pub delivered_mstamp: u64,
    /// `tcp_jiffies32`: this event's time in jiffies (HZ = 1000), wrapping.
    pub tcp_jiffies32: u32,
    /// `snd_cwnd`: the congestion window, segments.
    pub snd_cwnd: u32,
    /// `snd_cwnd_cnt`: additive-increase credit, segments.
    pub snd_cwnd_cnt: u32,
    /// `snd_cwnd_clamp`: the window never grows above this.
    pub snd_cwnd_clamp: u32,
    /// `snd_ssthresh`: slow-start threshold; `0x7fffffff` is infinite.
    pub snd_ssthresh: u32,
    /// `mss_cache`: bytes per segment.
    pub mss_cache: u32,
    /// `srtt_us`: smoothed RTT in µs, scaled by 8 (0: no sample yet).
    pub srtt_us: u32,
    /// `snd_una`: first unacknowledged segment.
    pub snd_una: u32,
    /// `snd_nxt`: next segment to send.
    pub snd_nxt: u32,
    /// `high_seq`: `snd_nxt` when the current reduction began (its recovery point).
    pub high_seq: u32,
    /// `packets_out`: segments sent and not cumulatively acknowledged.
    pub packets_out: u32,
    /// `sacked_out`: of those, SACKed.
    pub sacked_out: u32,
    /// `lost_out`: of those, marked lost.
    pub lost_out: u32,
    /// `retrans_out`: retransmissions in flight.
    pub retrans_out: u32,
    /// `prior_ssthresh`: ssthresh to restore on undo (0: none).
    pub prior_ssthresh: u32,
    /// `prior_cwnd`: cwnd when the reduction began.
    pub prior_cwnd: u32,
    /// `prr_delivered`: segments delivered since the reduction began (PRR).
    pub prr_delivered: u32,
    /// `prr_out`: segments sent since the reduction began (PRR).
    pub prr_out: u32,
    /// `delivered`: segments delivered in total, wrapping.
    pub delivered: u32,
    /// `delivered_ce`: of those, with a CE mark, wrapping.
    pub delivered_ce: u32,
    /// `lost`: segments marked lost in total, wrapping.
    pub lost: u32,
    /// `app_limited`: `delivered` at which the last application-limited period ends (0: none).
    pub app_limited: u32,
    /// `max_packets_out`: largest flight in the current window-use round.
    pub max_packets_out: u32,
    /// `cwnd_usage_seq`: `snd_nxt` when that round began.
    pub cwnd_usage_seq: u32,
    /// `lsndtime`: jiffies of the last data transmit.
    pub lsndtime: u32,
    /// `data_segs_out`: data segments sent in total (retransmissions included).
    pub data_segs_out: u32,
    /// `sk_gso_max_size`: the largest GSO packet the device takes, bytes
    /// ([`GSO_LEGACY_MAX_SIZE`] by default; CUBIC's HyStart reads it).
    pub sk_gso_max_size: u32,
    /// `snd_cwnd_stamp`: jiffies of the last cwnd change the glue or a hook stamped.
    pub snd_cwnd_stamp: u32,
    /// `icsk_rto`: the retransmission timeout, jiffies (read by the idle restart).
    pub icsk_rto: u32,
    /// What `tcp_mss_to_mtu()` adds to an MSS: `tcp_header_len + icsk_ext_hdr_len +
    /// net_header_len` (52 for IPv4 with timestamps, so MSS 1448 is MTU 1500).
    pub header_len: u32,
    /// `write_seq`: end of the data the application has queued (segments).
    pub write_seq: u32,
    /// `rtt_min`: windowed min of RTT samples over 300 s of jiffies (`tcp_min_rtt()`).
    pub rtt_min: Minmax,
    /// `rate_delivered`: segments of the last kept rate sample.
    pub rate_delivered: u32,
    /// `rate_interval_us`: interval of the last kept rate sample, µs.
    pub rate_interval_us: u32,
    /// `undo_marker` (as a flag): a reduction may still be undone.
    pub undo_marker: bool,
    /// `is_cwnd_limited`: the last send round was limited by cwnd.
    pub is_cwnd_limited: bool,
    /// `icsk_ca_state`: Open, Disorder, CWR, Recovery or Loss.
    pub icsk_ca_state: CaState,
    /// `icsk_retransmits`: RTOs since the last forward progress.
    pub icsk_retransmits: u8,
    /// `sk_pacing_status`: 0 none, 1 needed (internal pacing), 2 fq.
    pub sk_pacing_status: u8,
    /// `sk_pacing_shift`: TSQ and TSO budget as 1/2^shift s of the pacing rate.
    pub sk_pacing_shift: u8,
    /// `mss_cache_set_by_cca`: an algorithm chose `mss_cache` itself (TCP Prague's MTU
    /// shrinking at low rates).
    pub mss_cache_set_by_cca: bool,
    /// `rate_app_limited`: the last kept rate sample was application-limited.
    pub rate_app_limited: bool,
    /// `ecn_flags`: what ECN the connection negotiated and the route allows
    /// ([`ecn_flags`] bits; BBRv3 reads `TCP_ECN_OK` and `TCP_ECN_LOW`).
    pub ecn_flags: u8,
}

/// `GSO_LEGACY_MAX_SIZE`: a device's default `gso_max_size`, bytes (the send path's
/// [`GSO_MAX_SIZE`](crate::pacing::GSO_MAX_SIZE), under the kernel's name).
pub use crate::pacing::GSO_MAX_SIZE as GSO_LEGACY_MAX_SIZE;

/// The `tp->ecn_flags` bits (Google's BBRv3 tree numbering).
pub mod ecn_flags {
    /// `TCP_ECN_OK`: ECN was negotiated in the handshake.
    pub const TCP_ECN_OK: u8 = 1;
    /// `TCP_ECN_QUEUE_CWR`: a CWR is to be sent.
    pub const TCP_ECN_QUEUE_CWR: u8 = 2;
    /// `TCP_ECN_DEMAND_CWR`: ECE is echoed until CWR arrives.
    pub const TCP_ECN_DEMAND_CWR: u8 = 4;
    /// `TCP_ECN_SEEN`: an ECT packet was received.
    pub const TCP_ECN_SEEN: u8 = 8;
    /// `TCP_ECN_LOW`: the route is a shallow-threshold (L4S-like) ECN path.
    pub const TCP_ECN_LOW: u8 = 16;
    /// `TCP_ECN_ECT_PERMANENT`: every packet is sent ECT, retransmissions included.
    pub const TCP_ECN_ECT_PERMANENT: u8 = 32;
}

/// `tcp_packets_in_flight()` on the four scoreboard counters: `packets_out -
/// (sacked_out + lost_out) + retrans_out`, wrapping as the kernel's `u32` arithmetic does
/// on inconsistent input.
pub(crate) const fn tcp_packets_in_flight(
    packets_out: u32,
    sacked_out: u32,
    lost_out: u32,
    retrans_out: u32,
) -> u32 {
    // Linux include/net/tcp.h tcp_left_out(), tcp_packets_in_flight()
    packets_out
        .wrapping_sub(sacked_out.wrapping_add(lost_out))
        .wrapping_add(retrans_out)
}

const _: () = assert!(core::mem::size_of::<TcpSock>() == 224);

impl TcpSock {
    /// `tcp_packets_in_flight()`: `packets_out - (sacked_out + lost_out) + retrans_out`,
    /// wrapping as the kernel's `u32` arithmetic does on inconsistent input.
    pub const fn packets_in_flight(&self) -> u32 {
        tcp_packets_in_flight(
            self.packets_out,
            self.sacked_out,
            self.lost_out,
            self.retrans_out,
        )
    }

    /// `tcp_min_rtt()`: the windowed minimum RTT, µs (`u32::MAX` before any sample).
    pub const fn tcp_min_rtt(&self) -> u32 {
        self.rtt_min.get()
    }

    /// `tcp_in_slow_start()`: `snd_cwnd < snd_ssthresh`.
    pub const fn in_slow_start(&self) -> bool {
        self.snd_cwnd < self.snd_ssthresh
    }

    /// `tcp_in_cwnd_reduction()`: the state is CWR or Recovery.
    pub const fn in_cwnd_reduction(&self) -> bool {
        matches!(self.icsk_ca_state, CaState::Cwr | CaState::Recovery)
    }

    /// `tcp_current_ssthresh()`: ssthresh inside a reduction; otherwise at least 3/4
    /// of cwnd (the value an undo may restore).
    pub const fn current_ssthresh(&self) -> u32 {
        if self.in_cwnd_reduction() {
            return self.snd_ssthresh;
        }
        // Linux include/net/tcp.h tcp_current_ssthresh(): max(ssthresh, cwnd/2 + cwnd/4)
        let three_quarters = (self.snd_cwnd >> 1) + (self.snd_cwnd >> 2);
        if self.snd_ssthresh > three_quarters {
            self.snd_ssthresh
        } else {
            three_quarters
        }
    }

    /// `tcp_is_cwnd_limited()`: the last send round was limited by cwnd; in slow start,
    /// also while cwnd is below twice the largest recent flight. The flag is tested
    /// first (newer kernels; older ones tested slow start first).
    pub const fn tcp_is_cwnd_limited(&self) -> bool {
        if self.is_cwnd_limited {
            return true;
        }
        // Linux include/net/tcp.h tcp_is_cwnd_limited(): cwnd < 2 * max_packets_out
        self.in_slow_start() && self.snd_cwnd < self.max_packets_out.wrapping_mul(2)
    }

    /// `tcp_mss_to_mtu()`: the packet size of an `mss`-byte segment (wrapping as the
    /// kernel's `int` sum would only on absurd input).
    pub const fn mss_to_mtu(&self, mss: u32) -> u32 {
        // Linux net/ipv4/tcp_output.c tcp_mss_to_mtu(): mss + header lengths
        mss.wrapping_add(self.header_len)
    }

    /// `tcp_sync_mss()` reduced to what the glue models: `mss_cache` becomes `mtu`
    /// less the headers (no path-MTU or window clamp logic).
    pub fn sync_mss(&mut self, mtu: u32) {
        // Linux net/ipv4/tcp_output.c tcp_sync_mss() -> tcp_mtu_to_mss(): mtu - headers
        self.mss_cache = mtu.wrapping_sub(self.header_len);
    }

    /// Sets the three clocks from one event time in µs: `tcp_mstamp`,
    /// `tcp_clock_cache` (ns, saturating) and `tcp_jiffies32` (HZ = 1000, wrapping).
    pub fn set_clock(&mut self, now_us: u64) {
        self.tcp_mstamp = now_us;
        self.tcp_clock_cache = now_us.saturating_mul(1000);
        // Truncation on purpose: jiffies are the kernel's wrapping u32 counter.
        self.tcp_jiffies32 = crate::Instant::from_micros(now_us).jiffies32();
    }
}
