//! The flight recorder: a flow's last `N` events and the state each one left behind.
//!
//! Wrap any controller in a [`FlightRecorder`] and it behaves exactly the same, while
//! keeping a fixed-capacity ring (no allocation) of what happened. Print it with `{:?}`
//! (or through `defmt`) when something looks wrong and the last events read as a story:
//! which ACK, loss or timeout moved the window where. Not wrapping costs nothing, and
//! without the `flight-recorder` feature this module is not even compiled.

use crate::controller::{
    AckEvent, AckedPacket, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, TxSnapshot,
    WindowUnit,
};
use crate::pacing::Rate;
use crate::time::Instant;
use heapless::HistoryBuf;

/// What the stack told the controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RecordedEvent {
    /// `on_sent` with the amount in flight afterwards.
    Sent {
        /// In flight after the send (as the controller counts it), in its unit.
        in_flight_after: u64,
    },
    /// `on_ack`.
    Ack {
        /// Newly acknowledged, in the controller's unit.
        acked: u64,
        /// The RTT sample in µs, if any.
        rtt_us: Option<u64>,
    },
    /// `on_loss`.
    Loss(LossEvent),
    /// `on_ecn`.
    Ecn(EcnEvent),
    /// `on_retransmission_timeout`.
    RetransmissionTimeout,
    /// `on_discarded`, with the amount.
    Discarded(u64),
    /// `on_spurious_congestion`.
    Spurious,
    /// `on_transmit_start`.
    TransmitStart,
}

/// One event and the state it left behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Record {
    /// Sequence number of the event in the flow's life, from 1.
    pub seq: u64,
    /// When it happened.
    pub at: Instant,
    /// What happened.
    pub event: RecordedEvent,
    /// cwnd afterwards.
    pub cwnd: u64,
    /// ssthresh afterwards (`None`: none yet).
    pub ssthresh: Option<u64>,
    /// Phase afterwards.
    pub phase: Phase,
    /// Whether this event changed the phase.
    pub phase_changed: bool,
}

/// A controller plus the ring of its last `N` records (`N` at least 1).
#[derive(Clone)]
pub struct FlightRecorder<C, const N: usize> {
    inner: C,
    ring: HistoryBuf<Record, N>,
    events: u64,
}

impl<C: CongestionController, const N: usize> FlightRecorder<C, N> {
    /// Starts recording `inner` with an empty ring.
    pub const fn new(inner: C) -> Self {
        FlightRecorder {
            inner,
            ring: HistoryBuf::new(),
            events: 0,
        }
    }

    /// The wrapped controller.
    pub const fn inner(&self) -> &C {
        &self.inner
    }

    /// The wrapped controller, mutably (events sent straight to it are not recorded).
    pub fn inner_mut(&mut self) -> &mut C {
        &mut self.inner
    }

    /// How many events the flow has seen in all (the ring keeps the last `N`).
    pub const fn events_seen(&self) -> u64 {
        self.events
    }

    /// The records kept, oldest first.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.ring.oldest_ordered()
    }

    /// Runs one event on the inner controller and records what it left behind.
    fn record(&mut self, at: Instant, event: RecordedEvent, run: impl FnOnce(&mut C)) {
        let before = self.inner.phase();
        run(&mut self.inner);
        self.events = self.events.saturating_add(1);
        let phase = self.inner.phase();
        self.ring.write(Record {
            seq: self.events,
            at,
            event,
            cwnd: self.inner.cwnd(),
            ssthresh: self.inner.ssthresh(),
            phase,
            phase_changed: phase != before,
        });
    }
}

impl<C: CongestionController, const N: usize> CongestionController for FlightRecorder<C, N> {
    fn unit(&self) -> WindowUnit {
        self.inner.unit()
    }

    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        let event = RecordedEvent::Sent {
            in_flight_after: sent.in_flight_after,
        };
        self.record(now, event, |c| c.on_sent(now, sent));
    }

    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        let event = RecordedEvent::Ack {
            acked: ack.acked,
            rtt_us: ack.rtt.map(|d| d.as_micros()),
        };
        self.record(now, event, |c| c.on_ack(now, ack));
    }

    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.record(now, RecordedEvent::Loss(*loss), |c| c.on_loss(now, loss));
    }

    fn on_packet_sent(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
        let event = RecordedEvent::Sent {
            in_flight_after: sent.in_flight_after,
        };
        let mut snapshot = TxSnapshot::default();
        self.record(now, event, |c| snapshot = c.on_packet_sent(now, sent));
        snapshot
    }

    fn on_ack_sampled(&mut self, now: Instant, ack: &AckEvent, newest: &AckedPacket) {
        let event = RecordedEvent::Ack {
            acked: ack.acked,
            rtt_us: ack.rtt.map(|d| d.as_micros()),
        };
        self.record(now, event, |c| c.on_ack_sampled(now, ack, newest));
    }

    fn on_packet_lost(&mut self, now: Instant, loss: &LossEvent, lost: &TxSnapshot) {
        self.record(now, RecordedEvent::Loss(*loss), |c| {
            c.on_packet_lost(now, loss, lost)
        });
    }

    fn uses_packet_snapshots(&self) -> bool {
        self.inner.uses_packet_snapshots()
    }

    fn min_tso_segs(&self) -> Option<u32> {
        self.inner.min_tso_segs()
    }

    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        self.record(now, RecordedEvent::Ecn(*ecn), |c| c.on_ecn(now, ecn));
    }

    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.record(now, RecordedEvent::RetransmissionTimeout, |c| {
            c.on_retransmission_timeout(now)
        });
    }

    fn on_discarded(&mut self, now: Instant, amount: u64) {
        self.record(now, RecordedEvent::Discarded(amount), |c| {
            c.on_discarded(now, amount)
        });
    }

    fn on_spurious_congestion(&mut self, now: Instant) {
        self.record(now, RecordedEvent::Spurious, |c| {
            c.on_spurious_congestion(now)
        });
    }

    fn on_transmit_start(&mut self, now: Instant) {
        self.record(now, RecordedEvent::TransmitStart, |c| {
            c.on_transmit_start(now)
        });
    }

    fn cwnd(&self) -> u64 {
        self.inner.cwnd()
    }

    fn ssthresh(&self) -> Option<u64> {
        self.inner.ssthresh()
    }

    fn phase(&self) -> Phase {
        self.inner.phase()
    }

    fn in_flight(&self) -> u64 {
        self.inner.in_flight()
    }

    fn pacing_rate(&self) -> Rate {
        self.inner.pacing_rate()
    }

    fn mss_bytes(&self) -> u64 {
        self.inner.mss_bytes()
    }

    fn send_quantum_bytes(&self) -> u64 {
        self.inner.send_quantum_bytes()
    }
}

impl core::fmt::Display for Record {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "#{} t={}us ", self.seq, self.at.as_micros())?;
        match self.event {
            RecordedEvent::Sent { in_flight_after } => {
                write!(f, "sent, in flight {in_flight_after}")?
            }
            RecordedEvent::Ack {
                acked,
                rtt_us: Some(rtt),
            } => write!(f, "ack {acked}, rtt {rtt}us")?,
            RecordedEvent::Ack {
                acked,
                rtt_us: None,
            } => write!(f, "ack {acked}, no rtt")?,
            RecordedEvent::Loss(l) => write!(
                f,
                "loss {} of {:?}{}",
                l.lost,
                l.newest_lost,
                if l.persistent_congestion {
                    ", persistent congestion"
                } else {
                    ""
                }
            )?,
            RecordedEvent::Ecn(e) => write!(f, "ecn +{} at {:?}", e.ce_increase, e.newest_acked)?,
            RecordedEvent::RetransmissionTimeout => f.write_str("retransmission timeout")?,
            RecordedEvent::Discarded(n) => write!(f, "discarded {n}")?,
            RecordedEvent::Spurious => f.write_str("undo (spurious)")?,
            RecordedEvent::TransmitStart => f.write_str("transmit start after idle")?,
        }
        write!(f, " -> cwnd {} ssthresh ", self.cwnd)?;
        match self.ssthresh {
            Some(s) => write!(f, "{s}")?,
            None => f.write_str("none")?,
        }
        write!(f, " {:?}", self.phase)?;
        if self.phase_changed {
            f.write_str(" (phase changed)")?;
        }
        Ok(())
    }
}

impl<C: core::fmt::Debug, const N: usize> core::fmt::Debug for FlightRecorder<C, N> {
    /// The story: how many events, the last ones oldest first, then the controller.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(
            f,
            "flight recorder: last {} of {} events",
            self.ring.len(),
            self.events
        )?;
        for r in self.ring.oldest_ordered() {
            writeln!(f, "  {r}")?;
        }
        write!(f, "state: {:?}", self.inner)
    }
}

#[cfg(feature = "defmt")]
impl<C, const N: usize> defmt::Format for FlightRecorder<C, N> {
    fn format(&self, fmt: defmt::Formatter<'_>) {
        defmt::write!(
            fmt,
            "flight recorder: last {} of {} events",
            self.ring.len(),
            self.events
        );
        for r in self.ring.oldest_ordered() {
            defmt::write!(fmt, "\n  {}", r);
        }
    }
}

#[cfg(test)]
mod tests;
