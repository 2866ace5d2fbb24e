//! [`CubicFactory`]: quinn-proto's `ControllerFactory`, building one
//! [`QuinnController`] per path.

use crate::controller::QuinnController;
use crate::flow::QuinnFlow;
use congestion::rfc::{Cubic, CubicConfig, SlowStartKind};
use congestion::{ConfigError, Instant};
use quinn_proto::congestion::{Controller, ControllerFactory};
use std::sync::Arc;
use std::time::Instant as QuinnInstant;

/// The MTU quinn starts every path with (`TransportConfig::initial_mtu` default).
const QUINN_INITIAL_MTU: u16 = 1200;

/// Builds controllers backed by a `F` flow from one configuration. Hand it to
/// `TransportConfig::congestion_controller_factory` in an `Arc`.
#[derive(Clone, Debug)]
pub struct CubicFactory<F: QuinnFlow> {
    config: F::Config,
    /// A flow built from `config` at quinn's initial MTU: what `build` falls back to if
    /// the path's MTU were refused (it never is: every quinn MTU is at least 1200).
    fallback: F,
}

impl<F: QuinnFlow> CubicFactory<F>
where
    F::Config: core::fmt::Debug,
{
    /// Validates `config` by building one flow; bad configuration is refused here,
    /// because quinn's `build` cannot fail.
    pub fn new(config: F::Config) -> Result<Self, ConfigError> {
        let fallback = F::build(&config, QUINN_INITIAL_MTU, Instant::ZERO)?;
        Ok(CubicFactory { config, fallback })
    }

    /// The configuration every controller starts from.
    pub fn config(&self) -> &F::Config {
        &self.config
    }
}

impl CubicFactory<Cubic> {
    /// RFC 9438 CUBIC in bytes with `slow_start` ([`SlowStartKind::HystartPlusPlus`]
    /// is RFC 9438 §4.10's recommendation; [`SlowStartKind::LinuxHystart`] runs the
    /// kernel's detector in bytes), marked paced because quinn paces every connection
    /// (RFC 9406 then drops the per-ACK growth limit `L`), the RFC 9002 initial window.
    pub fn quic(slow_start: SlowStartKind) -> Result<Self, ConfigError> {
        let mut config = CubicConfig::new();
        config.slow_start = slow_start;
        config.paced = true;
        Self::new(config)
    }
}

impl<F: QuinnFlow> ControllerFactory for CubicFactory<F> {
    fn build(self: Arc<Self>, now: QuinnInstant, current_mtu: u16) -> Box<dyn Controller> {
        let flow = F::build(&self.config, current_mtu, Instant::ZERO).unwrap_or_else(|_| {
            let mut flow = self.fallback.clone();
            flow.set_mtu(current_mtu);
            flow
        });
        Box::new(QuinnController::new(flow, now, current_mtu))
    }
}
