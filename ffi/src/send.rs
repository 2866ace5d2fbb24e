//! The send path both modes' states hold (EDT pacer, TCP Small Queues, TSO autosizing,
//! windowed minimum RTT): what a blob must give it, and the bodies of the
//! `congestion_*_send_*` calls, written once for both modes.
//!
//! Per burst: `congestion_*_send_poll` (may it go, how many segments), then
//! `congestion_*_send_enqueue` (TSQ's verdict and its departure time), then
//! `congestion_*_on_sent` (the flow's bookkeeping). The ACK's RTT sample reaches the send
//! path through `congestion_*_on_ack`, given once.

use crate::flow::{at, read, with};
use crate::state::{Blob, Inner, RfcInner};
use crate::*;
use congestion::CongestionController;
use congestion::linux::Cubic;
use congestion::pacing::{Enqueue, SendContext, SendPathParams, SendPathState, SendVerdict};

/// A blob's state that holds a send path beside its controller.
pub(crate) trait Paced: CongestionController {
    /// The send path's state.
    fn send_state(&self) -> &SendPathState;
    /// The send path's state, mutably.
    fn send_state_mut(&mut self) -> &mut SendPathState;
    /// The send path's settings, in the flow's parameter block (whose lifetime is the
    /// caller's promise, as for the block itself).
    fn send_params<'a>(&self) -> &'a SendPathParams;
    /// The MSS the send path counts in, bytes.
    fn send_mss(&self) -> u32;
    /// [`SendPathState::poll`] on the flow's window.
    fn poll_send(&mut self, ctx: &SendContext) -> SendVerdict;
}

impl Paced for Inner {
    fn send_state(&self) -> &SendPathState {
        &self.send
    }
    fn send_state_mut(&mut self) -> &mut SendPathState {
        &mut self.send
    }
    fn send_params<'a>(&self) -> &'a SendPathParams {
        &self.params().send
    }
    fn send_mss(&self) -> u32 {
        self.mss()
    }
    fn poll_send(&mut self, ctx: &SendContext) -> SendVerdict {
        let params = self.params();
        let flow = Cubic::bind(&mut self.flow, &params.linux);
        self.send.poll(&params.send, &flow, ctx)
    }
}

impl Paced for RfcInner {
    fn send_state(&self) -> &SendPathState {
        &self.send
    }
    fn send_state_mut(&mut self) -> &mut SendPathState {
        &mut self.send
    }
    fn send_params<'a>(&self) -> &'a SendPathParams {
        &self.params().send
    }
    fn send_mss(&self) -> u32 {
        self.mss()
    }
    /// The send path reads the flow's window while it updates its own line: it works on
    /// a copy of that line (64 bytes), written back after.
    fn poll_send(&mut self, ctx: &SendContext) -> SendVerdict {
        let mut send = self.send;
        let verdict = send.poll(self.send_params(), &*self, ctx);
        self.send = send;
        verdict
    }
}

/// `congestion_*_send_poll`.
///
/// # Safety
/// `state` is NULL or an initialised state of its mode not used concurrently; the
/// out-pointers are NULL or writable.
pub(crate) unsafe fn poll<B: Blob>(
    state: *mut B,
    now_us: u64,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    verdict: *mut u32,
    segments: *mut u32,
    departure_ns: *mut u64,
) -> i32
where
    B::Inner: Paced,
{
    if verdict.is_null() || segments.is_null() || departure_ns.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let mut out = (CONGESTION_SEND_WAIT_FOR_ACK, 0, 0);
    // SAFETY: forwarded contract.
    let rc = unsafe {
        with(state, |s| {
            let ctx = SendContext {
                now: at(now_us),
                in_flight: s.in_flight(),
                mss: s.send_mss(),
                pacing_rate: s.pacing_rate(),
                retransmit: retransmit != 0,
                rtx_queue_at_most_one: rtx_queue_at_most_one != 0,
            };
            out = match s.poll_send(&ctx) {
                SendVerdict::Send { segments } => (CONGESTION_SEND_NOW, segments, 0),
                SendVerdict::WaitForAck => (CONGESTION_SEND_WAIT_FOR_ACK, 0, 0),
                SendVerdict::WaitUntil { departure_ns } => {
                    (CONGESTION_SEND_WAIT_UNTIL, 0, departure_ns)
                }
                SendVerdict::WaitForTxCompletion => (CONGESTION_SEND_WAIT_FOR_TX_COMPLETION, 0, 0),
            };
        })
    };
    if rc == CONGESTION_OK {
        // SAFETY: non-null and writable per the contract.
        unsafe {
            verdict.write(out.0);
            segments.write(out.1);
            departure_ns.write(out.2);
        }
    }
    rc
}

/// `congestion_*_send_enqueue`.
///
/// # Safety
/// `state` is NULL or an initialised state of its mode not used concurrently;
/// `departure_ns` is NULL or writable.
pub(crate) unsafe fn enqueue<B: Blob>(
    state: *mut B,
    now_us: u64,
    len_bytes: u32,
    segments: u32,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    departure_ns: *mut u64,
) -> i32
where
    B::Inner: Paced,
{
    if departure_ns.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let mut out = Enqueue::Throttled;
    // SAFETY: forwarded contract.
    let rc = unsafe {
        with(state, |s| {
            let rate = s.pacing_rate();
            let params = s.send_params();
            out = s.send_state_mut().try_enqueue(
                params,
                at(now_us),
                len_bytes,
                segments,
                rate,
                retransmit != 0,
                rtx_queue_at_most_one != 0,
            );
        })
    };
    if rc != CONGESTION_OK {
        return rc;
    }
    let (rc, at) = match out {
        Enqueue::Departs { departure_ns } => (CONGESTION_OK, departure_ns),
        _ => (CONGESTION_THROTTLED, 0),
    };
    // SAFETY: non-null and writable per the contract.
    unsafe { departure_ns.write(at) };
    rc
}

/// `congestion_*_send_tx_completion`.
///
/// # Safety
/// `state` is NULL or an initialised state of its mode not used concurrently; `reopened`
/// is NULL or writable.
pub(crate) unsafe fn tx_completion<B: Blob>(state: *mut B, len_bytes: u32, reopened: *mut u8) -> i32
where
    B::Inner: Paced,
{
    if reopened.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let mut again = false;
    // SAFETY: forwarded contract.
    let rc = unsafe {
        with(state, |s| {
            let params = s.send_params();
            again = s.send_state_mut().on_tx_completion(params, len_bytes);
        })
    };
    if rc == CONGESTION_OK {
        // SAFETY: non-null and writable per the contract.
        unsafe { reopened.write(u8::from(again)) };
    }
    rc
}

/// `congestion_*_send_next_departure_ns`.
///
/// # Safety
/// `state` is NULL or an initialised state of its mode; `departure_ns` is NULL or
/// writable.
pub(crate) unsafe fn next_departure_ns<B: Blob>(state: *const B, departure_ns: *mut u64) -> i32
where
    B::Inner: Paced,
{
    // SAFETY: forwarded contract.
    unsafe {
        read(state, departure_ns, |s| {
            s.send_state().pacer().next_departure_ns()
        })
    }
}

/// `congestion_*_send_tso_segs`.
///
/// # Safety
/// `state` is NULL or an initialised state of its mode; `segments` is NULL or writable.
pub(crate) unsafe fn tso_segs<B: Blob>(state: *const B, segments: *mut u32) -> i32
where
    B::Inner: Paced,
{
    // SAFETY: forwarded contract.
    unsafe {
        read(state, segments, |s| {
            s.send_state()
                .tso_segs(s.send_params(), s.pacing_rate(), s.send_mss())
        })
    }
}

/// `congestion_*_send_tsq`.
///
/// # Safety
/// `state` is NULL or an initialised state of its mode; the out-pointers are NULL or
/// writable.
pub(crate) unsafe fn tsq<B: Blob>(
    state: *const B,
    len_bytes: u32,
    queued_bytes: *mut u64,
    limit_bytes: *mut u64,
    throttled: *mut u8,
) -> i32
where
    B::Inner: Paced,
{
    if queued_bytes.is_null() || limit_bytes.is_null() || throttled.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let mut out = (0, 0, 0);
    // SAFETY: forwarded contract; `out` is a local.
    let rc = unsafe {
        read(state, &mut out, |s| {
            let send = s.send_state();
            (
                send.tsq().queued_bytes(),
                send.tsq_limit_bytes(s.send_params(), s.pacing_rate(), len_bytes, false),
                u8::from(send.tsq().is_throttled()),
            )
        })
    };
    if rc == CONGESTION_OK {
        // SAFETY: non-null and writable per the contract.
        unsafe {
            queued_bytes.write(out.0);
            limit_bytes.write(out.1);
            throttled.write(out.2);
        }
    }
    rc
}
