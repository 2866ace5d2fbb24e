//! Pacing: when the window's data leaves the host, and in what bursts.
//!
//! - [`linux_pacing_rate`]: Linux `tcp_update_pacing_rate` (segments);
//!   [`pacing_rate_bytes`]: the same in bytes for RFC mode; [`Rate`] holds either.
//! - [`EdtPacer`]: each packet's earliest departure time (Linux EDT pacing).
//! - [`TsqBudget`]: TCP Small Queues, bytes a flow may keep in the host queues.
//! - [`tso_segs`]: TSO/GSO autosizing; [`MinRttFilter`]: the windowed minimum RTT it reads.
//! - [`SendPath`]: all of the above and the congestion window in one call.

mod bandwidth;
mod bytes_rate;
mod edt;
mod min_rtt;
mod rate;
mod send_config;
mod send_path;
mod tso;
mod tsq;

pub use bandwidth::{MAX_TIMED_LEN_BYTES, Rate};
pub use bytes_rate::{
    BytesPacingInput, MAX_PACING_RATIO_PERCENT, PacingRateConfig, PacingRateParams,
    pacing_rate_bytes,
};
pub use edt::{EdtPacer, UNPACED_SEGMENTS};
pub use min_rtt::{MIN_RTT_WINDOW_MS, MinRttFilter};
pub use rate::{
    LinuxPacingInput, PACING_CA_RATIO_PERCENT, PACING_SS_RATIO_PERCENT, linux_pacing_rate,
};
pub use send_config::{SendPathConfig, SendPathParams};
pub use send_path::{Enqueue, SendContext, SendPath, SendVerdict};
pub use tso::{
    GSO_MAX_SEGS, GSO_MAX_SIZE, MIN_TSO_SEGS, TSO_RTT_LOG, TsoInput, tso_autosize_bytes, tso_segs,
};
pub use tsq::{
    LIMIT_OUTPUT_BYTES, LIMIT_OUTPUT_BYTES_ORIGINAL, PACING_SHIFT, TsqBudget, TsqLimitInput,
    tsq_limit_bytes,
};
