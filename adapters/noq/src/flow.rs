//! What a flow must offer to sit behind noq: the crate's [`CongestionController`] in
//! bytes, plus construction at noq's MTU and MTU changes.

use congestion::rfc::{Cubic, CubicConfig, NewReno};
use congestion::{AnyController, ConfigError, CongestionController, Instant};

/// A flow the noq adapter can drive. noq counts bytes and the adapter converts nothing,
/// so an implementor must count bytes too
/// ([`WindowUnit::Bytes`](congestion::WindowUnit::Bytes)): the RFC-mode flows. (The
/// Linux-mode flow counts segments; `adapters/quinn` converts for it.)
pub trait NoqFlow: CongestionController + Clone + Send + Sync + core::fmt::Debug + 'static {
    /// Everything needed to build one flow, except the MTU noq picks per path.
    type Config: Clone + Send + Sync + core::fmt::Debug + 'static;

    /// A new flow at `now` for a path whose datagrams carry `mtu_bytes`.
    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError>;

    /// noq's path MTU changed (PLPMTUD found a larger one, or a black hole a smaller).
    fn set_mtu(&mut self, mtu_bytes: u16);
}

/// RFC 9438 CUBIC with the configured slow start (RFC 9406 HyStart++ by default, Linux
/// HyStart, or standard), the MSS set to noq's MTU.
impl NoqFlow for Cubic {
    type Config = CubicConfig;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.cubic.mss_bytes = u64::from(mtu_bytes);
        Cubic::new(config, now)
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        // A refused MSS (0, or above 65535) changes nothing; noq's MTU is 1200..65527.
        let _ = self.set_mss(u64::from(mtu_bytes));
    }
}

/// RFC 9002 NewReno (one MSS per window in congestion avoidance, halving on loss) on
/// the same slow starts and recovery as [`Cubic`], the MSS set to noq's MTU.
impl NoqFlow for NewReno {
    type Config = CubicConfig;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.cubic.mss_bytes = u64::from(mtu_bytes);
        NewReno::new(config, now)
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        let _ = self.set_mss(u64::from(mtu_bytes));
    }
}

/// Which byte-counting flow an [`AnyController`] behind noq runs: the run-time choice
/// between CUBIC and NewReno with one controller type (`NoqController<AnyController>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyRfcConfig {
    /// RFC 9438 CUBIC ([`Cubic`]).
    Cubic(CubicConfig),
    /// RFC 9002 NewReno ([`NewReno`]).
    NewReno(CubicConfig),
}

/// [`AnyController`] holding one of the RFC-mode flows, chosen by [`AnyRfcConfig`]. Only
/// those two variants are ever built, so the flow always counts bytes.
impl NoqFlow for AnyController {
    type Config = AnyRfcConfig;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        match config {
            AnyRfcConfig::Cubic(c) => Cubic::build(c, mtu_bytes, now).map(AnyController::RfcCubic),
            AnyRfcConfig::NewReno(c) => {
                NewReno::build(c, mtu_bytes, now).map(AnyController::RfcNewReno)
            }
        }
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        match self {
            AnyController::RfcCubic(flow) => flow.set_mtu(mtu_bytes),
            AnyController::RfcNewReno(flow) => flow.set_mtu(mtu_bytes),
            // Never built by `build` above; the segment-counting flows have no byte MSS.
            _ => {}
        }
    }
}
