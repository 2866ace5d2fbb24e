//! Prague's response in bytes (draft-briscoe-iccrg-prague-congestion-control-04) on the
//! classic driver, for QUIC: DCTCP's scalable response to ECN-CE, Reno-friendly halving
//! on loss, an additive increase scaled to a reference RTT so that short-RTT flows grow
//! their rate no faster than a 25 ms flow, and a window below one MSS carried by the
//! pacer. RFC 9331 §4.3's requirements and where each is met: `docs/compliance.md`.

use super::adjustment::{RoundAck, WindowAdjustment};
use super::classic_ecn::ClassicEcnDetector;
use super::config::RfcParams;
use super::flow::Classic;
use super::scalable::{ALPHA_ONE, AlphaEstimator, ScalableUndo, additive_increase};
use crate::cubic::RfcCubicParams;
use crate::time::Instant;
use core::num::NonZeroU64;

/// The additive-increase factor's scale: `AI_ONE` is one MSS per window (unscaled).
pub const AI_ONE: u32 = 1 << 16;

/// The smallest window below one MSS, as a divisor of the MSS: MSS/8 (150 bytes at an
/// MSS of 1200). At 25 ms that is 7.5 kB/s at RFC 9002's pacing gain, near Linux
/// Prague's 100 kbit/s `MINIMUM_RATE`; lower, a flow would send one packet in more than
/// 8 rounds and its CE and RTT feedback would come too rarely to steer by.
pub const SUB_MSS_FLOOR_DIVISOR: u64 = 8;

/// One Prague flow in bytes for QUIC, on the classic driver (slow start, recovery
/// periods, window use and pacing as [`Cubic`](super::Cubic) documents). Configured by
/// a [`PragueConfig`](super::PragueConfig): `config.scalable.g_shift` sets g and
/// `config.scalable.reference_rtt_us` the reference RTT (25 ms). Events as for
/// [`Dctcp`](super::Dctcp): per ACK frame of the 1-RTT space, `on_ack` with the rise of
/// its ECN-CE count in `AckEvent::ce_delta`, or `on_ecn` with it first, then `on_ack`.
///
/// Differences from [`Dctcp`](super::Dctcp):
///
/// - **RTT independence**: the additive increase per acknowledged byte is scaled by
///   `(srtt / reference)²` below the reference RTT (the draft's "Reduced
///   RTT-Dependence"; Linux `tcp_prague.c` `prague_rate_scaled_ai_ack_increase()`), so
///   the rate (window per RTT) grows by one MSS per reference RTT per reference RTT
///   whatever the RTT; alpha is updated at the end of a round at least one reference
///   RTT after its last update, so it smooths over the same time, not over more rounds.
/// - **Below two packets per RTT**: a reduction may take the window below 2·MSS (no
///   2·MSS floor, for ssthresh either) and below one MSS. `cwnd()` then stays at one
///   MSS, so that a stack that sends only within the window (RFC 9002 §7) always has
///   one packet it may send, and the window below it
///   ([`PragueWindow::sub_mss_window`], at least MSS/8) drives the pacing rate instead:
///   the stack must pace ([`pacing_rate`](crate::CongestionController::pacing_rate)),
///   and the pacer spreads those packets so that fewer than one per RTT leaves. An ACK
///   adds at most one MSS to such a window.
///
/// What the stack must do (RFC 9331 §4.1, §4.3): mark every packet of the flow ECT(1)
/// once the path validates ECN (RFC 9000 §13.4.2: validation failing means sending
/// Not-ECT, and then this controller sees no CE), report each rise of the ECN-CE count
/// of the 1-RTT space as above, pace at `pacing_rate()`, and count in-flight bytes as
/// usual. The controller never sees packets: it cannot mark them.
///
/// ```
/// use congestion::rfc::{Prague, PragueConfig};
/// use congestion::{CongestionController, EcnEvent, Instant, SentEvent};
///
/// let mut config = PragueConfig::quic(1200);
/// config.initial_window_bytes = Some(2_400);
/// config.initial_ssthresh_bytes = Some(2_400);
/// let mut flow = Prague::new(config, Instant::ZERO)?;
/// flow.on_sent(Instant::ZERO, &SentEvent::new(2_400, 1));
/// // alpha = 1: one CE halves 2400 to 1200, below the classic 2·MSS floor.
/// flow.on_ecn(Instant::from_micros(20_000), &EcnEvent::new(1, 0));
/// assert_eq!((flow.cwnd(), flow.ssthresh()), (1_200, Some(1_200)));
/// // The CE armed the classic-ECN detector; its score moves at later rounds' ends.
/// assert!(flow.growth().classic_ecn().saw_ce());
/// # Ok::<(), congestion::ConfigError>(())
/// ```
pub type Prague = Classic<PragueWindow>;

/// Prague's state. Plain `Copy` data, 72 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct PragueWindow {
    /// Growth credit in 1/[`AI_ONE`] bytes: acknowledged bytes times the increase
    /// factor, one MSS per window of it.
    credit: u64,
    /// alpha and the current observation window.
    estimator: AlphaEstimator,
    /// The window below one MSS the pacer carries while `cwnd` is one MSS (0: none).
    /// Below one MSS, so below 2^16: 32 bits hold it.
    sub_mss_window: u32,
    /// The additive-increase factor × [`AI_ONE`]: `(srtt / reference)²`, at most 1,
    /// at least 1/2^16; set at each alpha update.
    ai_factor: u32,
    /// When alpha was last updated, µs on a 32-bit clock that wraps every 71.6 minutes
    /// ([`Instant::micros32`]), so that the classic-ECN detector fits and the flow stays
    /// four cache lines.
    alpha_stamp: u32,
    /// The classic-ECN bottleneck detector (RFC 9331 §4.3), moved once per alpha update.
    classic: ClassicEcnDetector,
    /// The window when the last reduction began (what an undo may restore).
    cwnd_prior_bytes: u64,
}

impl Default for PragueWindow {
    fn default() -> Self {
        Self::new()
    }
}

impl PragueWindow {
    /// A fresh state: alpha = 1 (the first CE halves, as a classic flow's would), the
    /// increase unscaled until the first round gives an RTT, no sub-MSS window.
    pub const fn new() -> Self {
        PragueWindow {
            credit: 0,
            estimator: AlphaEstimator::with_alpha(ALPHA_ONE),
            sub_mss_window: 0,
            ai_factor: AI_ONE,
            alpha_stamp: 0,
            classic: ClassicEcnDetector::new(),
            cwnd_prior_bytes: 0,
        }
    }

    /// alpha × 2^20 ([`ALPHA_ONE`] is 1).
    pub const fn alpha(&self) -> u32 {
        self.estimator.alpha()
    }

    /// The marked-fraction estimator (alpha and the current observation window).
    pub const fn estimator(&self) -> &AlphaEstimator {
        &self.estimator
    }

    /// The window below one MSS that the pacing rate carries, bytes; 0 while the window
    /// is `cwnd` itself.
    pub const fn sub_mss_window(&self) -> u64 {
        self.sub_mss_window as u64
    }

    /// The additive-increase factor × 2^16 ([`AI_ONE`]: unscaled).
    pub const fn ai_factor(&self) -> u32 {
        self.ai_factor
    }

    /// The classic-ECN bottleneck detector: its score and how classic the response to
    /// CE is (always scalable with [`ScalableConfig::classic_ecn_fallback`](super::ScalableConfig::classic_ecn_fallback) off).
    pub const fn classic_ecn(&self) -> &ClassicEcnDetector {
        &self.classic
    }

    /// A loss (`ecn == false`) or ECN-CE reduction of the window the flow runs (the
    /// sub-MSS window if there is one, else `cwnd`) at MSS `mss`.
    fn reduce(&mut self, mss: u64, cwnd: u64, ecn: bool) -> u64 {
        let window = if self.sub_mss_window != 0 {
            u64::from(self.sub_mss_window)
        } else {
            cwnd
        };
        self.cwnd_prior_bytes = cwnd;
        self.credit = 0;
        let reduced = if ecn {
            // RFC 9331 §4.3: on a classic ECN bottleneck, CE as a loss (alpha at least
            // the detector's degree; 0 on an L4S one)
            self.estimator
                .reduced_with_floor(window, self.classic.alpha_floor())
        } else {
            // RFC 9331 §4.3: Reno-friendly on loss (halve, as RFC 9002 Appendix B.6)
            window / 2
        };
        if reduced < mss {
            // Below one packet: cwnd stays one MSS, the pacer carries the rest.
            let sub = reduced.max(mss / SUB_MSS_FLOOR_DIVISOR).max(1);
            // Below the MSS (at most 65535): fits; saturates whatever.
            self.sub_mss_window = u32::try_from(sub).unwrap_or(u32::MAX);
            mss
        } else {
            self.sub_mss_window = 0;
            reduced
        }
    }
}

/// `(srtt / reference)²` × [`AI_ONE`], rounded to nearest, at least 1; [`AI_ONE`] at
/// or above the reference RTT or without an RTT sample.
pub fn ai_factor(srtt_us: u64, reference_us: u64) -> u32 {
    if srtt_us == 0 || srtt_us >= reference_us {
        return AI_ONE;
    }
    // srtt < reference ≤ 10^6 µs: the squares stay below 2^40, times 2^16 below 2^56.
    let reference_sq = reference_us.saturating_mul(reference_us);
    let scaled = srtt_us
        .saturating_mul(srtt_us)
        .saturating_mul(u64::from(AI_ONE))
        .saturating_add(reference_sq / 2);
    // draft-briscoe-iccrg-prague-congestion-control-04 "Reduced RTT-Dependence"; Linux tcp_prague.c prague_rate_scaled_ai_ack_increase(): (srtt/target)²
    let factor = scaled
        .checked_div(reference_sq)
        .unwrap_or(u64::from(AI_ONE));
    factor.clamp(1, u64::from(AI_ONE)) as u32
}

impl WindowAdjustment for PragueWindow {
    type Undo = ScalableUndo;

    const ZEROED: Self = PragueWindow {
        credit: 0,
        estimator: AlphaEstimator::with_alpha(0),
        sub_mss_window: 0,
        ai_factor: 0,
        alpha_stamp: 0,
        classic: ClassicEcnDetector::new(),
        cwnd_prior_bytes: 0,
    };
    const UNDO_NONE: ScalableUndo = ScalableUndo {
        cwnd_prior_bytes: 0,
        sub_mss_window: 0,
    };
    const READS_ACK_CE: bool = true;
    const HOT_BYTES: usize = core::mem::offset_of!(PragueWindow, alpha_stamp);

    fn finish_fresh(&mut self) {
        self.estimator.set_alpha(ALPHA_ONE);
        self.ai_factor = AI_ONE;
    }

    fn start(&mut self, p: &RfcParams) {
        self.estimator.set_alpha(p.scalable().initial_alpha());
    }

    #[inline(always)]
    fn on_ack(
        &mut self,
        _p: &RfcCubicParams,
        mss: NonZeroU64,
        _now: Instant,
        cwnd: u64,
        acked: u64,
        _srtt_us: u64,
    ) -> u64 {
        let mss = mss.get();
        // draft-briscoe-iccrg-prague-congestion-control-04 "Reduced RTT-Dependence": increase per acked byte × (srtt/reference)²
        let earned = acked.saturating_mul(u64::from(self.ai_factor));
        let unit = u64::from(AI_ONE);
        if self.sub_mss_window != 0 {
            let window = u64::from(self.sub_mss_window);
            if additive_increase(&mut self.credit, window, earned, unit, mss) == 0 {
                return cwnd;
            }
            // At most one MSS per ACK: one packet acknowledged covers several sub-MSS
            // windows, but the rate it reports grew by one MSS per round at most.
            self.credit = 0;
            self.sub_mss_window = 0;
            return window.saturating_add(mss).max(cwnd);
        }
        // RFC 9002 §7.3.3: one MSS per window of (scaled) acknowledged bytes
        cwnd.saturating_add(additive_increase(&mut self.credit, cwnd, earned, unit, mss))
    }

    fn on_congestion(&mut self, p: &RfcCubicParams, cwnd: u64, ecn: bool) -> u64 {
        self.reduce(p.mss(), cwnd, ecn)
    }

    fn on_congestion_at(&mut self, _p: &RfcParams, mss: u64, cwnd: u64, ecn: bool) -> u64 {
        self.reduce(mss, cwnd, ecn)
    }

    /// RFC 9331 §4.3 (scale down to a fractional window): no floor above one MSS; below
    /// it the sub-MSS window takes over.
    fn reduction_floors(mss: u64) -> (u64, u64, u64) {
        (mss, mss, mss)
    }

    fn on_ce(&mut self, mss: u64, ce_packets: u64) {
        self.estimator.count_ce(mss, ce_packets);
        self.classic.note_ce();
    }

    fn on_every_ack(&mut self, p: &RfcParams, now: Instant, ack: &RoundAck) {
        let reference = u64::from(p.scalable().reference_rtt_us());
        // Linux tcp_prague.c prague_should_update_ewma(): a round, and a reference RTT
        // Wrapping on the 32-bit clock (as Linux's tcp_stamp_us_delta on its u32
        // stamps): after 71.6 minutes without an update the difference wraps, which
        // delays the next update by at most one reference RTT; time that went
        // backwards reads as a long time, which only lets the round's end update.
        let elapsed = u64::from(now.micros32().wrapping_sub(self.alpha_stamp));
        let may_update = elapsed >= reference;
        if self
            .estimator
            .on_ack(p.scalable().g_shift(), ack, may_update)
        {
            self.alpha_stamp = now.micros32();
            self.ai_factor = ai_factor(ack.srtt_us, reference);
            if p.scalable().classic_ecn_fallback() {
                self.classic.on_round(ack.srtt_us);
            }
        }
    }

    fn pacing_window(&self, cwnd: u64) -> u64 {
        if self.sub_mss_window != 0 {
            u64::from(self.sub_mss_window)
        } else {
            cwnd
        }
    }

    fn on_timeout(&mut self, _p: &RfcCubicParams, cwnd: u64) -> u64 {
        let window = self.pacing_window(cwnd);
        self.cwnd_prior_bytes = cwnd;
        self.credit = 0;
        // The driver restarts from 1 or 2 MSS: no sub-MSS window after a timeout.
        self.sub_mss_window = 0;
        window / 2
    }

    fn on_slow_start_exit(&mut self, cwnd: u64) {
        self.cwnd_prior_bytes = cwnd;
        self.credit = 0;
    }

    fn on_mss_change(&mut self) {
        // The driver keeps cwnd at least 2·MSS of the new size: the sub-MSS window ends.
        self.sub_mss_window = 0;
        self.credit = 0;
    }

    fn cwnd_prior(&self) -> u64 {
        self.cwnd_prior_bytes
    }

    fn save_undo_into(&self, saved: &mut ScalableUndo) {
        saved.cwnd_prior_bytes = self.cwnd_prior_bytes;
        saved.sub_mss_window = u64::from(self.sub_mss_window);
    }

    fn restore_undo_from(&mut self, saved: &ScalableUndo) {
        self.cwnd_prior_bytes = saved.cwnd_prior_bytes;
        self.sub_mss_window = u32::try_from(saved.sub_mss_window).unwrap_or(u32::MAX);
        self.credit = 0;
    }

    fn undo_on_mss_change(saved: &mut ScalableUndo) {
        saved.sub_mss_window = 0;
    }
}

const _: () = assert!(core::mem::size_of::<PragueWindow>() <= 72);

// The whole flow state is four cache lines, as NewReno's is (64-bit targets); what an
// ACK touches (the driver's hot part, the estimator and the growth count) fits in two.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(
    core::mem::size_of::<super::flow::ClassicState<PragueWindow>>() <= 256
        && super::flow::ClassicState::<PragueWindow>::HOT_BYTES <= 128
);
