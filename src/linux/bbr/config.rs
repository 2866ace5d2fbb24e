//! BBR v1's settings: a plain [`BbrConfig`] a caller fills, validated once into the
//! [`BbrParams`] every flow shares.

use super::flow_sock::SockSettings;
use crate::ConfigError;
use crate::hystart::PacingStatus;

/// The x86-64 distribution kernels' `MAX_TCP_HEADER`, bytes.
pub const DEFAULT_MAX_TCP_HEADER: u32 = 320;

/// What a BBR v1 flow is built with. BBR v1 has no module parameters: these are the
/// socket's settings and the one build constant BBR reads (`MAX_TCP_HEADER`). See
/// [`Bbr`](super::Bbr)'s example: build, validate once, make a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
// `#[repr(C)]`: fixed member order, which the BTF of the BPF struct_ops in `bpf/` needs.
#[repr(C)]
pub struct BbrConfig {
    /// `mss_cache`: bytes per segment (at least 1).
    pub mss: u32,
    /// The initial window, segments (`TCP_INIT_CWND` 10; at least 1, at most the clamp).
    pub init_cwnd: u32,
    /// `snd_cwnd_clamp`: cwnd never exceeds it (at least 1).
    pub cwnd_clamp: u32,
    /// The handshake RTT, µs, or 0 if none: seeds `srtt`, `tcp_min_rtt()` and the
    /// initial pacing rate (1 ms is assumed without one).
    pub initial_rtt_us: u32,
    /// `sk_max_pacing_rate`, bytes/s (`u64::MAX`: no cap).
    pub max_pacing_rate: u64,
    /// `sk_pacing_status` before BBR starts; BBR asks for internal pacing if it is none.
    pub pacing_status: PacingStatus,
    /// `sk_pacing_shift`: the TSO goal is 1/2^shift s of the pacing rate (10; below 32).
    pub pacing_shift: u8,
    /// `MAX_TCP_HEADER`, bytes: the TSO goal's byte cap is `65535 - it` (below 65535).
    pub max_tcp_header: u32,
}

impl BbrConfig {
    /// The kernel's defaults: mss 1448, IW10, no clamp, no handshake RTT, no pacing
    /// cap, pacing none (BBR turns on internal pacing), shift 10, header 320.
    pub const fn new() -> Self {
        BbrConfig {
            mss: 1448,
            init_cwnd: 10,
            cwnd_clamp: u32::MAX,
            initial_rtt_us: 0,
            max_pacing_rate: u64::MAX,
            pacing_status: PacingStatus::None,
            pacing_shift: 10,
            max_tcp_header: DEFAULT_MAX_TCP_HEADER,
        }
    }

    /// Checks every setting once.
    pub const fn validate(&self) -> Result<BbrParams, ConfigError> {
        // v1 shifts a u32 pacing rate
        if let Err(e) = self.sock_settings().validate(32) {
            return Err(e);
        }
        Ok(BbrParams { config: *self })
    }
}

impl BbrConfig {
    /// The settings the flow's socket is built from.
    pub(crate) const fn sock_settings(&self) -> SockSettings {
        SockSettings {
            mss: self.mss,
            init_cwnd: self.init_cwnd,
            cwnd_clamp: self.cwnd_clamp,
            initial_rtt_us: self.initial_rtt_us,
            max_pacing_rate: self.max_pacing_rate,
            pacing_status: self.pacing_status,
            pacing_shift: self.pacing_shift,
            max_tcp_header: self.max_tcp_header,
        }
    }
}

impl Default for BbrConfig {
    fn default() -> Self {
        Self::new()
    }
}

/// A validated [`BbrConfig`], shared by every flow (and the `Params` of
/// [`super::BbrOps`]); see [`Bbr`](super::Bbr)'s example.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
// `#[repr(C)]`: fixed member order, which the BTF of the BPF struct_ops in `bpf/` needs.
#[repr(C)]
pub struct BbrParams {
    config: BbrConfig,
}

impl BbrParams {
    /// The kernel's defaults ([`BbrConfig::new`]).
    pub const fn new() -> Self {
        BbrParams {
            config: BbrConfig::new(),
        }
    }

    /// The settings these parameters were validated from.
    pub const fn config(&self) -> &BbrConfig {
        &self.config
    }

    /// `MAX_TCP_HEADER`, bytes (below 65535).
    pub const fn max_tcp_header(&self) -> u32 {
        self.config.max_tcp_header
    }
}

impl Default for BbrParams {
    fn default() -> Self {
        Self::new()
    }
}
