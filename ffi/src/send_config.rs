//! The send-path settings both modes' C configurations carry, read into the library's
//! validated [`SendPathParams`] by one function, so that a value means the same and is
//! refused with the same code in `CongestionLinuxCubicConfig` and `CongestionRfcCubicConfig`.

use crate::*;
use congestion::hystart::PacingStatus;
use congestion::pacing::{SendPathConfig, SendPathParams};

/// The [`SendFields`] of a C configuration: both configs name the fields alike.
macro_rules! send_fields {
    ($config:expr) => {
        $crate::send_config::SendFields {
            pacing_status: $config.pacing_status,
            gso_max_size: $config.gso_max_size,
            pacing_shift: $config.pacing_shift,
            tso_rtt_log: $config.tso_rtt_log,
            tsq_limit_bytes: $config.tsq_limit_bytes,
            truesize_overhead_bytes: $config.truesize_overhead_bytes,
            gso_max_segs: $config.gso_max_segs,
            min_tso_segs: $config.min_tso_segs,
            min_rtt_window_ms: $config.min_rtt_window_ms,
        }
    };
}
pub(crate) use send_fields;

/// The send-path fields of a C configuration, as plain integers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SendFields {
    /// `sk_pacing_status`: 0 none, 1 the flow paces itself, 2 the fq qdisc paces.
    pub(crate) pacing_status: u8,
    /// `sk_gso_max_size`, bytes.
    pub(crate) gso_max_size: u32,
    /// `sk_pacing_shift`.
    pub(crate) pacing_shift: u8,
    /// `tcp_tso_rtt_log`.
    pub(crate) tso_rtt_log: u8,
    /// `tcp_limit_output_bytes`.
    pub(crate) tsq_limit_bytes: u32,
    /// Truesize overhead of a queued packet, bytes.
    pub(crate) truesize_overhead_bytes: u32,
    /// `sk_gso_max_segs`.
    pub(crate) gso_max_segs: u32,
    /// `tcp_min_tso_segs`.
    pub(crate) min_tso_segs: u32,
    /// Window of the minimum-RTT filter, ms.
    pub(crate) min_rtt_window_ms: u32,
}

impl SendFields {
    /// Linux's defaults, unpaced (`SendPathConfig::new`).
    pub(crate) const fn linux_default() -> Self {
        let p = SendPathConfig::new();
        SendFields {
            pacing_status: 0,
            gso_max_size: p.gso_max_size,
            pacing_shift: p.pacing_shift,
            tso_rtt_log: p.tso_rtt_log,
            tsq_limit_bytes: p.limit_output_bytes,
            truesize_overhead_bytes: p.truesize_overhead_bytes,
            gso_max_segs: p.gso_max_segs,
            min_tso_segs: p.min_tso_segs,
            min_rtt_window_ms: p.min_rtt_window_ms,
        }
    }

    /// `pacing_status` as the library's value, or [`CONGESTION_ERR_PACING_STATUS`].
    pub(crate) const fn pacing_status(&self) -> Result<PacingStatus, i32> {
        match self.pacing_status {
            0 => Ok(PacingStatus::None),
            1 => Ok(PacingStatus::Needed),
            2 => Ok(PacingStatus::Fq),
            _ => Err(CONGESTION_ERR_PACING_STATUS),
        }
    }

    /// The send path's settings, validated, or the code of the first one refused.
    pub(crate) fn to_rust(self) -> Result<SendPathParams, i32> {
        let mut p = SendPathConfig::new();
        p.pacing_status = self.pacing_status()?;
        p.gso_max_size = self.gso_max_size;
        p.pacing_shift = self.pacing_shift;
        p.tso_rtt_log = self.tso_rtt_log;
        p.limit_output_bytes = self.tsq_limit_bytes;
        p.truesize_overhead_bytes = self.truesize_overhead_bytes;
        p.gso_max_segs = self.gso_max_segs;
        p.min_tso_segs = self.min_tso_segs;
        p.min_rtt_window_ms = self.min_rtt_window_ms;
        p.validate().map_err(crate::linux_config::code)
    }
}
