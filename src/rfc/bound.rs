//! [`BoundClassic`]: a flow's bare state and the parameters it shares, borrowed together
//! as one controller for the events at hand.

use crate::controller::{
    AckEvent, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, WindowUnit,
};
use crate::pacing::Rate;
use crate::rfc::{ClassicState, KeepUndo, RfcParams, UndoStorage, WindowAdjustment};
use crate::time::Instant;

/// A [`ClassicState`] in a stack's table and the shared [`RfcParams`], borrowed
/// together as a [`CongestionController`] (as [`Classic`](crate::rfc::Classic)) without
/// copying either; made by [`ClassicState::bind`], as `linux::Cubic::bind` does.
///
/// ```
/// use congestion::cubic::RfcCubic;
/// use congestion::rfc::{ClassicState, self, RfcParams};
/// use congestion::{AckEvent, CongestionController, Duration, Instant, SentEvent};
///
/// static PARAMS: RfcParams = match RfcParams::new(&rfc::CubicConfig::quic(1200)) {
///     Ok(p) => p,
///     Err(_) => panic!("invalid settings"),
/// };
/// let mut table = [ClassicState::<RfcCubic>::new(&PARAMS, Instant::ZERO); 4];
/// let mut flow = table[2].bind(&PARAMS);
/// flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
/// flow.on_ack(
///     Instant::from_micros(20_000),
///     &AckEvent::new(2_400, 2, Some(Duration::from_millis(20))),
/// );
/// assert_eq!(table[2].cwnd(), 14_400); // slow start: + the acked bytes
/// ```
#[derive(Debug)]
pub struct BoundClassic<'a, W: WindowAdjustment, U: UndoStorage<W> = KeepUndo<W>> {
    state: &'a mut ClassicState<W, U>,
    params: &'a RfcParams,
}

impl<'a, W: WindowAdjustment, U: UndoStorage<W>> BoundClassic<'a, W, U> {
    /// `state` driven with `params` (those it was made with, or new ones: as for
    /// [`Classic::from_parts`](crate::rfc::Classic::from_parts)).
    pub fn new(state: &'a mut ClassicState<W, U>, params: &'a RfcParams) -> Self {
        BoundClassic { state, params }
    }

    /// The flow's state.
    pub fn state(&self) -> &ClassicState<W, U> {
        self.state
    }

    /// The parameters it runs with.
    pub fn params(&self) -> &RfcParams {
        self.params
    }

    /// The state, mutably, and the parameters.
    pub(crate) fn parts_mut(&mut self) -> (&mut ClassicState<W, U>, &RfcParams) {
        (self.state, self.params)
    }
}

impl<W: WindowAdjustment, U: UndoStorage<W>> CongestionController for BoundClassic<'_, W, U> {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Bytes
    }
    #[inline]
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.state.on_sent(self.params, now, sent)
    }
    #[inline]
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        self.state.on_ack(self.params, now, ack)
    }
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.state.on_loss(self.params, now, loss)
    }
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        self.state.on_ecn(self.params, now, ecn)
    }
    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.state.on_retransmission_timeout(self.params, now)
    }
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
        self.state.cwnd()
    }
    fn ssthresh(&self) -> Option<u64> {
        self.state.ssthresh()
    }
    fn phase(&self) -> Phase {
        self.state.phase()
    }
    fn in_flight(&self) -> u64 {
        self.state.in_flight()
    }
    fn pacing_rate(&self) -> Rate {
        self.state.pacing_rate(self.params)
    }
    fn mss_bytes(&self) -> u64 {
        self.state.mss_bytes()
    }
    fn send_quantum_bytes(&self) -> u64 {
        self.state.send_quantum_bytes(self.params)
    }
}

#[cfg(test)]
mod tests;
