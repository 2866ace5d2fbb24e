//! # congestion-ffi: the C ABI of `congestion`
//!
//! Linux-mode CUBIC + HyStart (bit-exact with `tcp_cubic.c`) with the kernel's socket
//! glue (`congestion_*`), its send path (EDT pacer, TCP Small Queues, TSO autosizing:
//! `congestion_send_*`), and RFC mode in bytes (RFC 9438 CUBIC + RFC 9406 HyStart++:
//! `congestion_rfc_*`), behind plain C functions. The header `include/congestion.h` is
//! generated from this crate by cbindgen.
//!
//! - **No std, no allocator, no panic.** The crate is `no_std`. On bare-metal targets
//!   (`thumbv7em-none-eabihf`, `thumbv6m-none-eabi`, `riscv32imc-unknown-none-elf`)
//!   the static library needs nothing but compiler builtins (`memcpy`, `__aeabi_*`);
//!   `scripts/ffi-nostd.sh` checks its undefined symbols with nm and links every entry
//!   point with `--gc-sections` to show that no panic path is left. On hosted targets
//!   the host's `std` is linked only for its panic runtime (which never runs).
//! - **No allocation.** The caller owns the memory: a [`CongestionState`] of
//!   [`CONGESTION_STATE_SIZE`] bytes aligned to [`CONGESTION_STATE_ALIGN`] (or a
//!   [`CongestionRfcState`] of [`CONGESTION_RFC_STATE_SIZE`] /
//!   [`CONGESTION_RFC_STATE_ALIGN`]), on its stack, in a static, in a connection table.
//!   [`congestion_init`] / [`congestion_rfc_init`] writes it; a state of one mode passed
//!   to the other mode's functions is refused with `CONGESTION_ERR_UNINITIALIZED`.
//! - **Every entry point checks its pointers** and returns a `CONGESTION_*` code
//!   (0 success, negative failure); results come back through out-pointers.
//! - **Time is the caller's**: a monotonic `now_us` on every event.
//! - **Units**: Linux-mode windows and flights in segments, RFC-mode amounts in bytes,
//!   rates in bytes per second, departure times in nanoseconds on the caller's clock
//!   (`now_us` × 1000).
//!
//! All `unsafe` of the project lives in this crate (and the firmware in `embedded/`);
//! the library itself forbids it.
#![no_std]

// Hosted targets (the host's static and shared library, the tests): std brings the
// panic runtime the platform expects. It is never reached: nothing here panics.
#[cfg(not(target_os = "none"))]
extern crate std;

mod config;
mod events;
mod getters;
#[cfg(target_os = "none")]
mod panic;
mod rfc;
mod rfc_config;
mod send;
mod state;

pub use config::{CongestionConfig, congestion_config_default};
pub use events::*;
pub use getters::*;
pub use rfc::*;
pub use rfc_config::*;
pub use send::*;
pub use state::{
    CONGESTION_RFC_STATE_ALIGN, CONGESTION_RFC_STATE_SIZE, CONGESTION_RFC_STATE_WORDS,
    CONGESTION_STATE_ALIGN, CONGESTION_STATE_SIZE, CONGESTION_STATE_WORDS, CongestionRfcState,
    CongestionState,
};

/// Success.
pub const CONGESTION_OK: i32 = 0;
/// The packet was not queued: TCP Small Queues throttled the flow
/// ([`congestion_send_enqueue`]); wait for a TX completion.
pub const CONGESTION_THROTTLED: i32 = 1;
/// A pointer argument was NULL.
pub const CONGESTION_ERR_NULL: i32 = -1;
/// The state was not initialised by its mode's init function ([`congestion_init`],
/// [`congestion_rfc_init`]), or was overwritten.
pub const CONGESTION_ERR_UNINITIALIZED: i32 = -2;
/// An enumeration argument (such as a `CONGESTION_EVENT_*` code) is out of range.
pub const CONGESTION_ERR_ARGUMENT: i32 = -3;
/// Configuration refused: CUBIC β outside `1..=1023` (of 1024).
pub const CONGESTION_ERR_BETA: i32 = -10;
/// Configuration refused: `bic_scale` outside `1..=2^20`.
pub const CONGESTION_ERR_BIC_SCALE: i32 = -11;
/// Configuration refused: `hystart_detect` above 3.
pub const CONGESTION_ERR_HYSTART_DETECT: i32 = -12;
/// Configuration refused: the window clamp is below 2 segments.
pub const CONGESTION_ERR_CLAMP: i32 = -13;
/// Configuration refused: the initial window is 0 or above the clamp.
pub const CONGESTION_ERR_INITIAL_WINDOW: i32 = -14;
/// Configuration refused: MSS 0.
pub const CONGESTION_ERR_MSS: i32 = -15;
/// Configuration refused: a pacing ratio is 0.
pub const CONGESTION_ERR_PACING_RATIO: i32 = -16;
/// Configuration refused: `pacing_status` is not 0, 1 or 2.
pub const CONGESTION_ERR_PACING_STATUS: i32 = -17;
/// Configuration refused: a size or count that must be positive is 0.
pub const CONGESTION_ERR_ZERO_LIMIT: i32 = -18;
/// Configuration refused: a shift of 32 or more.
pub const CONGESTION_ERR_SHIFT: i32 = -19;
/// Configuration refused for another reason.
pub const CONGESTION_ERR_CONFIG: i32 = -20;
/// Configuration refused: RFC-mode CUBIC C is 0 or above 100000 (of 1000).
pub const CONGESTION_ERR_CUBIC_C: i32 = -21;
/// Configuration refused: an RFC-mode MSS above 65535 bytes.
pub const CONGESTION_ERR_MSS_RANGE: i32 = -22;
/// Configuration refused: `slow_start` is not a `CONGESTION_RFC_SLOW_START_*` value.
pub const CONGESTION_ERR_SLOW_START: i32 = -23;

/// Phase: slow start.
pub const CONGESTION_PHASE_SLOW_START: u32 = 0;
/// Phase: RFC 9406 conservative slow start (not used by the Linux mode).
pub const CONGESTION_PHASE_CONSERVATIVE_SLOW_START: u32 = 1;
/// Phase: congestion avoidance.
pub const CONGESTION_PHASE_CONGESTION_AVOIDANCE: u32 = 2;
/// Phase: recovery (CWR, fast recovery, or loss recovery after an RTO).
pub const CONGESTION_PHASE_RECOVERY: u32 = 3;

/// Send-path verdict: send a burst of `segments` now.
pub const CONGESTION_SEND_NOW: u32 = 0;
/// Send-path verdict: the window is full; ask again after the next ACK.
pub const CONGESTION_SEND_WAIT_FOR_ACK: u32 = 1;
/// Send-path verdict: paced; ask again at `departure_ns`.
pub const CONGESTION_SEND_WAIT_UNTIL: u32 = 2;
/// Send-path verdict: TSQ budget used up; ask again after a TX completion reopens it.
pub const CONGESTION_SEND_WAIT_FOR_TX_COMPLETION: u32 = 3;
