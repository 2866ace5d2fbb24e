//! The slow-start detector a classic flow runs: HyStart++, Linux HyStart in bytes, or none.

use super::*;

/// The slow-start detector a flow runs (its [`SlowStartKind`], chosen when it is built):
/// only one kind is ever active in a flow, so the kinds share their storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(super) enum Detector {
    /// RFC 9406 HyStart++.
    PlusPlus(HystartPlusPlus),
    /// Linux HyStart in bytes.
    Linux(LinuxHystart),
    /// Standard slow start: nothing to detect.
    Standard,
}

impl Detector {
    /// A fresh detector of `kind`.
    pub(super) fn new(kind: SlowStartKind) -> Detector {
        match kind {
            // Built in place, not copied from the constant: on a 32-bit core the copy
            // went through a scratch value and `memcpy` (scripts/firmware.sh).
            SlowStartKind::HystartPlusPlus => Detector::PlusPlus(HystartPlusPlus::new()),
            SlowStartKind::LinuxHystart => Detector::Linux(LinuxHystart::default()),
            SlowStartKind::Standard => Detector::Standard,
        }
    }

    /// Whether HyStart++ is in Conservative Slow Start (never, for the other kinds).
    pub(super) const fn in_css(&self) -> bool {
        match self {
            Detector::PlusPlus(h) => h.in_css(),
            _ => false,
        }
    }

    /// Sets HyStart++'s CSS flag (what an event and its undo change); nothing for the
    /// other kinds, which have none.
    pub(super) const fn set_in_css(&mut self, in_css: bool) {
        if let Detector::PlusPlus(h) = self {
            h.set_in_css(in_css);
        }
    }
}
