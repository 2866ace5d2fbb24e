//! [`Counters`]: the observer that counts, for a stack's statistics.

use super::{Decision, Observer, ReductionCause};
use crate::time::Instant;

/// How many decisions of each kind a flow made: an [`Observer`] a stack keeps beside
/// the flow and reads whenever it likes (its `MIB` counters, a metrics export).
/// Plain `Copy` data; every count saturates at `u32::MAX`. See the
/// [module example](crate::observe).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct Counters {
    /// Reductions caused by loss.
    pub loss_reductions: u32,
    /// Reductions caused by ECN-CE marks.
    pub ecn_reductions: u32,
    /// Retransmission timeouts.
    pub timeouts: u32,
    /// Persistent-congestion collapses.
    pub persistent_congestions: u32,
    /// Exits from slow start, whatever ended them.
    pub slow_start_exits: u32,
    /// Of those, the ones a delay detector (HyStart, HyStart++) decided.
    pub hystart_exits: u32,
    /// Entries into HyStart++'s Conservative Slow Start.
    pub css_entries: u32,
    /// Recovery periods ended by an ACK.
    pub recovery_ends: u32,
    /// Reductions undone.
    pub undos: u32,
    /// BBR mode changes.
    pub mode_changes: u32,
}

const _: () = assert!(core::mem::size_of::<Counters>() <= 40);

impl Counters {
    /// All zero.
    pub const fn new() -> Self {
        Counters {
            loss_reductions: 0,
            ecn_reductions: 0,
            timeouts: 0,
            persistent_congestions: 0,
            slow_start_exits: 0,
            hystart_exits: 0,
            css_entries: 0,
            recovery_ends: 0,
            undos: 0,
            mode_changes: 0,
        }
    }

    /// Every reduction, whatever its cause (saturating).
    pub const fn reductions(&self) -> u32 {
        self.loss_reductions
            .saturating_add(self.ecn_reductions)
            .saturating_add(self.timeouts)
            .saturating_add(self.persistent_congestions)
    }
}

/// One more, saturating.
fn bump(count: &mut u32) {
    *count = count.saturating_add(1);
}

impl Observer for Counters {
    fn on_decision(&mut self, _now: Instant, decision: &Decision) {
        use super::ExitDetector as D;
        match *decision {
            Decision::Reduction { cause, .. } => bump(match cause {
                ReductionCause::Loss => &mut self.loss_reductions,
                ReductionCause::Ecn => &mut self.ecn_reductions,
                ReductionCause::RetransmissionTimeout => &mut self.timeouts,
                ReductionCause::PersistentCongestion => &mut self.persistent_congestions,
            }),
            Decision::SlowStartExit { detector, .. } => {
                bump(&mut self.slow_start_exits);
                if matches!(
                    detector,
                    D::HystartAckTrain | D::HystartDelay | D::HystartPlusPlus
                ) {
                    bump(&mut self.hystart_exits);
                }
            }
            Decision::ConservativeSlowStart { entered, .. } => {
                if entered {
                    bump(&mut self.css_entries);
                }
            }
            Decision::RecoveryEnd { .. } => bump(&mut self.recovery_ends),
            Decision::Undo { .. } => bump(&mut self.undos),
            Decision::ModeChange { .. } => bump(&mut self.mode_changes),
        }
    }
}

#[cfg(test)]
mod tests;
