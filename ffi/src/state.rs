//! The caller-allocated state blobs (one per mode) and the one place that turns a blob
//! pointer into Rust state: NULL, misalignment and a missing magic word are refused
//! there, before anything else is read.

use crate::flow::RfcAlgorithm;
use congestion::linux::{LinuxFlowState, LinuxParams};
use congestion::pacing::{SendPathParams, SendPathState};
use congestion::rfc::RfcParams;

/// Bytes a [`CongestionLinuxCubicState`] occupies: the Linux-mode flow (two 64-byte lines: the
/// one a congestion-avoidance ACK touches, and the rest), its send path (one line), the
/// parameter block's address and the magic word (in a fourth line) take 208 on 64-bit
/// targets, padded to the 64-byte alignment.
pub const CONGESTION_LINUX_STATE_SIZE: usize = 256;
/// [`CONGESTION_LINUX_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_STATE_WORDS: usize = CONGESTION_LINUX_STATE_SIZE / 8;
/// Alignment a [`CongestionLinuxCubicState`] needs, bytes: a cache line, so that the flow's
/// hot fields share one.
pub const CONGESTION_LINUX_STATE_ALIGN: usize = 64;

/// Bytes a [`CongestionLinuxCubicParams`] occupies: CUBIC's module parameters, the socket
/// settings and the send-path settings every flow initialised with it shares (128 on
/// 64-bit targets); the rest is room to grow.
pub const CONGESTION_LINUX_PARAMS_SIZE: usize = 192;
/// [`CONGESTION_LINUX_PARAMS_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_PARAMS_WORDS: usize = CONGESTION_LINUX_PARAMS_SIZE / 8;
/// Alignment a [`CongestionLinuxCubicParams`] needs, bytes.
pub const CONGESTION_LINUX_PARAMS_ALIGN: usize = 8;

/// Bytes a [`CongestionRfcCubicState`] occupies: the RFC-mode flow, CUBIC (RFC 9438) or
/// NewReno (RFC 9002), sized for the larger (CUBIC's), with its slow-start detector and
/// undo snapshot, its send path (one line), the parameter block's address and the magic
/// word: 512 on 64-bit targets, 576 on 32-bit ones (where CUBIC's undo snapshot is kept
/// unpacked, for flash), hence this size on every target.
pub const CONGESTION_RFC_STATE_SIZE: usize = 576;
/// [`CONGESTION_RFC_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_RFC_STATE_WORDS: usize = CONGESTION_RFC_STATE_SIZE / 8;
/// Alignment a [`CongestionRfcCubicState`] needs, bytes: a cache line, so that the flow's
/// hot fields start one.
pub const CONGESTION_RFC_STATE_ALIGN: usize = 64;

/// Bytes a [`CongestionRfcCubicParams`] occupies: the RFC-mode settings every flow initialised
/// with it shares (CUBIC's, the pacing rate's, the slow-start kind, the initial window,
/// the algorithm, the send path's; 152 on 64-bit targets); the rest is room to grow.
pub const CONGESTION_RFC_PARAMS_SIZE: usize = 192;
/// [`CONGESTION_RFC_PARAMS_SIZE`] in 64-bit words.
pub const CONGESTION_RFC_PARAMS_WORDS: usize = CONGESTION_RFC_PARAMS_SIZE / 8;
/// Alignment a [`CongestionRfcCubicParams`] needs, bytes.
pub const CONGESTION_RFC_PARAMS_ALIGN: usize = 8;

/// One Linux-mode flow with its send path, owned by the caller. Opaque: only
/// `congestion_linux_cubic_init` may write it and only the `congestion_linux_cubic_*` functions may
/// read it. It refers to the [`CongestionLinuxCubicParams`] it was initialised with (which
/// must outlive it); a copy (`memcpy`) is a copy of the flow on the same parameters.
#[repr(C, align(64))]
pub struct CongestionLinuxCubicState {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_LINUX_STATE_WORDS],
}

/// The settings Linux-mode flows share, validated once, owned by the caller: one block
/// for any number of flows (per endpoint, per port, one `static` in firmware), as the
/// kernel's module parameters are. Opaque: only `congestion_linux_cubic_params_init` and
/// `congestion_linux_cubic_reconfigure` write it.
#[repr(C, align(8))]
pub struct CongestionLinuxCubicParams {
    /// Opaque bytes (as 64-bit words, for the 8-byte alignment). Never read or write
    /// them directly.
    pub opaque: [u64; CONGESTION_LINUX_PARAMS_WORDS],
}

/// One RFC-mode flow (bytes; CUBIC or NewReno) with its send path, owned by the caller.
/// Opaque: only
/// `congestion_rfc_cubic_init` may write it and only the `congestion_rfc_cubic_*` functions may read
/// it. It refers to the [`CongestionRfcCubicParams`] it was initialised with (which must
/// outlive it); a copy (`memcpy`) is a copy of the flow on the same parameters.
#[repr(C, align(64))]
pub struct CongestionRfcCubicState {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_RFC_STATE_WORDS],
}

/// The settings RFC-mode flows share, validated once, owned by the caller: one block for
/// any number of flows (per endpoint, one `static` in firmware). Opaque: only
/// `congestion_rfc_cubic_params_init` and `congestion_rfc_cubic_reconfigure` write it.
#[repr(C, align(8))]
pub struct CongestionRfcCubicParams {
    /// Opaque bytes (as 64-bit words, for the 8-byte alignment). Never read or write
    /// them directly.
    pub opaque: [u64; CONGESTION_RFC_PARAMS_WORDS],
}

/// What a Linux-mode blob holds: the flow first, so that its hot line is the blob's
/// first; the magic word after what every call touches anyway.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Inner {
    pub(crate) flow: LinuxFlowState,
    pub(crate) send: SendPathState,
    params: *const ParamsInner,
    magic: u64,
}

/// What a Linux-mode parameter block holds.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct ParamsInner {
    magic: u64,
    pub(crate) linux: LinuxParams,
    pub(crate) send: SendPathParams,
}

/// What an RFC-mode blob holds: the flow first, then its send path, the parameter
/// block's address and the magic word.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct RfcInner {
    pub(crate) flow: RfcAlgorithm,
    pub(crate) send: SendPathState,
    params: *const RfcParamsInner,
    magic: u64,
}

/// What an RFC-mode parameter block holds.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct RfcParamsInner {
    magic: u64,
    pub(crate) rfc: RfcParams,
    pub(crate) send: SendPathParams,
    /// The algorithm flows initialised from this block run (`CONGESTION_RFC_ALGORITHM_*`).
    pub(crate) newreno: bool,
}

// Each blob must hold its state, at an alignment the blob guarantees (on every target:
// these asserts run for thumbv6m and riscv32 builds too).
const _: () = assert!(size_of::<Inner>() <= CONGESTION_LINUX_STATE_SIZE);
const _: () = assert!(size_of::<ParamsInner>() <= CONGESTION_LINUX_PARAMS_SIZE);
const _: () = assert!(align_of::<ParamsInner>() <= CONGESTION_LINUX_PARAMS_ALIGN);
const _: () = assert!(size_of::<CongestionLinuxCubicParams>() == CONGESTION_LINUX_PARAMS_SIZE);
const _: () = assert!(align_of::<Inner>() <= CONGESTION_LINUX_STATE_ALIGN);
const _: () = assert!(size_of::<CongestionLinuxCubicState>() == CONGESTION_LINUX_STATE_SIZE);
const _: () = assert!(align_of::<CongestionLinuxCubicState>() == CONGESTION_LINUX_STATE_ALIGN);
const _: () = assert!(size_of::<RfcInner>() <= CONGESTION_RFC_STATE_SIZE);
const _: () = assert!(size_of::<RfcParamsInner>() <= CONGESTION_RFC_PARAMS_SIZE);
const _: () = assert!(align_of::<RfcParamsInner>() <= CONGESTION_RFC_PARAMS_ALIGN);
const _: () = assert!(size_of::<CongestionRfcCubicParams>() == CONGESTION_RFC_PARAMS_SIZE);
const _: () = assert!(align_of::<RfcInner>() <= CONGESTION_RFC_STATE_ALIGN);
const _: () = assert!(size_of::<CongestionRfcCubicState>() == CONGESTION_RFC_STATE_SIZE);
const _: () = assert!(align_of::<CongestionRfcCubicState>() == CONGESTION_RFC_STATE_ALIGN);

/// A blob type and the Rust state it holds, told apart by a magic number in the first
/// word (so a Linux-mode state passed to an RFC-mode function is refused, not misread).
pub(crate) trait Blob {
    /// The Rust state inside.
    type Inner;
    /// The value of the first word once initialised.
    const MAGIC: u64;
    /// The blob's size, bytes (what init requires of the caller's buffer).
    const SIZE: usize;
    /// The blob's alignment, bytes.
    const ALIGN: usize;
    /// Where the magic word is, bytes from the start.
    const MAGIC_OFFSET: usize = 0;
}

impl Blob for CongestionLinuxCubicState {
    type Inner = Inner;
    /// "CCUBICv3" in ASCII (v1 and v2, the 0.1 and 0.2 layouts, are refused).
    const MAGIC: u64 = 0x3376_4349_4255_4343;
    const SIZE: usize = CONGESTION_LINUX_STATE_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_STATE_ALIGN;
    const MAGIC_OFFSET: usize = core::mem::offset_of!(Inner, magic);
}

impl Blob for CongestionLinuxCubicParams {
    type Inner = ParamsInner;
    /// "CLPARAM1" in ASCII.
    const MAGIC: u64 = 0x314d_4152_4150_4c43;
    const SIZE: usize = CONGESTION_LINUX_PARAMS_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_PARAMS_ALIGN;
}

impl Blob for CongestionRfcCubicState {
    type Inner = RfcInner;
    /// "CRFCv3.1" in ASCII (the 0.1 and 0.2 layouts, "CRFC9438" and "CRFC9002", and
    /// the one without a send path, "CRFCv3.0", are refused).
    const MAGIC: u64 = 0x312e_3376_4346_5243;
    const SIZE: usize = CONGESTION_RFC_STATE_SIZE;
    const ALIGN: usize = CONGESTION_RFC_STATE_ALIGN;
    const MAGIC_OFFSET: usize = core::mem::offset_of!(RfcInner, magic);
}

impl Blob for CongestionRfcCubicParams {
    type Inner = RfcParamsInner;
    /// "CRPARAM2" in ASCII ("CRPARAM1", the block without send-path settings, is
    /// refused).
    const MAGIC: u64 = 0x324d_4152_4150_5243;
    const SIZE: usize = CONGESTION_RFC_PARAMS_SIZE;
    const ALIGN: usize = CONGESTION_RFC_PARAMS_ALIGN;
}

impl Inner {
    /// A flow on the parameter block at `params`.
    pub(crate) fn new(
        flow: LinuxFlowState,
        send: SendPathState,
        params: *const ParamsInner,
    ) -> Self {
        Inner {
            flow,
            send,
            params,
            magic: CongestionLinuxCubicState::MAGIC,
        }
    }

    /// The parameter block the flow was initialised with. The lifetime is the caller's
    /// promise (`congestion_linux_cubic_init`'s contract: the block outlives the state and is
    /// not written while a call runs), not tied to `self`, so that the flow's state can
    /// be borrowed mutably beside it.
    pub(crate) fn params<'a>(&self) -> &'a ParamsInner {
        // SAFETY: init stored the address of a block it had checked (non-null, aligned,
        // magic); the contract keeps it alive and unwritten during every call.
        unsafe { &*self.params }
    }
}

impl ParamsInner {
    /// A parameter block holding `linux` and `send`.
    pub(crate) fn new(linux: LinuxParams, send: SendPathParams) -> Self {
        ParamsInner {
            magic: CongestionLinuxCubicParams::MAGIC,
            linux,
            send,
        }
    }
}

impl RfcInner {
    /// A flow on the parameter block at `params`.
    pub(crate) fn new(flow: RfcAlgorithm, params: *const RfcParamsInner) -> Self {
        RfcInner {
            flow,
            send: SendPathState::new(),
            params,
            magic: CongestionRfcCubicState::MAGIC,
        }
    }

    /// The parameter block the flow was initialised with; as [`Inner::params`].
    pub(crate) fn params<'a>(&self) -> &'a RfcParamsInner {
        // SAFETY: init stored the address of a block it had checked (non-null, aligned,
        // magic); the contract keeps it alive and unwritten during every call.
        unsafe { &*self.params }
    }
}

impl RfcParamsInner {
    /// A parameter block holding `rfc` and `send`, for flows running NewReno if
    /// `newreno`.
    pub(crate) fn new(rfc: RfcParams, send: SendPathParams, newreno: bool) -> Self {
        RfcParamsInner {
            magic: CongestionRfcCubicParams::MAGIC,
            rfc,
            send,
            newreno,
        }
    }
}

/// Whether `state` is aligned for its blob. Tested on the address alone: nothing is
/// read through a misaligned pointer (an 8-byte load there is undefined behaviour, and
/// a fault on Cortex-M0 and on Cortex-M3/M4 for `ldrd`).
fn aligned<B: Blob>(state: *const B) -> bool {
    state.addr() % B::ALIGN == 0
}

/// The checks init makes before writing: NULL, alignment, the caller's buffer size.
pub(crate) fn check_buffer<B: Blob>(state: *mut B, size: usize) -> Result<(), i32> {
    if state.is_null() {
        Err(crate::CONGESTION_ERR_NULL)
    } else if !aligned(state) {
        Err(crate::CONGESTION_ERR_ALIGNMENT)
    } else if size < B::SIZE {
        Err(crate::CONGESTION_ERR_SIZE)
    } else {
        Ok(())
    }
}

/// Writes `inner` into the blob at `state`.
///
/// # Safety
/// `state` passed [`check_buffer`] and is valid for writes of `B::SIZE` bytes.
pub(crate) unsafe fn write<B: Blob>(state: *mut B, inner: B::Inner) {
    // SAFETY: the caller guarantees a valid blob; check_buffer showed it aligned; Inner
    // fits (asserted above).
    unsafe { state.cast::<B::Inner>().write(inner) }
}

/// NULL, misalignment or a missing magic word, as the error code; else the pointer
/// is an initialised blob.
///
/// # Safety
/// `state` is NULL or valid for reads of `B::SIZE` bytes.
unsafe fn check<B: Blob>(state: *const B) -> Result<(), i32> {
    if state.is_null() {
        return Err(crate::CONGESTION_ERR_NULL);
    }
    if !aligned(state) {
        return Err(crate::CONGESTION_ERR_ALIGNMENT);
    }
    // SAFETY: non-null, aligned (checked) and readable per the contract; read as a
    // plain integer that any bit pattern is valid for, before anything else is trusted.
    if unsafe { state.cast::<u8>().add(B::MAGIC_OFFSET).cast::<u64>().read() } != B::MAGIC {
        return Err(crate::CONGESTION_ERR_UNINITIALIZED);
    }
    Ok(())
}

/// The Rust state inside an initialised blob, or the error code for why not.
///
/// # Safety
/// `state` is NULL or points to a blob valid for reads and writes for the returned
/// lifetime, not used through another reference meanwhile.
pub(crate) unsafe fn get<'a, B: Blob>(state: *mut B) -> Result<&'a mut B::Inner, i32> {
    // SAFETY: forwarded contract.
    unsafe { check(state) }?;
    // SAFETY: aligned, and the magic says the init function wrote a valid Inner here.
    Ok(unsafe { &mut *state.cast::<B::Inner>() })
}

/// Read-only twin of [`get`].
///
/// # Safety
/// `state` is NULL or points to a blob valid for reads for the returned lifetime, not
/// written meanwhile.
pub(crate) unsafe fn get_ref<'a, B: Blob>(state: *const B) -> Result<&'a B::Inner, i32> {
    // SAFETY: forwarded contract.
    unsafe { check(state) }?;
    // SAFETY: as in `get`.
    Ok(unsafe { &*state.cast::<B::Inner>() })
}

#[cfg(all(test, target_pointer_width = "64"))]
mod tests {
    use super::*;

    #[test]
    fn the_documented_sizes_hold_on_64_bit_targets() {
        // LinuxFlowState 128 + SendPathState 64 + the parameters' address 8 + the magic
        // word 8 = 208, padded to 256; the parameter block: the magic word 8 +
        // LinuxParams 88 + SendPathParams 28 = 124, padded to 128, of 192.
        assert_eq!(size_of::<Inner>(), 256);
        assert_eq!(size_of::<congestion::linux::LinuxParams>(), 88);
        assert_eq!(size_of::<ParamsInner>(), 128);
        // The larger flow state, CUBIC's (384, six 64-byte lines; NewReno's 256), in an
        // enum whose tag takes a niche, then the send path (one line), the parameters'
        // address 8 and the magic word 8, padded to the 64-byte alignment = 512 of 576;
        // the parameter block: the magic word 8 + RfcParams 112 (96 before the scalable
        // part DCTCP and Prague added) + SendPathParams 28 + the algorithm, padded to
        // 8 = 152.
        let cubic = size_of::<congestion::rfc::ClassicState<congestion::cubic::RfcCubic>>();
        let newreno = size_of::<congestion::rfc::ClassicState<congestion::rfc::NewRenoWindow>>();
        assert_eq!((cubic, newreno), (384, 256));
        assert_eq!(size_of::<RfcAlgorithm>(), cubic.max(newreno));
        assert_eq!(size_of::<SendPathState>(), 64);
        let rfc = (cubic + size_of::<SendPathState>())
            .next_multiple_of(align_of::<SendPathState>())
            + size_of::<*const RfcParamsInner>()
            + size_of::<u64>();
        let rfc = rfc.next_multiple_of(CONGESTION_RFC_STATE_ALIGN);
        assert_eq!(size_of::<RfcInner>(), rfc);
        assert_eq!(rfc, 512);
        assert_eq!(size_of::<congestion::rfc::RfcParams>(), 112);
        assert_eq!(size_of::<RfcParamsInner>(), 152);
    }
}
