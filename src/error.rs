//! Configuration errors: the only errors the library returns.
//!
//! Bad configuration is refused when a controller is built. Once built, a controller
//! accepts every event; odd events are clamped or ignored as each entry point documents.

/// Why a configuration was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ConfigError {
    /// CUBIC's β must lie strictly between 0 and 1 (Linux: `0 < beta < 1024`).
    BetaOutOfRange,
    /// Linux `bic_scale` must be in `1..=MAX_BIC_SCALE` (0 divides by zero in `cube_factor`).
    BicScaleOutOfRange,
    /// `hystart_detect` is a 2-bit mask: values above 3 mean nothing.
    HystartDetectOutOfRange,
    /// The window clamp must be at least the minimum window (2 segments in Linux mode).
    ClampTooSmall,
    /// The initial window must be at least 1 segment (or 1 MSS) and at most the clamp.
    InitialWindowOutOfRange,
    /// The maximum segment size must be at least 1 byte.
    ZeroMss,
    /// A pacing ratio (percent) must be at least 1.
    PacingRatioOutOfRange,
    /// CUBIC's C must be positive.
    CubicCOutOfRange,
    /// A size or count that must be positive was zero.
    ZeroLimit,
    /// RFC mode: the MSS must be at most `cubic::MAX_MSS_BYTES` (65535) bytes.
    MssOutOfRange,
    /// A shift (`pacing_shift`, `tso_rtt_log`) must be below 32.
    ShiftOutOfRange,
    /// The 2.6.35 profile's `HZ` must be 100, 250 or 1000.
    HzOutOfRange,
    /// A module parameter outside the range the kernel accepts for it (the kernel's
    /// `param_set_uint_minmax` refuses the write and keeps the old value).
    ParamOutOfRange {
        /// The parameter, by its kernel name (`dctcp_shift_g`).
        field: &'static str,
        /// The smallest accepted value.
        min: u32,
        /// The largest accepted value.
        max: u32,
    },
    /// BBR's `MAX_TCP_HEADER` must leave room in a 64 KiB GSO packet (below 65535 bytes).
    TcpHeaderOutOfRange,
}

impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let what = match self {
            ConfigError::BetaOutOfRange => "beta must be strictly between 0 and 1",
            ConfigError::BicScaleOutOfRange => "bic_scale out of range",
            ConfigError::HystartDetectOutOfRange => "hystart_detect must be 0..=3",
            ConfigError::ClampTooSmall => "cwnd clamp below the minimum window",
            ConfigError::InitialWindowOutOfRange => "initial window out of range",
            ConfigError::ZeroMss => "MSS must be positive",
            ConfigError::PacingRatioOutOfRange => "pacing ratio must be at least 1 percent",
            ConfigError::CubicCOutOfRange => "CUBIC C must be positive",
            ConfigError::ZeroLimit => "a limit that must be positive was zero",
            ConfigError::MssOutOfRange => "MSS must be at most 65535 bytes",
            ConfigError::ShiftOutOfRange => "a shift must be below 32",
            ConfigError::HzOutOfRange => "hz must be 100, 250 or 1000",
            ConfigError::ParamOutOfRange { field, min, max } => {
                return write!(f, "{field} must be in {min}..={max}");
            }
            ConfigError::TcpHeaderOutOfRange => "max_tcp_header must be below 65535 bytes",
        };
        f.write_str(what)
    }
}

impl core::error::Error for ConfigError {}
