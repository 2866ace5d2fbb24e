#![allow(dead_code, reason = "each test file uses a different part")]

//! Flows built through the C ABI as a C caller would: default configs, states on the
//! heap (zeroed first, so a refused init leaves a recognisably blank state).

use congestion_ffi::*;
use std::mem::MaybeUninit;

/// Parameter blocks the tests never free (they must outlive every flow on them), in
/// static memory: no heap block to leak, and Miri sees none.
struct Pool<T, const N: usize> {
    slots: std::cell::UnsafeCell<[MaybeUninit<T>; N]>,
    next: std::sync::atomic::AtomicUsize,
}
// SAFETY: each slot is handed out once (the atomic counter), to one caller.
unsafe impl<T, const N: usize> Sync for Pool<T, N> {}

impl<T, const N: usize> Pool<T, N> {
    const fn new() -> Self {
        Pool {
            slots: std::cell::UnsafeCell::new([const { MaybeUninit::uninit() }; N]),
            next: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// A fresh, zeroed slot; panics (failing the test) once all are taken.
    fn take(&self) -> *mut T {
        let i = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        assert!(i < N, "the test pool of parameter blocks is used up");
        // SAFETY: in bounds (checked), and slot `i` is given out only here, once.
        unsafe {
            let slot = self.slots.get().cast::<MaybeUninit<T>>().add(i);
            slot.write(MaybeUninit::zeroed());
            slot.cast::<T>()
        }
    }
}

static LINUX_BLOCKS: Pool<CongestionLinuxCubicParams, 512> = Pool::new();
static RFC_BLOCKS: Pool<CongestionRfcCubicParams, 512> = Pool::new();

/// Linux's defaults.
pub fn linux_config() -> CongestionLinuxCubicConfig {
    let mut c = MaybeUninit::<CongestionLinuxCubicConfig>::uninit();
    assert_eq!(
        unsafe { congestion_linux_cubic_config_default(c.as_mut_ptr()) },
        CONGESTION_OK
    );
    unsafe { c.assume_init() }
}

/// The RFC defaults (CUBIC, HyStart++, MSS 1200).
pub fn rfc_config() -> CongestionRfcCubicConfig {
    let mut c = MaybeUninit::<CongestionRfcCubicConfig>::uninit();
    assert_eq!(
        unsafe { congestion_rfc_cubic_config_default(c.as_mut_ptr()) },
        CONGESTION_OK
    );
    unsafe { c.assume_init() }
}

/// A Linux-mode parameter block validated from `cfg`, never freed (it must outlive every
/// flow initialised with it), from a static pool. A raw pointer, as a C caller holds it:
/// every later call (init, reconfigure) goes through this one pointer.
pub fn linux_params(cfg: &CongestionLinuxCubicConfig) -> *mut CongestionLinuxCubicParams {
    let p = LINUX_BLOCKS.take();
    let size = size_of::<CongestionLinuxCubicParams>();
    assert_eq!(
        unsafe { congestion_linux_cubic_params_init(p, size, cfg) },
        CONGESTION_OK
    );
    p
}

/// A Linux-mode flow on `params` at `now_us`.
pub fn linux_state_on(
    params: *const CongestionLinuxCubicParams,
    now_us: u64,
) -> Box<CongestionLinuxCubicState> {
    let mut s = Box::new(MaybeUninit::<CongestionLinuxCubicState>::zeroed());
    let size = size_of::<CongestionLinuxCubicState>();
    assert_eq!(
        unsafe { congestion_linux_cubic_init(s.as_mut_ptr(), size, params, now_us) },
        CONGESTION_OK
    );
    unsafe { Box::from_raw(Box::into_raw(s).cast()) }
}

/// A Linux-mode flow initialised from `cfg` at `now_us`, on a parameter block of its own.
pub fn linux_state(
    cfg: &CongestionLinuxCubicConfig,
    now_us: u64,
) -> Box<CongestionLinuxCubicState> {
    linux_state_on(linux_params(cfg), now_us)
}

/// An RFC-mode parameter block validated from `cfg`, as [`linux_params`]'s.
pub fn rfc_params(cfg: &CongestionRfcCubicConfig) -> *mut CongestionRfcCubicParams {
    let p = RFC_BLOCKS.take();
    let size = size_of::<CongestionRfcCubicParams>();
    assert_eq!(
        unsafe { congestion_rfc_cubic_params_init(p, size, cfg) },
        CONGESTION_OK
    );
    p
}

/// An RFC-mode flow on `params` at 0.
pub fn rfc_state_on(params: *const CongestionRfcCubicParams) -> Box<CongestionRfcCubicState> {
    let mut s = Box::new(MaybeUninit::<CongestionRfcCubicState>::zeroed());
    let size = size_of::<CongestionRfcCubicState>();
    assert_eq!(
        unsafe { congestion_rfc_cubic_init(s.as_mut_ptr(), size, params, 0) },
        CONGESTION_OK
    );
    unsafe { Box::from_raw(Box::into_raw(s).cast()) }
}

/// An RFC-mode flow initialised from `cfg` at 0, on a parameter block of its own.
pub fn rfc_state(cfg: &CongestionRfcCubicConfig) -> Box<CongestionRfcCubicState> {
    rfc_state_on(rfc_params(cfg))
}

/// One `uint64_t` getter's value, asserting it succeeded.
pub fn get<S>(s: &S, getter: unsafe extern "C" fn(*const S, *mut u64) -> i32) -> u64 {
    let mut v = 0;
    assert_eq!(unsafe { getter(s, &mut v) }, CONGESTION_OK);
    v
}

/// A `CONGESTION_PHASE_*` getter's value.
pub fn phase_of<S>(s: &S, getter: unsafe extern "C" fn(*const S, *mut u32) -> i32) -> u32 {
    let mut v = 99;
    assert_eq!(unsafe { getter(s, &mut v) }, CONGESTION_OK);
    v
}
