//! [`DefmtObserver`]: every decision logged through `defmt`, for firmware.

use super::{Decision, Observer};
use crate::time::Instant;

/// Logs each decision at `info` level through `defmt`, with the time in µs. Zero-sized:
/// pass `&mut DefmtObserver` (or pair it with [`Counters`](super::Counters)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefmtObserver;

impl Observer for DefmtObserver {
    fn on_decision(&mut self, now: Instant, decision: &Decision) {
        defmt::info!("cc t={=u64}us {}", now.as_micros(), decision);
    }
}
