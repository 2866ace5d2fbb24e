//! What DCTCP and Prague share in bytes: the fraction of acknowledged bytes that
//! arrived CE-marked, measured per round, smoothed into alpha (RFC 8257 §3.3), the
//! reduction `cwnd · (1 − alpha/2)` it gives, and Reno's additive increase counted in
//! credit units.

use crate::cubic::mul_div_floor;
use crate::rfc::adjustment::RoundAck;

/// alpha's fixed-point scale: `ALPHA_ONE` is alpha = 1. 20 bits, so that the EWMA's
/// truncation leaves at most 2^g_shift − 1 units (15 / 2^20 at g = 1/16) that never
/// decay, a reduction of at most 0.0007 % of the window.
pub const ALPHA_ONE: u32 = 1 << 20;

/// The marked fraction of each round, smoothed into alpha: RFC 8257 §3.3's
/// `DCTCP.BytesAcked`, `DCTCP.BytesMarked`, `DCTCP.WindowEnd` and `DCTCP.Alpha`, in
/// QUIC's terms (packet numbers for sequence numbers, the CE count for ECE). Plain
/// `Copy` data, 32 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct AlphaEstimator {
    /// Bytes acknowledged in the current observation window.
    round_acked: u64,
    /// Bytes reported CE-marked in it (CE packets × MSS).
    round_marked: u64,
    /// The largest packet number sent when the window began, plus one: the window
    /// ends when an ACK covers it. 0: no window begun (no packet number acknowledged).
    round_end_below: u64,
    /// alpha × [`ALPHA_ONE`].
    alpha: u32,
}

impl AlphaEstimator {
    /// An estimator with alpha = `alpha` (× [`ALPHA_ONE`]) and nothing counted.
    pub const fn with_alpha(alpha: u32) -> Self {
        AlphaEstimator {
            round_acked: 0,
            round_marked: 0,
            round_end_below: 0,
            alpha,
        }
    }

    /// alpha × 2^20 ([`ALPHA_ONE`] is 1).
    pub const fn alpha(&self) -> u32 {
        self.alpha
    }

    /// Bytes acknowledged and bytes marked so far in the current observation window.
    pub const fn round_counts(&self) -> (u64, u64) {
        (self.round_acked, self.round_marked)
    }

    /// Sets alpha (× 2^20), clamped to 1.
    pub(crate) const fn set_alpha(&mut self, alpha: u32) {
        self.alpha = if alpha > ALPHA_ONE { ALPHA_ONE } else { alpha };
    }

    /// The CE count rose by `ce_packets`, each counted as `mss` bytes (QUIC reports
    /// packets, not bytes: a short packet counts as a full one). Saturates.
    pub(crate) fn count_ce(&mut self, mss: u64, ce_packets: u64) {
        // RFC 8257 §3.3: DCTCP.BytesMarked += bytes acknowledged with ECE
        self.round_marked = self
            .round_marked
            .saturating_add(ce_packets.saturating_mul(mss));
    }

    /// One ACK: counts its bytes; at the end of the observation window, and if
    /// `may_update`, updates alpha with `g =
    /// 1/2^g_shift` and begins the next window. Returns whether alpha was updated. A
    /// window that ends while `may_update` is false keeps counting into the next.
    ///
    /// The windows: the first is the flight outstanding at the first ACK that names a
    /// packet number (it ends when the largest packet sent then is acknowledged); each
    /// later one, as RFC 8257's `WindowEnd = SND.NXT`, ends when the first packet sent
    /// after the previous window ended is acknowledged. So with a packet sent per packet
    /// acknowledged, every window is one window of packets. Without packet numbers (every
    /// `largest_acked` `None`), a window ends once `cwnd` bytes have been acknowledged.
    pub(crate) fn on_ack(&mut self, g_shift: u32, ack: &RoundAck, may_update: bool) -> bool {
        // RFC 8257 §3.3: DCTCP.BytesAcked += bytes acknowledged
        self.round_acked = self.round_acked.saturating_add(ack.acked);
        let over = if ack.acked_below == 0 {
            self.round_acked >= ack.cwnd
        } else if self.round_end_below == 0 {
            // The first packet number acknowledged: the first window is the flight
            // outstanding now, up to the largest packet sent.
            self.round_end_below = ack.largest_sent.saturating_add(1);
            ack.acked_below >= self.round_end_below
        } else {
            // RFC 8257 §3.3: if SND.UNA > DCTCP.WindowEnd, the window is over
            ack.acked_below >= self.round_end_below
        };
        if !over || !may_update {
            return false;
        }
        self.update_alpha(g_shift);
        self.round_acked = 0;
        self.round_marked = 0;
        // RFC 8257 §3.3: DCTCP.WindowEnd = SND.NXT; the next window ends once the
        // packet sent after this ACK (largest_sent + 1) is acknowledged, i.e. at
        // acked_below >= largest_sent + 2.
        self.round_end_below = if ack.acked_below == 0 {
            0
        } else {
            ack.largest_sent.saturating_add(2)
        };
        true
    }

    /// alpha = (1 − g)·alpha + g·F with F the window's marked fraction; a window that
    /// acknowledged nothing leaves alpha as it is. Marks beyond the acknowledged bytes
    /// (a CE count above the packets acked) count as F = 1.
    fn update_alpha(&mut self, g_shift: u32) {
        if self.round_acked == 0 {
            return;
        }
        let marked = self.round_marked.min(self.round_acked);
        // RFC 8257 §3.3: M = DCTCP.BytesMarked / DCTCP.BytesAcked (at most 1: fits u32)
        let fraction = mul_div_floor(marked, ALPHA_ONE as u64, self.round_acked);
        let fraction = if fraction > ALPHA_ONE as u64 {
            ALPHA_ONE
        } else {
            fraction as u32
        };
        // g_shift is validated to 0..=10; the min keeps the shift in range whatever.
        let g = if g_shift > 31 { 31 } else { g_shift };
        // RFC 8257 §3.3: DCTCP.Alpha = DCTCP.Alpha * (1 - g) + g * M
        // No overflow: alpha − alpha/2^g ≤ 1 − 1/2^g and F/2^g ≤ 1/2^g (×2^20).
        self.alpha = self.alpha - (self.alpha >> g) + (fraction >> g);
    }

    /// The window after an ECN-CE reduction of `window`: `window · (1 − alpha/2)`,
    /// floor of the reduction (so at most half the window goes).
    pub(crate) fn reduced(&self, window: u64) -> u64 {
        self.reduced_with_floor(window, 0)
    }

    /// [`reduced`](Self::reduced) with alpha taken as at least `floor` (× 2^20, at most
    /// 1 counts): Prague's fall-back on a classic ECN bottleneck.
    pub(crate) fn reduced_with_floor(&self, window: u64, floor: u32) -> u64 {
        let alpha = if floor > self.alpha {
            floor
        } else {
            self.alpha
        };
        let alpha = if alpha > ALPHA_ONE { ALPHA_ONE } else { alpha };
        // RFC 8257 §3.3: cwnd = cwnd * (1 - DCTCP.Alpha / 2)
        window.saturating_sub(mul_div_floor(window, alpha as u64, 2 * ALPHA_ONE as u64))
    }
}

/// Reno's additive increase (RFC 9002 §7.3.3: one MSS per window of acknowledged
/// bytes) in credit units: `earned` credit added; each `window · unit` of credit earns
/// one `mss`, without a loop. Returns the bytes to add.
pub(crate) fn additive_increase(
    credit: &mut u64,
    window: u64,
    earned: u64,
    unit: u64,
    mss: u64,
) -> u64 {
    *credit = credit.saturating_add(earned);
    let need = window.saturating_mul(unit);
    if need == 0 || *credit < need {
        return 0;
    }
    // need is non-zero here.
    let windows = *credit / need;
    *credit %= need;
    windows.saturating_mul(mss)
}

/// What an undo of a DCTCP or Prague reduction restores besides the driver's fields:
/// the window before it and Prague's window below one MSS (0 for none, always for
/// DCTCP). The marked-fraction measurements are not undone: they are what the path
/// reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ScalableUndo {
    /// The window before the reduction.
    pub cwnd_prior_bytes: u64,
    /// Prague's window below one MSS before it (0: none).
    pub sub_mss_window: u64,
}

const _: () = assert!(core::mem::size_of::<AlphaEstimator>() <= 32);
