//! Linux-mode BBR v1 through the C ABI (`congestion_linux_bbr_*`, the Rust
//! `linux::Bbr`): the kernel-style calls of the Rust flow, one C function each, with the
//! arguments in the same order (the parameter block is the one the state was
//! initialised with).
//!
//! Per segment the caller keeps what the send call gives (the departure time and a
//! [`CongestionTxSnapshot`]) and hands it back in a [`CongestionDeliveredSegment`]
//! when an ACK delivers the segment. Loss and undo are fields of the ACK, as in the Rust
//! call. Every call that may draw a random number takes the caller's
//! [`CongestionRandom`].

use crate::bbr_types::*;
use crate::flow::at;
use crate::tcp_blob::*;
use crate::*;
use congestion::Instant;
use congestion::linux::Bbr;
use congestion::linux::bbr::BbrAck;

/// Validates `*config` into the parameter block at `params` (a buffer of `params_size` bytes, 8-byte aligned) for BBR v1 flows. On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or the code naming the refused field:
/// `CONGESTION_ERR_MSS` (mss 0), `CONGESTION_ERR_CLAMP` (clamp 0),
/// `CONGESTION_ERR_INITIAL_WINDOW` (0 or above the clamp),
/// `CONGESTION_ERR_SHIFT` (`pacing_shift`), `CONGESTION_ERR_TCP_HEADER`
/// (`max_tcp_header`), `CONGESTION_ERR_PACING_STATUS`.
///
/// # Safety
/// `params` is NULL or valid for writes of `params_size` bytes, and no flow
/// initialised with it is in a call; `config` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_params_init(
    params: *mut CongestionLinuxBbrParams,
    params_size: usize,
    config: *const CongestionLinuxBbrConfig,
) -> i32 {
    // SAFETY: NULL or readable per the contract; plain integers.
    let Some(config) = (unsafe { config.as_ref() }) else {
        return CONGESTION_ERR_NULL;
    };
    match bbr_params(config) {
        // SAFETY: forwarded contract.
        Ok(p) => unsafe { init_params(params, params_size, p) },
        Err(code) => code,
    }
}

/// Initialises the BBR v1 flow at `state` (a buffer of `state_size` bytes, aligned to 64) on the parameter block `params` at `now_us`, the connection being established (`bbr_init()` on a fresh socket). The state keeps the block's address. On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or `CONGESTION_ERR_UNINITIALIZED` (a block never
/// initialised, or another algorithm's).
///
/// # Safety
/// `state` is NULL or valid for writes of `state_size` bytes; `params` is NULL
/// or an initialised block that outlives the state; `rand` as for every call
/// that takes one: NULL or readable, its `below` callable with its `ctx`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_init(
    state: *mut CongestionLinuxBbrState,
    state_size: usize,
    params: *const CongestionLinuxBbrParams,
    now_us: u64,
    rand: *const CongestionRandom,
) -> i32 {
    // SAFETY: forwarded contract.
    let rand = match unsafe { random(rand) } {
        Ok(r) => r,
        Err(code) => return code,
    };
    // SAFETY: forwarded contract.
    unsafe {
        init_flow(state, state_size, params, |p| {
            Ok(Bbr::new(p, at(now_us), &mut CallerRandom(rand)))
        })
    }
}

/// A segment (new or retransmitted) is handed to the wire at `now_us`; `flight` holds the counters *before* it is counted. `*departure_ns` gets its earliest departure time (ns on the clock of `now_us` × 1000) and `*snapshot` the sampler's snapshot: store both with the segment, then count it in `packets_out` (or `retrans_out`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently; `rand` as for init; the out-pointers NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_on_send(
    state: *mut CongestionLinuxBbrState,
    now_us: u64,
    flight: CongestionFlight,
    rand: *const CongestionRandom,
    departure_ns: *mut u64,
    snapshot: *mut CongestionTxSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        on_send_with(
            state,
            rand,
            departure_ns,
            snapshot,
            |f: &mut Bbr, p, rand| f.on_send(p, at(now_us), flight.to_rust(), rand),
        )
    }
}

/// The application has nothing more to send (BBRv3: it wrote into an empty
/// queue) and the host queues are empty when `host_queues_empty` is nonzero:
/// `tcp_rate_check_app_limited()`.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_on_app_limited(
    state: *mut CongestionLinuxBbrState,
    now_us: u64,
    flight: CongestionFlight,
    host_queues_empty: u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with_flow(state, |f: &mut Bbr, p| {
            f.on_app_limited(p, at(now_us), flight.to_rust(), host_queues_empty != 0)
        })
    }
}

/// `*cwnd` = `snd_cwnd`, segments.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; `cwnd` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_cwnd(
    state: *const CongestionLinuxBbrState,
    cwnd: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, cwnd, |f: &Bbr, _| u64::from(f.cwnd())) }
}

/// `*ssthresh` = `snd_ssthresh`, segments; `CONGESTION_SSTHRESH_NONE` while the
/// kernel's is "infinite" (BBR sets one only on leaving STARTUP).
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_ssthresh(
    state: *const CongestionLinuxBbrState,
    ssthresh_out: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, ssthresh_out, |f: &Bbr, _| ssthresh(f.ssthresh())) }
}

/// `*bytes_per_second` = `sk_pacing_rate`, bytes per second.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_pacing_rate(
    state: *const CongestionLinuxBbrState,
    bytes_per_second: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, bytes_per_second, |f: &Bbr, _| f.pacing_rate()) }
}

/// `*departure_ns` = `tcp_wstamp_ns`: the earliest departure of the next
/// segment, ns.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_next_departure_ns(
    state: *const CongestionLinuxBbrState,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, departure_ns, |f: &Bbr, _| f.next_departure_ns()) }
}

/// `*mode` = BBR's mode, a `CONGESTION_BBR_MODE_*` value.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_mode(
    state: *const CongestionLinuxBbrState,
    mode: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, mode, |f: &Bbr, _| f.mode() as u32) }
}

/// `*ca_state` = the CA state: 0 Open, 2 CWR (BBRv3 with ECN), 3 Recovery,
/// 4 Loss.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_ca_state(
    state: *const CongestionLinuxBbrState,
    ca_state: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, ca_state, |f: &Bbr, _| f.ca_state() as u32) }
}

/// `*bw` = `bbr_bw()`: the bandwidth estimate, segments per µs × 2^24.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_bw(
    state: *const CongestionLinuxBbrState,
    bw: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, bw, |f: &Bbr, _| f.bw()) }
}

/// `*min_rtt_us` = `tcp_min_rtt()`, µs (UINT32_MAX before a sample).
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_min_rtt(
    state: *const CongestionLinuxBbrState,
    min_rtt_us: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, min_rtt_us, |f: &Bbr, _| f.tcp_min_rtt()) }
}

/// `*segments` = `bbr_tso_segs_goal()`: segments per TSO/GSO burst at the
/// current pacing rate.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_tso_segs_goal(
    state: *const CongestionLinuxBbrState,
    segments: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, segments, |f: &Bbr, p| f.tso_segs_goal(p)) }
}

/// An ACK at `now_us` (Rust's `Bbr::on_ack`): the sampler's step on each delivered
/// segment, the RTT filter, undo, the end of Recovery/Loss, loss counting, the start of
/// Recovery, the rate sample and `bbr_main()`, in `tcp_ack()`'s order. An ACK with
/// nothing outstanding before it (`prior_flight.packets_out` 0) changes nothing.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL` (a NULL pointer, or `delivered` NULL
/// with a nonzero length), `CONGESTION_ERR_ALIGNMENT` (a misaligned array),
/// `CONGESTION_ERR_ARGUMENT` (a flag byte other than 0 or 1 in a delivered segment, or
/// more than `CONGESTION_MAX_SEGMENTS_PER_ACK` of them), or the state's error. On an
/// error nothing changed.
///
/// # Safety
/// `state` is NULL or an initialised BBR v1 state not used concurrently; `ack` NULL or
/// readable, its `delivered` valid for reads and writes of `delivered_len` elements;
/// `rand` as for init.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_on_ack(
    state: *mut CongestionLinuxBbrState,
    now_us: u64,
    ack: *const CongestionLinuxBbrAck,
    rand: *const CongestionRandom,
) -> i32 {
    // SAFETY: NULL or readable per the contract.
    let Some(a) = (unsafe { ack.as_ref() }) else {
        return CONGESTION_ERR_NULL;
    };
    // SAFETY: per the contract.
    let delivered = match unsafe { delivered_segments(a.delivered, a.delivered_len) } {
        Ok(d) => d,
        Err(code) => return code,
    };
    // SAFETY: forwarded contract.
    unsafe {
        with_random(state, rand, |f: &mut Bbr, p, r| {
            let mut ack = BbrAck {
                snd_una: a.snd_una,
                snd_nxt: a.snd_nxt,
                delivered,
                delivered_count: a.delivered_count,
                newly_lost: a.newly_lost,
                rtt_us: rtt(a.rtt_us),
                srtt_us: a.srtt_us,
                ack_maybe_delayed: a.ack_maybe_delayed != 0,
                prior_flight: a.prior_flight.to_rust(),
                flight: a.flight.to_rust(),
                undo: a.undo != 0,
            };
            f.on_ack(p, at(now_us), &mut ack, r);
            CONGESTION_OK
        })
    }
}

/// A retransmission timeout at `now_us` (Rust's `Bbr::on_rto`), after the caller marked
/// every outstanding segment lost (`newly_lost` of them newly) into `flight`:
/// `tcp_enter_loss()`. `timeouts` counts the earlier timeouts since the last forward
/// progress.
///
/// # Safety
/// `state` is NULL or an initialised BBR v1 state not used concurrently; `rand` as for
/// init.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr_on_rto(
    state: *mut CongestionLinuxBbrState,
    now_us: u64,
    flight: CongestionFlight,
    newly_lost: u32,
    snd_una: u32,
    snd_nxt: u32,
    timeouts: u32,
    rand: *const CongestionRandom,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with_random(state, rand, |f: &mut Bbr, p, r| {
            let now: Instant = at(now_us);
            f.on_rto(
                p,
                now,
                flight.to_rust(),
                newly_lost,
                snd_una,
                snd_nxt,
                timeouts,
                r,
            );
            CONGESTION_OK
        })
    }
}
