//! The controller choice, TLS, limits and the event counters of a transfer.

use congestion::rfc::SlowStartKind;
use congestion_s2n_quic::{AdapterStats, BbrEndpoint, CongestionEndpoint, DepartureLog};
use s2n_quic::provider::event::{self, ConnectionInfo, ConnectionMeta, Subscriber};
use s2n_quic::provider::limits::Limits;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Which congestion controller the sender runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cc {
    /// This crate's RFC 9438 CUBIC + HyStart++, paced by the crate's EDT pacer.
    Ours,
    /// The same CUBIC with Linux HyStart as its slow-start exit.
    OursLinuxHystart,
    /// This crate's NewReno (RFC mode, HyStart++), paced.
    OursNewreno,
    /// This crate's CUBIC + HyStart++ without the pacer (no EDT, no send quantum).
    OursUnpaced,
    /// s2n-quic's own CUBIC.
    Cubic,
    /// This crate's Linux-mode BBR v1 (segments), paced by the crate's EDT pacer at its
    /// rate, each packet's snapshot in s2n-quic's `PacketInfo`.
    OursBbr,
    /// This crate's Linux-mode BBRv3, the same way.
    OursBbr3,
    /// s2n-quic's own BBR (BBRv2-based).
    Bbr,
}

/// Our BBR v1 flow as s2n-quic's controller drives it.
pub type OursBbrFlow = congestion::linux::BbrController<congestion::linux::RandomFn>;
/// Our BBRv3 flow.
pub type OursBbr3Flow = congestion::linux::Bbr3Controller<congestion::linux::RandomFn>;

/// The names `--cc` accepts.
pub const CC_NAMES: &str = "ours-cubic-rfc, ours-cubic-rfc-linux-hystart, ours-newreno-rfc, ours-cubic-rfc-unpaced, ours-bbr, ours-bbr3, cubic, bbr";

impl Cc {
    /// The name printed in reports.
    pub fn name(self) -> &'static str {
        match self {
            Cc::Ours => "ours-cubic-rfc",
            Cc::OursLinuxHystart => "ours-cubic-rfc-linux-hystart",
            Cc::OursNewreno => "ours-newreno-rfc",
            Cc::OursUnpaced => "ours-cubic-rfc-unpaced",
            Cc::Cubic => "cubic",
            Cc::OursBbr => "ours-bbr",
            Cc::OursBbr3 => "ours-bbr3",
            Cc::Bbr => "bbr",
        }
    }

    /// Parses one of [`CC_NAMES`].
    pub fn parse(s: &str) -> Option<Cc> {
        [
            Cc::Ours,
            Cc::OursLinuxHystart,
            Cc::OursNewreno,
            Cc::OursUnpaced,
            Cc::Cubic,
            Cc::OursBbr,
            Cc::OursBbr3,
            Cc::Bbr,
        ]
        .into_iter()
        .find(|c| c.name() == s)
        .or_else(|| Cc::renamed(s))
    }

    /// The 0.2 `--cc` words, still accepted this release with a note on stderr.
    fn renamed(s: &str) -> Option<Cc> {
        let cc = match s {
            "ours" => Cc::Ours,
            "ours-linux-hystart" => Cc::OursLinuxHystart,
            "ours-newreno" => Cc::OursNewreno,
            "ours-unpaced" => Cc::OursUnpaced,
            _ => return None,
        };
        eprintln!(
            "--cc {s} is deprecated since 0.3.0 and will be removed: use --cc {}",
            cc.name()
        );
        Some(cc)
    }
}

/// Flow control and idle timeout generous enough that only the controller limits the
/// sender.
pub fn limits() -> Limits {
    let window = 64 << 20;
    Limits::new()
        .with_data_window(window)
        .and_then(|l| l.with_bidirectional_local_data_window(window))
        .and_then(|l| l.with_bidirectional_remote_data_window(window))
        .and_then(|l| l.with_max_send_buffer_size(16 << 20))
        .and_then(|l| l.with_max_idle_timeout(Duration::from_secs(30)))
        .expect("valid limits")
}

/// A self-signed certificate for `localhost` and its key, PEM.
pub fn certificate() -> (String, String) {
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()])
        .expect("rcgen makes a certificate");
    (cert.cert.pem(), cert.key_pair.serialize_pem())
}

/// Our controllers' endpoint for `cc` (`None` for s2n-quic's own), counting into
/// `stats` and, if given, recording departures into `log`.
pub fn our_endpoint(
    cc: Cc,
    timer_slack: congestion::Duration,
    stats: &Arc<AdapterStats>,
    log: Option<&DepartureLog>,
) -> Option<OurEndpoint> {
    let with = |e: CongestionEndpoint| {
        let e = e.with_stats(stats.clone()).with_timer_slack(timer_slack);
        match log {
            Some(l) => e.with_log(l.clone()),
            None => e,
        }
    };
    match cc {
        Cc::Ours => Some(OurEndpoint::Cubic(with(CongestionEndpoint::cubic(
            SlowStartKind::HystartPlusPlus,
        )))),
        Cc::OursLinuxHystart => Some(OurEndpoint::Cubic(with(CongestionEndpoint::cubic(
            SlowStartKind::LinuxHystart,
        )))),
        Cc::OursUnpaced => Some(OurEndpoint::Cubic(with(
            CongestionEndpoint::cubic(SlowStartKind::HystartPlusPlus).with_pacing(false),
        ))),
        Cc::OursNewreno => {
            let e = CongestionEndpoint::newreno(SlowStartKind::HystartPlusPlus)
                .with_stats(stats.clone())
                .with_timer_slack(timer_slack);
            Some(OurEndpoint::NewReno(match log {
                Some(l) => e.with_log(l.clone()),
                None => e,
            }))
        }
        Cc::OursBbr => Some(OurEndpoint::Bbr(
            BbrEndpoint::new(congestion::linux::BbrConfig::new())
                .expect("the default BBR settings are valid")
                .with_stats(stats.clone())
                .with_timer_slack(timer_slack),
        )),
        Cc::OursBbr3 => Some(OurEndpoint::Bbr3(
            BbrEndpoint::new(congestion::linux::Bbr3Config::new())
                .expect("the default BBRv3 settings are valid")
                .with_stats(stats.clone())
                .with_timer_slack(timer_slack),
        )),
        Cc::Cubic | Cc::Bbr => None,
    }
}

/// One of our endpoints (their controller types differ).
pub enum OurEndpoint {
    /// CUBIC.
    Cubic(CongestionEndpoint<congestion::rfc::Cubic>),
    /// NewReno.
    NewReno(CongestionEndpoint<congestion::rfc::NewReno>),
    /// Linux-mode BBR v1 (no departure log).
    Bbr(BbrEndpoint<OursBbrFlow>),
    /// Linux-mode BBRv3 (no departure log).
    Bbr3(BbrEndpoint<OursBbr3Flow>),
}

/// What the sender's s2n-quic reported through its events.
#[derive(Clone, Debug, Default)]
pub struct EventCounts {
    /// Packets sent (all kinds).
    pub sent_packets: u64,
    /// Packets s2n-quic declared lost.
    pub lost_packets: u64,
    /// The largest congestion window reported, bytes.
    pub max_cwnd: u64,
    /// Sum and count of the smoothed RTTs s2n-quic reported (every recovery-metrics
    /// event), for the mean; and the largest.
    pub srtt_sum: Duration,
    pub srtt_count: u64,
    pub srtt_max: Duration,
    /// (time since the connection began, cwnd bytes, lost packets so far), about every
    /// `sample_every`.
    pub samples: Vec<(Duration, u64, u64)>,
}

/// An event subscriber counting into a shared [`EventCounts`].
#[derive(Clone)]
pub struct Counter {
    /// The counts.
    pub counts: Arc<Mutex<EventCounts>>,
    /// Period of the cwnd samples.
    pub sample_every: Duration,
}

/// Per-connection state of the [`Counter`]: when the last sample was taken.
pub struct CounterContext {
    start: Option<Duration>,
    last_sample: Option<Duration>,
}

impl Counter {
    /// A fresh counter.
    pub fn new(sample_every: Duration) -> Self {
        Counter {
            counts: Arc::default(),
            sample_every,
        }
    }

    /// A copy of the counts.
    pub fn get(&self) -> EventCounts {
        self.counts.lock().unwrap().clone()
    }
}

impl Subscriber for Counter {
    type ConnectionContext = CounterContext;

    fn create_connection_context(
        &mut self,
        _meta: &ConnectionMeta,
        _info: &ConnectionInfo,
    ) -> CounterContext {
        CounterContext {
            start: None,
            last_sample: None,
        }
    }

    fn on_packet_sent(
        &mut self,
        _context: &mut CounterContext,
        _meta: &ConnectionMeta,
        _event: &event::events::PacketSent,
    ) {
        self.counts.lock().unwrap().sent_packets += 1;
    }

    fn on_packet_lost(
        &mut self,
        _context: &mut CounterContext,
        _meta: &ConnectionMeta,
        _event: &event::events::PacketLost,
    ) {
        self.counts.lock().unwrap().lost_packets += 1;
    }

    fn on_recovery_metrics(
        &mut self,
        context: &mut CounterContext,
        meta: &ConnectionMeta,
        event: &event::events::RecoveryMetrics,
    ) {
        let now = meta.timestamp.duration_since_start();
        let start = *context.start.get_or_insert(now);
        let mut c = self.counts.lock().unwrap();
        let cwnd = u64::from(event.congestion_window);
        c.max_cwnd = c.max_cwnd.max(cwnd);
        c.srtt_sum += event.smoothed_rtt;
        c.srtt_count += 1;
        c.srtt_max = c.srtt_max.max(event.smoothed_rtt);
        if context
            .last_sample
            .is_none_or(|last| now.saturating_sub(last) >= self.sample_every)
        {
            context.last_sample = Some(now);
            let lost = c.lost_packets;
            c.samples.push((now.saturating_sub(start), cwnd, lost));
        }
    }
}

/// One transfer's outcome.
#[derive(Clone, Debug)]
pub struct Report {
    /// The controller.
    pub cc: Cc,
    /// Bytes the server's application received.
    pub bytes: u64,
    /// From opening the stream to the server's one-byte answer reaching the client.
    pub elapsed: Duration,
    /// The sender's s2n-quic events.
    pub events: EventCounts,
    /// Data-direction drops: buffer full, random, blackout.
    pub tail_drops: u64,
    /// Random drops.
    pub random_drops: u64,
    /// Blackout drops (virtual network only).
    pub blackout_drops: u64,
    /// Our adapter's counters (zero for s2n-quic's controller).
    pub adapter: Arc<AdapterStats>,
}

impl Report {
    /// Application bytes per second over `elapsed`, Mbit/s.
    pub fn goodput_mbit(&self) -> f64 {
        self.bytes as f64 * 8.0 / self.elapsed.as_secs_f64().max(1e-9) / 1e6
    }
}
