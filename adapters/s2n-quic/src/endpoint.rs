//! [`CongestionEndpoint`]: the s2n-quic congestion controller provider, one controller
//! per path.

use crate::controller::{AdapterStats, DEFAULT_TIMER_SLACK, DepartureLog, S2nController};
use crate::flow::RfcModeFlow;
use congestion::pacing::PacingRateConfig;
use congestion::rfc::{Cubic, CubicConfig, NewReno, SlowStartKind};
use congestion::{ConfigError, Duration};
use s2n_quic::provider::congestion_controller::{Endpoint, PathInfo};
use std::marker::PhantomData;
use std::sync::Arc;

/// Builds an [`S2nController`] for every path s2n-quic opens: give it to
/// `Server::builder().with_congestion_controller(..)` or the client's.
///
/// The settings are validated when the endpoint is built, because s2n-quic's
/// `new_congestion_controller` cannot fail. Each path's max datagram size replaces the
/// configuration's MSS.
#[derive(Debug)]
pub struct CongestionEndpoint<F: RfcModeFlow = Cubic> {
    config: CubicConfig,
    paced: bool,
    timer_slack: Duration,
    stats: Option<Arc<AdapterStats>>,
    log: Option<DepartureLog>,
    flow: PhantomData<fn() -> F>,
}

impl<F: RfcModeFlow> Clone for CongestionEndpoint<F> {
    fn clone(&self) -> Self {
        CongestionEndpoint {
            config: self.config,
            paced: self.paced,
            timer_slack: self.timer_slack,
            stats: self.stats.clone(),
            log: self.log.clone(),
            flow: PhantomData,
        }
    }
}

impl CongestionEndpoint<Cubic> {
    /// RFC 9438 CUBIC with `slow_start` (HyStart++ or Linux HyStart), paced, with the
    /// RFC defaults (β 0.7, C 0.4, RFC 9002 initial window).
    pub fn cubic(slow_start: SlowStartKind) -> Self {
        let mut config = CubicConfig::quic(1200);
        config.slow_start = slow_start;
        // Linux's pacing rule, as measured in docs/integrations.md (0.3's `quic` paces at
        // RFC 9002 §7.7's rate by default).
        config.pacing = PacingRateConfig::new();
        Self::new(config).expect("the RFC defaults are valid")
    }
}

impl CongestionEndpoint<NewReno> {
    /// NewReno (RFC 9002 §7) with `slow_start`, paced, with the RFC defaults.
    pub fn newreno(slow_start: SlowStartKind) -> Self {
        let mut config = CubicConfig::quic(1200);
        config.slow_start = slow_start;
        // Linux's pacing rule, as measured in docs/integrations.md (0.3's `quic` paces at
        // RFC 9002 §7.7's rate by default).
        config.pacing = PacingRateConfig::new();
        Self::new(config).expect("the RFC defaults are valid")
    }
}

impl<F: RfcModeFlow> CongestionEndpoint<F> {
    /// An endpoint with any RFC-mode settings, paced. Settings a flow would refuse are
    /// refused here (checked with a 1200-byte datagram, QUIC's minimum).
    pub fn new(config: CubicConfig) -> Result<Self, ConfigError> {
        S2nController::<F>::new(config, 1200, true)?;
        Ok(CongestionEndpoint {
            config,
            paced: true,
            timer_slack: DEFAULT_TIMER_SLACK,
            stats: None,
            log: None,
            flow: PhantomData,
        })
    }

    /// Pacing on (the EDT pacer and TSO/GSO autosizing) or off (`earliest_departure_time`
    /// and `send_quantum` then return `None`: s2n-quic sends as the window allows).
    pub fn with_pacing(mut self, paced: bool) -> Self {
        self.paced = paced;
        self
    }

    /// How late after the pacer's departure time a packet may leave without the pacer
    /// losing that time ([`DEFAULT_TIMER_SLACK`] by default; zero: the EDT pacer's own
    /// rule, half a packet).
    pub fn with_timer_slack(mut self, slack: Duration) -> Self {
        self.timer_slack = slack;
        self
    }

    /// Every controller counts into `stats`.
    pub fn with_stats(mut self, stats: Arc<AdapterStats>) -> Self {
        self.stats = Some(stats);
        self
    }

    /// Every controller records its departures into `log`.
    pub fn with_log(mut self, log: DepartureLog) -> Self {
        self.log = Some(log);
        self
    }

    /// The settings.
    pub fn config(&self) -> &CubicConfig {
        &self.config
    }
}

impl<F: RfcModeFlow> Endpoint for CongestionEndpoint<F> {
    type CongestionController = S2nController<F>;

    fn new_congestion_controller(&mut self, path_info: PathInfo) -> S2nController<F> {
        let mtu = path_info.max_datagram_size;
        let controller = S2nController::new(self.config, mtu, self.paced)
            // A datagram size the flow refuses (below 2 · MSS of window?) cannot come
            // from s2n-quic (at least 1200); fall back to QUIC's minimum all the same.
            .or_else(|_| S2nController::new(self.config, 1200, self.paced))
            .expect("validated when the endpoint was built");
        let controller = controller.with_timer_slack(self.timer_slack);
        let controller = match &self.stats {
            Some(s) => controller.with_stats(s.clone()),
            None => controller,
        };
        match &self.log {
            Some(l) => controller.with_log(l.clone()),
            None => controller,
        }
    }
}
