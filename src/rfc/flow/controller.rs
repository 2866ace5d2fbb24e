//! [`CongestionController`] for [`Classic`]: the trait's calls forwarded to the state
//! with the flow's parameters.

use super::*;

impl<W: WindowAdjustment, P: Borrow<RfcParams>> CongestionController for Classic<W, P> {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Bytes
    }

    /// Records in-flight bytes and the highest packet number / sequence sent. Going from
    /// nothing in flight to something is a restart after idle.
    #[inline]
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.state.on_sent(self.params.borrow(), now, sent)
    }

    /// Acked bytes above what was in flight are clamped (in-flight floors at zero); an
    /// RTT of zero is accepted as is; `largest_acked` going backwards is ignored.
    #[inline]
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        ClassicState::on_ack_via(self, now, ack)
    }

    /// The lost bytes leave flight; then persistent congestion collapses the window, and
    /// a loss of a packet sent after the current recovery period began (or of an
    /// unknown one) reduces it (see "Recovery" on [`Cubic`]). Lost bytes above what is
    /// in flight empty the flight.
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.state.on_loss(self.params.borrow(), now, loss)
    }

    /// A rise of 0 is ignored; otherwise judged as a loss, with ECN's β and cwnd floor.
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        self.state.on_ecn(self.params.borrow(), now, ecn)
    }

    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.state
            .on_retransmission_timeout(self.params.borrow(), now)
    }

    /// More than is in flight empties the flight.
    fn on_discarded(&mut self, now: Instant, amount: u64) {
        self.state.on_discarded(now, amount)
    }

    fn on_spurious_congestion(&mut self, now: Instant) {
        self.state.on_spurious_congestion(now)
    }

    fn on_transmit_start(&mut self, now: Instant) {
        self.state.on_transmit_start(now)
    }

    fn cwnd(&self) -> u64 {
        self.state.cwnd
    }

    fn ssthresh(&self) -> Option<u64> {
        self.state.ssthresh()
    }

    fn phase(&self) -> Phase {
        self.state.phase
    }

    /// Bytes in flight: the stack's count at its last send, minus what was acked, lost
    /// or discarded since.
    fn in_flight(&self) -> u64 {
        self.state.in_flight
    }

    fn pacing_rate(&self) -> Rate {
        self.state.pacing_rate(self.params.borrow())
    }

    fn mss_bytes(&self) -> u64 {
        self.state.mss_bytes()
    }

    fn send_quantum_bytes(&self) -> u64 {
        self.state.send_quantum_bytes(self.params.borrow())
    }
}
