//! What the kernel-style algorithms' C calls share (`congestion_linux_bbr_*`,
//! `congestion_linux_bbr3_*`, `congestion_linux_dctcp_*`, `congestion_linux_prague_*`):
//! the contents of their blobs (declared in `blobs.rs`), their init steps and the two
//! helpers every call goes through, on the same checks as CUBIC's blobs
//! ([`crate::state::Blob`]); and the caller's random source ([`CongestionRandom`]) as
//! the library's [`RandomSource`].

use crate::state::{self, Blob};
use crate::*;
use congestion::linux::TcpSocketConfig;
use congestion::linux::tcp::{RandomSource, TcpSysctl};
use core::ffi::c_void;

/// What a flow blob of these algorithms holds: the flow first, then the parameter
/// block's address and the magic word.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct FlowInner<F: Copy, P: Copy> {
    pub(crate) flow: F,
    params: *const ParamsInner<P>,
    pub(crate) magic: u64,
}

/// What a parameter block of these algorithms holds: the magic word, then the settings.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct ParamsInner<P: Copy> {
    pub(crate) magic: u64,
    pub(crate) params: P,
}

impl<F: Copy, P: Copy> FlowInner<F, P> {
    /// The parameter block the flow was initialised with. The lifetime is the caller's
    /// promise (the init functions' contract: the block outlives the state and is not
    /// written while a call runs), so that the flow can be borrowed mutably beside it.
    pub(crate) fn params<'a>(&self) -> &'a P {
        // SAFETY: init stored the address of a block it had checked (non-null, aligned,
        // magic); the contract keeps it alive and unwritten during every call.
        unsafe { &(*self.params).params }
    }
}

/// DCTCP's and Prague's shared settings beside their module parameters: the socket's
/// starting values and the host's sysctls.
#[derive(Clone, Copy)]
pub(crate) struct TcpFlowParams<P: Copy> {
    pub(crate) ops: P,
    pub(crate) socket: TcpSocketConfig,
    pub(crate) sysctl: TcpSysctl,
}

/// Writes the validated settings `p` into the parameter block at `params`, after the
/// buffer checks, or returns the error code (nothing written).
///
/// # Safety
/// `params` is NULL or valid for writes of `size` bytes.
pub(crate) unsafe fn init_params<B, P>(params: *mut B, size: usize, p: P) -> i32
where
    B: Blob<Inner = ParamsInner<P>>,
    P: Copy,
{
    if let Err(code) = state::check_buffer(params, size) {
        return code;
    }
    let inner = ParamsInner {
        magic: B::MAGIC,
        params: p,
    };
    // SAFETY: checked (non-null, aligned, large enough), writable per the contract.
    unsafe { state::write(params, inner) };
    CONGESTION_OK
}

/// Initialises the flow at `state` on the parameter block `params` with `make` (the
/// library's constructor, given the settings), after every check, or returns the error
/// code (nothing written).
///
/// # Safety
/// `state` is NULL or valid for writes of `size` bytes; `params` is NULL or an
/// initialised block that outlives the state.
pub(crate) unsafe fn init_flow<S, B, F, P>(
    state: *mut S,
    size: usize,
    params: *const B,
    make: impl FnOnce(&P) -> Result<F, i32>,
) -> i32
where
    S: Blob<Inner = FlowInner<F, P>>,
    B: Blob<Inner = ParamsInner<P>>,
    F: Copy,
    P: Copy,
{
    // SAFETY: forwarded contract.
    let block = match unsafe { state::get_ref(params) } {
        Ok(block) => block,
        Err(code) => return code,
    };
    if let Err(code) = state::check_buffer(state, size) {
        return code;
    }
    let flow = match make(&block.params) {
        Ok(flow) => flow,
        Err(code) => return code,
    };
    let inner = FlowInner {
        flow,
        params: params.cast(),
        magic: S::MAGIC,
    };
    // SAFETY: checked (non-null, aligned, large enough), writable per the contract.
    unsafe { state::write(state, inner) };
    CONGESTION_OK
}

/// Runs `f` on the flow behind `state` with its settings, or returns the error code.
///
/// # Safety
/// As [`state::get`].
pub(crate) unsafe fn with_flow<B, F, P>(state: *mut B, f: impl FnOnce(&mut F, &P)) -> i32
where
    B: Blob<Inner = FlowInner<F, P>>,
    F: Copy,
    P: Copy,
{
    // SAFETY: forwarded contract.
    match unsafe { state::get(state) } {
        Ok(inner) => {
            let p = inner.params();
            f(&mut inner.flow, p);
            CONGESTION_OK
        }
        Err(code) => code,
    }
}

/// Reads one value of the flow behind `state` (with its settings) into `*out`.
///
/// # Safety
/// `state` as [`state::get_ref`]; `out` NULL or writable.
pub(crate) unsafe fn read_flow<B, F, P, T>(
    state: *const B,
    out: *mut T,
    f: impl FnOnce(&F, &P) -> T,
) -> i32
where
    B: Blob<Inner = FlowInner<F, P>>,
    F: Copy,
    P: Copy,
{
    // SAFETY: forwarded contract.
    unsafe { crate::flow::read(state, out, |inner| f(&inner.flow, inner.params())) }
}

/// Writes `value` to `out` when `out` is not NULL (an optional out-pointer).
///
/// # Safety
/// `out` is NULL or writable.
pub(crate) unsafe fn write_opt<T>(out: *mut T, value: T) {
    if !out.is_null() {
        // SAFETY: non-null and writable per the contract.
        unsafe { out.write(value) };
    }
}

/// The caller's random source, for the calls of an algorithm that draws (BBR v1 picks
/// the PROBE_BW phase it starts in, BBRv3 its probe wait): the library never hides a
/// generator of its own. Each draw the algorithm makes calls `below(ctx, ceil)`, which
/// returns a value in `0..ceil` (as the kernel's `get_random_u32_below`; a larger value
/// is reduced modulo `ceil`); `ceil` is at least 1. With `below` NULL every draw is
/// `value % ceil` instead (a fixed value: tests, replays, deterministic firmware).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionRandom {
    /// The generator, or NULL to draw `value` every time.
    pub below: Option<unsafe extern "C" fn(ctx: *mut c_void, ceil: u32) -> u32>,
    /// Passed to `below` unchanged (the generator's state); may be NULL.
    pub ctx: *mut c_void,
    /// Every draw's value when `below` is NULL.
    pub value: u32,
}

/// A [`CongestionRandom`] as the library's [`RandomSource`].
pub(crate) struct CallerRandom<'a>(pub(crate) &'a CongestionRandom);

impl RandomSource for CallerRandom<'_> {
    fn below(&mut self, ceil: u32) -> u32 {
        let ceil = ceil.max(1);
        let drawn = match self.0.below {
            // SAFETY: the caller's function with the caller's context, per the contract of
            // every call that takes a CongestionRandom (callable, not re-entering this
            // flow).
            Some(f) => unsafe { f(self.0.ctx, ceil) },
            None => self.0.value,
        };
        drawn % ceil
    }
}

/// The random source behind `rand`, or [`CONGESTION_ERR_NULL`].
///
/// # Safety
/// `rand` is NULL or points to a readable [`CongestionRandom`] whose `below`, if set, is
/// callable with its `ctx` during the call.
pub(crate) unsafe fn random<'a>(
    rand: *const CongestionRandom,
) -> Result<&'a CongestionRandom, i32> {
    // SAFETY: forwarded contract.
    unsafe { rand.as_ref() }.ok_or(CONGESTION_ERR_NULL)
}

/// DCTCP and Prague draw nothing: the glue's calls get this source, which would draw 0.
pub(crate) struct NoDraws;

impl RandomSource for NoDraws {
    fn below(&mut self, _ceil: u32) -> u32 {
        0
    }
}

/// The body of BBR's and BBRv3's `_on_send`: checks the out-pointers and the random
/// source, runs `send` on the flow and writes what it returns (the departure time and
/// the snapshot the caller keeps with the segment).
///
/// # Safety
/// `state` as [`with_flow`]; `rand` as [`random`]; `departure_ns` and `snapshot` NULL
/// or writable.
pub(crate) unsafe fn on_send_with<B, F, P>(
    state: *mut B,
    rand: *const CongestionRandom,
    departure_ns: *mut u64,
    snapshot: *mut CongestionTxSnapshot,
    send: impl FnOnce(&mut F, &P, &mut CallerRandom<'_>) -> congestion::linux::bbr::Sent,
) -> i32
where
    B: Blob<Inner = FlowInner<F, P>>,
    F: Copy,
    P: Copy,
{
    if departure_ns.is_null() || snapshot.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: forwarded contract.
    let rand = match unsafe { random(rand) } {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut sent = None;
    // SAFETY: forwarded contract.
    let code = unsafe {
        with_flow(state, |f: &mut F, p| {
            sent = Some(send(f, p, &mut CallerRandom(rand)));
        })
    };
    if let Some(sent) = sent {
        // SAFETY: non-null (checked) and writable per the contract.
        unsafe {
            departure_ns.write(sent.departure_ns);
            snapshot.write(CongestionTxSnapshot::from_rust(&sent.snapshot));
        }
    }
    code
}
