//! The two ways a stack reports a send (v0.2): with its own in-flight count
//! ([`SentEvent::new`] to `on_sent`), or by the amount sent for the controller to count
//! (`on_sent_counted`).

use congestion::{CongestionController, Instant, SentEvent};

/// One send as the stack reports it.
#[derive(Clone, Copy, Debug)]
pub enum Send {
    /// `on_sent` with the stack's count of what is in flight afterwards.
    Stack(SentEvent),
    /// `on_sent_counted`: the amount sent, for the controller to add.
    Counted { sent: u64, largest_sent: u64 },
}

impl Send {
    /// Makes the call.
    pub fn apply<C: CongestionController + ?Sized>(&self, c: &mut C, now: Instant) {
        match *self {
            Send::Stack(sent) => c.on_sent(now, &sent),
            Send::Counted { sent, largest_sent } => c.on_sent_counted(now, sent, largest_sent),
        }
    }

    /// What is in flight afterwards, `before` being the controller's count before it.
    pub fn in_flight_after(&self, before: u64) -> u64 {
        match *self {
            Send::Stack(sent) => sent.in_flight_after,
            Send::Counted { sent, .. } => before.saturating_add(sent),
        }
    }

    /// The largest packet number or sequence it names.
    pub fn largest_sent(&self) -> u64 {
        match *self {
            Send::Stack(sent) => sent.largest_sent,
            Send::Counted { largest_sent, .. } => largest_sent,
        }
    }
}
