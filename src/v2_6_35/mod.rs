//! The Linux 2.6.35 profile: CUBIC v2.3 with the original jiffies-based HyStart and the
//! socket glue of that kernel, bit for bit against traces of the 2.6.35.3 code
//! (`tests/data/linux-2.6.35/`).
//!
//! A complete Linux mode beside today's ([`crate::linux`]): build a [`Cubic`] (or
//! [`crate::AnyController::V2_6_35Cubic`]). What differs from today's kernel is in
//! `tests/data/linux-2.6.35/DIFFERENCES-FROM-6.x.md`; in short: HyStart on
//! `jiffies` at a configurable `HZ` with whole-jiffy RTTs, slow start +1 per ACK
//! (`tcp_abc = 0`), additive increase one step per ACK, `cnt` scaled by the era's
//! `delayed_ack` estimate with no 5 %-per-RTT clamp and no `cnt >= 2` floor, CUBIC time
//! in `u32` jiffies, `cwnd <= ssthresh` as the slow-start
//! test, undo to `max(cwnd, Wmax)` capped by `tcp_moderate_cwnd`, and no idle handling.
//!
//! Shared with today's mode, because the kernels wrote them identically: the cube root
//! ([`crate::cubic::linux_cubic_root`]), `after()`, the `hystart_detect` mask and the
//! `icsk_ca_state` enum ([`crate::linux::CaState`]).
//!
//! ```
//! use congestion::{AckEvent, CongestionController, Duration, Instant, SentEvent};
//! use congestion::v2_6_35::{CubicConfig, Cubic};
//!
//! let mut config = CubicConfig::new();
//! config.hz = 250;
//! let start = Instant::from_micros(1_000_000_000);
//! let mut flow = Cubic::new(config, start)?;
//! flow.on_sent(start, &SentEvent::new(2, 2));
//! // One segment acknowledged 18 ms later: +1 per ACK in the era's slow start.
//! let now = Instant::from_micros(1_000_018_000);
//! flow.on_ack(now, &AckEvent { acked: 1, rtt: Some(Duration::from_millis(18)), ..AckEvent::default() });
//! assert_eq!(flow.cwnd(), 3);
//! // 18 ms at HZ=250 is 4 whole jiffies, 16 ms, as the 2.6.35 kernel measured it.
//! assert_eq!(flow.rtt_us_passed(), 16_000);
//! # Ok::<(), congestion::ConfigError>(())
//! ```

mod config;
mod controller;
mod cubic;
mod flow;
mod hystart;
mod jiffies;
mod observe;
mod params;
mod recovery;
mod state;
mod tcp_cong;

pub use config::{CubicConfig, TCP_INFINITE_SSTHRESH_2635};
pub use flow::{Cubic, Linux2635SocketView};

/// The 0.2 name of [`Cubic`].
#[deprecated(since = "0.3.0", note = "renamed to `v2_6_35::Cubic`")]
pub type Linux2635Flow<P = Linux2635Params> = Cubic<P>;

/// The 0.2 name of [`CubicConfig`].
#[deprecated(since = "0.3.0", note = "renamed to `v2_6_35::CubicConfig`")]
pub type Linux2635Config = CubicConfig;
pub use hystart::{
    HYSTART_ACK_GAP_MS, HYSTART_ACK_TRAIN, HYSTART_DELAY, HYSTART_DELAY_MAX_2635,
    HYSTART_DELAY_MIN_2635, HYSTART_MIN_SAMPLES_2635, HystartExit2635,
};
pub use jiffies::{
    MAX_JIFFY_OFFSET, SUPPORTED_HZ, is_supported_hz, jiffies_at, jiffies_to_usecs,
    msecs_to_jiffies, usecs_to_jiffies,
};
pub use params::Linux2635Params;
pub use state::{ACK_RATIO_SHIFT, Bictcp2635, Linux2635State};
pub use tcp_cong::{CwndUse, is_cwnd_limited};
