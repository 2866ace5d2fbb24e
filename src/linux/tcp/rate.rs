//! The delivery-rate sampler of `net/ipv4/tcp_rate.c`: each ACK yields one
//! [`RateSample`], the segments delivered over the longer of the send and the ACK
//! phase of the window that ended with the most recently sent delivered segment.
//!
//! The kernel keeps a snapshot of the socket's delivery counters in every skb when it
//! is sent; here that snapshot is a [`TxSnapshot`] that [`tcp_rate_skb_sent`] returns
//! and the caller keeps with the segment (a stack's retransmission queue, a replay's
//! scoreboard): the library never stores per-packet state. On an ACK the caller hands
//! each newly delivered segment's snapshot to [`tcp_rate_skb_delivered`] (SACKed ones
//! first, in the order it tags them, then the cumulatively acknowledged ones), then
//! calls [`tcp_rate_gen`] once.
//!
//! Times are µs (`tcp_mstamp`, `tcp_skb_timestamp_us`); counters wrap. The sampler's
//! connection state is read through [`RateSock`]: [`TcpSock`] counts segments (Linux
//! mode), `crate::rfc::bbr3`'s sampler counts bytes (draft-ietf-ccwg-bbr §4.1.2, the
//! same arithmetic), so both modes run this one copy.

use crate::linux::tcp::TcpSock;
use crate::linux::tcp::seq::after;
use crate::linux::tcp::skb;

/// Width of `tx.delivered_ce` in the kernel's skb (`TCPCB_DELIVERED_CE_MASK`).
pub const DELIVERED_CE_MASK: u32 = (1 << 20) - 1;
/// Largest `tx.in_flight` BBRv3 keeps (`TCPCB_IN_FLIGHT_MAX`, 20 bits).
pub const IN_FLIGHT_MAX: u32 = (1 << 20) - 1;
/// Bit of `TxSnapshot::bits` (above the 20 CE bits) saying the snapshot's stamps are
/// BBRv3's `u32` microseconds, so its intervals use `tcp_stamp32_us_delta`.
const STAMP32: u32 = 1 << 21;

/// What the kernel keeps in an skb for the sampler (`tcp_skb_cb.tx`), taken when the
/// segment is (re)transmitted. `Copy`, 32 bytes: a stack stores one per segment.
///
/// `delivered_ce` keeps the kernel's 20 bits. `lost` and `in_flight` are BBRv3's
/// additions (`tx.lost`, `tx.in_flight`); BBR v1 never reads them.
///
/// `repr(C)`, fields in this order: the C ABI's `CongestionTxSnapshot` has the same
/// layout, so that a C caller's stored snapshots are read in place. The stack keeps it
/// with the segment and hands it back when the segment is delivered or marked lost:
/// see [`Bbr`](crate::linux::Bbr)'s and [`Bbr3`](crate::linux::Bbr3)'s examples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct TxSnapshot {
    /// `tx.first_tx_mstamp`: start of the send phase this segment belongs to, µs.
    pub first_tx_mstamp: u64,
    /// `tx.delivered_mstamp`: when `delivered` reached `tx.delivered`, µs; set to 0
    /// once the segment has been SACKed, so that its cumulative ACK samples nothing.
    pub delivered_mstamp: u64,
    /// `tx.delivered`: `tp->delivered` at send.
    pub delivered: u32,
    /// `tx.lost`: `tp->lost` at send (BBRv3).
    pub lost: u32,
    /// `is_app_limited:1` (bit 0) and `delivered_ce:20` (bits 1..=20), as the kernel packs them.
    bits: u32,
    /// `tx.in_flight`: packets in flight when sent, at most [`IN_FLIGHT_MAX`] (BBRv3).
    in_flight: u32,
}

const _: () = assert!(core::mem::size_of::<TxSnapshot>() <= 32);

impl TxSnapshot {
    /// `tx.is_app_limited`: sent while the socket was application-limited.
    pub const fn is_app_limited(&self) -> bool {
        self.bits & 1 != 0
    }

    /// `tx.delivered_ce`: `tp->delivered_ce` at send, low 20 bits.
    pub const fn delivered_ce(&self) -> u32 {
        (self.bits >> 1) & DELIVERED_CE_MASK
    }

    /// `tx.in_flight` (BBRv3's `tcp_set_tx_in_flight`); 0 unless set.
    pub const fn in_flight(&self) -> u32 {
        self.in_flight
    }

    /// Sets `tx.in_flight`, clamped to [`IN_FLIGHT_MAX`] as the kernel's 20-bit field.
    pub fn set_in_flight(&mut self, in_flight: u32) {
        // BBRv3 net/ipv4/tcp_output.c tcp_set_tx_in_flight(): min(in_flight, TCPCB_IN_FLIGHT_MAX)
        self.in_flight = in_flight.min(IN_FLIGHT_MAX);
    }

    /// Sets the flight at send in bytes (RFC mode, the draft's `P.tx_in_flight`): the
    /// whole `u32`, since the kernel's 20-bit segment field would clamp at 1 MB.
    pub fn set_in_flight_bytes(&mut self, bytes: u32) {
        self.in_flight = bytes;
    }

    /// Sets `tx.is_app_limited` and `tx.delivered_ce` (kept to 20 bits).
    pub fn set_flags(&mut self, is_app_limited: bool, delivered_ce: u32) {
        self.bits = (self.bits & STAMP32)
            | u32::from(is_app_limited)
            | ((delivered_ce & DELIVERED_CE_MASK) << 1);
    }

    /// Whether the stamps are BBRv3's `u32` µs ([`tcp_rate_skb_sent_v3`]).
    pub const fn is_stamp32(&self) -> bool {
        self.bits & STAMP32 != 0
    }

    /// The packed flag word: `is_app_limited` (bit 0), `delivered_ce` (bits 1..=20)
    /// and the `u32`-stamp mark of [`is_stamp32`](Self::is_stamp32) (bit 21), for a
    /// caller that stores the snapshot outside Rust (the C ABI).
    pub const fn packed_flags(&self) -> u32 {
        self.bits
    }
}

/// `struct rate_sample`: what one ACK measured, handed to the congestion control.
///
/// `delivered` and `interval_us` are -1 when the ACK gave no valid sample. See
/// [`Bbr`](crate::linux::Bbr)'s example, whose ACK returns one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
// `#[repr(C)]`: fixed member order, which the BTF of the BPF struct_ops in `bpf/` needs.
#[repr(C)]
pub struct RateSample {
    /// `prior_mstamp`: start of the interval (the sampled segment's `tx.delivered_mstamp`), µs.
    pub prior_mstamp: u64,
    /// `interval_us`: the sample's interval (the longer phase), µs; -1: invalid.
    pub interval_us: i64,
    /// `rtt_us`: RTT of the last (S)ACKed segment, µs; -1: none.
    pub rtt_us: i64,
    /// `prior_delivered`: `tp->delivered` when the sampled segment was sent.
    pub prior_delivered: u32,
    /// `prior_delivered_ce`: `tp->delivered_ce` then (20 bits).
    pub prior_delivered_ce: u32,
    /// `prior_lost`: `tp->lost` then (BBRv3).
    pub prior_lost: u32,
    /// `delivered`: segments delivered over the interval; -1: invalid.
    pub delivered: i32,
    /// `delivered_ce`: of those, CE-marked (20 bits).
    pub delivered_ce: i32,
    /// `lost`: segments marked lost over the interval (BBRv3).
    pub lost: i32,
    /// `tx_in_flight`: the sampled segment's `tx.in_flight` (BBRv3).
    pub tx_in_flight: u32,
    /// `snd_interval_us`: the send phase, µs.
    pub snd_interval_us: u32,
    /// `rcv_interval_us`: the ACK phase, µs.
    pub rcv_interval_us: u32,
    /// `losses`: segments newly marked lost by this ACK.
    pub losses: i32,
    /// `acked_sacked`: segments newly delivered (cumulatively ACKed or SACKed) by this ACK.
    pub acked_sacked: u32,
    /// `prior_in_flight`: `tcp_packets_in_flight()` before this ACK.
    pub prior_in_flight: u32,
    /// `last_end_seq`: `end_seq` of the sampled segment.
    pub last_end_seq: u32,
    /// `is_app_limited`: the sampled segment was sent app-limited.
    pub is_app_limited: bool,
    /// `is_retrans`: the sampled segment had been retransmitted.
    pub is_retrans: bool,
    /// `is_ack_delayed`: the ACK was likely delayed (`FLAG_ACK_MAYBE_DELAYED`).
    pub is_ack_delayed: bool,
    /// `is_ece`: the ACK carried ECN-Echo (BBRv3; set by the caller, `tcp_ack()`).
    pub is_ece: bool,
    /// `ece_delta`: segments this ACK newly reports CE-marked (AccECN's CE delta; 0
    /// when none). Set by the caller (`tcp_accecn_process()`); TCP Prague reads it.
    pub ece_delta: u32,
    /// The sampled segment's snapshot has BBRv3's `u32` stamps, so the ACK phase is
    /// measured with `tcp_stamp32_us_delta` too (set by [`tcp_rate_skb_delivered`];
    /// never for v1's snapshots).
    pub stamp32: bool,
}

/// The connection state the sampler reads and writes (`tcp_sock`'s rate fields, the
/// draft's `C.delivered`, `C.delivered_time`, `C.first_send_time`, `C.app_limited`).
/// Counters are in whatever unit the implementor counts: segments for [`TcpSock`],
/// bytes for the RFC-mode sampler.
pub trait RateSock {
    /// Nothing is outstanding (`packets_out == 0`; the draft's `C.inflight == 0`).
    fn pipe_empty(&self) -> bool;
    /// `tp->delivered`.
    fn delivered(&self) -> u32;
    /// `tp->delivered_ce`.
    fn delivered_ce(&self) -> u32;
    /// `tp->lost`.
    fn lost(&self) -> u32;
    /// `tp->tcp_mstamp`: this event's time, µs.
    fn mstamp(&self) -> u64;
    /// `tcp_min_rtt()`, µs.
    fn min_rtt_us(&self) -> u32;
    /// `tp->first_tx_mstamp`.
    fn first_tx_mstamp(&self) -> u64;
    /// Sets `tp->first_tx_mstamp`.
    fn set_first_tx_mstamp(&mut self, us: u64);
    /// `tp->delivered_mstamp`.
    fn delivered_mstamp(&self) -> u64;
    /// Sets `tp->delivered_mstamp`.
    fn set_delivered_mstamp(&mut self, us: u64);
    /// `tp->app_limited`: the end of the app-limited bubble, 0 when none.
    fn app_limited(&self) -> u32;
    /// Sets `tp->app_limited`.
    fn set_app_limited(&mut self, mark: u32);
    /// `tp->rate_delivered` and `tp->rate_interval_us` (the last kept sample).
    fn rate_record(&self) -> (u32, u32);
    /// Sets `tp->rate_delivered`, `tp->rate_interval_us` and `tp->rate_app_limited`.
    fn set_rate_record(&mut self, delivered: u32, interval_us: u32, app_limited: bool);
}

/// The [`RateSock`] methods that read and write a field of the same name, for the
/// implementors that keep the sampler's state under the kernel's names ([`TcpSock`]
/// and the RFC-mode sampler): written once so both read the same fields.
macro_rules! rate_sock_fields {
    () => {
        fn delivered(&self) -> u32 {
            self.delivered
        }
        fn lost(&self) -> u32 {
            self.lost
        }
        fn first_tx_mstamp(&self) -> u64 {
            self.first_tx_mstamp
        }
        fn set_first_tx_mstamp(&mut self, us: u64) {
            self.first_tx_mstamp = us;
        }
        fn delivered_mstamp(&self) -> u64 {
            self.delivered_mstamp
        }
        fn set_delivered_mstamp(&mut self, us: u64) {
            self.delivered_mstamp = us;
        }
        fn app_limited(&self) -> u32 {
            self.app_limited
        }
        fn set_app_limited(&mut self, mark: u32) {
            self.app_limited = mark;
        }
        fn rate_record(&self) -> (u32, u32) {
            (self.rate_delivered, self.rate_interval_us)
        }
        fn set_rate_record(&mut self, delivered: u32, interval_us: u32, app_limited: bool) {
            self.rate_delivered = delivered;
            self.rate_interval_us = interval_us;
            self.rate_app_limited = app_limited;
        }
    };
}
pub(crate) use rate_sock_fields;

impl RateSock for TcpSock {
    fn pipe_empty(&self) -> bool {
        self.packets_out == 0
    }
    fn delivered_ce(&self) -> u32 {
        self.delivered_ce
    }
    fn mstamp(&self) -> u64 {
        self.tcp_mstamp
    }
    fn min_rtt_us(&self) -> u32 {
        self.tcp_min_rtt()
    }
    rate_sock_fields!();
}

/// `tcp_stamp_us_delta(t1, t0)`: `t1 - t0` in µs, 0 when negative, truncated to `u32`.
pub const fn tcp_stamp_us_delta(t1: u64, t0: u64) -> u32 {
    // Linux include/net/tcp.h tcp_stamp_us_delta(): max_t(s64, t1 - t0, 0), returned as u32
    let d = t1.wrapping_sub(t0) as i64;
    if d < 0 { 0 } else { d as u32 }
}

/// `tcp_stamp32_us_delta(t1, t0)` (BBRv3): the same for `u32` µs stamps, wrapping:
/// `(s32)(t1 - t0)`, 0 when negative.
pub const fn tcp_stamp32_us_delta(t1: u32, t0: u32) -> u32 {
    // BBRv3 include/net/tcp.h tcp_stamp32_us_delta(): max_t(s32, t1 - t0, 0)
    let d = t1.wrapping_sub(t0) as i32;
    if d < 0 { 0 } else { d as u32 }
}

/// `tcp_skb_sent_after(t1, t2, seq1, seq2)`: sent later, or at the same time with a
/// higher end sequence.
pub const fn tcp_skb_sent_after(t1: u64, t2: u64, seq1: u32, seq2: u32) -> bool {
    // Linux include/net/tcp.h tcp_skb_sent_after()
    t1 > t2 || (t1 == t2 && after(seq1, seq2))
}

/// `tcp_rate_skb_sent()`: the snapshot for a segment leaving at `skb_mstamp_us` (its
/// departure time, `tcp_skb_timestamp_us`).
///
/// Call it before `packets_out` counts the segment: with nothing outstanding, the send
/// phase starts now.
pub fn tcp_rate_skb_sent<S: RateSock>(sk: &mut S, skb_mstamp_us: u64) -> TxSnapshot {
    // Linux net/ipv4/tcp_rate.c tcp_rate_skb_sent(): an empty pipe starts a new phase
    if sk.pipe_empty() {
        sk.set_first_tx_mstamp(skb_mstamp_us);
        sk.set_delivered_mstamp(skb_mstamp_us);
    }
    let mut tx = TxSnapshot {
        first_tx_mstamp: sk.first_tx_mstamp(),
        delivered_mstamp: sk.delivered_mstamp(),
        delivered: sk.delivered(),
        lost: sk.lost(),
        bits: 0,
        in_flight: 0,
    };
    tx.set_flags(sk.app_limited() != 0, sk.delivered_ce());
    tx
}

/// BBRv3's `tcp_rate_skb_sent()`: as [`tcp_rate_skb_sent`], but the kernel's v3
/// `tcp_skb_cb` keeps `tx.first_tx_mstamp` and `tx.delivered_mstamp` as `u32` µs (so
/// a snapshot taken when the clock's low 32 bits are 0 reads "no timing"), and
/// `tcp_set_tx_in_flight` records the flight including this skb's `pcount` segments
/// (call it, like the v1 function, before `packets_out` counts the skb).
pub fn tcp_rate_skb_sent_v3(sk: &mut TcpSock, skb_mstamp_us: u64, pcount: u32) -> TxSnapshot {
    let in_flight = sk.packets_in_flight().wrapping_add(pcount);
    rate_skb_sent_v3(sk, skb_mstamp_us, in_flight)
}

/// [`tcp_rate_skb_sent_v3()`] on any [`RateSock`], with `in_flight` the flight
/// including this skb.
pub(crate) fn rate_skb_sent_v3<S: RateSock>(
    sk: &mut S,
    skb_mstamp_us: u64,
    in_flight: u32,
) -> TxSnapshot {
    let mut tx = tcp_rate_skb_sent(sk, skb_mstamp_us);
    // BBRv3 include/net/tcp.h struct tcp_skb_cb: u32 first_tx_mstamp, delivered_mstamp
    tx.first_tx_mstamp = u64::from(tx.first_tx_mstamp as u32);
    tx.delivered_mstamp = u64::from(tx.delivered_mstamp as u32);
    tx.bits |= STAMP32;
    // BBRv3 net/ipv4/tcp_rate.c tcp_set_tx_in_flight(): packets in flight after this skb
    tx.set_in_flight(in_flight);
    tx
}

/// `tcp_rate_skb_delivered()`: one newly SACKed or cumulatively ACKed segment, sent at
/// `skb_mstamp_us`, ending at `end_seq`, with its `sacked` bits ([`skb`]) as they are
/// after this ACK tagged it.
///
/// The most recently sent segment of the ACK gives the sample. A SACKed segment's
/// snapshot is spent (`delivered_mstamp = 0`), so its later cumulative ACK is a no-op.
pub fn tcp_rate_skb_delivered<S: RateSock>(
    sk: &mut S,
    tx: &mut TxSnapshot,
    skb_mstamp_us: u64,
    end_seq: u32,
    sacked: u8,
    rs: &mut RateSample,
) {
    if tx.delivered_mstamp == 0 {
        return;
    }
    // Linux net/ipv4/tcp_rate.c tcp_rate_skb_delivered(): no sample yet, or a later-sent skb
    if rs.prior_delivered == 0
        || tcp_skb_sent_after(
            skb_mstamp_us,
            sk.first_tx_mstamp(),
            end_seq,
            rs.last_end_seq,
        )
    {
        rs.prior_delivered_ce = tx.delivered_ce();
        rs.prior_delivered = tx.delivered;
        rs.prior_lost = tx.lost;
        rs.tx_in_flight = tx.in_flight;
        rs.prior_mstamp = tx.delivered_mstamp;
        rs.is_app_limited = tx.is_app_limited();
        rs.is_retrans = sacked & skb::RETRANS != 0;
        rs.last_end_seq = end_seq;
        rs.stamp32 = tx.is_stamp32();
        sk.set_first_tx_mstamp(skb_mstamp_us);
        // Linux net/ipv4/tcp_rate.c tcp_rate_skb_delivered(): the send phase of this window
        rs.interval_us = i64::from(if rs.stamp32 {
            tcp_stamp32_us_delta(skb_mstamp_us as u32, tx.first_tx_mstamp as u32)
        } else {
            tcp_stamp_us_delta(skb_mstamp_us, tx.first_tx_mstamp)
        });
    }
    if sacked & skb::SACKED_ACKED != 0 {
        tx.delivered_mstamp = 0;
    }
}

/// `tcp_rate_gen()`: ends the ACK's sample. `delivered` and `lost` are the segments this
/// ACK newly delivered and newly marked lost; `is_sack_reneg` invalidates the sample.
pub fn tcp_rate_gen<S: RateSock>(
    sk: &mut S,
    delivered: u32,
    lost: u32,
    is_sack_reneg: bool,
    rs: &mut RateSample,
) {
    // Linux net/ipv4/tcp_rate.c tcp_rate_gen(): the app-limited bubble was delivered
    if sk.app_limited() != 0 && after(sk.delivered(), sk.app_limited()) {
        sk.set_app_limited(0);
    }
    if delivered != 0 {
        sk.set_delivered_mstamp(sk.mstamp());
    }
    rs.acked_sacked = delivered;
    // The kernel stores the u32 count into an int.
    rs.losses = lost as i32;
    if rs.prior_mstamp == 0 || is_sack_reneg {
        rs.delivered = -1;
        rs.interval_us = -1;
        return;
    }
    // Linux net/ipv4/tcp_rate.c tcp_rate_gen(): u32 differences stored into s32
    rs.delivered = sk.delivered().wrapping_sub(rs.prior_delivered) as i32;
    rs.delivered_ce =
        (sk.delivered_ce().wrapping_sub(rs.prior_delivered_ce) & DELIVERED_CE_MASK) as i32;
    // BBRv3 net/ipv4/tcp_rate.c tcp_rate_gen(): lost over the interval
    rs.lost = sk.lost().wrapping_sub(rs.prior_lost) as i32;

    // Linux net/ipv4/tcp_rate.c tcp_rate_gen(): u32 snd_us = rs->interval_us (the send
    // phase tcp_rate_skb_delivered stored, 0 to u32::MAX: the truncation keeps it).
    let snd_us = rs.interval_us as u32;
    let ack_us = if rs.stamp32 {
        // BBRv3 net/ipv4/tcp_rate.c tcp_rate_gen(): the ACK phase in u32 µs
        tcp_stamp32_us_delta(sk.mstamp() as u32, rs.prior_mstamp as u32)
    } else {
        tcp_stamp_us_delta(sk.mstamp(), rs.prior_mstamp)
    };
    // Linux net/ipv4/tcp_rate.c tcp_rate_gen(): the longer of the send and ACK phases
    rs.interval_us = i64::from(snd_us.max(ack_us));
    rs.snd_interval_us = snd_us;
    rs.rcv_interval_us = ack_us;

    // Linux net/ipv4/tcp_rate.c tcp_rate_gen(): shorter than min_rtt is not plausible
    if rs.interval_us < i64::from(sk.min_rtt_us()) {
        rs.interval_us = -1;
        return;
    }
    // Linux net/ipv4/tcp_rate.c tcp_rate_gen(): keep the last non-app-limited or the highest app-limited rate
    // (u64)rs->delivered sign-extends the s32, as C does; the products wrap as u64.
    let delivered_u64 = i64::from(rs.delivered) as u64;
    let (rate_delivered, rate_interval_us) = sk.rate_record();
    if !rs.is_app_limited
        || delivered_u64.wrapping_mul(u64::from(rate_interval_us))
            >= u64::from(rate_delivered).wrapping_mul(rs.interval_us as u64)
    {
        sk.set_rate_record(
            rs.delivered as u32,
            rs.interval_us as u32,
            rs.is_app_limited,
        );
    }
}

/// `tcp_rate_check_app_limited()`: marks the socket application-limited when it has
/// nothing to send although cwnd would allow it. `host_queues_empty` is the kernel's
/// `sk_wmem_alloc_get(sk) < SKB_TRUESIZE(1)` (nothing in the qdisc or NIC queues).
///
/// In segments, "less than one packet to send" is `write_seq == snd_nxt`.
pub fn tcp_rate_check_app_limited(sk: &mut TcpSock, host_queues_empty: bool) {
    let in_flight = sk.packets_in_flight();
    // Linux net/ipv4/tcp_rate.c tcp_rate_check_app_limited(): in_flight < cwnd is strict
    if sk.write_seq.wrapping_sub(sk.snd_nxt) < 1
        && host_queues_empty
        && in_flight < sk.snd_cwnd
        && sk.lost_out <= sk.retrans_out
    {
        let bubble = sk.delivered.wrapping_add(in_flight);
        sk.app_limited = if bubble == 0 { 1 } else { bubble };
    }
}

#[cfg(test)]
mod tests;
