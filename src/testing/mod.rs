//! Generators for other people's fuzzers and property tests.
//!
//! A stack that embeds `congestion` can fuzz its own integration with it: generate
//! valid configurations and hostile event streams, feed them to its glue, and check
//! its own invariants. Opt in with the `arbitrary` feature (`arbitrary::Arbitrary` for
//! the event and config types, for cargo-fuzz) or the `proptest` feature (strategies).
//! Both need `std`, so they are for test builds only; the library itself stays `no_std`.
//!
//! ```
//! # #[cfg(feature = "proptest")] {
//! use congestion::testing::{TimedEvent, run_stream, strategies};
//! use congestion::linux::{Cubic, CubicConfig};
//! use congestion::{CongestionController, Instant};
//! use proptest::prelude::*;
//!
//! proptest!(|((params, socket) in strategies::linux_config(),
//!              events in strategies::timed_events(200))| {
//!     let config = CubicConfig::from_parts(*params.config(), socket);
//!     let mut flow = Cubic::new(config, Instant::ZERO).unwrap();
//!     run_stream(&mut flow, Instant::ZERO, &events, |flow, _event| {
//!         // The stack's own invariant, checked after every event.
//!         assert!(flow.cwnd() >= 1);
//!     });
//! });
//! # }
//! ```

#[cfg(feature = "arbitrary")]
mod arbitrary_impls;
#[cfg(feature = "proptest")]
pub mod strategies;

#[cfg(feature = "arbitrary")]
pub use arbitrary_impls::{ArbitraryLinuxConfig, ArbitraryRfcConfig};

use crate::controller::{AckEvent, CongestionController, EcnEvent, LossEvent, SentEvent};
use crate::time::Instant;

/// One call a stack can make on a controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackEvent {
    /// [`CongestionController::on_sent`].
    Sent(SentEvent),
    /// [`CongestionController::on_ack`].
    Ack(AckEvent),
    /// [`CongestionController::on_sent_counted`].
    SentCounted {
        /// The amount sent.
        sent: u64,
        /// The largest packet number or sequence sent so far.
        largest_sent: u64,
    },
    /// [`CongestionController::on_loss`].
    Loss(LossEvent),
    /// [`CongestionController::on_ecn`].
    Ecn(EcnEvent),
    /// [`CongestionController::on_retransmission_timeout`].
    RetransmissionTimeout,
    /// [`CongestionController::on_discarded`].
    Discarded(u64),
    /// [`CongestionController::on_spurious_congestion`].
    Spurious,
    /// [`CongestionController::on_transmit_start`].
    TransmitStart,
}

impl StackEvent {
    /// Makes the call on `controller` at `now`.
    pub fn apply<C: CongestionController + ?Sized>(&self, controller: &mut C, now: Instant) {
        match self {
            StackEvent::Sent(s) => controller.on_sent(now, s),
            StackEvent::Ack(a) => controller.on_ack(now, a),
            StackEvent::SentCounted { sent, largest_sent } => {
                controller.on_sent_counted(now, *sent, *largest_sent)
            }
            StackEvent::Loss(l) => controller.on_loss(now, l),
            StackEvent::Ecn(e) => controller.on_ecn(now, e),
            StackEvent::RetransmissionTimeout => controller.on_retransmission_timeout(now),
            StackEvent::Discarded(n) => controller.on_discarded(now, *n),
            StackEvent::Spurious => controller.on_spurious_congestion(now),
            StackEvent::TransmitStart => controller.on_transmit_start(now),
        }
    }
}

/// An event and how the clock moves before it (possibly backwards: hostile stacks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedEvent {
    /// Microseconds the clock moves before the event; negative moves it back.
    pub advance_us: i64,
    /// The call.
    pub event: StackEvent,
}

/// Feeds `events` to `controller` starting at `start`, calling `check` after each.
/// The clock saturates at 0 and at the end of time.
pub fn run_stream<C: CongestionController + ?Sized>(
    controller: &mut C,
    start: Instant,
    events: &[TimedEvent],
    mut check: impl FnMut(&C, &TimedEvent),
) {
    let mut now = start.as_micros();
    for e in events {
        now = now.saturating_add_signed(e.advance_us);
        e.event.apply(controller, Instant::from_micros(now));
        check(controller, e);
    }
}
