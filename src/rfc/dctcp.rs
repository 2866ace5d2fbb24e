//! DCTCP's response in bytes (RFC 8257 §3.3–§3.5) on the classic driver, for QUIC
//! (RFC 9002 events, the 1-RTT space's ECN-CE count): Reno's growth, alpha the EWMA
//! of the marked fraction per round, `cwnd · (1 − alpha/2)` on ECN-CE at most once
//! per round (the driver's recovery period), half the window on loss.

use super::adjustment::{RoundAck, WindowAdjustment};
use super::config::RfcParams;
use super::flow::Classic;
use super::scalable::{ALPHA_ONE, AlphaEstimator, ScalableUndo, additive_increase};
use crate::cubic::RfcCubicParams;
use crate::time::Instant;
use core::num::NonZeroU64;

/// One DCTCP flow in bytes for QUIC (RFC 8257's sender in RFC 9002's terms), on the
/// classic driver: slow start, recovery periods, window use and pacing are
/// [`Cubic`](super::Cubic)'s, documented there. Configured by a
/// [`DctcpConfig`](super::DctcpConfig)
/// (`config.scalable.g_shift` sets g).
///
/// Per 1-RTT ACK frame, report the ECN-CE rise and the acknowledged bytes either in one
/// [`on_ack`](crate::CongestionController::on_ack) with
/// [`AckEvent::with_ce`](crate::AckEvent::with_ce), or as RFC 9002 Appendix A.7 orders
/// them: [`on_ecn`](crate::CongestionController::on_ecn) with
/// [`EcnEvent::new`](crate::EcnEvent::new), then `on_ack`. Either way every rise counts
/// towards the marked fraction (one MSS per CE packet) and the first rise for a packet
/// sent after the last reduction reduces (unnamed packets reduce every time); alpha is
/// updated once per round.
///
/// The sender must mark its packets ECT(0) for DCTCP in a datacenter, ECT(1) where it
/// runs as an L4S sender ([`Prague`](super::Prague) says what the stack must do).
///
/// ```
/// use congestion::rfc::{Dctcp, DctcpConfig};
/// use congestion::{AckEvent, CongestionController, EcnEvent, Instant, SentEvent};
///
/// let mut config = DctcpConfig::quic(1200);
/// config.initial_ssthresh_bytes = Some(12_000); // start in congestion avoidance
/// let mut flow = Dctcp::new(config, Instant::ZERO)?;
/// flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 9));
/// // alpha starts at 1: the first CE halves, as a classic flow would.
/// flow.on_ecn(Instant::from_micros(20_000), &EcnEvent::new(1, 0));
/// assert_eq!(flow.cwnd(), 6_000);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
pub type Dctcp = Classic<DctcpWindow>;

/// DCTCP's state: Reno's byte count, the marked-fraction estimator and the window
/// before the last reduction. Plain `Copy` data, 48 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct DctcpWindow {
    /// Bytes acknowledged in congestion avoidance since the window last grew.
    bytes_acked: u64,
    /// alpha and the current observation window.
    estimator: AlphaEstimator,
    /// The window when the last reduction began (what an undo may restore).
    cwnd_prior_bytes: u64,
}

impl Default for DctcpWindow {
    fn default() -> Self {
        Self::new()
    }
}

impl DctcpWindow {
    /// A fresh state: alpha = 1 (Linux `tcp_dctcp.c`'s default `dctcp_alpha_on_init`,
    /// so the first CE halves the window as a classic flow would), nothing counted.
    pub const fn new() -> Self {
        DctcpWindow {
            bytes_acked: 0,
            estimator: AlphaEstimator::with_alpha(ALPHA_ONE),
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
}

impl WindowAdjustment for DctcpWindow {
    type Undo = ScalableUndo;

    const ZEROED: Self = DctcpWindow {
        bytes_acked: 0,
        estimator: AlphaEstimator::with_alpha(0),
        cwnd_prior_bytes: 0,
    };
    const UNDO_NONE: ScalableUndo = ScalableUndo {
        cwnd_prior_bytes: 0,
        sub_mss_window: 0,
    };
    const READS_ACK_CE: bool = true;
    const HOT_BYTES: usize = core::mem::offset_of!(DctcpWindow, cwnd_prior_bytes);

    fn finish_fresh(&mut self) {
        self.estimator.set_alpha(ALPHA_ONE);
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
        // RFC 8257 §3.4 (growth as standard TCP); RFC 9002 §7.3.3: one MSS per window
        let grow = additive_increase(&mut self.bytes_acked, cwnd, acked, 1, mss.get());
        cwnd.saturating_add(grow)
    }

    fn on_congestion(&mut self, _p: &RfcCubicParams, cwnd: u64, ecn: bool) -> u64 {
        self.cwnd_prior_bytes = cwnd;
        self.bytes_acked = 0;
        if ecn {
            self.estimator.reduced(cwnd)
        } else {
            // RFC 8257 §3.5: loss is answered as standard TCP does, halving the window
            cwnd / 2
        }
    }

    /// Linux `tcp_dctcp.c` `dctcp_ssthresh()`: at least 2 segments, after ECN-CE too.
    fn reduction_floors(mss: u64) -> (u64, u64, u64) {
        (2 * mss, 2 * mss, 2 * mss)
    }

    fn on_ce(&mut self, mss: u64, ce_packets: u64) {
        self.estimator.count_ce(mss, ce_packets);
    }

    fn on_every_ack(&mut self, p: &RfcParams, _now: Instant, ack: &RoundAck) {
        self.estimator.on_ack(p.scalable().g_shift(), ack, true);
    }

    fn on_slow_start_exit(&mut self, cwnd: u64) {
        self.cwnd_prior_bytes = cwnd;
        self.bytes_acked = 0;
    }

    fn cwnd_prior(&self) -> u64 {
        self.cwnd_prior_bytes
    }

    fn save_undo_into(&self, saved: &mut ScalableUndo) {
        saved.cwnd_prior_bytes = self.cwnd_prior_bytes;
        saved.sub_mss_window = 0;
    }

    fn restore_undo_from(&mut self, saved: &ScalableUndo) {
        self.cwnd_prior_bytes = saved.cwnd_prior_bytes;
        self.bytes_acked = 0;
    }
}

const _: () = assert!(core::mem::size_of::<DctcpWindow>() <= 48);

// The whole flow state is four cache lines, as NewReno's is (64-bit targets); what an
// ACK touches (the driver's hot part, the estimator and the growth count) fits in two.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(
    core::mem::size_of::<super::flow::ClassicState<DctcpWindow>>() <= 256
        && super::flow::ClassicState::<DctcpWindow>::HOT_BYTES <= 128
);
