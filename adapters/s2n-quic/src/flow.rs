//! The flows the endpoint builds, and the send path around them.

use congestion::hystart::PacingStatus;
use congestion::pacing::{PacedFlow, SendPathConfig};
use congestion::rfc::{Cubic, CubicConfig, NewReno};
use congestion::{ConfigError, CongestionController, Duration, Instant};
use core::fmt::Debug;

/// An RFC-mode flow (bytes) the endpoint can build from an [`CubicConfig`]: RFC 9438
/// CUBIC ([`Cubic`]) or NewReno ([`NewReno`]).
pub trait RfcModeFlow: CongestionController + Clone + Debug + Send + Sized + 'static {
    /// The name used in reports.
    const NAME: &'static str;

    /// A new flow at `now`.
    fn build(config: CubicConfig, now: Instant) -> Result<Self, ConfigError>;

    /// The max datagram size changed (s2n-quic's `on_mtu_update`).
    fn set_mss(&mut self, mss_bytes: u64) -> Result<(), ConfigError>;
}

impl RfcModeFlow for Cubic {
    const NAME: &'static str = "cubic";

    fn build(config: CubicConfig, now: Instant) -> Result<Self, ConfigError> {
        Cubic::new(config, now)
    }

    fn set_mss(&mut self, mss_bytes: u64) -> Result<(), ConfigError> {
        Cubic::set_mss(self, mss_bytes)
    }
}

impl RfcModeFlow for NewReno {
    const NAME: &'static str = "newreno";

    fn build(config: CubicConfig, now: Instant) -> Result<Self, ConfigError> {
        NewReno::new(config, now)
    }

    fn set_mss(&mut self, mss_bytes: u64) -> Result<(), ConfigError> {
        NewReno::set_mss(self, mss_bytes)
    }
}

/// A flow with its send path (EDT pacer, TSO/GSO autosizing), or a bare flow.
#[derive(Clone, Debug)]
pub(crate) enum Sender<F: RfcModeFlow> {
    /// The crate's send path decides departures and bursts.
    Paced(PacedFlow<F>),
    /// No pacing: s2n-quic sends whenever the window allows.
    Unpaced(F),
}

impl<F: RfcModeFlow> Sender<F> {
    pub(crate) fn new(config: CubicConfig, paced: bool, now: Instant) -> Result<Self, ConfigError> {
        let mut config = config;
        // HyStart++ drops its per-ACK limit when the sender paces (RFC 9406 §4.3).
        config.paced = paced;
        let flow = F::build(config, now)?;
        Ok(if paced {
            // s2n-quic waits for each departure itself (Linux's internal pacing, not fq).
            let mut path = SendPathConfig::new();
            path.pacing_status = PacingStatus::Needed;
            Sender::Paced(PacedFlow::new(flow, path.validate()?))
        } else {
            Sender::Unpaced(flow)
        })
    }

    /// The controller: the paced flow feeds its send path from the same calls.
    pub(crate) fn cc(&self) -> &dyn CongestionController {
        match self {
            Sender::Paced(p) => p,
            Sender::Unpaced(f) => f,
        }
    }

    /// The controller, mutably.
    pub(crate) fn cc_mut(&mut self) -> &mut dyn CongestionController {
        match self {
            Sender::Paced(p) => p,
            Sender::Unpaced(f) => f,
        }
    }

    /// The next packet's earliest departure time, when paced (`None` before the
    /// first paced send: it may leave at once). s2n-quic asks without saying when it
    /// asks and compares the answer with its clock itself, so the time is given even
    /// when it has passed.
    pub(crate) fn next_departure(&self) -> Option<Instant> {
        match self {
            Sender::Paced(p) => p.next_departure(Instant::ZERO),
            Sender::Unpaced(_) => None,
        }
    }

    /// A packet of `bytes` numbered `number` was sent at `now` (the flow counts the
    /// bytes in flight: `on_sent_counted`). Paced, the controller takes it at `now` and the
    /// EDT pacer at `now − slack`: a sender that comes back up to `slack` after its
    /// departure time loses none of that time (the schedule goes on from the departure
    /// time), where the pacer alone forgives at most half a packet (Linux
    /// `tcp_update_skb_after_send`, made for hrtimers). s2n-quic wakes its pacing timer
    /// with millisecond resolution, late by up to about a millisecond: forgiving only
    /// half a packet there paces well below the rate. With `slack` zero this is
    /// [`PacedFlow`]'s own `on_sent_counted`.
    ///
    /// s2n-quic reports no TX completion and asks only for the departure time, so TCP
    /// Small Queues has nothing to hold back: the send path's queue count is emptied at
    /// once so it stays meaningful.
    pub(crate) fn on_sent(&mut self, now: Instant, bytes: u64, number: u64, slack: Duration) {
        let flow = match self {
            Sender::Unpaced(f) => return f.on_sent_counted(now, bytes, number),
            Sender::Paced(p) => p,
        };
        let before = flow.in_flight();
        if slack.as_micros() == 0 {
            flow.on_sent_counted(now, bytes, number);
        } else {
            // PacedFlow's on_sent, with the pacer's clock moved back by the slack.
            let rate = flow.pacing_rate();
            flow.controller_mut().on_sent_counted(now, bytes, number);
            let len = flow.in_flight().saturating_sub(before);
            if len > 0 {
                let mss = flow.mss_bytes().max(1);
                let pacer_now =
                    Instant::from_micros(now.as_micros().saturating_sub(slack.as_micros()));
                flow.send_path_mut().on_send(
                    pacer_now,
                    sat_u32(len),
                    sat_u32(len.div_ceil(mss)),
                    rate,
                );
            }
        }
        let len = flow.in_flight().saturating_sub(before);
        flow.on_tx_completion(sat_u32(len));
    }

    /// The largest burst for GSO, bytes, when paced.
    pub(crate) fn send_quantum(&self) -> Option<u64> {
        match self {
            Sender::Paced(p) => Some(p.send_quantum_bytes()),
            Sender::Unpaced(_) => None,
        }
    }

    pub(crate) fn set_mss(&mut self, mss_bytes: u64) -> Result<(), ConfigError> {
        match self {
            Sender::Paced(p) => p.controller_mut().set_mss(mss_bytes),
            Sender::Unpaced(f) => f.set_mss(mss_bytes),
        }
    }

    pub(crate) fn is_paced(&self) -> bool {
        matches!(self, Sender::Paced(_))
    }
}

fn sat_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}
