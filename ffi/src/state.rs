//! The caller-allocated state blob and the one place that turns it into Rust state.

use congestion::linux::LinuxFlow;
use congestion::pacing::SendPath;

/// Bytes a [`CongestionState`] occupies: the Linux-mode flow (the kernel's CUBIC,
/// HyStart and socket fields) and the send path take 328 on 64-bit targets; the rest is
/// room to grow without changing the ABI.
pub const CONGESTION_STATE_SIZE: usize = 384;
/// [`CONGESTION_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_STATE_WORDS: usize = CONGESTION_STATE_SIZE / 8;
/// Alignment a [`CongestionState`] needs, bytes.
pub const CONGESTION_STATE_ALIGN: usize = 8;

/// One flow's state, owned by the caller. Opaque: only `congestion_init` may write it
/// and only the `congestion_*` functions may read it. It holds no pointers, so a copy
/// (`memcpy`) is a copy of the flow.
#[repr(C, align(8))]
pub struct CongestionState {
    /// Opaque bytes (as 64-bit words, so that C gives the struct the 8-byte alignment
    /// it needs). Never read or write them directly.
    pub opaque: [u64; CONGESTION_STATE_WORDS],
}

/// Marks an initialised state ("CCUBICv1" in ASCII).
const MAGIC: u64 = 0x3176_4349_4255_4343;

/// What the blob holds.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Inner {
    magic: u64,
    pub(crate) flow: LinuxFlow,
    pub(crate) send: SendPath,
}

// The blob must hold the state, at an alignment the blob guarantees.
const _: () = assert!(core::mem::size_of::<Inner>() <= CONGESTION_STATE_SIZE);
const _: () = assert!(core::mem::align_of::<Inner>() <= CONGESTION_STATE_ALIGN);
const _: () = assert!(core::mem::size_of::<CongestionState>() == CONGESTION_STATE_SIZE);
const _: () = assert!(core::mem::align_of::<CongestionState>() == CONGESTION_STATE_ALIGN);

impl Inner {
    pub(crate) fn new(flow: LinuxFlow, send: SendPath) -> Self {
        Inner {
            magic: MAGIC,
            flow,
            send,
        }
    }
}

/// Writes `inner` into the blob at `state`.
///
/// # Safety
/// `state` is non-null, aligned and valid for writes of `CONGESTION_STATE_SIZE` bytes.
pub(crate) unsafe fn write(state: *mut CongestionState, inner: Inner) {
    // SAFETY: the caller guarantees a valid, aligned blob; Inner fits (asserted above).
    unsafe { state.cast::<Inner>().write(inner) }
}

/// The Rust state inside an initialised blob, or the error code for why not.
///
/// # Safety
/// `state` is NULL or points to a blob valid for reads and writes for the returned
/// lifetime, not used through another reference meanwhile.
pub(crate) unsafe fn get<'a>(state: *mut CongestionState) -> Result<&'a mut Inner, i32> {
    if state.is_null() {
        return Err(crate::CONGESTION_ERR_NULL);
    }
    let inner = state.cast::<Inner>();
    // SAFETY: non-null and valid per the caller; the magic is read before anything
    // else, as a plain integer that any bit pattern is valid for.
    let magic = unsafe { core::ptr::addr_of!((*inner).magic).read() };
    if magic != MAGIC {
        return Err(crate::CONGESTION_ERR_UNINITIALIZED);
    }
    // SAFETY: the magic says congestion_init wrote a valid Inner here.
    Ok(unsafe { &mut *inner })
}

/// Read-only twin of [`get`].
///
/// # Safety
/// `state` is NULL or points to a blob valid for reads for the returned lifetime, not
/// written meanwhile.
pub(crate) unsafe fn get_ref<'a>(state: *const CongestionState) -> Result<&'a Inner, i32> {
    if state.is_null() {
        return Err(crate::CONGESTION_ERR_NULL);
    }
    let inner = state.cast::<Inner>();
    // SAFETY: as in `get`.
    let magic = unsafe { core::ptr::addr_of!((*inner).magic).read() };
    if magic != MAGIC {
        return Err(crate::CONGESTION_ERR_UNINITIALIZED);
    }
    // SAFETY: as in `get`.
    Ok(unsafe { &*inner })
}
