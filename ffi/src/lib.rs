//! # congestion-ffi: the C ABI of `congestion`
//!
//! Two modes behind one vocabulary. Every event and every getter exists in both, named
//! the same way but for the mode's prefix, with the same arguments:
//!
//! | | Linux mode (`congestion_linux_cubic_*`) | RFC mode (`congestion_rfc_cubic_*`) |
//! |---|---|---|
//! | what | CUBIC + HyStart bit-exact with `tcp_cubic.c` and the kernel's socket glue | RFC 9438 CUBIC or RFC 9002 NewReno (`CongestionRfcCubicConfig.algorithm`), with HyStart++, Linux HyStart or standard slow start |
//! | send path | EDT pacer, TCP Small Queues, TSO autosizing: `congestion_linux_cubic_send_*` | the same: `congestion_rfc_cubic_send_*` |
//! | amounts | segments | bytes |
//! | state | [`CongestionLinuxCubicState`] | [`CongestionRfcCubicState`] |
//!
//! The events are the controller trait's (`congestion::CongestionController`), one C
//! function each: `on_sent` (the stack counts what is in flight) or `on_sent_counted`
//! (the flow counts it), `on_ack`, `on_loss` (lost amount and the newest lost packet
//! number, or [`CONGESTION_PACKET_UNKNOWN`]), `on_loss_sent_at`,
//! `on_persistent_congestion`, `on_ecn` (a rise of the CE count), `on_rto`,
//! `on_discarded`, `on_spurious`, `on_transmit_start`. The getters: `cwnd`, `ssthresh`
//! ([`CONGESTION_SSTHRESH_NONE`] before there is one), `phase` (`CONGESTION_PHASE_*`,
//! the same meaning in both modes), `in_flight`, `pacing_rate` (bytes/s), `send_quantum`
//! (bytes), `mss`.
//!
//! ## Per-packet BBR (QUIC)
//!
//! For stacks that report packets rather than a TCP scoreboard, the trait's per-packet
//! calls (`on_packet_sent`, `on_ack_sampled`, `on_packet_lost`, ...) of RFC-mode BBRv3
//! (`congestion_rfc_bbr3_*`, bytes) and of the Linux-mode BBR v1 and BBRv3 controllers
//! (`congestion_linux_bbr_controller_*`, `congestion_linux_bbr3_controller_*`, segments:
//! one packet each; they count whole segments, so they are not usable in bytes). The
//! send call writes a [`CongestionTxSnapshot`] (32 plain bytes) the caller stores with
//! the packet and hands back on its ACK or loss; one no send of the flow wrote is
//! refused with [`CONGESTION_ERR_SNAPSHOT`]. The state keeps copies of the parameters
//! and of the caller's [`CongestionRandom`].
//!
//! ## Recovery periods
//!
//! Each flow reduces at most once per recovery period and ignores losses and CE marks of
//! packets sent before the current period began (RFC 9002 §7.3.2; Linux's `high_seq`):
//! a stack may report every lost packet, or every loss burst, as its loss detection finds
//! them, with the newest lost packet number. Persistent congestion and an RTO always act.
//! Lost and discarded amounts leave the in-flight count at once. A loss reported with
//! [`CONGESTION_PACKET_UNKNOWN`] is always a new congestion event (the 0.1 behaviour:
//! the stack decides what one event is).
//!
//! Linux mode numbers segments as TCP does, in segments from the initial sequence:
//! `on_sent`'s `largest_sent` is the stack's `snd_nxt` (one past the last segment sent),
//! `on_ack`'s `largest_acked` its cumulative ACK (the first segment not yet
//! acknowledged), a lost segment is named by its own sequence and a CE rise by the
//! highest segment acknowledged in order. The flow's `snd_nxt` and `snd_una` follow them,
//! so the recovery point is the stack's real `snd_nxt` even when SACKed and lost
//! segments left its flight.
//!
//! ## Memory, pointers, errors
//!
//! - **No std, no allocator, no panic.** The crate is `no_std`. On bare-metal targets
//!   (`thumbv7em-none-eabihf`, `thumbv6m-none-eabi`, `riscv32imc-unknown-none-elf`)
//!   the static library needs nothing but compiler builtins (`memcpy`, `__aeabi_*`);
//!   `scripts/ffi-nostd.sh` checks its undefined symbols with nm and links every entry
//!   point with `--gc-sections` to show that no panic path is left. On hosted targets
//!   the host's `std` is linked only for its panic runtime (which never runs).
//! - **The caller owns the memory**: per set of settings a parameter block
//!   ([`CongestionLinuxCubicParams`], [`CongestionRfcCubicParams`], 8-byte aligned), validated
//!   once and shared by every flow initialised with it; per flow a
//!   [`CongestionLinuxCubicState`] of [`CONGESTION_LINUX_STATE_SIZE`] bytes or a
//!   [`CongestionRfcCubicState`] of [`CONGESTION_RFC_STATE_SIZE`] bytes, both aligned to 64
//!   bytes (a cache line: the flow's hot fields share one), on its stack, in a static,
//!   in a connection table. A state keeps its block's address: the block outlives it.
//!   The init functions take the buffer's size and refuse a buffer that is too small
//!   ([`CONGESTION_ERR_SIZE`]); every function refuses a pointer that is not aligned as
//!   its block needs ([`CONGESTION_ERR_ALIGNMENT`]) before reading anything through it;
//!   a state of one mode passed to the other mode's functions, or a parameter block never
//!   initialised, is refused with [`CONGESTION_ERR_UNINITIALIZED`].
//! - **Every entry point checks its pointers** and returns a `CONGESTION_*` code
//!   (0 success, negative failure); results come back through out-pointers.
//! - **Time is the caller's**: a monotonic `now_us` (µs) on every event; the one ns
//!   quantity, a departure time, is named `_ns` (`now_us` × 1000 on the same clock).
//!
//! All `unsafe` of the project lives in this crate (and the firmware in `embedded/`);
//! the library itself forbids it.
#![no_std]

// Hosted targets (the host's static and shared library, the tests): std brings the
// panic runtime the platform expects. It is never reached: nothing here panics.
#[cfg(not(target_os = "none"))]
extern crate std;

mod bbr_types;
mod blobs;
mod deprecated;
mod flow;
mod linux;
mod linux_bbr;
mod linux_bbr3;
mod linux_bbr3_controller;
mod linux_bbr_controller;
mod linux_config;
mod linux_dctcp;
mod linux_events;
mod linux_prague;
mod linux_send;
mod linux_snapshot;
mod linux_tcp_config;
mod packet;
#[cfg(target_os = "none")]
mod panic;
mod rfc;
mod rfc_bbr3;
mod rfc_config;
mod rfc_events;
mod rfc_send;
mod send;
mod send_config;
mod state;
mod tcp_blob;
mod tcp_flow_calls;

pub use bbr_types::*;
pub use blobs::*;
pub use deprecated::*;
pub use linux::*;
pub use linux_bbr::*;
pub use linux_bbr_controller::*;
pub use linux_bbr3::*;
pub use linux_bbr3_controller::*;
pub use linux_config::{CongestionLinuxCubicConfig, congestion_linux_cubic_config_default};
pub use linux_dctcp::*;
pub use linux_events::*;
pub use linux_prague::*;
pub use linux_send::*;
pub use linux_snapshot::*;
pub use linux_tcp_config::*;
pub use packet::*;
pub use rfc::*;
pub use rfc_bbr3::*;
pub use rfc_config::*;
pub use rfc_events::*;
pub use rfc_send::*;
pub use state::{
    CONGESTION_LINUX_PARAMS_ALIGN, CONGESTION_LINUX_PARAMS_SIZE, CONGESTION_LINUX_PARAMS_WORDS,
    CONGESTION_LINUX_STATE_ALIGN, CONGESTION_LINUX_STATE_SIZE, CONGESTION_LINUX_STATE_WORDS,
    CONGESTION_RFC_PARAMS_ALIGN, CONGESTION_RFC_PARAMS_SIZE, CONGESTION_RFC_PARAMS_WORDS,
    CONGESTION_RFC_STATE_ALIGN, CONGESTION_RFC_STATE_SIZE, CONGESTION_RFC_STATE_WORDS,
    CongestionLinuxCubicParams, CongestionLinuxCubicState, CongestionRfcCubicParams,
    CongestionRfcCubicState,
};
pub use tcp_blob::*;

/// Success.
pub const CONGESTION_OK: i32 = 0;
/// The packet was not queued: TCP Small Queues throttled the flow
/// ([`congestion_linux_cubic_send_enqueue`], [`congestion_rfc_cubic_send_enqueue`]); wait for a TX
/// completion.
pub const CONGESTION_THROTTLED: i32 = 1;
/// A pointer argument was NULL.
pub const CONGESTION_ERR_NULL: i32 = -1;
/// The state (or parameter block) was not initialised by its mode's init function
/// ([`congestion_linux_cubic_init`], [`congestion_rfc_cubic_init`], `congestion_*_params_init`),
/// belongs to the other mode, or was overwritten.
pub const CONGESTION_ERR_UNINITIALIZED: i32 = -2;
/// An enumeration argument is out of range.
pub const CONGESTION_ERR_ARGUMENT: i32 = -3;
/// The state pointer is not aligned to `CONGESTION_*_STATE_ALIGN` bytes. Nothing
/// was read or written through it.
pub const CONGESTION_ERR_ALIGNMENT: i32 = -4;
/// The buffer given to an init function is smaller than `CONGESTION_*_STATE_SIZE` (or
/// `CONGESTION_*_PARAMS_SIZE`). Nothing was written.
pub const CONGESTION_ERR_SIZE: i32 = -5;
/// Configuration refused: CUBIC β outside `1..=1023` (of 1024).
pub const CONGESTION_ERR_BETA: i32 = -10;
/// Configuration refused: `bic_scale` outside `1..=2^20`.
pub const CONGESTION_ERR_BIC_SCALE: i32 = -11;
/// Configuration refused: `hystart_detect` above 3.
pub const CONGESTION_ERR_HYSTART_DETECT: i32 = -12;
/// Configuration refused: the window clamp is below 2 segments.
pub const CONGESTION_ERR_CLAMP: i32 = -13;
/// Configuration refused: the initial window is 0 or above the clamp (Linux mode), or
/// the initial window or ssthresh is below 2 MSS (RFC mode).
pub const CONGESTION_ERR_INITIAL_WINDOW: i32 = -14;
/// Configuration refused: MSS 0.
pub const CONGESTION_ERR_MSS: i32 = -15;
/// Configuration refused: a pacing ratio (or RFC 9002's `N`) is 0 or above 10000 %.
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
/// Configuration refused: `algorithm` is not a `CONGESTION_RFC_ALGORITHM_*` value.
pub const CONGESTION_ERR_ALGORITHM: i32 = -24;
/// Configuration refused: `pacing_formula` is not a `CONGESTION_PACING_FORMULA_*` value.
pub const CONGESTION_ERR_PACING_FORMULA: i32 = -25;
/// Configuration refused: BBR's `max_tcp_header` is 65535 or more (the TSO goal's cap
/// is 65535 minus it).
pub const CONGESTION_ERR_TCP_HEADER: i32 = -26;
/// Configuration refused: DCTCP's `dctcp_shift_g` is above 10.
pub const CONGESTION_ERR_DCTCP_SHIFT_G: i32 = -27;
/// Configuration refused: Prague's `prague_burst_shift` is above 63.
pub const CONGESTION_ERR_PRAGUE_BURST_SHIFT: i32 = -28;
/// A snapshot handed back to a per-packet call (`_on_ack_sampled`, `_on_packet_lost`)
/// that no send of this flow wrote: flag bits no send sets, a stamp or send time after
/// `now_us`, or delivery counters ahead of the flow's (a snapshot of another flow, or
/// garbage). Nothing changed.
pub const CONGESTION_ERR_SNAPSHOT: i32 = -29;
/// Configuration refused: RFC-mode BBRv3's `pacing_offload_bytes` is 2^30 or more.
pub const CONGESTION_ERR_PACING_OFFLOAD: i32 = -30;

/// A packet number that names no packet: a loss or ECN report with it is always a new
/// congestion event. No QUIC packet number (below 2^62) or TCP sequence is this value.
pub const CONGESTION_PACKET_UNKNOWN: u64 = u64::MAX;
/// What `congestion_*_ssthresh` (and the configs' initial ssthresh) give for "no
/// ssthresh yet", in both modes.
pub const CONGESTION_SSTHRESH_NONE: u64 = u64::MAX;
/// What `congestion_*_pacing_rate` gives before the first RTT sample: no pacing.
pub const CONGESTION_RATE_UNLIMITED: u64 = u64::MAX;

/// Phase: slow start (below ssthresh, or none yet, outside a recovery period; also
/// after an RTO or persistent congestion).
pub const CONGESTION_PHASE_SLOW_START: u32 = 0;
/// Phase: RFC 9406 conservative slow start (RFC mode with HyStart++ only).
pub const CONGESTION_PHASE_CONSERVATIVE_SLOW_START: u32 = 1;
/// Phase: congestion avoidance (at or above ssthresh, outside a recovery period).
pub const CONGESTION_PHASE_CONGESTION_AVOIDANCE: u32 = 2;
/// Phase: the recovery period of a loss or ECN-CE reduction, in both modes: from the
/// reduction until the first ACK of a packet sent after it (RFC 9002 §7.3.2; Linux:
/// until `snd_una` passes `high_seq`). Reports of packets sent before it began do not
/// reduce again.
pub const CONGESTION_PHASE_RECOVERY: u32 = 3;

/// Send-path verdict: send a burst of `segments` now.
pub const CONGESTION_SEND_NOW: u32 = 0;
/// Send-path verdict: the window is full; ask again after the next ACK.
pub const CONGESTION_SEND_WAIT_FOR_ACK: u32 = 1;
/// Send-path verdict: paced; ask again at `departure_ns`.
pub const CONGESTION_SEND_WAIT_UNTIL: u32 = 2;
/// Send-path verdict: TSQ budget used up; ask again after a TX completion reopens it.
pub const CONGESTION_SEND_WAIT_FOR_TX_COMPLETION: u32 = 3;
