//! Pacing: when the window's data leaves the host, and in what bursts.
//!
//! - [`linux_pacing_rate`]: Linux `tcp_update_pacing_rate` (segments);
//!   [`pacing_rate_bytes`]: the same in bytes for RFC mode; [`Rate`] holds either.
//! - [`EdtPacer`]: each packet's earliest departure time (Linux EDT pacing).
//! - [`TsqBudget`]: TCP Small Queues, bytes a flow may keep in the host queues.
//! - [`tso_segs`]: TSO/GSO autosizing; [`MinRttFilter`]: the windowed minimum RTT it reads.
//! - [`SendPath`]: all of the above and the congestion window in one call;
//!   [`PacedFlow`]: a controller and its send path in one object, fed once per event.
//! - [`SendPathState`]: a send path's per-flow state alone (one cache line), taking the
//!   [`SendPathParams`] per call; `SendPath<P>` and `PacedFlow<C, P>` reach theirs
//!   through any `P: Borrow<SendPathParams>`; [`SendPath::bind`] binds a state in a
//!   table in place.
//!
//! ## The send path in one call
//!
//! Before each transmission the stack asks [`SendPath::poll`]; it answers with a burst
//! size or with when to ask again; the library owns no timer. [`PacedFlow`] feeds a
//! controller and its send path together; the example drives the parts by hand.
//!
//! ```
//! use congestion::{CongestionController, Instant};
//! use congestion::hystart::PacingStatus;
//! use congestion::linux::{Cubic, CubicConfig};
//! use congestion::pacing::{SendContext, SendPath, SendPathConfig, SendVerdict};
//!
//! let flow = Cubic::new(CubicConfig::new(), Instant::ZERO)?;
//! let mut config = SendPathConfig::new();
//! config.pacing_status = PacingStatus::Needed; // this stack paces itself
//! let mut path = SendPath::new(config.validate()?);
//!
//! let now = Instant::from_micros(1_000);
//! let ctx = SendContext {
//!     now,
//!     in_flight: 0, // segments, the flow's unit
//!     mss: 1448,
//!     pacing_rate: flow.pacing_rate(),
//!     retransmit: false,
//!     rtx_queue_at_most_one: true,
//! };
//! match path.poll(&flow, &ctx) {
//!     SendVerdict::Send { segments } => {
//!         // IW10: at most half the window per burst (tcp_cwnd_test).
//!         assert_eq!(segments, 5);
//!         let len = segments * ctx.mss;
//!         // Hand the burst to the NIC (stamped with this departure time) ...
//!         let departure_ns = path.on_send(now, len, segments, ctx.pacing_rate);
//!         assert_eq!(departure_ns, 1_000_000);
//!         // ... and when the NIC reports it sent: path.on_tx_completion(len).
//!     }
//!     SendVerdict::WaitUntil { .. } => { /* arm a timer for verdict.retry_at() */ }
//!     SendVerdict::WaitForAck => { /* the next ACK opens the window */ }
//!     SendVerdict::WaitForTxCompletion => { /* on_tx_completion() says when */ }
//! }
//! # Ok::<(), congestion::ConfigError>(())
//! ```

mod bandwidth;
mod bytes_rate;
mod edt;
mod min_rtt;
mod paced_flow;
mod rate;
mod send_config;
mod send_path;
mod tso;
mod tsq;

pub use bandwidth::{MAX_TIMED_LEN_BYTES, Rate};
pub use bytes_rate::{
    BytesPacingInput, MAX_PACING_RATIO_PERCENT, PacingFormula, PacingRateConfig, PacingRateParams,
    RFC9002_PACING_N_PERCENT, pacing_rate_bytes,
};
pub use edt::{EdtPacer, UNPACED_SEGMENTS};
pub use min_rtt::{MIN_RTT_WINDOW_MS, MinRttFilter};
pub use paced_flow::{NextPacket, PacedFlow};
pub use rate::{
    LinuxPacingInput, PACING_CA_RATIO_PERCENT, PACING_SS_RATIO_PERCENT, linux_pacing_rate,
};
pub use send_config::{SendPathConfig, SendPathParams};
pub use send_path::{Enqueue, SendContext, SendPath, SendPathState, SendVerdict};
pub use tso::{
    GSO_MAX_SEGS, GSO_MAX_SIZE, MIN_TSO_SEGS, TSO_RTT_LOG, TsoInput, default_send_quantum_bytes,
    tso_autosize_bytes, tso_segs,
};
pub use tsq::{
    LIMIT_OUTPUT_BYTES, LIMIT_OUTPUT_BYTES_ORIGINAL, PACING_SHIFT, TsqBudget, TsqLimitInput,
    tsq_limit_bytes,
};
