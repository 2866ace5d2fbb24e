#![allow(dead_code, reason = "each test file uses a different part")]

//! Flows built through the C ABI as a C caller would: default configs, states on the
//! heap (zeroed first, so a refused init leaves a recognisably blank state).

use congestion_ffi::*;
use std::mem::MaybeUninit;

/// Linux's defaults.
pub fn linux_config() -> CongestionLinuxConfig {
    let mut c = MaybeUninit::<CongestionLinuxConfig>::uninit();
    assert_eq!(
        unsafe { congestion_linux_config_default(c.as_mut_ptr()) },
        CONGESTION_OK
    );
    unsafe { c.assume_init() }
}

/// The RFC defaults (CUBIC, HyStart++, MSS 1200).
pub fn rfc_config() -> CongestionRfcConfig {
    let mut c = MaybeUninit::<CongestionRfcConfig>::uninit();
    assert_eq!(
        unsafe { congestion_rfc_config_default(c.as_mut_ptr()) },
        CONGESTION_OK
    );
    unsafe { c.assume_init() }
}

/// A Linux-mode parameter block validated from `cfg`, leaked: it must outlive every
/// flow initialised with it, and a test's flows live until the process ends.
pub fn linux_params(cfg: &CongestionLinuxConfig) -> &'static mut CongestionLinuxParams {
    let mut p = Box::new(MaybeUninit::<CongestionLinuxParams>::zeroed());
    let size = size_of::<CongestionLinuxParams>();
    assert_eq!(
        unsafe { congestion_linux_params_init(p.as_mut_ptr(), size, cfg) },
        CONGESTION_OK
    );
    Box::leak(unsafe { Box::from_raw(Box::into_raw(p).cast()) })
}

/// A Linux-mode flow on `params` at `now_us`.
pub fn linux_state_on(params: &CongestionLinuxParams, now_us: u64) -> Box<CongestionLinuxState> {
    let mut s = Box::new(MaybeUninit::<CongestionLinuxState>::zeroed());
    let size = size_of::<CongestionLinuxState>();
    assert_eq!(
        unsafe { congestion_linux_init(s.as_mut_ptr(), size, params, now_us) },
        CONGESTION_OK
    );
    unsafe { Box::from_raw(Box::into_raw(s).cast()) }
}

/// A Linux-mode flow initialised from `cfg` at `now_us`, on a parameter block of its own.
pub fn linux_state(cfg: &CongestionLinuxConfig, now_us: u64) -> Box<CongestionLinuxState> {
    linux_state_on(linux_params(cfg), now_us)
}

/// An RFC-mode parameter block validated from `cfg`, leaked like [`linux_params`]'s.
pub fn rfc_params(cfg: &CongestionRfcConfig) -> &'static mut CongestionRfcParams {
    let mut p = Box::new(MaybeUninit::<CongestionRfcParams>::zeroed());
    let size = size_of::<CongestionRfcParams>();
    assert_eq!(
        unsafe { congestion_rfc_params_init(p.as_mut_ptr(), size, cfg) },
        CONGESTION_OK
    );
    Box::leak(unsafe { Box::from_raw(Box::into_raw(p).cast()) })
}

/// An RFC-mode flow on `params` at 0.
pub fn rfc_state_on(params: &CongestionRfcParams) -> Box<CongestionRfcState> {
    let mut s = Box::new(MaybeUninit::<CongestionRfcState>::zeroed());
    let size = size_of::<CongestionRfcState>();
    assert_eq!(
        unsafe { congestion_rfc_init(s.as_mut_ptr(), size, params, 0) },
        CONGESTION_OK
    );
    unsafe { Box::from_raw(Box::into_raw(s).cast()) }
}

/// An RFC-mode flow initialised from `cfg` at 0, on a parameter block of its own.
pub fn rfc_state(cfg: &CongestionRfcConfig) -> Box<CongestionRfcState> {
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
