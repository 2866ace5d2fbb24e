//! The caller-allocated state blobs (one per mode) and the one place that turns a blob
//! into Rust state.

use congestion::linux::LinuxFlow;
use congestion::pacing::SendPath;
use congestion::rfc::RfcFlow;

/// Bytes a [`CongestionState`] occupies: the Linux-mode flow (the kernel's CUBIC,
/// HyStart and socket fields) and the send path take 336 on 64-bit targets; the rest is
/// room to grow without changing the ABI.
pub const CONGESTION_STATE_SIZE: usize = 384;
/// [`CONGESTION_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_STATE_WORDS: usize = CONGESTION_STATE_SIZE / 8;
/// Alignment a [`CongestionState`] needs, bytes.
pub const CONGESTION_STATE_ALIGN: usize = 8;

/// Bytes a [`CongestionRfcState`] occupies: the RFC-mode flow (RFC 9438 CUBIC and RFC
/// 9406 HyStart++ in bytes, both detectors and the undo snapshot) takes 528 on 64-bit
/// targets; the rest is room to grow without changing the ABI.
pub const CONGESTION_RFC_STATE_SIZE: usize = 640;
/// [`CONGESTION_RFC_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_RFC_STATE_WORDS: usize = CONGESTION_RFC_STATE_SIZE / 8;
/// Alignment a [`CongestionRfcState`] needs, bytes.
pub const CONGESTION_RFC_STATE_ALIGN: usize = 8;

/// One Linux-mode flow with its send path, owned by the caller. Opaque: only
/// `congestion_init` may write it and only the `congestion_*` functions may read it. It
/// holds no pointers, so a copy (`memcpy`) is a copy of the flow.
#[repr(C, align(8))]
pub struct CongestionState {
    /// Opaque bytes (as 64-bit words, so that C gives the struct the 8-byte alignment
    /// it needs). Never read or write them directly.
    pub opaque: [u64; CONGESTION_STATE_WORDS],
}

/// One RFC-mode flow (bytes), owned by the caller. Opaque: only `congestion_rfc_init`
/// may write it and only the `congestion_rfc_*` functions may read it. It holds no
/// pointers, so a copy (`memcpy`) is a copy of the flow.
#[repr(C, align(8))]
pub struct CongestionRfcState {
    /// Opaque bytes (as 64-bit words, for the 8-byte alignment). Never read or write
    /// them directly.
    pub opaque: [u64; CONGESTION_RFC_STATE_WORDS],
}

/// What a Linux-mode blob holds.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Inner {
    magic: u64,
    pub(crate) flow: LinuxFlow,
    pub(crate) send: SendPath,
}

/// What an RFC-mode blob holds.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct RfcInner {
    magic: u64,
    pub(crate) flow: RfcFlow,
}

// Each blob must hold its state, at an alignment the blob guarantees (on every target:
// these asserts run for thumbv6m and riscv32 builds too).
const _: () = assert!(core::mem::size_of::<Inner>() <= CONGESTION_STATE_SIZE);
const _: () = assert!(core::mem::align_of::<Inner>() <= CONGESTION_STATE_ALIGN);
const _: () = assert!(core::mem::size_of::<CongestionState>() == CONGESTION_STATE_SIZE);
const _: () = assert!(core::mem::align_of::<CongestionState>() == CONGESTION_STATE_ALIGN);
const _: () = assert!(core::mem::size_of::<RfcInner>() <= CONGESTION_RFC_STATE_SIZE);
const _: () = assert!(core::mem::align_of::<RfcInner>() <= CONGESTION_RFC_STATE_ALIGN);
const _: () = assert!(core::mem::size_of::<CongestionRfcState>() == CONGESTION_RFC_STATE_SIZE);
const _: () = assert!(core::mem::align_of::<CongestionRfcState>() == CONGESTION_RFC_STATE_ALIGN);

/// A blob type and the Rust state it holds, told apart by a magic number in the first
/// word (so a Linux-mode state passed to an RFC-mode function is refused, not misread).
pub(crate) trait Blob {
    /// The Rust state inside.
    type Inner;
    /// The value of the first word once initialised.
    const MAGIC: u64;
}

impl Blob for CongestionState {
    type Inner = Inner;
    /// "CCUBICv1" in ASCII.
    const MAGIC: u64 = 0x3176_4349_4255_4343;
}

impl Blob for CongestionRfcState {
    type Inner = RfcInner;
    /// "CRFC9438" in ASCII.
    const MAGIC: u64 = 0x3833_3439_4346_5243;
}

impl Inner {
    pub(crate) fn new(flow: LinuxFlow, send: SendPath) -> Self {
        Inner {
            magic: CongestionState::MAGIC,
            flow,
            send,
        }
    }
}

impl RfcInner {
    pub(crate) fn new(flow: RfcFlow) -> Self {
        RfcInner {
            magic: CongestionRfcState::MAGIC,
            flow,
        }
    }
}

/// Writes `inner` into the blob at `state`.
///
/// # Safety
/// `state` is non-null, aligned and valid for writes of `size_of::<B>()` bytes.
pub(crate) unsafe fn write<B: Blob>(state: *mut B, inner: B::Inner) {
    // SAFETY: the caller guarantees a valid, aligned blob; Inner fits (asserted above).
    unsafe { state.cast::<B::Inner>().write(inner) }
}

/// The magic word of a non-null blob.
///
/// # Safety
/// `state` is non-null and valid for reads of its first 8 bytes.
unsafe fn magic<B: Blob>(state: *const B) -> u64 {
    // SAFETY: per the contract; read as a plain integer that any bit pattern is valid
    // for, before anything else is trusted.
    unsafe { state.cast::<u64>().read() }
}

/// The Rust state inside an initialised blob, or the error code for why not.
///
/// # Safety
/// `state` is NULL or points to a blob valid for reads and writes for the returned
/// lifetime, not used through another reference meanwhile.
pub(crate) unsafe fn get<'a, B: Blob>(state: *mut B) -> Result<&'a mut B::Inner, i32> {
    if state.is_null() {
        return Err(crate::CONGESTION_ERR_NULL);
    }
    // SAFETY: non-null and valid per the caller.
    if unsafe { magic(state) } != B::MAGIC {
        return Err(crate::CONGESTION_ERR_UNINITIALIZED);
    }
    // SAFETY: the magic says the init function wrote a valid Inner here.
    Ok(unsafe { &mut *state.cast::<B::Inner>() })
}

/// Read-only twin of [`get`].
///
/// # Safety
/// `state` is NULL or points to a blob valid for reads for the returned lifetime, not
/// written meanwhile.
pub(crate) unsafe fn get_ref<'a, B: Blob>(state: *const B) -> Result<&'a B::Inner, i32> {
    if state.is_null() {
        return Err(crate::CONGESTION_ERR_NULL);
    }
    // SAFETY: as in `get`.
    if unsafe { magic(state) } != B::MAGIC {
        return Err(crate::CONGESTION_ERR_UNINITIALIZED);
    }
    // SAFETY: as in `get`.
    Ok(unsafe { &*state.cast::<B::Inner>() })
}
