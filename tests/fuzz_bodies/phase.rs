//! Which phase changes an event may cause: the legal edges of the phase machine.

use congestion::{EcnEvent, LossEvent, Phase};

/// The kind of event, for the edge table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `on_sent`.
    Sent,
    /// `on_ack`.
    Ack,
    /// `on_congestion_event`.
    Congestion(CongestionEvent),
    /// `on_spurious_congestion`.
    Undo,
    /// `on_transmit_start`.
    TransmitStart,
}

/// Whether `event` may move the flow from `from` to `to`.
///
/// - Sending and restarting after idle never change the phase.
/// - A timeout (or persistent congestion) enters `Recovery` or restarts slow start;
///   loss and ECN reduce the window into congestion avoidance (Linux, where recovery
///   ends at once) or into `Recovery` (RFC mode).
/// - `Recovery` is left only on an ACK or an undo.
/// - An ACK moves forward only: slow start → conservative slow start → congestion
///   avoidance, conservative slow start → slow start (RFC 9406 §4.3), Recovery → any.
/// - Undo restores the state from before the undone event, which may itself have been
///   a recovery (an RTO during a loss recovery); the mode's own check then requires
///   that recovery to be still open.
pub fn legal(event: Kind, from: Phase, to: Phase) -> bool {
    use Phase::*;
    if from == to {
        return true;
    }
    match event {
        Kind::Sent | Kind::TransmitStart => false,
        Kind::Congestion(
            CongestionEvent::RetransmissionTimeout | CongestionEvent::PersistentCongestion,
        ) => to == Recovery || to == SlowStart,
        Kind::Congestion(CongestionEvent::Loss | CongestionEvent::Ecn) => {
            to == CongestionAvoidance || to == Recovery
        }
        Kind::Undo => true,
        Kind::Ack => matches!(
            (from, to),
            (SlowStart, ConservativeSlowStart)
                | (SlowStart, CongestionAvoidance)
                | (ConservativeSlowStart, SlowStart)
                | (ConservativeSlowStart, CongestionAvoidance)
                | (Recovery, _)
        ),
    }
}
