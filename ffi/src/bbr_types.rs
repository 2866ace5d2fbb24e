//! The plain C structs BBR v1 and BBRv3 share: the per-segment snapshot the caller
//! stores with each segment ([`CongestionTxSnapshot`]), a delivered segment, the
//! scoreboard counters, and the configuration both versions are built from.

use crate::*;
use congestion::ConfigError;
use congestion::hystart::PacingStatus;
use congestion::linux::bbr::{DeliveredSegment, Flight, Sent};

use crate::tcp_blob::{CallerRandom, CongestionRandom, FlowInner, random, with_flow};
use congestion::linux::tcp::TxSnapshot;
use congestion::linux::{Bbr3Config, BbrConfig, TCP_INFINITE_SSTHRESH};

/// What the delivery-rate sampler keeps per segment (the kernel's `tcp_skb_cb.tx`),
/// taken when the segment is (re)transmitted: `congestion_linux_bbr_on_send` and
/// `congestion_linux_bbr3_on_send` fill one, the caller stores it with the segment
/// (beside the segment's departure time) and hands it back when the segment is
/// delivered or marked lost. 32 bytes, plain integers; store and copy it unchanged.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CongestionTxSnapshot {
    /// `tx.first_tx_mstamp`, µs.
    pub first_tx_mstamp: u64,
    /// `tx.delivered_mstamp`, µs; 0 once the segment was SACKed (the ACK call clears
    /// it in the caller's array, so that its later cumulative ACK samples nothing).
    pub delivered_mstamp: u64,
    /// `tx.delivered`.
    pub delivered: u32,
    /// `tx.lost` (BBRv3).
    pub lost: u32,
    /// `tx.is_app_limited` (bit 0), `tx.delivered_ce` (bits 1..=20) and BBRv3's
    /// 32-bit-stamp mark (bit 21).
    pub flags: u32,
    /// `tx.in_flight` (BBRv3), at most 2^20 - 1.
    pub in_flight: u32,
}

const _: () = assert!(size_of::<CongestionTxSnapshot>() == 32);

impl CongestionTxSnapshot {
    /// The C form of the library's snapshot.
    pub(crate) const fn from_rust(s: &TxSnapshot) -> Self {
        CongestionTxSnapshot {
            first_tx_mstamp: s.first_tx_mstamp,
            delivered_mstamp: s.delivered_mstamp,
            delivered: s.delivered,
            lost: s.lost,
            flags: s.packed_flags(),
            in_flight: s.in_flight(),
        }
    }
}

/// One segment an ACK newly delivered (cumulatively or by SACK), as the caller stored
/// it. 48 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CongestionDeliveredSegment {
    /// The departure time the send call gave for its last transmission, ns.
    pub departure_ns: u64,
    /// The snapshot the send call gave for its last transmission.
    pub snapshot: CongestionTxSnapshot,
    /// Its end sequence: one past its own sequence number, segments.
    pub end_seq: u32,
    /// Nonzero: it was ever retransmitted (`TCPCB_RETRANS`).
    pub retransmitted: u8,
    /// Nonzero: delivered by SACK on this ACK (not cumulatively).
    pub sacked: u8,
}

/// The caller's scoreboard counters, segments (`packets_out`, `sacked_out`,
/// `lost_out`, `retrans_out`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CongestionFlight {
    /// Segments sent and not cumulatively acknowledged.
    pub packets_out: u32,
    /// Of those, SACKed.
    pub sacked_out: u32,
    /// Of those, marked lost (and not SACKed).
    pub lost_out: u32,
    /// Retransmissions in flight.
    pub retrans_out: u32,
}

impl CongestionFlight {
    /// The library's counters.
    pub(crate) const fn to_rust(self) -> Flight {
        Flight {
            packets_out: self.packets_out,
            sacked_out: self.sacked_out,
            lost_out: self.lost_out,
            retrans_out: self.retrans_out,
        }
    }
}

/// At most this many delivered segments (or lost snapshots) one call takes; more is
/// refused with `CONGESTION_ERR_ARGUMENT` (the kernel's 20-bit `tx.in_flight` limit, far
/// above any window).
pub const CONGESTION_MAX_SEGMENTS_PER_ACK: usize = (1 << 20) - 1;

// The library's types are `repr(C)` with these fields in this order; the sizes and the
// public fields' offsets are checked here, the private ones by a test (`in_place`).
const _: () = assert!(size_of::<CongestionTxSnapshot>() == size_of::<TxSnapshot>());
const _: () = assert!(align_of::<CongestionTxSnapshot>() == align_of::<TxSnapshot>());
const _: () = assert!(size_of::<CongestionDeliveredSegment>() == size_of::<DeliveredSegment>());
const _: () = assert!(align_of::<CongestionDeliveredSegment>() == align_of::<DeliveredSegment>());
const _: () = assert!(
    core::mem::offset_of!(CongestionDeliveredSegment, snapshot)
        == core::mem::offset_of!(DeliveredSegment, sent) + core::mem::offset_of!(Sent, snapshot)
);
const _: () = assert!(
    core::mem::offset_of!(CongestionDeliveredSegment, end_seq)
        == core::mem::offset_of!(DeliveredSegment, end_seq)
);
const _: () = assert!(
    core::mem::offset_of!(CongestionDeliveredSegment, retransmitted)
        == core::mem::offset_of!(DeliveredSegment, retransmitted)
);
const _: () = assert!(
    core::mem::offset_of!(CongestionDeliveredSegment, sacked)
        == core::mem::offset_of!(DeliveredSegment, sacked)
);

/// NULL with a nonzero length, a misaligned array or one above the limit, as the error
/// code.
fn check_array<T>(ptr: *const T, len: usize) -> Result<(), i32> {
    if len == 0 {
        Ok(())
    } else if ptr.is_null() {
        Err(CONGESTION_ERR_NULL)
    } else if ptr.addr() % align_of::<T>() != 0 {
        Err(CONGESTION_ERR_ALIGNMENT)
    } else if len > CONGESTION_MAX_SEGMENTS_PER_ACK {
        Err(CONGESTION_ERR_ARGUMENT)
    } else {
        Ok(())
    }
}

/// The caller's delivered segments as the library's, in place (the ACK call spends
/// their snapshots there). Every flag byte must be 0 or 1 (`CONGESTION_ERR_ARGUMENT`
/// otherwise, nothing read further): the library's `bool`s take no other value.
///
/// # Safety
/// `ptr` is NULL (with `len` 0) or valid for reads and writes of `len` elements, not
/// used otherwise during the call.
pub(crate) unsafe fn delivered_segments<'a>(
    ptr: *mut CongestionDeliveredSegment,
    len: usize,
) -> Result<&'a mut [DeliveredSegment], i32> {
    check_array(ptr, len)?;
    if len == 0 {
        return Ok(&mut []);
    }
    // SAFETY: non-null, aligned, valid for `len` elements per the contract.
    let c = unsafe { core::slice::from_raw_parts_mut(ptr, len) };
    if c.iter().any(|s| s.retransmitted > 1 || s.sacked > 1) {
        return Err(CONGESTION_ERR_ARGUMENT);
    }
    // SAFETY: the same layout (asserted above; `repr(C)` on both sides), every field an
    // integer but the two flags, which were just checked to be valid `bool`s.
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr.cast::<DeliveredSegment>(), len) })
}

/// The caller's snapshots as the library's, in place (read only).
///
/// # Safety
/// `ptr` is NULL (with `len` 0) or valid for reads of `len` elements, not written
/// during the call.
pub(crate) unsafe fn snapshots<'a>(
    ptr: *const CongestionTxSnapshot,
    len: usize,
) -> Result<&'a [TxSnapshot], i32> {
    check_array(ptr, len)?;
    if len == 0 {
        return Ok(&[]);
    }
    // SAFETY: non-null, aligned, valid for `len` elements per the contract; the same
    // layout (asserted above; `repr(C)` on both sides), every field an integer.
    Ok(unsafe { core::slice::from_raw_parts(ptr.cast::<TxSnapshot>(), len) })
}

/// A Linux-mode BBR flow's settings (v1 and v3 alike; v1 ignores the fields marked
/// v3). Fill it with `congestion_linux_bbr_config_default`, change what you need, then
/// call `congestion_linux_bbr_params_init` (or `_bbr3_`). Flags are `uint8_t`: 0 false,
/// anything else true.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionLinuxBbrConfig {
    /// `sk_max_pacing_rate`, bytes/s (`CONGESTION_RATE_UNLIMITED`: none).
    pub max_pacing_rate: u64,
    /// `mss_cache`, bytes (1448; at least 1).
    pub mss: u32,
    /// The initial window, segments (10; at least 1, at most `cwnd_clamp`).
    pub init_cwnd: u32,
    /// `snd_cwnd_clamp`, segments (UINT32_MAX; at least 1).
    pub cwnd_clamp: u32,
    /// The handshake RTT, µs (0: none; 1 ms is assumed for the first pacing rate).
    pub initial_rtt_us: u32,
    /// `MAX_TCP_HEADER`, bytes (320; below 65535): the TSO goal's cap is 65535 minus it.
    pub max_tcp_header: u32,
    /// v3: `tcp_min_tso_segs`, segments (2).
    pub min_tso_segs: u32,
    /// `sk_pacing_status` before BBR starts: 0 none (BBR paces itself), 1 needed, 2 fq.
    pub pacing_status: u8,
    /// `sk_pacing_shift` (10; v1 below 32, v3 below 64).
    pub pacing_shift: u8,
    /// v3: ECN was negotiated (`TCP_ECN_OK`): ECE marks count and cause CWR (0).
    pub ecn: u8,
    /// v3: a shallow-threshold ECN path (`TCP_ECN_LOW`) (0).
    pub ecn_low: u8,
}

impl CongestionLinuxBbrConfig {
    /// The kernel's defaults.
    fn linux_default() -> Self {
        let c = congestion::linux::bbr3::Bbr3Config::new();
        CongestionLinuxBbrConfig {
            max_pacing_rate: c.max_pacing_rate,
            mss: c.mss,
            init_cwnd: c.init_cwnd,
            cwnd_clamp: c.cwnd_clamp,
            initial_rtt_us: c.initial_rtt_us,
            max_tcp_header: c.max_tcp_header,
            min_tso_segs: c.min_tso_segs,
            pacing_status: c.pacing_status.code(),
            pacing_shift: c.pacing_shift,
            ecn: u8::from(c.ecn),
            ecn_low: u8::from(c.ecn_low),
        }
    }

    /// `pacing_status`, or the error naming it.
    pub(crate) const fn pacing_status(&self) -> Result<PacingStatus, i32> {
        pacing_status(self.pacing_status)
    }
}

/// A `sk_pacing_status` code (0, 1, 2), or `CONGESTION_ERR_PACING_STATUS`.
pub(crate) const fn pacing_status(code: u8) -> Result<PacingStatus, i32> {
    if code > 2 {
        Err(CONGESTION_ERR_PACING_STATUS)
    } else {
        Ok(PacingStatus::from_code(code))
    }
}

/// The C code of a configuration error of these algorithms: each names the field.
pub(crate) fn config_code(e: ConfigError) -> i32 {
    match e {
        ConfigError::TcpHeaderOutOfRange => CONGESTION_ERR_TCP_HEADER,
        ConfigError::ParamOutOfRange { field, .. } => match field {
            "dctcp_shift_g" => CONGESTION_ERR_DCTCP_SHIFT_G,
            "prague_burst_shift" => CONGESTION_ERR_PRAGUE_BURST_SHIFT,
            "pacing_status" => CONGESTION_ERR_PACING_STATUS,
            _ => CONGESTION_ERR_CONFIG,
        },
        other => crate::linux_config::code(other),
    }
}

/// Fills `*config` with the kernel's defaults for BBR (v1 and v3): mss 1448, IW10, no
/// clamp, no handshake RTT, no pacing cap, pacing none (BBR paces itself), shift 10,
/// `MAX_TCP_HEADER` 320, TSO minimum 2, no ECN.
///
/// Returns `CONGESTION_OK`, or `CONGESTION_ERR_NULL` if `config` is NULL.
///
/// # Safety
/// `config` is NULL or valid for writing one `CongestionLinuxBbrConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_config_default(
    config: *mut CongestionLinuxBbrConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and valid for writes per the contract.
    unsafe { config.write(CongestionLinuxBbrConfig::linux_default()) };
    CONGESTION_OK
}

/// What a BBR v1 ACK did, as the caller's scoreboard saw it (Rust's `BbrAck`): update
/// the scoreboard first, then call `congestion_linux_bbr_on_ack`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionLinuxBbrAck {
    /// The segments newly delivered, SACKed ones first, each group in ascending
    /// sequence; their snapshots are spent in this array: store back those of SACKed
    /// segments. NULL when `delivered_len` is 0.
    pub delivered: *mut CongestionDeliveredSegment,
    /// Entries in `delivered`.
    pub delivered_len: usize,
    /// `snd_una` after the ACK, segments.
    pub snd_una: u32,
    /// `snd_nxt`: the next new segment's sequence number.
    pub snd_nxt: u32,
    /// Segments newly delivered, at least `delivered_len` (more when the caller keeps
    /// no snapshot for some).
    pub delivered_count: u32,
    /// Segments newly marked lost by this ACK.
    pub newly_lost: u32,
    /// The ACK's RTT sample, µs; negative for none (values above UINT32_MAX count as
    /// UINT32_MAX).
    pub rtt_us: i64,
    /// The caller's smoothed RTT, µs (0: none yet).
    pub srtt_us: u32,
    /// Nonzero: the receiver may have delayed the ACK (`FLAG_ACK_MAYBE_DELAYED`).
    pub ack_maybe_delayed: u8,
    /// Nonzero: the caller found the last reduction spurious (DSACK, timestamps): undo.
    pub undo: u8,
    /// The scoreboard counters before the ACK.
    pub prior_flight: CongestionFlight,
    /// The scoreboard counters after it.
    pub flight: CongestionFlight,
}

/// What a BBRv3 ACK did (Rust's `Bbr3Ack`): as [`CongestionLinuxBbrAck`], with the
/// snapshots of the segments it newly marked lost, ECN-Echo, and two send-side facts.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionLinuxBbr3Ack {
    /// As [`CongestionLinuxBbrAck::delivered`].
    pub delivered: *mut CongestionDeliveredSegment,
    /// Entries in `delivered`.
    pub delivered_len: usize,
    /// The snapshots of the segments this ACK newly marked lost, in marking order. NULL
    /// when `newly_lost_len` is 0.
    pub newly_lost: *const CongestionTxSnapshot,
    /// Entries in `newly_lost`.
    pub newly_lost_len: usize,
    /// `snd_una` after the ACK.
    pub snd_una: u32,
    /// `snd_nxt`.
    pub snd_nxt: u32,
    /// Segments newly delivered, at least `delivered_len`.
    pub delivered_count: u32,
    /// The caller's smoothed RTT, µs (0: none yet).
    pub srtt_us: u32,
    /// The ACK's RTT sample, µs; negative for none.
    pub rtt_us: i64,
    /// Nonzero: the ACK may have been delayed.
    pub ack_maybe_delayed: u8,
    /// Nonzero: the ACK carried ECN-Echo (ignored unless the config has `ecn`).
    pub ece: u8,
    /// Nonzero: less than a segment of unsent data and nothing in the host's queues.
    pub nothing_queued: u8,
    /// Nonzero: the last send round was limited by cwnd.
    pub is_cwnd_limited: u8,
    /// Nonzero: undo the last reduction (the caller found it spurious).
    pub undo: u8,
    /// The scoreboard counters before the ACK.
    pub prior_flight: CongestionFlight,
    /// The scoreboard counters after it.
    pub flight: CongestionFlight,
}

/// A BBRv3 retransmission timeout, as the caller saw it (Rust's `Bbr3Rto`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionLinuxBbr3Rto {
    /// The snapshots of the segments newly marked lost, in marking order (NULL when
    /// `newly_lost_len` is 0).
    pub newly_lost: *const CongestionTxSnapshot,
    /// Entries in `newly_lost`.
    pub newly_lost_len: usize,
    /// The counters before the caller marked the outstanding segments lost.
    pub prior_flight: CongestionFlight,
    /// The counters after marking them.
    pub flight: CongestionFlight,
    /// `snd_una`.
    pub snd_una: u32,
    /// `snd_nxt`.
    pub snd_nxt: u32,
    /// Earlier timeouts since the last forward progress (`icsk_retransmits`).
    pub timeouts: u32,
    /// Nonzero: nothing queued (the timer checks for an app-limited bubble first).
    pub nothing_queued: u8,
}

/// BBR's mode: `BBR_STARTUP`.
pub const CONGESTION_BBR_MODE_STARTUP: u32 = 0;

/// BBR's mode: `BBR_DRAIN`.
pub const CONGESTION_BBR_MODE_DRAIN: u32 = 1;

/// BBR's mode: `BBR_PROBE_BW`.
pub const CONGESTION_BBR_MODE_PROBE_BW: u32 = 2;

/// BBR's mode: `BBR_PROBE_RTT`.
pub const CONGESTION_BBR_MODE_PROBE_RTT: u32 = 3;

/// An RTT argument: negative for none, clamped to `u32`.
pub(crate) fn rtt(rtt_us: i64) -> Option<u32> {
    u64::try_from(rtt_us)
        .ok()
        .map(|r| u32::try_from(r).unwrap_or(u32::MAX))
}

/// `snd_ssthresh` as the C ABI gives it: `CONGESTION_SSTHRESH_NONE` for the kernel's
/// "infinite".
pub(crate) fn ssthresh(raw: u32) -> u64 {
    if raw >= TCP_INFINITE_SSTHRESH {
        CONGESTION_SSTHRESH_NONE
    } else {
        u64::from(raw)
    }
}

/// BBR v1's settings from the C config, or the code of the refused field.
pub(crate) fn bbr_params(
    c: &CongestionLinuxBbrConfig,
) -> Result<congestion::linux::BbrParams, i32> {
    let mut b = BbrConfig::new();
    b.mss = c.mss;
    b.init_cwnd = c.init_cwnd;
    b.cwnd_clamp = c.cwnd_clamp;
    b.initial_rtt_us = c.initial_rtt_us;
    b.max_pacing_rate = c.max_pacing_rate;
    b.pacing_status = c.pacing_status()?;
    b.pacing_shift = c.pacing_shift;
    b.max_tcp_header = c.max_tcp_header;
    b.validate().map_err(config_code)
}

/// BBRv3's settings from the C config, or the code of the refused field.
pub(crate) fn bbr3_params(
    c: &CongestionLinuxBbrConfig,
) -> Result<congestion::linux::Bbr3Params, i32> {
    let mut b = Bbr3Config::new();
    b.mss = c.mss;
    b.init_cwnd = c.init_cwnd;
    b.cwnd_clamp = c.cwnd_clamp;
    b.initial_rtt_us = c.initial_rtt_us;
    b.max_pacing_rate = c.max_pacing_rate;
    b.pacing_status = c.pacing_status()?;
    b.pacing_shift = c.pacing_shift;
    b.max_tcp_header = c.max_tcp_header;
    b.min_tso_segs = c.min_tso_segs;
    b.ecn = c.ecn != 0;
    b.ecn_low = c.ecn_low != 0;
    b.validate().map_err(config_code)
}

/// Runs an ACK-like step that needs the caller's random source and arrays: the random
/// source first, then `f`, which returns an error code of its own arrays or OK.
///
/// # Safety
/// As [`with_flow`]; `rand` as for init.
pub(crate) unsafe fn with_random<B, F, P>(
    state: *mut B,
    rand: *const CongestionRandom,
    f: impl FnOnce(&mut F, &P, &mut CallerRandom<'_>) -> i32,
) -> i32
where
    B: crate::state::Blob<Inner = FlowInner<F, P>>,
    F: Copy,
    P: Copy,
{
    // SAFETY: forwarded contract.
    let rand = match unsafe { random(rand) } {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut code = CONGESTION_OK;
    // SAFETY: forwarded contract.
    let outer = unsafe {
        with_flow(state, |flow: &mut F, p| {
            code = f(flow, p, &mut CallerRandom(rand));
        })
    };
    if outer != CONGESTION_OK { outer } else { code }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's snapshot and the C one have the same layout, the private fields
    /// included: a snapshot read in place is the one the send call gave.
    #[test]
    fn in_place() {
        let mut s = TxSnapshot::default();
        s.first_tx_mstamp = 1;
        s.delivered_mstamp = 2;
        s.delivered = 3;
        s.lost = 4;
        s.set_flags(true, 5);
        s.set_in_flight(6);
        let c = CongestionTxSnapshot::from_rust(&s);
        assert_eq!((c.flags, c.in_flight), (1 | 5 << 1, 6));
        // SAFETY: the same size and alignment (asserted at compile time), integers only.
        let read: TxSnapshot = unsafe { core::mem::transmute(c) };
        assert_eq!(read, s);
        let seg = CongestionDeliveredSegment {
            departure_ns: 7,
            snapshot: c,
            end_seq: 8,
            retransmitted: 1,
            sacked: 0,
        };
        // SAFETY: as above; the flags are 0 or 1.
        let d: DeliveredSegment = unsafe { core::mem::transmute(seg) };
        assert_eq!((d.sent.departure_ns, d.sent.snapshot, d.end_seq), (7, s, 8));
        assert!(d.retransmitted && !d.sacked);
    }
}
