//! [`ClassicState`]'s construction, accessors and settings changes (MSS, CUBIC
//! settings).

use super::*;

impl<W: WindowAdjustment> ClassicState<W> {
    /// A new flow at `now` that runs with `p`: slow start with their initial window, at
    /// their MSS. It keeps an undo snapshot ([`KeepUndo`]).
    pub fn new(p: &RfcParams, now: Instant) -> Self {
        Self::with_undo_storage(p, now)
    }
}

impl<W: WindowAdjustment> ClassicState<W, NoUndo> {
    /// A new flow at `now` that runs with `p`, as [`ClassicState::new`], but keeps no
    /// undo snapshot ([`NoUndo`]): smaller by the snapshot, and
    /// [`on_spurious_congestion`](Self::on_spurious_congestion) changes nothing. For
    /// stacks that never report a spurious congestion event (RFC 9002 has none).
    pub fn without_undo(p: &RfcParams, now: Instant) -> Self {
        Self::with_undo_storage(p, now)
    }
}

impl<W: WindowAdjustment, U: UndoStorage<W>> ClassicState<W, U> {
    /// Bytes from the state's start to the end of what a steady congestion-avoidance ACK
    /// and the next send touch (the driver's fields, then [`WindowAdjustment::HOT_BYTES`]):
    /// 128 for CUBIC, 64 for NewReno on 64-bit targets (asserted by the tests).
    pub const HOT_BYTES: usize = core::mem::offset_of!(Self, growth) + W::HOT_BYTES;

    /// A new flow at `now` that runs with `p` (slow start with their initial window, at
    /// their MSS), keeping its undo snapshot where `U` says: for the default
    /// [`KeepUndo`] this is [`ClassicState::new`], for [`NoUndo`]
    /// [`ClassicState::without_undo`].
    pub fn with_undo_storage(p: &RfcParams, now: Instant) -> Self {
        let initial = p.initial_window_bytes();
        // "None yet" is u64::MAX inside the flow; the trait reports it as None.
        let initial_ssthresh = p.initial_ssthresh_raw();
        let mut flow = ClassicState {
            cwnd: initial,
            in_flight: 0,
            largest_sent: 0,
            acked_below: 0,
            srtt_us: 0,
            min_rtt_us: u32::MAX,
            last_activity: now,
            mss: p.initial_mss(),
            phase: if initial < initial_ssthresh {
                Phase::SlowStart
            } else {
                Phase::CongestionAvoidance
            },
            round_cwnd_limited: false,
            last_ack_cwnd_limited: false,
            mark_is_largest_sent: false,
            growth: W::ZEROED,
            usage_mark: 0,
            ssthresh: initial_ssthresh,
            detector_active: !matches!(p.slow_start(), SlowStartKind::Standard),
            recovery_end: 0,
            recovery_flight_left: 0,
            recovery_started: false,
            recovery_start: Instant::ZERO,
            slow_start_detector: None,
            detector: Detector::new(p.slow_start()),
            undo: U::EMPTY,
        };
        // What the zeroed constant cleared: now equal to the fresh state
        // (tests/rfc_flow.rs checks).
        flow.growth.finish_fresh();
        flow.growth.start(p);
        flow
    }

    #[inline(always)]
    pub(super) fn mss64(&self) -> NonZeroU64 {
        NonZeroU64::from(self.mss)
    }

    /// The minimum window, 2 · MSS bytes.
    // RFC 9438 §4.6: cwnd = max(ssthresh, 2) segments
    #[inline(always)]
    pub(super) fn min_window(&self) -> u64 {
        2 * u64::from(self.mss.get())
    }

    /// The CUBIC parameters `p` gives, at this flow's MSS.
    pub fn params(&self, p: &RfcParams) -> RfcCubicParams {
        p.cubic().at_mss(self.mss64())
    }

    /// The algorithm's state (CUBIC's `W_max`, `K`, epoch, `W_est`, ...; NewReno's
    /// byte count).
    pub const fn growth(&self) -> &W {
        &self.growth
    }

    /// The HyStart++ state (meaningful with [`SlowStartKind::HystartPlusPlus`]).
    pub const fn hystart_pp(&self) -> &HystartPlusPlus {
        match &self.detector {
            Detector::PlusPlus(h) => h,
            // Other kinds never touch HyStart++: its state stays fresh.
            _ => &FRESH_HYSTART_PP,
        }
    }

    /// Smoothed RTT (RFC 6298 weights), µs; 0 before the first sample. Kept in 32 bits:
    /// samples above `u32::MAX` µs (71.6 minutes) count as `u32::MAX`, so the estimate
    /// never exceeds it.
    pub const fn srtt_us(&self) -> u64 {
        self.srtt_us as u64
    }

    /// Minimum RTT seen, µs; `u64::MAX` before the first sample. Kept in 32 bits as
    /// [`srtt_us`](Self::srtt_us): a minimum of `u32::MAX` µs (71.6 minutes, where
    /// samples are clamped) or more also reads `u64::MAX`.
    pub const fn min_rtt_us(&self) -> u64 {
        if self.min_rtt_us == u32::MAX {
            u64::MAX
        } else {
            self.min_rtt_us as u64
        }
    }

    /// While in [`Phase::Recovery`]: the largest packet number or sequence sent when the
    /// recovery began; an ACK of anything above it ends the recovery. `None` otherwise.
    pub const fn recovery_end(&self) -> Option<u64> {
        match self.phase {
            Phase::Recovery => Some(self.recovery_end),
            _ => None,
        }
    }

    /// The largest packet number or sequence acknowledged so far; `None` while no ACK
    /// has named one.
    pub const fn largest_acked(&self) -> Option<u64> {
        self.acked_below.checked_sub(1)
    }

    /// Whether the last ACK counted as cwnd-limited (see "Window use" on [`Cubic`]).
    pub const fn last_ack_cwnd_limited(&self) -> bool {
        self.last_ack_cwnd_limited
    }

    /// The MSS changed (QUIC: a new max datagram size). cwnd and ssthresh keep their
    /// bytes but are raised to the new minimum window; the CUBIC epoch restarts at the
    /// next ACK so the curve stays continuous. An invalid MSS is refused and changes
    /// nothing.
    pub fn set_mss(&mut self, mss_bytes: u64) -> Result<(), ConfigError> {
        self.mss = mss32(validate_mss(mss_bytes)?)?;
        let min = self.min_window();
        self.cwnd = self.cwnd.max(min);
        self.ssthresh = self.ssthresh.max(min);
        self.growth.on_mss_change();
        // A saved epoch's K was computed with the old C·MSS: an undo must not bring it
        // back, so the restored state starts a fresh epoch too (found by fuzzing).
        if let Some(u) = self.undo.saved() {
            W::undo_on_mss_change(&mut u.growth);
        }
        Ok(())
    }

    /// New CUBIC settings written into `p`, from the next event; the state is kept (a new
    /// MSS acts as [`set_mss`](Self::set_mss)). Invalid settings are refused and change
    /// nothing. Other flows sharing `p` keep their cached curve points until given the
    /// settings through their own call.
    pub fn set_cubic_config(
        &mut self,
        p: &mut RfcParams,
        cubic: RfcCubicConfig,
    ) -> Result<(), ConfigError> {
        let params = cubic.validate()?;
        let mss_changed = params.mss() != self.mss64().get();
        p.set_cubic(params);
        self.growth.on_params_change();
        if let Some(u) = self.undo.saved() {
            W::undo_on_params_change(&mut u.growth);
        }
        if mss_changed {
            self.set_mss(cubic.mss_bytes)?;
        }
        Ok(())
    }
}

impl<U: UndoStorage<RfcCubic>> ClassicState<RfcCubic, U> {
    /// The CUBIC state (`W_max`, `K`, epoch, `W_est`, ...).
    pub const fn cubic(&self) -> &RfcCubic {
        &self.growth
    }
}
