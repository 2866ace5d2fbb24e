//! Linux-mode BBRv3 through the C ABI (`congestion_linux_bbr3_*`, the Rust
//! `linux::Bbr3`): the calls of BBR v1 (`congestion_linux_bbr_*`) with v3's additions:
//! the ACK and the RTO take the snapshots of the segments newly marked lost, the ACK
//! ECN-Echo and two send-side facts.

use crate::bbr_types::*;
use crate::flow::at;
use crate::tcp_blob::*;
use crate::*;
use congestion::linux::Bbr3;
use congestion::linux::bbr3::{Bbr3Ack, Bbr3Rto};

/// Validates `*config` into the parameter block at `params` (a buffer of `params_size` bytes, 8-byte aligned) for BBRv3 flows. On error nothing is written.
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
pub unsafe extern "C" fn congestion_linux_bbr3_params_init(
    params: *mut CongestionLinuxBbr3Params,
    params_size: usize,
    config: *const CongestionLinuxBbrConfig,
) -> i32 {
    // SAFETY: NULL or readable per the contract; plain integers.
    let Some(config) = (unsafe { config.as_ref() }) else {
        return CONGESTION_ERR_NULL;
    };
    match bbr3_params(config) {
        // SAFETY: forwarded contract.
        Ok(p) => unsafe { init_params(params, params_size, p) },
        Err(code) => code,
    }
}

/// Initialises the BBRv3 flow at `state` (a buffer of `state_size` bytes, aligned to 64) on the parameter block `params` at `now_us`, the connection being established (`bbr_init()` on a fresh socket). The state keeps the block's address. On error nothing is written.
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
pub unsafe extern "C" fn congestion_linux_bbr3_init(
    state: *mut CongestionLinuxBbr3State,
    state_size: usize,
    params: *const CongestionLinuxBbr3Params,
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
            Ok(Bbr3::new(p, at(now_us), &mut CallerRandom(rand)))
        })
    }
}

/// A segment (new or retransmitted) is handed to the wire at `now_us`; `flight` holds the counters *before* it is counted. `*departure_ns` gets its earliest departure time (ns on the clock of `now_us` × 1000) and `*snapshot` the sampler's snapshot: store both with the segment, then count it in `packets_out` (or `retrans_out`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently; `rand` as for init; the out-pointers NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_on_send(
    state: *mut CongestionLinuxBbr3State,
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
            |f: &mut Bbr3, p, rand| f.on_send(p, at(now_us), flight.to_rust(), rand),
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
pub unsafe extern "C" fn congestion_linux_bbr3_on_app_limited(
    state: *mut CongestionLinuxBbr3State,
    now_us: u64,
    flight: CongestionFlight,
    host_queues_empty: u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with_flow(state, |f: &mut Bbr3, p| {
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
pub unsafe extern "C" fn congestion_linux_bbr3_cwnd(
    state: *const CongestionLinuxBbr3State,
    cwnd: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, cwnd, |f: &Bbr3, _| u64::from(f.cwnd())) }
}

/// `*ssthresh` = `snd_ssthresh`, segments; `CONGESTION_SSTHRESH_NONE` while the
/// kernel's is "infinite" (BBR sets one only on leaving STARTUP).
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_ssthresh(
    state: *const CongestionLinuxBbr3State,
    ssthresh_out: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, ssthresh_out, |f: &Bbr3, _| ssthresh(f.ssthresh())) }
}

/// `*bytes_per_second` = `sk_pacing_rate`, bytes per second.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_pacing_rate(
    state: *const CongestionLinuxBbr3State,
    bytes_per_second: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, bytes_per_second, |f: &Bbr3, _| f.pacing_rate()) }
}

/// `*departure_ns` = `tcp_wstamp_ns`: the earliest departure of the next
/// segment, ns.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_next_departure_ns(
    state: *const CongestionLinuxBbr3State,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, departure_ns, |f: &Bbr3, _| f.next_departure_ns()) }
}

/// `*mode` = BBR's mode, a `CONGESTION_BBR_MODE_*` value.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_mode(
    state: *const CongestionLinuxBbr3State,
    mode: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, mode, |f: &Bbr3, _| f.mode() as u32) }
}

/// `*ca_state` = the CA state: 0 Open, 2 CWR (BBRv3 with ECN), 3 Recovery,
/// 4 Loss.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_ca_state(
    state: *const CongestionLinuxBbr3State,
    ca_state: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, ca_state, |f: &Bbr3, _| f.ca_state() as u32) }
}

/// `*bw` = `bbr_bw()`: the bandwidth estimate, segments per µs × 2^24.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_bw(
    state: *const CongestionLinuxBbr3State,
    bw: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, bw, |f: &Bbr3, _| f.bw()) }
}

/// `*min_rtt_us` = `tcp_min_rtt()`, µs (UINT32_MAX before a sample).
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_min_rtt(
    state: *const CongestionLinuxBbr3State,
    min_rtt_us: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, min_rtt_us, |f: &Bbr3, _| f.tcp_min_rtt()) }
}

/// `*segments` = `bbr_tso_segs_goal()`: segments per TSO/GSO burst at the
/// current pacing rate.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_tso_segs_goal(
    state: *const CongestionLinuxBbr3State,
    segments: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, segments, |f: &Bbr3, p| f.tso_segs_goal(p)) }
}

/// An ACK at `now_us` (Rust's `Bbr3::on_ack`), in v3 `tcp_ack()`'s order: the
/// app-limited check, the sampler's step on each delivered segment, the RTT filter,
/// ECE, undo, the end of a reduction, BBR's `skb_marked_lost` for each newly lost
/// snapshot, the start of Recovery or CWR, the rate sample and `bbr_main()`.
///
/// Returns as `congestion_linux_bbr_on_ack` (the same checks on both arrays).
///
/// # Safety
/// `state` is NULL or an initialised BBRv3 state not used concurrently; `ack` NULL or
/// readable, its `delivered` valid for reads and writes of `delivered_len` elements
/// and its `newly_lost` for reads of `newly_lost_len`; `rand` as for init.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_on_ack(
    state: *mut CongestionLinuxBbr3State,
    now_us: u64,
    ack: *const CongestionLinuxBbr3Ack,
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
    // SAFETY: per the contract.
    let newly_lost = match unsafe { snapshots(a.newly_lost, a.newly_lost_len) } {
        Ok(l) => l,
        Err(code) => return code,
    };
    // SAFETY: forwarded contract.
    unsafe {
        with_random(state, rand, |f: &mut Bbr3, p, r| {
            let mut ack = Bbr3Ack {
                snd_una: a.snd_una,
                snd_nxt: a.snd_nxt,
                delivered,
                delivered_count: a.delivered_count,
                newly_lost,
                rtt_us: rtt(a.rtt_us),
                srtt_us: a.srtt_us,
                ack_maybe_delayed: a.ack_maybe_delayed != 0,
                ece: a.ece != 0,
                nothing_queued: a.nothing_queued != 0,
                is_cwnd_limited: a.is_cwnd_limited != 0,
                prior_flight: a.prior_flight.to_rust(),
                flight: a.flight.to_rust(),
                undo: a.undo != 0,
            };
            f.on_ack(p, at(now_us), &mut ack, r);
            CONGESTION_OK
        })
    }
}

/// A retransmission timeout at `now_us` (Rust's `Bbr3::on_rto`): the app-limited check,
/// each newly lost snapshot through BBR's hook, then `tcp_enter_loss()`.
///
/// # Safety
/// `state` is NULL or an initialised BBRv3 state not used concurrently; `rto` NULL or
/// readable, its `newly_lost` valid for reads of `newly_lost_len` elements; `rand` as
/// for init.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_on_rto(
    state: *mut CongestionLinuxBbr3State,
    now_us: u64,
    rto: *const CongestionLinuxBbr3Rto,
    rand: *const CongestionRandom,
) -> i32 {
    // SAFETY: NULL or readable per the contract.
    let Some(t) = (unsafe { rto.as_ref() }) else {
        return CONGESTION_ERR_NULL;
    };
    // SAFETY: per the contract.
    let newly_lost = match unsafe { snapshots(t.newly_lost, t.newly_lost_len) } {
        Ok(l) => l,
        Err(code) => return code,
    };
    // SAFETY: forwarded contract.
    unsafe {
        with_random(state, rand, |f: &mut Bbr3, p, r| {
            let rto = Bbr3Rto {
                prior_flight: t.prior_flight.to_rust(),
                flight: t.flight.to_rust(),
                newly_lost,
                snd_una: t.snd_una,
                snd_nxt: t.snd_nxt,
                timeouts: t.timeouts,
                nothing_queued: t.nothing_queued != 0,
            };
            f.on_rto(p, at(now_us), &rto, r);
            CONGESTION_OK
        })
    }
}
