//! # congestion-ffi: the C ABI of `congestion`
//!
//! Linux-mode CUBIC + HyStart (bit-exact with `tcp_cubic.c`) with the kernel's socket
//! glue, and the send path (EDT pacer, TCP Small Queues, TSO autosizing), behind plain C
//! functions. The header `include/congestion.h` is generated from this crate by cbindgen.
//!
//! - **No allocation.** The caller owns the memory: a [`CongestionState`] of
//!   [`CONGESTION_STATE_SIZE`] bytes aligned to [`CONGESTION_STATE_ALIGN`], on its stack,
//!   in a static, in a connection table. [`congestion_init`] writes it.
//! - **Every entry point checks its pointers** and returns a `CONGESTION_*` code
//!   (0 success, negative failure); results come back through out-pointers.
//! - **Time is the caller's**: a monotonic `now_us` on every event.
//! - **Units**: windows and flights in segments (the Linux mode), rates in bytes per
//!   second, departure times in nanoseconds on the caller's clock (`now_us` × 1000).
//!
//! All `unsafe` of the project lives in this crate; the library itself forbids it.

mod config;
mod events;
mod getters;
mod state;

pub use config::{CongestionConfig, congestion_config_default};
pub use events::*;
pub use getters::*;
pub use state::{
    CONGESTION_STATE_ALIGN, CONGESTION_STATE_SIZE, CONGESTION_STATE_WORDS, CongestionState,
};

/// Success.
pub const CONGESTION_OK: i32 = 0;
/// The packet was not queued: TCP Small Queues throttled the flow
/// ([`congestion_on_qdisc_enqueue`]); wait for a TX completion.
pub const CONGESTION_THROTTLED: i32 = 1;
/// A pointer argument was NULL.
pub const CONGESTION_ERR_NULL: i32 = -1;
/// The state was not initialised by [`congestion_init`] (or was overwritten).
pub const CONGESTION_ERR_UNINITIALIZED: i32 = -2;
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
