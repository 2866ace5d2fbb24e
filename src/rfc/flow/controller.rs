//! [`CongestionController`] for [`Classic`]: the trait's calls forwarded to the state
//! with the flow's parameters.

use super::*;

impl<W: WindowAdjustment, P: Borrow<RfcParams>> CongestionController for Classic<W, P> {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Bytes
    }

    /// As [`ClassicState::on_sent`].
    #[inline]
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.state.on_sent(self.params.borrow(), now, sent)
    }

    /// As [`ClassicState::on_ack`].
    #[inline]
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        ClassicState::on_ack_via(self, now, ack)
    }

    /// As [`ClassicState::on_loss`].
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.state.on_loss(self.params.borrow(), now, loss)
    }

    /// As [`ClassicState::on_ecn`].
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        self.state.on_ecn(self.params.borrow(), now, ecn)
    }

    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.state
            .on_retransmission_timeout(self.params.borrow(), now)
    }

    /// As [`ClassicState::on_discarded`].
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

    /// As [`ClassicState::in_flight`].
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
