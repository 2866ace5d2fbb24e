//! Where a classic-driver flow keeps what an undo restores: in the flow
//! ([`KeepUndo`], the default) or nowhere ([`NoUndo`], for stacks that never report a
//! spurious congestion event).

use crate::controller::Phase;
use crate::rfc::WindowAdjustment;
use crate::time::Instant;

/// What an undo restores (RFC 9438 §4.9): everything a congestion event changed but
/// the window, which is read from the algorithm's `cwnd_prior`. Kept in place with a
/// `saved` flag and written field by field (moving it whole costs 32-bit firmware a
/// `memcpy`). Public only so that [`UndoStorage`] can name it.
#[derive(Clone, Copy, Debug, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct UndoSnapshot<U> {
    /// Whether a congestion event saved the fields below and no undo used them yet.
    pub(super) saved: bool,
    pub(super) ssthresh: u64,
    pub(super) phase: Phase,
    pub(super) growth: U,
    /// The one HyStart++ field an event changes (it leaves CSS); nothing else in
    /// HyStart++ moves between an event and its undo, the detector being off.
    pub(super) in_css: bool,
    pub(super) detector_active: bool,
    pub(super) recovery_end: u64,
    pub(super) recovery_flight_left: u64,
    /// `recovery_start` as the flow holds it (see `recovery_started` there).
    pub(super) recovery_started: bool,
    pub(super) recovery_start: Instant,
}

impl<U: Copy> UndoSnapshot<U> {
    /// Nothing saved. Every byte zero (the fields are never read before a save
    /// overwrites them), so that a new flow clears it instead of copying a constant.
    const fn none(growth: U) -> UndoSnapshot<U> {
        UndoSnapshot {
            saved: false,
            ssthresh: 0,
            phase: Phase::SlowStart,
            growth,
            in_css: false,
            detector_active: false,
            recovery_end: 0,
            recovery_flight_left: 0,
            recovery_started: false,
            recovery_start: Instant::ZERO,
        }
    }

    pub(super) fn as_mut(&mut self) -> Option<&mut UndoSnapshot<U>> {
        if self.saved { Some(self) } else { None }
    }
}

/// Snapshots compare as the `Option` they stand for: stale fields of a used or never
/// taken snapshot do not count.
impl<U: PartialEq> PartialEq for UndoSnapshot<U> {
    fn eq(&self, other: &Self) -> bool {
        match (self.saved, other.saved) {
            (false, false) => true,
            (true, true) => {
                self.ssthresh == other.ssthresh
                    && self.phase == other.phase
                    && self.growth == other.growth
                    && self.in_css == other.in_css
                    && self.detector_active == other.detector_active
                    && self.recovery_end == other.recovery_end
                    && self.recovery_flight_left == other.recovery_flight_left
                    && self.recovery_started == other.recovery_started
                    && self.recovery_start == other.recovery_start
            }
            _ => false,
        }
    }
}

/// Where a [`ClassicState`](super::ClassicState) keeps its undo snapshot:
///
/// - [`KeepUndo`] (the default): every congestion event saves what it changes, and
///   [`on_spurious_congestion`](crate::CongestionController::on_spurious_congestion)
///   restores it (RFC 9438 §4.9). TCP stacks with F-RTO, Eifel or RACK undo want it.
/// - [`NoUndo`]: nothing is saved and a spurious-congestion report is ignored; the flow
///   is smaller by the snapshot (a third). RFC 9002 has no undo.
///
/// Everything else is the same with either. Implemented by this crate only.
pub trait UndoStorage<W: WindowAdjustment>:
    Copy + core::fmt::Debug + PartialEq + Eq + sealed::Sealed
{
    /// Nothing saved.
    #[doc(hidden)]
    const EMPTY: Self;

    /// The snapshot's place, if this storage has one.
    #[doc(hidden)]
    fn slot(&mut self) -> Option<&mut UndoSnapshot<W::Undo>>;

    #[doc(hidden)]
    #[inline(always)]
    fn saved(&mut self) -> Option<&mut UndoSnapshot<W::Undo>> {
        self.slot().and_then(UndoSnapshot::as_mut)
    }
}

/// The undo snapshot kept in the flow (see [`UndoStorage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct KeepUndo<W: WindowAdjustment>(UndoSnapshot<W::Undo>);

impl<W: WindowAdjustment> UndoStorage<W> for KeepUndo<W> {
    const EMPTY: Self = KeepUndo(UndoSnapshot::none(W::UNDO_NONE));

    #[inline(always)]
    fn slot(&mut self) -> Option<&mut UndoSnapshot<W::Undo>> {
        Some(&mut self.0)
    }
}

/// No undo snapshot (see [`UndoStorage`]): congestion events save nothing and
/// [`on_spurious_congestion`](crate::CongestionController::on_spurious_congestion) is
/// ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct NoUndo;

impl<W: WindowAdjustment> UndoStorage<W> for NoUndo {
    const EMPTY: Self = NoUndo;

    #[inline(always)]
    fn slot(&mut self) -> Option<&mut UndoSnapshot<W::Undo>> {
        None
    }
}

mod sealed {
    /// Only this crate's storages implement [`UndoStorage`](super::UndoStorage).
    pub trait Sealed {}
    impl<W: crate::rfc::WindowAdjustment> Sealed for super::KeepUndo<W> {}
    impl Sealed for super::NoUndo {}
}
