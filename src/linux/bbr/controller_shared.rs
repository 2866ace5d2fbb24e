//! What [`BbrController`](super::BbrController) and
//! [`Bbr3Controller`](crate::linux::Bbr3Controller) share, written once: the
//! constructors, the readings, the send path and the [`CongestionController`] methods
//! that only read the flow or the rebuilt scoreboard. Each controller keeps its own
//! struct (docs, size assert) and writes the ACK, loss and timeout mappings, which
//! differ between v1 and v3.
//!
//! [`CongestionController`]: crate::controller::CongestionController

/// The inherent items both controllers have: `new`, `with_params`, `flow`,
/// `random_source`, `params`, `sequence` and the private `send`.
///
/// `$ctrl` is the controller struct (`flow`, `board`, `rand`, `params` fields), `$flow`
/// its flow type, `$config`/`$params` the flow's configuration and parameters.
macro_rules! bbr_controller_inherent {
    ($ctrl:ident, $flow:ty, $config:ty, $params:ty) => {
        impl<R: RandomSource> $ctrl<R> {
            /// A flow established at `now` with `config` (validated here), drawing from
            /// `rand`.
            pub fn new(config: $config, now: Instant, rand: R) -> Result<Self, ConfigError> {
                Ok(Self::with_params(config.validate()?, now, rand))
            }
        }

        impl<R: RandomSource, P: Borrow<$params>> $ctrl<R, P> {
            /// A flow established at `now` that reaches its parameters through `params`.
            pub fn with_params(params: P, now: Instant, mut rand: R) -> Self {
                let p = params.borrow();
                let flow = <$flow>::new(p, now, &mut rand);
                let board = TraitBoard::new(p.config().initial_rtt_us);
                $ctrl {
                    flow,
                    board,
                    rand,
                    params,
                }
            }

            /// The flow, for its kernel-level readings (`bw()`, `mode()`, `bbr()`, ...).
            pub const fn flow(&self) -> &$flow {
                &self.flow
            }

            /// The random source.
            pub const fn random_source(&self) -> &R {
                &self.rand
            }

            /// The parameters.
            pub fn params(&self) -> &$params {
                self.params.borrow()
            }

            /// `snd_una` and `snd_nxt` as rebuilt from the events, segments.
            pub const fn sequence(&self) -> (u32, u32) {
                (self.board.snd_una, self.board.snd_nxt)
            }

            /// The send: each new segment through the flow's `on_send` (at most
            /// `MAX_SEGMENTS_PER_SEND`); the last snapshot.
            fn send(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
                let before = self.board.packets_out;
                let added = self.board.on_sent(sent);
                let p = self.params.borrow();
                let mut snapshot = TxSnapshot::default();
                for i in 0..added.min(MAX_SEGMENTS_PER_SEND) {
                    let flight = Flight {
                        packets_out: before.saturating_add(i),
                        ..Flight::default()
                    };
                    snapshot = self.flow.on_send(p, now, flight, &mut self.rand).snapshot;
                }
                self.board.validate_cwnd(self.flow.cwnd());
                snapshot
            }
        }
    };
}
pub(crate) use bbr_controller_inherent;

/// The [`CongestionController`](crate::controller::CongestionController) methods both
/// controllers implement alike, expanded inside each one's `impl` block. `$startup` is
/// the flow's STARTUP mode.
macro_rules! bbr_controller_common_methods {
    ($startup:expr) => {
        fn unit(&self) -> WindowUnit {
            WindowUnit::Segments
        }

        /// As [`on_packet_sent`](CongestionController::on_packet_sent), the snapshot
        /// dropped: the segment's ACK samples nothing.
        fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
            self.send(now, sent);
        }

        fn on_packet_sent(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
            self.send(now, sent)
        }

        /// No delivery-rate sample (no snapshot); everything else as
        /// [`on_ack_sampled`](CongestionController::on_ack_sampled).
        fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
            self.ack(now, ack, None);
        }

        fn on_ack_sampled(&mut self, now: Instant, ack: &AckEvent, newest: &AckedPacket) {
            self.ack(now, ack, Some(newest));
        }

        fn on_retransmission_timeout(&mut self, now: Instant) {
            self.timeout(now);
        }

        /// The amount leaves the flight; not a congestion signal.
        fn on_discarded(&mut self, _now: Instant, amount: u64) {
            let gone = segments(amount).min(self.board.packets_out);
            self.board.packets_out -= gone;
        }

        /// Nothing: the next send into an empty flight is the kernel's
        /// `CA_EVENT_TX_START`.
        fn on_transmit_start(&mut self, _now: Instant) {}

        fn cwnd(&self) -> u64 {
            u64::from(self.flow.cwnd())
        }

        /// `None` while `snd_ssthresh` is infinite (BBR sets it on leaving STARTUP).
        fn ssthresh(&self) -> Option<u64> {
            let s = self.flow.ssthresh();
            (s < TCP_INFINITE_SSTHRESH).then_some(u64::from(s))
        }

        /// Recovery (and CWR) as [`Phase::Recovery`], the Loss state after a timeout as
        /// [`Phase::SlowStart`]; otherwise STARTUP is slow start and every other mode
        /// congestion avoidance.
        fn phase(&self) -> Phase {
            match self.flow.ca_state() {
                CaState::Recovery | CaState::Cwr => Phase::Recovery,
                CaState::Loss => Phase::SlowStart,
                _ if self.flow.mode() == $startup => Phase::SlowStart,
                _ => Phase::CongestionAvoidance,
            }
        }

        /// Segments outstanding and not declared lost.
        fn in_flight(&self) -> u64 {
            u64::from(self.board.packets_out)
        }

        /// `sk_pacing_rate`.
        fn pacing_rate(&self) -> Rate {
            Rate::from_bytes_per_second(self.flow.pacing_rate())
        }

        fn mss_bytes(&self) -> u64 {
            u64::from(self.params.borrow().config().mss)
        }

        /// `bbr_tso_segs_goal()` segments: the burst BBR sizes its cwnd for (its
        /// quantization budget is three of them), for a stack without an autosizer of
        /// its own. A [`PacedFlow`](crate::pacing::PacedFlow) sizes bursts as
        /// `tcp_tso_segs()` does instead, with
        /// [`min_tso_segs`](CongestionController::min_tso_segs).
        fn send_quantum_bytes(&self) -> u64 {
            let p = self.params.borrow();
            u64::from(self.flow.tso_segs_goal(p)) * u64::from(p.config().mss)
        }

        fn uses_packet_snapshots(&self) -> bool {
            true
        }
    };
}
pub(crate) use bbr_controller_common_methods;
