//! The bodies of the C calls Linux-mode DCTCP and TCP Prague share (both are a
//! `TcpFlow<O>`): each `congestion_linux_{dctcp,prague}_*` entry point keeps its own
//! exported signature and documentation (what cbindgen reads) and forwards here, so the
//! argument conversions and out-pointer rules are written once.

use crate::state::Blob;
use crate::tcp_blob::*;
use crate::*;
use congestion::linux::tcp::{AckOutcome, TcpAck, TcpCongestionOps};
use congestion::linux::{TCP_INFINITE_SSTHRESH, TcpFlow};

/// A blob holding a `TcpFlow<O>` on its `TcpFlowParams`.
pub(crate) trait TcpFlowBlob<O: TcpCongestionOps<Params: Copy>>:
    Blob<Inner = FlowInner<TcpFlow<O>, TcpFlowParams<O::Params>>>
{
}

impl<B, O> TcpFlowBlob<O> for B
where
    O: TcpCongestionOps<Params: Copy>,
    B: Blob<Inner = FlowInner<TcpFlow<O>, TcpFlowParams<O::Params>>>,
{
}

/// `_on_send`: `TcpFlow::send`.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used concurrently.
pub(crate) unsafe fn on_send<O, B>(state: *mut B, now_us: u64, segments: u32) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe {
        with_flow(state, |f: &mut TcpFlow<O>, p| {
            f.send(&p.ops, &p.sysctl, now_us, segments, &mut NoDraws)
        })
    }
}

/// `_on_transmit`: `TcpFlow::transmit`.
///
/// # Safety
/// As [`on_send`].
pub(crate) unsafe fn on_transmit<O, B>(state: *mut B, now_us: u64, in_flight: u32) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe {
        with_flow(state, |f: &mut TcpFlow<O>, p| {
            f.transmit(&p.ops, now_us, in_flight, &mut NoDraws)
        })
    }
}

/// `_on_ack`: `TcpFlow::ack`, with a negative `rtt_us` as no sample and one above
/// `u32::MAX` as `u32::MAX`; `*outcome` (may be NULL) gets a `CONGESTION_ACK_*` value.
///
/// # Safety
/// As [`on_send`]; `outcome` NULL or writable.
pub(crate) unsafe fn on_ack<O, B>(
    state: *mut B,
    now_us: u64,
    acked: u32,
    rtt_us: i64,
    ce_delta: u32,
    ece: u8,
    outcome: *mut u32,
) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    let ack = TcpAck {
        acked,
        rtt_us: u64::try_from(rtt_us)
            .ok()
            .map(|r| u32::try_from(r).unwrap_or(u32::MAX)),
        ce_delta,
        ece: ece != 0,
    };
    let mut result = CONGESTION_ACK_DISCARDED;
    // SAFETY: forwarded contract.
    let code = unsafe {
        with_flow(state, |f: &mut TcpFlow<O>, p| {
            result = match f.ack(&p.ops, &p.sysctl, now_us, &ack, &mut NoDraws) {
                AckOutcome::Discarded => CONGESTION_ACK_DISCARDED,
                AckOutcome::NoQueue => CONGESTION_ACK_NO_QUEUE,
                AckOutcome::Processed => CONGESTION_ACK_PROCESSED,
            };
        })
    };
    if code == CONGESTION_OK {
        // SAFETY: NULL or writable per the contract.
        unsafe { write_opt(outcome, result) };
    }
    code
}

/// Runs a call that answers yes or no on the flow and writes the answer (1 or 0) to
/// `*out` (may be NULL): `_on_loss`'s `entered`, `_on_undo`'s `undone`.
///
/// # Safety
/// As [`on_send`]; `out` NULL or writable.
pub(crate) unsafe fn with_flag<O, B>(
    state: *mut B,
    out: *mut u8,
    call: impl FnOnce(&mut TcpFlow<O>, &TcpFlowParams<O::Params>) -> bool,
) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    let mut result = false;
    // SAFETY: forwarded contract.
    let code = unsafe { with_flow(state, |f: &mut TcpFlow<O>, p| result = call(f, p)) };
    if code == CONGESTION_OK {
        // SAFETY: NULL or writable per the contract.
        unsafe { write_opt(out, u8::from(result)) };
    }
    code
}

/// `_on_loss`: `TcpFlow::loss`; `*entered` (may be NULL) 1 when Recovery began.
///
/// # Safety
/// As [`with_flag`].
pub(crate) unsafe fn on_loss<O, B>(state: *mut B, now_us: u64, entered: *mut u8) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe { with_flag(state, entered, |f, p| f.loss(&p.ops, now_us, &mut NoDraws)) }
}

/// `_on_rto`: `TcpFlow::rto`.
///
/// # Safety
/// As [`on_send`].
pub(crate) unsafe fn on_rto<O, B>(state: *mut B, now_us: u64, retransmitted: u32) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe {
        with_flow(state, |f: &mut TcpFlow<O>, p| {
            f.rto(&p.ops, now_us, retransmitted, &mut NoDraws)
        })
    }
}

/// `_on_undo`: `TcpFlow::undo`; `*undone` (may be NULL) 1 when undone.
///
/// # Safety
/// As [`with_flag`].
pub(crate) unsafe fn on_undo<O, B>(state: *mut B, now_us: u64, undone: *mut u8) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe { with_flag(state, undone, |f, p| f.undo(&p.ops, now_us, &mut NoDraws)) }
}

/// `_cwnd`: `snd_cwnd`, segments.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; `out` NULL or writable.
pub(crate) unsafe fn cwnd<O, B>(state: *const B, out: *mut u64) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe {
        read_flow(state, out, |f: &TcpFlow<O>, _| {
            u64::from(f.socket().snd_cwnd)
        })
    }
}

/// `_ssthresh`: `snd_ssthresh`, or `CONGESTION_SSTHRESH_NONE` while "infinite".
///
/// # Safety
/// As [`cwnd`].
pub(crate) unsafe fn ssthresh<O, B>(state: *const B, out: *mut u64) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe {
        read_flow(state, out, |f: &TcpFlow<O>, _| {
            match f.socket().snd_ssthresh {
                s if s >= TCP_INFINITE_SSTHRESH => CONGESTION_SSTHRESH_NONE,
                s => u64::from(s),
            }
        })
    }
}

/// `_pacing_rate`: `sk_pacing_rate`, bytes per second.
///
/// # Safety
/// As [`cwnd`].
pub(crate) unsafe fn pacing_rate<O, B>(state: *const B, out: *mut u64) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, out, |f: &TcpFlow<O>, _| f.socket().sk_pacing_rate) }
}

/// `_ca_state`: `icsk_ca_state` as its number.
///
/// # Safety
/// As [`cwnd`].
pub(crate) unsafe fn ca_state<O, B>(state: *const B, out: *mut u32) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe {
        read_flow(state, out, |f: &TcpFlow<O>, _| {
            f.socket().icsk_ca_state as u32
        })
    }
}

/// `_in_flight`: `packets_out`, segments.
///
/// # Safety
/// As [`cwnd`].
pub(crate) unsafe fn in_flight<O, B>(state: *const B, out: *mut u64) -> i32
where
    O: TcpCongestionOps<Params: Copy>,
    B: TcpFlowBlob<O>,
{
    // SAFETY: forwarded contract.
    unsafe {
        read_flow(state, out, |f: &TcpFlow<O>, _| {
            u64::from(f.socket().packets_out)
        })
    }
}
