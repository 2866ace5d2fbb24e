//! The seam between the classic driver ([`Classic`](super::Classic)) and an algorithm:
//! congestion-avoidance growth and the reduction; everything else is the driver's.

use crate::cubic::{CubicUndo, RfcCubic, RfcCubicParams};
use crate::rfc::config::RfcParams;
use crate::time::Instant;
use core::num::{NonZeroU32, NonZeroU64};

/// A congestion-avoidance algorithm in bytes: CUBIC ([`RfcCubic`]), NewReno
/// ([`NewReno`](super::NewReno)), DCTCP ([`Dctcp`](super::Dctcp)) or Prague
/// ([`Prague`](super::Prague)). Implemented by this crate only; the trait is public so
/// that [`Classic`](super::Classic) can name it in its bounds.
pub trait WindowAdjustment: Copy + core::fmt::Debug + PartialEq + Eq + sealed::Sealed {
    /// What an undo brings back of this algorithm's state.
    type Undo: Copy + core::fmt::Debug + PartialEq + Eq;

    /// A fresh state with every non-zero field cleared (see
    /// [`finish_fresh`](Self::finish_fresh)): on 32-bit firmware an all-zero part is
    /// cleared in place instead of copied through `memcpy`.
    const ZEROED: Self;

    /// An undo snapshot that was never taken, all zero for the same reason.
    const UNDO_NONE: Self::Undo;

    /// Whether the algorithm reads [`AckEvent::ce_delta`](crate::AckEvent::ce_delta)
    /// (DCTCP and Prague).
    const READS_ACK_CE: bool = false;

    /// The leading bytes a steady congestion-avoidance ACK touches (see
    /// [`ClassicState::HOT_BYTES`](super::ClassicState::HOT_BYTES)).
    const HOT_BYTES: usize;

    /// Sets the fields [`ZEROED`](Self::ZEROED) cleared to their fresh values.
    fn finish_fresh(&mut self);

    /// A new flow starts with the parameters `p`, after
    /// [`finish_fresh`](Self::finish_fresh): for settings that set initial state
    /// (DCTCP's and Prague's initial alpha). Nothing for the classic algorithms.
    #[inline(always)]
    fn start(&mut self, p: &RfcParams) {
        let _ = p;
    }

    /// One congestion-avoidance ACK of `acked` bytes that may grow the window; returns
    /// the new window. `p` are the shared parameters, `mss` the flow's own MSS.
    fn on_ack(
        &mut self,
        p: &RfcCubicParams,
        mss: NonZeroU64,
        now: Instant,
        cwnd: u64,
        acked: u64,
        srtt_us: u64,
    ) -> u64;

    /// The same ACK through a shorter path, same result; `None` sends the driver to
    /// [`on_ack`](Self::on_ack) (the default).
    #[inline(always)]
    fn on_steady_ack(
        &mut self,
        p: &RfcCubicParams,
        mss: &NonZeroU32,
        now: Instant,
        cwnd: u64,
        acked: u64,
        srtt_us: u64,
    ) -> Option<u64> {
        Some(self.on_ack(p, NonZeroU64::from(*mss), now, cwnd, acked, srtt_us))
    }

    /// A loss (`ecn == false`) or ECN-CE reduction at window `cwnd`: returns the new
    /// ssthresh before the driver's floors (2·MSS for ssthresh and for cwnd on loss,
    /// 1·MSS for cwnd on ECN-CE).
    fn on_congestion(&mut self, p: &RfcCubicParams, cwnd: u64, ecn: bool) -> u64;

    /// [`on_congestion`](Self::on_congestion) with the flow's own MSS, `mss` bytes: what
    /// the driver calls. The classic algorithms do not need the MSS there.
    #[inline(always)]
    fn on_congestion_at(&mut self, p: &RfcParams, mss: u64, cwnd: u64, ecn: bool) -> u64 {
        let _ = mss;
        self.on_congestion(p.cubic(), cwnd, ecn)
    }

    /// The floors of a loss or ECN-CE reduction at MSS `mss`: (ssthresh, cwnd after a
    /// loss, cwnd after ECN-CE). RFC 9438 §4.6's (2·MSS, 2·MSS, 1·MSS) unless the
    /// algorithm says otherwise.
    #[inline(always)]
    fn reduction_floors(mss: u64) -> (u64, u64, u64) {
        (2 * mss, 2 * mss, mss)
    }

    /// The CE count rose by `ce_packets` (each `mss` bytes); called for every rise, in
    /// recovery too. Nothing for the classic algorithms.
    #[inline(always)]
    fn on_ce(&mut self, mss: u64, ce_packets: u64) {
        let _ = (mss, ce_packets);
    }

    /// Every ACK, after the driver's bookkeeping ([`RoundAck`]); nothing for the classic
    /// algorithms.
    #[inline(always)]
    fn on_every_ack(&mut self, p: &RfcParams, now: Instant, ack: &RoundAck) {
        let _ = (p, now, ack);
    }

    /// The window the pacing rate is computed from, given the flow's `cwnd`: `cwnd`
    /// itself unless the algorithm runs a window below one MSS that only the pacer can
    /// carry (Prague).
    #[inline(always)]
    fn pacing_window(&self, cwnd: u64) -> u64 {
        cwnd
    }

    /// A retransmission timeout or persistent congestion at window `cwnd`: returns the
    /// new ssthresh before the driver's 2·MSS floor. By default a loss reduction.
    fn on_timeout(&mut self, p: &RfcCubicParams, cwnd: u64) -> u64 {
        self.on_congestion(p, cwnd, false)
    }

    /// A delay detector ended slow start at window `cwnd`.
    fn on_slow_start_exit(&mut self, cwnd: u64);

    /// Growth stops counting time at `now` (application-limited or idle). Nothing by
    /// default.
    fn pause(&mut self, now: Instant) {
        let _ = now;
    }

    /// Growth counts time again from `now`. Nothing by default, as for
    /// [`pause`](Self::pause).
    fn resume(&mut self, now: Instant) {
        let _ = now;
    }

    /// The MSS changed. Nothing by default.
    fn on_mss_change(&mut self) {}

    /// The parameters changed: forget anything computed with the old ones. Nothing by
    /// default.
    fn on_params_change(&mut self) {}

    /// The window before the last reduction (RFC 9438 §4.9's `cwnd_prior`): an undo
    /// restores only while cwnd is below it.
    fn cwnd_prior(&self) -> u64;

    /// Writes what an undo brings back into `saved`, in place.
    fn save_undo_into(&self, saved: &mut Self::Undo);

    /// Brings back what [`save_undo_into`](Self::save_undo_into) wrote.
    fn restore_undo_from(&mut self, saved: &Self::Undo);

    /// As [`on_mss_change`](Self::on_mss_change), on a saved snapshot. Nothing by
    /// default.
    fn undo_on_mss_change(saved: &mut Self::Undo) {
        let _ = saved;
    }

    /// As [`on_params_change`](Self::on_params_change), on a saved snapshot. Nothing by
    /// default.
    fn undo_on_params_change(saved: &mut Self::Undo) {
        let _ = saved;
    }
}

/// What [`WindowAdjustment::on_every_ack`] is told about one ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundAck {
    /// Newly acknowledged bytes.
    pub acked: u64,
    /// The largest packet number acknowledged so far, plus one (0: none named yet).
    pub acked_below: u64,
    /// The largest packet number sent so far.
    pub largest_sent: u64,
    /// The congestion window, bytes.
    pub cwnd: u64,
    /// The smoothed RTT, µs (0: no sample yet).
    pub srtt_us: u64,
    /// The flow's MSS, bytes.
    pub mss: u64,
}

mod sealed {
    /// Only this crate's algorithms implement [`WindowAdjustment`](super::WindowAdjustment).
    pub trait Sealed {}
    impl Sealed for crate::cubic::RfcCubic {}
    impl Sealed for crate::rfc::NewRenoWindow {}
    impl Sealed for crate::rfc::DctcpWindow {}
    impl Sealed for crate::rfc::PragueWindow {}
}

impl WindowAdjustment for RfcCubic {
    type Undo = CubicUndo;

    const ZEROED: Self = {
        let mut c = RfcCubic::new();
        c.w_max_from_epoch = false;
        c
    };

    const UNDO_NONE: CubicUndo = {
        let mut c = RfcCubic::new();
        c.w_max_from_epoch = false;
        c.undo_point()
    };

    const HOT_BYTES: usize = core::mem::offset_of!(RfcCubic, w_max_bytes);

    fn finish_fresh(&mut self) {
        self.w_max_from_epoch = RfcCubic::new().w_max_from_epoch;
    }

    #[inline(always)]
    fn on_ack(
        &mut self,
        p: &RfcCubicParams,
        mss: NonZeroU64,
        now: Instant,
        cwnd: u64,
        acked: u64,
        srtt_us: u64,
    ) -> u64 {
        RfcCubic::on_ack_at(self, p, mss, now, cwnd, acked, srtt_us)
    }

    #[inline(always)]
    fn on_steady_ack(
        &mut self,
        p: &RfcCubicParams,
        mss: &NonZeroU32,
        now: Instant,
        cwnd: u64,
        acked: u64,
        srtt_us: u64,
    ) -> Option<u64> {
        #[cfg(target_pointer_width = "64")]
        {
            RfcCubic::on_steady_ack(self, p, mss, now, cwnd, acked, srtt_us)
        }
        #[cfg(not(target_pointer_width = "64"))]
        {
            let _ = (p, mss, now, cwnd, acked, srtt_us);
            None
        }
    }

    fn on_congestion(&mut self, p: &RfcCubicParams, cwnd: u64, ecn: bool) -> u64 {
        let cfg = p.config();
        let beta = if ecn {
            cfg.ecn_beta_permille
        } else {
            cfg.beta_permille
        };
        RfcCubic::on_congestion(self, p, cwnd, beta)
    }

    fn on_timeout(&mut self, p: &RfcCubicParams, cwnd: u64) -> u64 {
        RfcCubic::on_timeout(self, p, cwnd)
    }

    fn on_slow_start_exit(&mut self, cwnd: u64) {
        RfcCubic::on_slow_start_exit(self, cwnd)
    }

    #[inline(always)]
    fn pause(&mut self, now: Instant) {
        RfcCubic::pause(self, now)
    }

    fn resume(&mut self, now: Instant) {
        RfcCubic::resume(self, now)
    }

    fn on_mss_change(&mut self) {
        RfcCubic::on_mss_change(self)
    }

    fn on_params_change(&mut self) {
        // Curve points computed with the old C must not be reused with the new one.
        self.forget_curve_points();
    }

    fn cwnd_prior(&self) -> u64 {
        self.cwnd_prior_bytes
    }

    fn save_undo_into(&self, saved: &mut CubicUndo) {
        RfcCubic::save_undo_into(self, saved)
    }

    fn restore_undo_from(&mut self, saved: &CubicUndo) {
        RfcCubic::restore_undo_from(self, saved)
    }

    fn undo_on_mss_change(saved: &mut CubicUndo) {
        saved.on_mss_change();
    }

    fn undo_on_params_change(saved: &mut CubicUndo) {
        saved.forget_curve_points();
    }
}
