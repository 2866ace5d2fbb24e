//! Which phase changes an event may cause: the legal edges of the phase machine, with
//! v0.2's one meaning of [`Phase`] in every mode.

use congestion::Phase;

/// The kind of event, for the edge table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `on_sent`.
    Sent,
    /// `on_ack`.
    Ack,
    /// `on_loss` without persistent congestion.
    Loss,
    /// `on_loss` with persistent congestion.
    PersistentCongestion,
    /// `on_ecn`.
    Ecn,
    /// `on_retransmission_timeout`.
    RetransmissionTimeout,
    /// `on_discarded`.
    Discarded,
    /// `on_spurious_congestion`.
    Undo,
    /// `on_transmit_start`.
    TransmitStart,
    /// A new MSS (RFC mode's `set_mss`).
    MssChange,
}

/// Whether `event` may move the flow from `from` to `to`.
///
/// - Sending, restarting after idle, discarding and an MSS change never change the
///   phase.
/// - A retransmission timeout or persistent congestion restarts slow start (a recovery
///   period begins too, but the phase says `SlowStart` in every mode).
/// - A loss or ECN-CE mark that starts a recovery period enters `Recovery`; in Linux
///   mode the period is `snd_una` before `high_seq`, so with nothing sent beyond
///   `snd_una` it is over at once and the window, landed on ssthresh, is in congestion
///   avoidance. One that does not (sent before the period began) changes nothing.
/// - `Recovery` is left only on an ACK (RFC: of a packet sent after it began; Linux:
///   `snd_una` reaching `high_seq`) or an undo.
/// - An ACK moves forward only: slow start → conservative slow start → congestion
///   avoidance, conservative slow start → slow start (RFC 9406 §4.3), Recovery → any.
/// - Undo restores the state from before the undone event, which may itself have been
///   a recovery; the mode's own check then requires that recovery to be still open.
pub fn legal(event: Kind, from: Phase, to: Phase) -> bool {
    use Phase::*;
    if from == to {
        return true;
    }
    match event {
        Kind::Sent | Kind::TransmitStart | Kind::Discarded | Kind::MssChange => false,
        Kind::RetransmissionTimeout | Kind::PersistentCongestion => to == SlowStart,
        Kind::Loss | Kind::Ecn => to == Recovery || to == CongestionAvoidance,
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
