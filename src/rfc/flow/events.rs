//! The classic driver's congestion events and its event calls on a bare state.

use super::*;

impl<W: WindowAdjustment, U: UndoStorage<W>> ClassicState<W, U> {
    /// Whether `packet` was sent before the current recovery period began (RFC 9002
    /// §7.3.2 `InCongestionRecovery`): numbered at or below the largest sent at the
    /// reduction, or sent at or before it. Never for [`SentPacket::Unknown`], nor before
    /// the first reduction.
    pub(super) fn sent_before_recovery(&self, packet: SentPacket) -> bool {
        if !self.recovery_started {
            return false;
        }
        let start = self.recovery_start;
        match packet {
            SentPacket::Number(pn) => pn <= self.recovery_end,
            SentPacket::SentAt(sent) => sent <= start,
            SentPacket::Unknown => false,
        }
    }

    pub(super) fn begin_reduction(&mut self, now: Instant) {
        self.save_undo();
        // RFC 9406 §4.3: HyStart++ only in the initial slow start
        self.detector_active = false;
        self.detector.set_in_css(false);
        self.recovery_end = self.largest_sent;
        self.recovery_flight_left = self.in_flight;
        self.recovery_started = true;
        self.recovery_start = now;
    }

    /// A loss (`ecn == false`) or ECN-CE: cwnd and ssthresh to β·cwnd, reported to `o`.
    pub(super) fn reduce<O: Observer>(
        &mut self,
        p: &RfcParams,
        now: Instant,
        ecn: bool,
        o: &mut O,
    ) {
        let before = self.snapshot();
        self.begin_reduction(now);
        let reduced = self
            .growth
            .on_congestion_at(p, self.mss64().get(), self.cwnd, ecn);
        // RFC 9438 §4.6's floors unless the algorithm has its own (Prague's window
        // below two packets, DCTCP's 2·MSS after ECN-CE).
        let (ssthresh_floor, loss_floor, ecn_floor) = W::reduction_floors(self.mss64().get());
        // RFC 9438 §4.6: ssthresh = max(ssthresh, 2)
        self.ssthresh = reduced.max(ssthresh_floor);
        self.cwnd = if ecn {
            // RFC 9438 §4.6: reduction on ECE, cwnd = max(ssthresh, 1)
            reduced.max(ecn_floor)
        } else {
            // RFC 9438 §4.6: reduction on loss, cwnd = max(ssthresh, 2)
            reduced.max(loss_floor)
        };
        self.phase = Phase::Recovery;
        let cause = if ecn {
            ReductionCause::Ecn
        } else {
            ReductionCause::Loss
        };
        before.report_reduction(&self.snapshot(), cause, now, o);
    }

    /// A retransmission timeout (`timeout`) or persistent congestion: slow start again
    /// from 1 MSS or the minimum window, reported to `o`.
    pub(super) fn collapse<O: Observer>(
        &mut self,
        p: &RfcParams,
        now: Instant,
        timeout: bool,
        o: &mut O,
    ) {
        let before = self.snapshot();
        self.begin_reduction(now);
        let reduced = self.growth.on_timeout(p.cubic(), self.cwnd);
        // RFC 9438 §4.8: ssthresh as in §4.6, at least 2 MSS
        self.ssthresh = reduced.max(self.min_window());
        self.cwnd = if timeout {
            // RFC 5681 §3.1 (RFC 9438 §4.8 follows Reno): loss window = 1 SMSS
            self.mss64().get()
        } else {
            // RFC 9002 §7.6.2: cwnd = kMinimumWindow = 2 * max_datagram_size
            self.min_window()
        };
        self.phase = Phase::SlowStart;
        let cause = if timeout {
            ReductionCause::RetransmissionTimeout
        } else {
            ReductionCause::PersistentCongestion
        };
        before.report_reduction(&self.snapshot(), cause, now, o);
    }

    /// `amount` left flight without being acknowledged: neither the in-flight count nor
    /// the byte fallback of the recovery period waits for it any more.
    pub(super) fn leave_flight(&mut self, amount: u64) {
        self.in_flight = self.in_flight.saturating_sub(amount);
        self.recovery_flight_left = self.recovery_flight_left.saturating_sub(amount);
    }
}

/// The events, as [`CongestionController`]'s methods of the same names, each with the
/// parameters the flow runs with.
impl<W: WindowAdjustment, U: UndoStorage<W>> ClassicState<W, U> {
    /// This state and the parameters `p` borrowed together as one controller, for
    /// generic code (a [`PacedFlow`](crate::pacing::PacedFlow), `dyn
    /// CongestionController`) over a table of bare states (see [`BoundClassic`]).
    pub fn bind<'a>(&'a mut self, p: &'a RfcParams) -> BoundClassic<'a, W, U> {
        BoundClassic::new(self, p)
    }

    /// Records in-flight bytes and the highest packet number / sequence sent. Going from
    /// nothing in flight to something is a restart after idle.
    #[inline]
    pub fn on_sent(&mut self, p: &RfcParams, now: Instant, sent: &SentEvent) {
        let _ = p;
        let in_flight_after = sent.in_flight_after;
        if self.in_flight == 0 {
            // Out of line: the common send (data already in flight) tests one field.
            self.on_sent_from_idle(now, in_flight_after);
        }
        self.in_flight = in_flight_after;
        // The round's mark, if `mark_is_largest_sent`.
        let sent_before = self.largest_sent;
        self.largest_sent = sent_before.max(sent.largest_sent);
        self.last_activity = now;
        // Linux tcp_cwnd_validate(): a send that fills the window marks its round
        // window-limited; after the round (or with no packet number acked yet) the next
        // send starts a new record. Filled: `in_flight_after + MSS >= cwnd`, tested as
        // "room left <= MSS" so that no sum can overflow.
        let filled = match self.cwnd.checked_sub(in_flight_after) {
            None => true,
            Some(room) => room <= self.mss64().get(),
        };
        // Constants, not `filled`, are stored (smaller code); the mark is written out
        // only when `largest_sent` leaves it behind.
        if filled {
            self.mark_is_largest_sent = true;
            self.round_cwnd_limited = true;
        } else {
            let mark = if self.mark_is_largest_sent {
                sent_before
            } else {
                self.usage_mark
            };
            // largest acked >= mark, or no packet number acknowledged yet.
            if self.acked_below > mark || self.acked_below == 0 {
                self.round_cwnd_limited = false;
                self.mark_is_largest_sent = true;
            } else if self.mark_is_largest_sent {
                self.usage_mark = sent_before;
                self.mark_is_largest_sent = false;
            }
        }
    }

    /// Acked bytes above what was in flight are clamped (in-flight floors at zero); an
    /// RTT of zero is accepted as is; `largest_acked` going backwards is ignored.
    #[inline]
    pub fn on_ack(&mut self, p: &RfcParams, now: Instant, ack: &AckEvent) {
        Self::on_ack_via(
            &mut WithParams {
                state: self,
                params: p,
            },
            now,
            ack,
        )
    }

    /// [`on_ack`](Self::on_ack) through `f` (see [`Parts`]).
    #[inline(always)]
    pub(super) fn on_ack_via<F: Parts<W, U>>(f: &mut F, now: Instant, ack: &AckEvent) {
        // DCTCP, Prague: the ACK's CE count first (RFC 9002 Appendix A.7).
        if W::READS_ACK_CE && ack.ce_delta > 0 {
            let (s, p) = f.parts();
            s.on_ack_ce(p, now, ack, &mut NoObserver);
        }
        // Window use per round (Linux tcp_is_cwnd_limited()): a window-limited round's
        // ACK, the common one, takes this short path (64-bit only, to save flash).
        #[cfg(target_pointer_width = "64")]
        {
            let (s, p) = f.parts();
            if !ack.app_limited && s.round_cwnd_limited {
                s.ack_bookkeeping(now, ack);
                s.every_ack_hook(p, now, ack.acked);
                s.last_ack_cwnd_limited = true;
                Self::window_limited_ack(f, ack);
                return;
            }
        }
        Self::on_ack_judged_now(f, now, *ack);
    }

    /// An ACK's own CE count ([`AckEvent::ce_delta`], packets) as the
    /// [`on_ecn`](Self::on_ecn) of its largest packet (none named: a new event), for
    /// the algorithms that read it ([`WindowAdjustment::READS_ACK_CE`]).
    #[cold]
    #[inline(never)]
    pub(super) fn on_ack_ce<O: Observer>(
        &mut self,
        p: &RfcParams,
        now: Instant,
        ack: &AckEvent,
        o: &mut O,
    ) {
        let ecn = match ack.largest_acked {
            Some(pn) => EcnEvent::new(ack.ce_delta, pn),
            None => EcnEvent::episode(ack.ce_delta),
        };
        self.on_ecn_observed(p, now, &ecn, o);
    }

    /// The lost bytes leave flight; then persistent congestion collapses the window, and
    /// a loss of a packet sent after the current recovery period began (or of an
    /// unknown one) reduces it (see "Recovery" on [`Cubic`]). Lost bytes above what is
    /// in flight empty the flight.
    pub fn on_loss(&mut self, p: &RfcParams, now: Instant, loss: &LossEvent) {
        self.on_loss_observed(p, now, loss, &mut NoObserver);
    }

    /// [`on_loss`](Self::on_loss), reporting what it decided to `o`.
    pub fn on_loss_observed<O: Observer>(
        &mut self,
        p: &RfcParams,
        now: Instant,
        loss: &LossEvent,
        o: &mut O,
    ) {
        self.leave_flight(loss.lost);
        if loss.persistent_congestion {
            self.collapse(p, now, false, o);
        } else if !self.sent_before_recovery(loss.newest_lost) {
            self.reduce(p, now, false, o);
        }
    }

    /// A rise of 0 is ignored; otherwise judged as a loss, with ECN's β and cwnd floor.
    pub fn on_ecn(&mut self, p: &RfcParams, now: Instant, ecn: &EcnEvent) {
        self.on_ecn_observed(p, now, ecn, &mut NoObserver);
    }

    /// [`on_ecn`](Self::on_ecn), reporting what it decided to `o`.
    pub fn on_ecn_observed<O: Observer>(
        &mut self,
        p: &RfcParams,
        now: Instant,
        ecn: &EcnEvent,
        o: &mut O,
    ) {
        if ecn.ce_increase == 0 {
            return;
        }
        // Every rise counts towards the marked fraction (DCTCP, Prague), in a recovery
        // period too; nothing for the classic algorithms.
        self.growth.on_ce(self.mss64().get(), ecn.ce_increase);
        if !self.sent_before_recovery(ecn.newest_acked) {
            self.reduce(p, now, true, o);
        }
    }

    /// A retransmission timeout: slow start again from 1 MSS.
    pub fn on_retransmission_timeout(&mut self, p: &RfcParams, now: Instant) {
        self.on_retransmission_timeout_observed(p, now, &mut NoObserver);
    }

    /// [`on_retransmission_timeout`](Self::on_retransmission_timeout), reporting the
    /// reduction to `o`.
    pub fn on_retransmission_timeout_observed<O: Observer>(
        &mut self,
        p: &RfcParams,
        now: Instant,
        o: &mut O,
    ) {
        self.collapse(p, now, true, o);
    }

    /// More than is in flight empties the flight.
    pub fn on_discarded(&mut self, _now: Instant, amount: u64) {
        self.leave_flight(amount);
    }

    /// The last congestion event was spurious: undo it (RFC 9438 §4.9.2), see
    /// [`CongestionController::on_spurious_congestion`].
    pub fn on_spurious_congestion(&mut self, now: Instant) {
        self.on_spurious_congestion_observed(now, &mut NoObserver);
    }

    /// [`on_spurious_congestion`](Self::on_spurious_congestion), reporting the undo to
    /// `o` if it restored the state.
    pub fn on_spurious_congestion_observed<O: Observer>(&mut self, now: Instant, o: &mut O) {
        // RFC 9438 §4.9.2: restore cwnd, cwnd_prior, ssthresh, W_max, K, t_epoch, W_est
        // if cwnd < cwnd_prior; otherwise keep the current values (SHOULD)
        // The restored values respect the current minimum window (the MSS may be new).
        let min = self.min_window();
        // What the event set cwnd_prior to: the window before it (see UndoSnapshot).
        let cwnd_before = self.growth.cwnd_prior();
        let before = self.snapshot();
        let Some(u) = self.undo.saved() else {
            return;
        };
        u.saved = false;
        if self.cwnd < cwnd_before {
            self.cwnd = cwnd_before.max(min);
            self.ssthresh = u.ssthresh.max(min);
            self.phase = u.phase;
            self.growth.restore_undo_from(&u.growth);
            self.detector.set_in_css(u.in_css);
            self.detector_active = u.detector_active;
            self.recovery_end = u.recovery_end;
            self.recovery_flight_left = u.recovery_flight_left;
            self.recovery_started = u.recovery_started;
            self.recovery_start = u.recovery_start;
            // An earlier recovery the undone event interrupted may have ended since.
            // RFC 9002 §7.3.2: recovery ends when a packet sent after its start is acked
            if self.phase == Phase::Recovery && self.recovery_over() {
                self.phase = if self.cwnd < self.ssthresh {
                    Phase::SlowStart
                } else {
                    Phase::CongestionAvoidance
                };
            }
            before.report_undo(&self.snapshot(), now, o);
        }
    }

    /// Sending starts again after idle at `now`.
    pub fn on_transmit_start(&mut self, now: Instant) {
        self.restart_after_idle(now);
        self.last_activity = now;
    }

    /// The congestion window, bytes.
    pub const fn cwnd(&self) -> u64 {
        self.cwnd
    }

    /// The slow-start threshold, bytes; `None` before the first one is set.
    pub const fn ssthresh(&self) -> Option<u64> {
        if self.ssthresh == u64::MAX {
            None
        } else {
            Some(self.ssthresh)
        }
    }

    /// Where the flow is (see [`Phase`]).
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// Bytes in flight: the stack's count at its last send, minus what was acked, lost
    /// or discarded since.
    pub const fn in_flight(&self) -> u64 {
        self.in_flight
    }

    /// ssthresh, out of line so that `pacing_rate` loads it only when needed.
    #[inline(never)]
    pub(super) fn ssthresh_out_of_line(&self) -> u64 {
        self.ssthresh
    }

    /// The pacing rate the parameters' formula gives for the flow now.
    pub fn pacing_rate(&self, p: &RfcParams) -> Rate {
        // ssthresh only picks Linux's slow-start ratio; in CA the ratio is the CA one
        // anyway, so 0 avoids reading ssthresh outside the hot lines.
        let ssthresh_bytes = match self.phase {
            Phase::CongestionAvoidance => 0,
            _ => self.ssthresh_out_of_line(),
        };
        // cwnd, or Prague's sub-MSS window, which the flight must not lift again.
        let window = self.growth.pacing_window(self.cwnd);
        let in_flight_bytes = if window < self.cwnd {
            self.in_flight.min(window)
        } else {
            self.in_flight
        };
        pacing_rate_bytes(
            p.pacing(),
            &BytesPacingInput {
                cwnd_bytes: window,
                ssthresh_bytes,
                in_flight_bytes,
                srtt_us: u64::from(self.srtt_us),
            },
        )
    }

    /// The flow's MSS, bytes.
    pub const fn mss_bytes(&self) -> u64 {
        self.mss.get() as u64
    }

    /// The send quantum (TSO/GSO burst) for the flow now, bytes.
    pub fn send_quantum_bytes(&self, p: &RfcParams) -> u64 {
        default_send_quantum_bytes(self.pacing_rate(p), self.min_rtt_us, self.mss64().get())
    }
}
