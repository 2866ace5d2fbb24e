//! RFC 9331 §4.3's classic-ECN bottleneck detection for Prague in bytes: "a scalable
//! congestion control SHOULD detect [a classic ECN AQM at the bottleneck] and fall back
//! to a Reno-friendly response to CE". After Briscoe and Ahmed, arXiv:1911.00710
//! design v2 (L4STeam Linux `tcp_prague.c` 0.6 `prague_classic_ecn_detection()`, off
//! by default there): an L4S AQM keeps its queue at about a millisecond and nearly
//! still, a classic one deeper and swinging. In integers, per round, logarithms base 2
//! in 1/256 units ([`log2_q8`]); [`ClassicEcnDetector`] gives the rule.

/// The logarithms' scale: [`log2_q8`] returns log2 × `LG_ONE`; the score counts in
/// the same units.
pub const LG_ONE: i32 = 256;

/// The reference RTT variation, µs: a round's variation term is zero at 750 µs (the
/// paper's V0, Linux `V0_LG`).
pub const V0_US: u64 = 750;

/// The reference queue depth, µs: the depth term is zero up to 2 ms (the paper's D0,
/// Linux `D0_LG`).
pub const D0_US: u64 = 2_000;

/// The score at or below which the flow is fully scalable (the paper's "L4S sticky"
/// region, 8 units: Linux `L_STICKY`).
pub const SCALABLE_MAX: u32 = 8 * LG_ONE as u32;

/// The score at or above which the flow is fully classic: one unit above
/// [`SCALABLE_MAX`] (Linux `CLASSIC_ECN`); between the two the response is mixed.
pub const CLASSIC_MIN: u32 = SCALABLE_MAX + LG_ONE as u32;

/// The score's ceiling: 8 units above [`CLASSIC_MIN`] (the "classic sticky" region,
/// Linux `C_STICKY`), so that a flow that turned classic needs several rounds of
/// L4S-like evidence to come back.
pub const SCORE_MAX: u32 = CLASSIC_MIN + 8 * LG_ONE as u32;

/// [`ClassicEcnDetector::degree`]'s scale: `DEGREE_ONE` is fully classic.
pub const DEGREE_ONE: u32 = LG_ONE as u32;

/// log2(`x`) × 256, rounded down (`x` = 0 counts as 1: 0). Integer part from the
/// highest set bit, eight fractional bits by repeated squaring of the normalised
/// mantissa (a bounded loop of 8).
pub fn log2_q8(x: u64) -> i32 {
    if x <= 1 {
        return 0;
    }
    let int = 63 - x.leading_zeros();
    // The mantissa in [2^31, 2^32): x scaled so its top bit is bit 31.
    let mut m = if int >= 31 {
        x >> (int - 31)
    } else {
        x << (31 - int)
    };
    let mut frac = 0u32;
    for _ in 0..8 {
        // m < 2^32, so m² < 2^64; m² / 2^31 in [2^31, 2^33).
        m = m.saturating_mul(m) >> 31;
        frac <<= 1;
        if m >= 1 << 32 {
            frac |= 1;
            m >>= 1;
        }
    }
    // int ≤ 63: the sum is below 64·256.
    (int * 256 + frac) as i32
}

/// log2(750) × 256 and log2(2000) × 256 (2444.99 and 2807.24, rounded down as
/// [`log2_q8`] gives them).
const LG_V0: i32 = 2_444;
const LG_D0: i32 = 2_807;

/// The classic-ECN detector of one Prague flow. Plain `Copy` data, 12 bytes; all zero
/// when fresh (scalable, nothing measured).
///
/// Once per round at the alpha update, with `srtt` the driver's smoothed RTT:
///
/// - the variation `v`: a mean deviation of `srtt` from a slower average of it
///   (`avg += (srtt − avg)/8`, `v += (|srtt − avg| − v)/4`, per round);
/// - the depth `d = srtt − min(srtt)` over the flow's rounds (the smoothed RTT's own
///   floor, so that a constant ACK delay is not counted as queue);
/// - once a CE has been seen: `score += max(½·log2(v / 750 µs), −1) +
///   max(½·log2(d / 2 ms), 0)`, kept within `0..=`[`SCORE_MAX`].
///
/// The response ([`alpha_floor`](Self::alpha_floor)): a CE reduction uses
/// `max(alpha, degree)`, where `degree` rises from 0 at [`SCALABLE_MAX`] to 1 at
/// [`CLASSIC_MIN`]; fully classic, a CE halves the window, as a loss does (RFC 3168
/// §6.1.2; once per round, as the driver's recovery period already allows).
///
/// Where it differs from the paper and Linux 0.6: the inputs are per round (the
/// driver's smoothed RTT), not per packet with a window-scaled gain; the variation term
/// loses at most one unit per round, so that a deep queue that barely moves (a classic
/// AQM holding one flow at its target) still counts as classic; fully classic means
/// alpha = 1 (Reno's halving, as RFC 9331 §4.3 asks), not Linux's alpha ≥ 0.625; the
/// minimum is over the whole flow (Linux's is windowed over 5 minutes), so a route that
/// lengthens the base RTT reads as queue: the flow turns classic there, the safe side.
/// A flow's detector is `flow.growth().classic_ecn()` (see [`Prague`](super::Prague)'s
/// example).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct ClassicEcnDetector {
    /// The slow average of the per-round smoothed RTT, µs (0: no round yet).
    avg_srtt_us: u32,
    /// The smallest per-round smoothed RTT, µs (0: no round yet).
    min_srtt_us: u32,
    /// The mean deviation of the per-round smoothed RTT from `avg_srtt_us`, µs, at most
    /// 65535 (65 ms: log2 of more only says "classic" louder).
    mdev_us: u16,
    /// The score, log2 units × [`LG_ONE`], `0..=`[`SCORE_MAX`] (13 bits), and in the
    /// top bit ([`SAW_CE`]) whether a CE has been seen: before, the path has shown no
    /// AQM and the score stays. One field, so that the detector fits the 4 bytes
    /// Prague's state had spare and the flow stays four cache lines.
    score_ce: u16,
}

/// [`ClassicEcnDetector`]'s flag bit: a CE has been seen.
const SAW_CE: u16 = 1 << 15;

const _: () = assert!(core::mem::size_of::<ClassicEcnDetector>() <= 12);
const _: () = assert!(SCORE_MAX < SAW_CE as u32);

impl ClassicEcnDetector {
    /// A fresh detector: score 0 (scalable), nothing measured.
    pub const fn new() -> Self {
        ClassicEcnDetector {
            avg_srtt_us: 0,
            min_srtt_us: 0,
            mdev_us: 0,
            score_ce: 0,
        }
    }

    /// The score, log2 units × 256 (`0..=`[`SCORE_MAX`]).
    pub const fn score(&self) -> u32 {
        (self.score_ce & !SAW_CE) as u32
    }

    /// The RTT variation measured, µs.
    pub const fn mdev_us(&self) -> u32 {
        self.mdev_us as u32
    }

    /// The queue depth at the last round, µs: its smoothed RTT minus the smallest.
    pub const fn depth_us(&self) -> u32 {
        self.avg_srtt_us.saturating_sub(self.min_srtt_us)
    }

    /// Whether a CE has been seen (the score moves only after).
    pub const fn saw_ce(&self) -> bool {
        self.score_ce & SAW_CE != 0
    }

    /// How classic the response is, × [`DEGREE_ONE`]: 0 at or below [`SCALABLE_MAX`],
    /// [`DEGREE_ONE`] at or above [`CLASSIC_MIN`], linear between.
    pub const fn degree(&self) -> u32 {
        let s = self.score();
        if s <= SCALABLE_MAX {
            0
        } else if s >= CLASSIC_MIN {
            DEGREE_ONE
        } else {
            s - SCALABLE_MAX
        }
    }

    /// Whether the flow responds fully classically.
    pub const fn is_classic(&self) -> bool {
        self.degree() == DEGREE_ONE
    }

    /// The lowest alpha a CE reduction uses, × 2^20 ([`ALPHA_ONE`](super::ALPHA_ONE)):
    /// the degree on alpha's scale.
    pub const fn alpha_floor(&self) -> u32 {
        // DEGREE_ONE = 2^8; alpha's one is 2^20.
        self.degree() << 12
    }

    /// A CE was reported.
    pub(crate) fn note_ce(&mut self) {
        self.score_ce |= SAW_CE;
    }

    /// The end of a round (an alpha update) with smoothed RTT `srtt_us`; 0 (no RTT
    /// sample yet) is ignored.
    pub(crate) fn on_round(&mut self, srtt_us: u64) {
        if srtt_us == 0 {
            return;
        }
        let srtt = u32::try_from(srtt_us).unwrap_or(u32::MAX);
        if self.min_srtt_us == 0 || srtt < self.min_srtt_us {
            self.min_srtt_us = srtt;
        }
        if self.avg_srtt_us == 0 {
            self.avg_srtt_us = srtt;
        }
        let dev = srtt.abs_diff(self.avg_srtt_us);
        let mdev = u32::from(self.mdev_us);
        // arXiv:1911.00710 design v2 (Linux prague_rtt_estimator): mean deviation from a slow average
        let mdev = mdev - mdev / 4 + dev / 4;
        self.mdev_us = u16::try_from(mdev).unwrap_or(u16::MAX);
        self.avg_srtt_us = self.avg_srtt_us - self.avg_srtt_us / 8 + srtt / 8;
        if !self.saw_ce() {
            return;
        }
        let depth = u64::from(srtt - self.min_srtt_us);
        // arXiv:1911.00710 design v2: c += V·lg(v/V0) + D·lg(max(d/D0, 1)), V = D = 1/2
        let v_term = ((log2_q8(u64::from(self.mdev_us)) - LG_V0) / 2).max(-LG_ONE);
        let d_term = ((log2_q8(depth) - LG_D0) / 2).max(0);
        let score = (self.score() as i32 + v_term + d_term).clamp(0, SCORE_MAX as i32);
        // 0..=SCORE_MAX (4352) fits below the flag bit.
        self.score_ce = score as u16 | SAW_CE;
    }
}

#[cfg(test)]
mod tests;
