//! RFC-mode flow configuration: which slow start, whether the sender paces, and the
//! initial window and threshold.

use crate::cubic::{RfcCubicConfig, RfcCubicParams};
use crate::error::ConfigError;
use crate::pacing::{PacingRateConfig, PacingRateParams};
use core::num::NonZeroU32;

/// Which slow-start algorithm an RFC-mode flow ([`Cubic`](super::Cubic), [`NewReno`](super::NewReno)) runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SlowStartKind {
    /// Standard slow start (RFC 5681 / RFC 9002): cwnd grows by the acked bytes until
    /// ssthresh or a congestion event.
    Standard,
    /// Linux HyStart (ACK train + delay increase, [`LinuxHystart`](crate::hystart::LinuxHystart))
    /// adapted to bytes: cwnd in whole segments (`cwnd / MSS`) for its 16-segment
    /// low-window test; `largest_acked` / `largest_sent` truncated to 32 bits as
    /// `snd_una` / `snd_nxt`; the minimum RTT as `delay_min`; no pacing rate (no GSO
    /// ACK-delay cushion); pacing status `Fq` when `paced`, else `None` (halving the
    /// train threshold as unpaced Linux does); no 1-second blackout after an epoch starts.
    LinuxHystart,
    /// RFC 9406 HyStart++ (the RFC 9438 §4.10 recommendation).
    #[default]
    HystartPlusPlus,
}

/// Settings of a classic-driver flow ([`Classic`](super::Classic)); name it
/// [`CubicConfig`], [`NewRenoConfig`], [`DctcpConfig`] or [`PragueConfig`] at the call
/// site. NewReno ignores the CUBIC-only settings (β, C, fast convergence,
/// Reno-friendliness).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct ClassicConfig {
    /// CUBIC's settings, MSS included.
    pub cubic: RfcCubicConfig,
    /// The slow-start algorithm.
    pub slow_start: SlowStartKind,
    /// True if the sender paces its packets (HyStart++ then has no per-ACK limit `L`).
    pub paced: bool,
    /// The initial window in bytes; `None`: RFC 9002 §7.2's
    /// `min(10·MSS, max(14720, 2·MSS))`.
    pub initial_window_bytes: Option<u64>,
    /// The initial ssthresh in bytes; `None`: none until the first congestion event or
    /// slow-start exit.
    pub initial_ssthresh_bytes: Option<u64>,
    /// How the pacing rate is computed (see [`new`](Self::new), [`quic`](Self::quic)).
    pub pacing: PacingRateConfig,
    /// The scalable (L4S) responses' settings, read only by
    /// [`Dctcp`](super::Dctcp) and [`Prague`](super::Prague).
    pub scalable: ScalableConfig,
}

/// The settings of the scalable responses in bytes ([`Dctcp`](super::Dctcp),
/// [`Prague`](super::Prague)); the classic algorithms do not read them.
///
/// ```
/// use congestion::ConfigError;
/// use congestion::rfc::PragueConfig;
///
/// let mut config = PragueConfig::quic(1200);
/// config.scalable.reference_rtt_us = 500; // `Prague::new` validates it
/// let err = ConfigError::ParamOutOfRange { field: "reference_rtt_us", min: 1_000, max: 1_000_000 };
/// assert_eq!(config.scalable.validate(), Err(err));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct ScalableConfig {
    /// The EWMA gain of alpha as a shift: g = 1/2^`g_shift` (RFC 8257 §3.3: g = 1/16,
    /// shift 4). `0..=10`, as Linux accepts for `dctcp_shift_g`.
    pub g_shift: u32,
    /// Prague's reference RTT, µs (default 25 ms): a flow with a shorter smoothed RTT
    /// grows its rate as fast as one with this RTT, and updates alpha at most once per
    /// this long. `1_000..=1_000_000`. DCTCP does not read it.
    pub reference_rtt_us: u32,
    /// alpha when a flow starts, × 1/1024 (`0..=1024`; default 1024, alpha = 1, so the
    /// first CE halves the window as a classic flow's would: Linux `tcp_dctcp.c`'s
    /// `dctcp_alpha_on_init`).
    pub initial_alpha_1024: u32,
    /// Whether Prague, on detecting a classic ECN AQM, responds to CE as to a loss
    /// (RFC 9331 §4.3; [`ClassicEcnDetector`](super::ClassicEcnDetector)). Default
    /// `true`: it acts only after rounds of deep or swinging queue following a CE, and
    /// keeps classic flows in a classic ECN queue safe. DCTCP does not read it.
    pub classic_ecn_fallback: bool,
}

impl Default for ScalableConfig {
    fn default() -> Self {
        Self::new()
    }
}

impl ScalableConfig {
    /// RFC 8257's g = 1/16 and Prague's 25 ms reference RTT (the Linux `tcp_prague.c`
    /// default `prague_rtt_target`).
    pub const fn new() -> Self {
        ScalableConfig {
            g_shift: 4,
            reference_rtt_us: 25_000,
            initial_alpha_1024: 1024,
            classic_ecn_fallback: true,
        }
    }

    /// Refuses a gain shift above 10, a reference RTT outside 1 ms..=1 s or an initial
    /// alpha above 1024 ([`ConfigError::ParamOutOfRange`] names the field).
    pub const fn validate(&self) -> Result<ScalableParams, ConfigError> {
        if self.g_shift > MAX_G_SHIFT {
            return Err(ConfigError::ParamOutOfRange {
                field: "g_shift",
                min: 0,
                max: MAX_G_SHIFT,
            });
        }
        if self.reference_rtt_us < MIN_REFERENCE_RTT_US
            || self.reference_rtt_us > MAX_REFERENCE_RTT_US
        {
            return Err(ConfigError::ParamOutOfRange {
                field: "reference_rtt_us",
                min: MIN_REFERENCE_RTT_US,
                max: MAX_REFERENCE_RTT_US,
            });
        }
        if self.initial_alpha_1024 > 1024 {
            return Err(ConfigError::ParamOutOfRange {
                field: "initial_alpha_1024",
                min: 0,
                max: 1024,
            });
        }
        Ok(ScalableParams {
            g_shift: self.g_shift,
            reference_rtt_us: self.reference_rtt_us,
            // 1024 · 2^10 = 2^20, alpha's scale.
            initial_alpha: self.initial_alpha_1024 << 10,
            classic_ecn_fallback: self.classic_ecn_fallback,
        })
    }
}

/// The largest accepted `g_shift` (Linux `tcp_dctcp.c` bounds `dctcp_shift_g` by 10).
const MAX_G_SHIFT: u32 = 10;
/// The reference RTT's bounds, µs: 1 ms..=1 s keeps its square below 2^40.
const MIN_REFERENCE_RTT_US: u32 = 1_000;
const MAX_REFERENCE_RTT_US: u32 = 1_000_000;

/// Validated [`ScalableConfig`] (see its example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ScalableParams {
    g_shift: u32,
    reference_rtt_us: u32,
    /// × 2^20.
    initial_alpha: u32,
    classic_ecn_fallback: bool,
}

impl ScalableParams {
    /// g = 1/2^`g_shift`, the shift (`0..=10`).
    pub const fn g_shift(&self) -> u32 {
        self.g_shift
    }

    /// Prague's reference RTT, µs (`1_000..=1_000_000`).
    pub const fn reference_rtt_us(&self) -> u32 {
        self.reference_rtt_us
    }

    /// alpha when a flow starts, × 2^20.
    pub const fn initial_alpha(&self) -> u32 {
        self.initial_alpha
    }

    /// Whether Prague detects a classic ECN AQM and falls back (see
    /// [`ScalableConfig::classic_ecn_fallback`]).
    pub const fn classic_ecn_fallback(&self) -> bool {
        self.classic_ecn_fallback
    }
}

/// [`Cubic`](super::Cubic)'s [`ClassicConfig`].
pub type CubicConfig = ClassicConfig;

/// [`NewReno`](super::NewReno)'s [`ClassicConfig`].
pub type NewRenoConfig = ClassicConfig;

/// [`Dctcp`](super::Dctcp)'s [`ClassicConfig`] ([`scalable`](ClassicConfig::scalable)
/// sets g).
pub type DctcpConfig = ClassicConfig;

/// [`Prague`](super::Prague)'s [`ClassicConfig`] ([`scalable`](ClassicConfig::scalable)
/// sets g and the reference RTT).
pub type PragueConfig = ClassicConfig;

/// The 0.2 name of [`ClassicConfig`].
#[deprecated(
    since = "0.3.0",
    note = "renamed to `rfc::CubicConfig` (or `rfc::NewRenoConfig`; both are `rfc::ClassicConfig`)"
)]
pub type RfcFlowConfig = ClassicConfig;

impl Default for ClassicConfig {
    fn default() -> Self {
        Self::new()
    }
}

impl ClassicConfig {
    /// RFC defaults: RFC 9438 CUBIC, HyStart++, unpaced, RFC 9002 initial window (12000
    /// bytes at the default MSS of 1200). The pacing rate follows Linux's
    /// `tcp_update_pacing_rate` in bytes, because no RFC gives TCP a pacing formula;
    /// [`quic`](Self::quic) paces as RFC 9002 §7.7 says, for QUIC.
    pub const fn new() -> Self {
        ClassicConfig {
            cubic: RfcCubicConfig::new(),
            slow_start: SlowStartKind::HystartPlusPlus,
            paced: false,
            initial_window_bytes: None,
            initial_ssthresh_bytes: None,
            pacing: PacingRateConfig::new(),
            scalable: ScalableConfig::new(),
        }
    }

    /// RFC defaults for a QUIC connection whose max datagram size is `mss_bytes`
    /// (`1..=65535`, checked by [`Cubic::new`](super::Cubic::new)), pacing at RFC 9002
    /// §7.7's `1.25 · cwnd / smoothed_rtt` ([`PacingRateConfig::rfc9002`]). Adjust the
    /// public fields afterwards:
    ///
    /// ```
    /// use congestion::pacing::{PacingFormula, PacingRateConfig};
    /// use congestion::rfc::CubicConfig;
    ///
    /// let config = CubicConfig::quic(1200);
    /// assert_eq!(config.pacing.formula, PacingFormula::Rfc9002 { n_percent: 125 });
    /// let mut linux_paced = CubicConfig::quic(1200);
    /// linux_paced.pacing = PacingRateConfig::new();
    /// assert_eq!(linux_paced.pacing.formula, PacingFormula::Linux);
    /// ```
    pub const fn quic(mss_bytes: u64) -> Self {
        let mut config = ClassicConfig::new();
        config.cubic.mss_bytes = mss_bytes;
        // RFC 9002 §7.7: rate = N * congestion_window / smoothed_rtt, N = 1.25
        config.pacing = PacingRateConfig::rfc9002();
        config
    }

    /// Validates the CUBIC part and the initial values: the initial window must lie in
    /// `2·MSS..=2^62` bytes and the initial ssthresh, if given, at least `2·MSS`.
    /// The pacing and scalable settings are validated by the flow's constructor.
    pub const fn validate(&self) -> Result<(RfcCubicParams, u64), ConfigError> {
        let params = match self.cubic.validate() {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        let mss = params.mss();
        let initial = match self.initial_window_bytes {
            Some(w) => w,
            None => {
                // RFC 9002 §7.2: initial window = min(10 * max_datagram_size, max(14720, 2 * max_datagram_size))
                let floor = if 14_720 > 2 * mss { 14_720 } else { 2 * mss };
                if 10 * mss < floor { 10 * mss } else { floor }
            }
        };
        if initial < params.min_window() || initial > (1 << 62) {
            return Err(ConfigError::InitialWindowOutOfRange);
        }
        if let Some(ssthresh) = self.initial_ssthresh_bytes {
            if ssthresh < params.min_window() {
                return Err(ConfigError::InitialWindowOutOfRange);
            }
        }
        Ok((params, initial))
    }
}

/// The validated parameters of RFC-mode flows, shared by every flow that uses them (as
/// the kernel's module parameters are). [`RfcParams::new`] is a `const fn`, so firmware
/// can keep them in a `static`; a flow reaches them through [`Classic`](super::Classic)'s
/// `P` or each call ([`ClassicState`](super::ClassicState)). Each flow keeps its own MSS
/// and what depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RfcParams {
    cubic: RfcCubicParams,
    pacing: PacingRateParams,
    scalable: ScalableParams,
    slow_start: SlowStartKind,
    paced: bool,
    /// New flows' MSS, bytes (`cubic`'s, in the flow's field width).
    initial_mss: NonZeroU32,
    initial_window: u64,
    /// `u64::MAX`: none until the first congestion event or slow-start exit.
    initial_ssthresh: u64,
}

impl RfcParams {
    /// Validates `config` as [`ClassicConfig::validate`] does (CUBIC's settings, the
    /// initial window and ssthresh), then its pacing settings, then its scalable ones;
    /// the first error found is returned.
    pub const fn new(config: &ClassicConfig) -> Result<Self, ConfigError> {
        let (cubic, initial_window) = match config.validate() {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        let pacing = match config.pacing.validate() {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        let scalable = match config.scalable.validate() {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        // The validated MSS is at most 65535 (MAX_MSS_BYTES): it fits.
        let initial_mss = match NonZeroU32::new(cubic.mss() as u32) {
            Some(m) if m.get() as u64 == cubic.mss() => m,
            _ => return Err(ConfigError::MssOutOfRange),
        };
        Ok(RfcParams {
            cubic,
            pacing,
            scalable,
            slow_start: config.slow_start,
            paced: config.paced,
            initial_mss,
            initial_window,
            initial_ssthresh: match config.initial_ssthresh_bytes {
                Some(s) => s,
                None => u64::MAX,
            },
        })
    }

    /// CUBIC's settings (their MSS is the one new flows start with).
    #[inline]
    pub const fn cubic(&self) -> &RfcCubicParams {
        &self.cubic
    }

    /// The pacing-rate settings.
    #[inline]
    pub const fn pacing(&self) -> &PacingRateParams {
        &self.pacing
    }

    /// The scalable (DCTCP, Prague) settings.
    #[inline]
    pub const fn scalable(&self) -> &ScalableParams {
        &self.scalable
    }

    /// The slow-start algorithm.
    #[inline]
    pub const fn slow_start(&self) -> SlowStartKind {
        self.slow_start
    }

    /// Whether the sender paces its packets (HyStart++ then has no per-ACK limit `L`).
    #[inline]
    pub const fn paced(&self) -> bool {
        self.paced
    }

    /// The MSS a new flow starts with, bytes.
    pub const fn mss_bytes(&self) -> u64 {
        self.initial_mss.get() as u64
    }

    /// The same, in the flow's field.
    pub(crate) const fn initial_mss(&self) -> NonZeroU32 {
        self.initial_mss
    }

    /// A new flow's window, bytes.
    pub const fn initial_window_bytes(&self) -> u64 {
        self.initial_window
    }

    /// A new flow's ssthresh, bytes; `None`: none until the first congestion event or
    /// slow-start exit.
    pub const fn initial_ssthresh_bytes(&self) -> Option<u64> {
        if self.initial_ssthresh == u64::MAX {
            None
        } else {
            Some(self.initial_ssthresh)
        }
    }

    /// The same with `u64::MAX` for none.
    pub(crate) const fn initial_ssthresh_raw(&self) -> u64 {
        self.initial_ssthresh
    }

    /// Replaces the pacing-rate settings.
    pub const fn set_pacing(&mut self, pacing: PacingRateParams) {
        self.pacing = pacing;
    }

    /// New CUBIC settings (and the MSS of flows built later); invalid settings are
    /// refused and change nothing. Running flows keep their MSS and cached curve points:
    /// use [`Classic::set_cubic_config`](super::Classic::set_cubic_config) where that
    /// matters. The initial window stays as validated.
    pub const fn set_cubic_config(&mut self, cubic: &RfcCubicConfig) -> Result<(), ConfigError> {
        match cubic.validate() {
            Ok(p) => {
                self.set_cubic(p);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Replaces CUBIC's settings, MSS included (the MSS of flows built later; running
    /// flows keep theirs until told). The initial window stays as validated.
    pub(crate) const fn set_cubic(&mut self, cubic: RfcCubicParams) {
        if let Some(m) = NonZeroU32::new(cubic.mss() as u32) {
            if m.get() as u64 == cubic.mss() {
                self.initial_mss = m;
            }
        }
        self.cubic = cubic;
    }
}
