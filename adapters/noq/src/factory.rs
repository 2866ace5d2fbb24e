//! [`NoqFactory`]: noq-proto's `ControllerFactory`, building one [`NoqController`] per
//! path.

use crate::controller::NoqController;
use crate::flow::NoqFlow;
use congestion::rfc::{CubicConfig, SlowStartKind};
use congestion::{ConfigError, Instant};
use noq_proto::congestion::{Controller, ControllerFactory};
use std::sync::Arc;
use std::time::Instant as NoqInstant;

/// The MTU noq starts every path with (`TransportConfig::initial_mtu` default), and the
/// smallest it ever uses (QUIC's 1200-byte minimum).
const NOQ_INITIAL_MTU: u16 = 1200;

/// Builds controllers backed by an `F` flow from one configuration. Hand it to
/// `TransportConfig::congestion_controller_factory` in an `Arc`.
#[derive(Clone, Debug)]
pub struct NoqFactory<F: NoqFlow> {
    config: F::Config,
    /// A flow built from `config` at noq's initial MTU: what `build` falls back to if a
    /// path's MTU were refused (it never is: every noq MTU is at least 1200).
    fallback: F,
}

impl<F: NoqFlow> NoqFactory<F> {
    /// Validates `config` by building one flow; bad configuration is refused here,
    /// because noq's `build` cannot fail.
    pub fn new(config: F::Config) -> Result<Self, ConfigError> {
        let fallback = F::build(&config, NOQ_INITIAL_MTU, Instant::ZERO)?;
        Ok(NoqFactory { config, fallback })
    }

    /// The configuration every controller starts from.
    pub fn config(&self) -> &F::Config {
        &self.config
    }
}

impl<F: NoqFlow<Config = CubicConfig>> NoqFactory<F> {
    /// The flow in bytes with `slow_start` ([`SlowStartKind::HystartPlusPlus`] is
    /// RFC 9438 §4.10's recommendation; [`SlowStartKind::LinuxHystart`] runs the kernel's
    /// detector in bytes), marked paced because noq paces every connection (RFC 9406
    /// then drops the per-ACK growth limit `L`), the RFC 9002 initial window.
    pub fn quic(slow_start: SlowStartKind) -> Result<Self, ConfigError> {
        let mut config = CubicConfig::new();
        config.slow_start = slow_start;
        config.paced = true;
        Self::new(config)
    }
}

impl<F: NoqFlow> ControllerFactory for NoqFactory<F> {
    fn build(self: Arc<Self>, now: NoqInstant, current_mtu: u16) -> Box<dyn Controller> {
        let flow = F::build(&self.config, current_mtu, Instant::ZERO).unwrap_or_else(|_| {
            let mut flow = self.fallback.clone();
            flow.set_mtu(current_mtu);
            flow
        });
        Box::new(NoqController::new(flow, now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use congestion::CongestionController;
    use congestion::rfc::{Cubic, NewReno};

    #[test]
    fn controllers_start_at_the_paths_mtu_with_rfc_9002s_initial_window() {
        let factory = Arc::new(NoqFactory::<Cubic>::quic(SlowStartKind::LinuxHystart).unwrap());
        assert!(factory.config().paced);
        let controller = factory.build(NoqInstant::now(), 1452);
        // min(10 · 1452, max(14720, 2 · 1452)) = 14,520 bytes.
        assert_eq!(
            (controller.window(), controller.initial_window()),
            (14_520, 14_520)
        );
        let c = controller
            .into_any()
            .downcast::<NoqController<Cubic>>()
            .unwrap();
        assert_eq!(c.flow().mss_bytes(), 1452);

        let reno = Arc::new(NoqFactory::<NewReno>::quic(SlowStartKind::Standard).unwrap());
        let controller = reno.build(NoqInstant::now(), 1200);
        assert_eq!(controller.window(), 12_000);
        assert!(
            controller
                .into_any()
                .downcast::<NoqController<NewReno>>()
                .is_ok()
        );
    }

    #[test]
    fn any_controller_is_the_run_time_choice_between_cubic_and_newreno() {
        use crate::flow::AnyRfcConfig;
        use congestion::AnyController;
        let mut config = CubicConfig::new();
        config.paced = true;
        for (choice, is_newreno) in [
            (AnyRfcConfig::Cubic(config), false),
            (AnyRfcConfig::NewReno(config), true),
        ] {
            let factory = Arc::new(NoqFactory::<AnyController>::new(choice).unwrap());
            let mut controller = factory.build(NoqInstant::now(), 1200);
            assert_eq!(controller.window(), 12_000);
            controller.on_mtu_update(1452);
            let c = controller
                .into_any()
                .downcast::<NoqController<AnyController>>()
                .unwrap();
            assert_eq!(c.flow().mss_bytes(), 1452);
            assert_eq!(matches!(c.flow(), AnyController::RfcNewReno(_)), is_newreno);
        }
    }

    #[test]
    fn bad_settings_are_refused_when_the_factory_is_built() {
        let mut config = CubicConfig::new();
        config.initial_window_bytes = Some(100); // below 2 · MSS
        assert!(NoqFactory::<Cubic>::new(config).is_err());
        assert!(NoqFactory::<NewReno>::new(config).is_err());
    }
}
