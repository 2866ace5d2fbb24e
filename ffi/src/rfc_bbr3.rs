//! RFC-mode BBRv3 through the C ABI (`congestion_rfc_bbr3_*`, the Rust
//! `rfc::Bbr3Controller`, draft-ietf-ccwg-bbr): the trait's per-packet calls in bytes,
//! for QUIC stacks. Per packet the caller stores the [`CongestionTxSnapshot`] the send
//! call gives and hands it back on the packet's ACK (the newest packet an ACK
//! acknowledges) or loss. The machinery is in `packet.rs`.

use crate::packet::{self, Get, Plain, Sampled, Sent, StoredRandom};
use crate::tcp_blob::{CongestionRandom, init_params};
use crate::*;
use congestion::ConfigError;
use congestion::rfc::{Bbr3Config, Bbr3Controller};

/// RFC-mode BBRv3's settings (Rust's `rfc::Bbr3Config`). Fill it with
/// `congestion_rfc_bbr3_config_quic`, change what you need, then call
/// `congestion_rfc_bbr3_params_init`. 16 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CongestionRfcBbr3Config {
    /// `C.SMSS`: the maximum datagram size, bytes (1..=65535).
    pub smss: u32,
    /// `C.InitialCwnd`, bytes: at least `smss`, below 2^30.
    pub initial_cwnd: u32,
    /// Bytes a pacing offload may hold scheduled ahead (0: none; below 2^30).
    pub pacing_offload_bytes: u32,
    /// `C.has_selective_acks`: nonzero for QUIC (ACK ranges).
    pub has_selective_acks: u8,
    /// Zero.
    pub reserved: [u8; 3],
}

const _: () = assert!(size_of::<CongestionRfcBbr3Config>() == 16);

/// Fills `*config` with QUIC's defaults for datagrams of `smss` bytes (Rust's
/// `Bbr3Config::quic(smss)`): initial window `min(10 × smss, max(14720, 2 × smss))`
/// (RFC 9002 §7.2), selective ACKs, no pacing offload.
///
/// Returns `CONGESTION_OK`, or `CONGESTION_ERR_NULL` if `config` is NULL.
///
/// # Safety
/// `config` is NULL or valid for writing one `CongestionRfcBbr3Config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_config_quic(
    config: *mut CongestionRfcBbr3Config,
    smss: u32,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let c = Bbr3Config::quic(smss);
    let out = CongestionRfcBbr3Config {
        smss: c.smss,
        initial_cwnd: c.initial_cwnd,
        pacing_offload_bytes: c.pacing_offload_bytes,
        has_selective_acks: u8::from(c.has_selective_acks),
        reserved: [0; 3],
    };
    // SAFETY: non-null and writable per the contract.
    unsafe { config.write(out) };
    CONGESTION_OK
}

/// The code naming a refused field of `Bbr3Config::validate`.
fn code(e: ConfigError, smss: u32) -> i32 {
    match e {
        ConfigError::MssOutOfRange if smss == 0 => CONGESTION_ERR_MSS,
        ConfigError::MssOutOfRange => CONGESTION_ERR_MSS_RANGE,
        ConfigError::InitialWindowOutOfRange => CONGESTION_ERR_INITIAL_WINDOW,
        ConfigError::ParamOutOfRange { .. } => CONGESTION_ERR_PACING_OFFLOAD,
        _ => CONGESTION_ERR_CONFIG,
    }
}

/// Validates `*config` into the parameter block at `params` (a buffer of `params_size`
/// bytes, 8-byte aligned). On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or the code naming the refused field: `CONGESTION_ERR_MSS`
/// (`smss` 0), `CONGESTION_ERR_MSS_RANGE` (`smss` above 65535),
/// `CONGESTION_ERR_INITIAL_WINDOW` (below `smss`, or 2^30 or more),
/// `CONGESTION_ERR_PACING_OFFLOAD` (2^30 or more), `CONGESTION_ERR_ARGUMENT` (a
/// `has_selective_acks` other than 0 or 1, or nonzero `reserved` bytes).
///
/// # Safety
/// `params` is NULL or valid for writes of `params_size` bytes; `config` NULL or
/// readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_params_init(
    params: *mut CongestionRfcBbr3Params,
    params_size: usize,
    config: *const CongestionRfcBbr3Config,
) -> i32 {
    // SAFETY: NULL or readable per the contract; plain integers.
    let Some(c) = (unsafe { config.as_ref() }) else {
        return CONGESTION_ERR_NULL;
    };
    if c.has_selective_acks > 1 || c.reserved != [0; 3] {
        return CONGESTION_ERR_ARGUMENT;
    }
    let mut b = Bbr3Config::quic(c.smss);
    b.initial_cwnd = c.initial_cwnd;
    b.pacing_offload_bytes = c.pacing_offload_bytes;
    b.has_selective_acks = c.has_selective_acks != 0;
    match b.validate() {
        // SAFETY: forwarded contract.
        Ok(p) => unsafe { init_params(params, params_size, p) },
        Err(e) => code(e, c.smss),
    }
}

/// Initialises the RFC-mode BBRv3 flow at `state` (a buffer of `state_size` bytes,
/// aligned to 64) on the parameter block `params`, starting at `now_us`, drawing from
/// `*rand` (Rust's `Bbr3Controller::with_params(params, now, rand)`). The state keeps
/// copies of both: the block may go afterwards, but `rand`'s `ctx` must stay valid as
/// long as the state is used. On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or `CONGESTION_ERR_UNINITIALIZED` (a block never initialised,
/// or another algorithm's).
///
/// # Safety
/// `state` is NULL or valid for writes of `state_size` bytes; `params` NULL or an
/// initialised block; `rand` NULL or readable, its `below` callable with its `ctx`
/// during every call on the state.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_init(
    state: *mut CongestionRfcBbr3State,
    state_size: usize,
    params: *const CongestionRfcBbr3Params,
    now_us: u64,
    rand: *const CongestionRandom,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        packet::init(state, state_size, params, rand, |p, r: StoredRandom| {
            Bbr3Controller::with_params(p, crate::flow::at(now_us), r)
        })
    }
}

/// One packet was sent at `now_us`: `in_flight_after` bytes are in flight now by the
/// stack's own count, `largest_sent` is its packet number (Rust's `on_packet_sent(now,
/// &SentEvent::new(in_flight_after, largest_sent))`). `*snapshot` gets the packet's
/// [`CongestionTxSnapshot`]: store it with the packet and hand it back on its ACK or
/// loss. Returns `CONGESTION_ERR_NULL` (nothing changed) if `snapshot` is NULL.
///
/// # Safety
/// `state` as for every event; `snapshot` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_on_packet_sent(
    state: *mut CongestionRfcBbr3State,
    now_us: u64,
    in_flight_after: u64,
    largest_sent: u64,
    snapshot: *mut CongestionTxSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        packet::sent(
            state,
            now_us,
            Sent::Event(in_flight_after, largest_sent),
            snapshot,
        )
    }
}

/// One packet of `sent` bytes was sent at `now_us`, numbered `largest_sent`, the flow
/// adding it to its own in-flight count (Rust's `on_packet_sent_counted`); `*snapshot`
/// as for `congestion_rfc_bbr3_on_packet_sent`.
///
/// # Safety
/// `state` as for every event; `snapshot` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_on_packet_sent_counted(
    state: *mut CongestionRfcBbr3State,
    now_us: u64,
    sent: u64,
    largest_sent: u64,
    snapshot: *mut CongestionTxSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::sent(state, now_us, Sent::Counted(sent, largest_sent), snapshot) }
}

/// An ACK at `now_us` newly acknowledging `acked` bytes, the largest packet it covers
/// `largest_acked` (`CONGESTION_PACKET_UNKNOWN`: none named), its RTT sample `rtt_us`
/// (negative: none), `app_limited` nonzero when the application limited the flight,
/// `ce_delta` packets newly CE-marked; the newest packet it acknowledges was sent at
/// `time_sent_us` and its send gave `*snapshot` (Rust's `on_ack_sampled(now,
/// &AckEvent, &AckedPacket::new(time_sent, snapshot))`).
///
/// Returns `CONGESTION_ERR_SNAPSHOT` (nothing changed) for a snapshot no send of this
/// flow wrote, `CONGESTION_ERR_NULL` for a NULL `snapshot`.
///
/// # Safety
/// `state` as for every event; `snapshot` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_on_ack_sampled(
    state: *mut CongestionRfcBbr3State,
    now_us: u64,
    acked: u64,
    largest_acked: u64,
    rtt_us: i64,
    app_limited: u8,
    ce_delta: u64,
    time_sent_us: u64,
    snapshot: *const CongestionTxSnapshot,
) -> i32 {
    let ack = packet::ack(acked, largest_acked, rtt_us, app_limited, ce_delta);
    // SAFETY: forwarded contract.
    unsafe { packet::sampled(state, now_us, Sampled::Ack(ack, time_sent_us), snapshot) }
}

/// An ACK without a delivery-rate sample (one that acknowledges nothing new, or whose
/// packets' snapshots were not kept): the arguments of `congestion_rfc_bbr3_on_ack_sampled`
/// without the newest packet (Rust's `on_ack`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_on_ack(
    state: *mut CongestionRfcBbr3State,
    now_us: u64,
    acked: u64,
    largest_acked: u64,
    rtt_us: i64,
    app_limited: u8,
    ce_delta: u64,
) -> i32 {
    let ack = packet::ack(acked, largest_acked, rtt_us, app_limited, ce_delta);
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Ack(ack)) }
}

/// `lost` bytes were declared lost at `now_us`, the newest of them numbered
/// `newest_lost` (`CONGESTION_PACKET_UNKNOWN`: not named), with persistent congestion
/// when `persistent_congestion` is nonzero; `*snapshot` is what the lost packet's send
/// gave (Rust's `on_packet_lost(now, &LossEvent, snapshot)`). Call it once per lost
/// packet. Errors as `congestion_rfc_bbr3_on_ack_sampled`.
///
/// # Safety
/// `state` as for every event; `snapshot` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_on_packet_lost(
    state: *mut CongestionRfcBbr3State,
    now_us: u64,
    lost: u64,
    newest_lost: u64,
    persistent_congestion: u8,
    snapshot: *const CongestionTxSnapshot,
) -> i32 {
    let loss = packet::loss(lost, newest_lost, persistent_congestion);
    // SAFETY: forwarded contract.
    unsafe { packet::sampled(state, now_us, Sampled::Lost(loss), snapshot) }
}

/// The ECN-CE count rose by `ce_increase` in the ACK of `largest_acked` (Rust's
/// `on_ecn`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_on_ecn(
    state: *mut CongestionRfcBbr3State,
    now_us: u64,
    ce_increase: u64,
    largest_acked: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Ecn(ce_increase, largest_acked)) }
}

/// A retransmission timeout fired (Rust's `on_retransmission_timeout`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_on_rto(
    state: *mut CongestionRfcBbr3State,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Rto) }
}

/// `amount` bytes left flight without a congestion signal (keys discarded; Rust's
/// `on_discarded`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_on_discarded(
    state: *mut CongestionRfcBbr3State,
    now_us: u64,
    amount: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Discarded(amount)) }
}

/// The last reduction was spurious (Rust's `on_spurious_congestion`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_on_spurious(
    state: *mut CongestionRfcBbr3State,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Spurious) }
}

/// `*cwnd` = the congestion window, bytes.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_cwnd(
    state: *const CongestionRfcBbr3State,
    cwnd: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, cwnd, Get::Cwnd) }
}

/// `*ssthresh` = the slow-start threshold, bytes; `CONGESTION_SSTHRESH_NONE` for none.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_ssthresh(
    state: *const CongestionRfcBbr3State,
    ssthresh: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, ssthresh, Get::Ssthresh) }
}

/// `*in_flight` = what the flow counts in flight, bytes.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_in_flight(
    state: *const CongestionRfcBbr3State,
    in_flight: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, in_flight, Get::InFlight) }
}

/// `*bytes_per_second` = the pacing rate, bytes per second.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_pacing_rate(
    state: *const CongestionRfcBbr3State,
    bytes_per_second: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, bytes_per_second, Get::PacingRate) }
}

/// `*bytes` = the largest burst to send at once, bytes.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_send_quantum(
    state: *const CongestionRfcBbr3State,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, bytes, Get::SendQuantum) }
}

/// `*bytes` = the packet size (MSS, QUIC max datagram size) the flow works with, bytes.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_mss(
    state: *const CongestionRfcBbr3State,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, bytes, Get::Mss) }
}

/// `*phase` = the `CONGESTION_PHASE_*` of the flow (Startup is slow start).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_phase(
    state: *const CongestionRfcBbr3State,
    phase: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get_u32(state, phase, false) }
}

/// `*state_number` = `BBR.state`, a `CONGESTION_RFC_BBR3_STATE_*` value.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_bbr3_bbr_state(
    state: *const CongestionRfcBbr3State,
    state_number: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get_u32(state, state_number, true) }
}
