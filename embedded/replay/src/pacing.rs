//! Linux-mode send-path events (`xmit`, `txdone` and the send path's `set` keys) and
//! their extra CSV columns, as `tests/replay/pacing.rs` defines them.

use crate::trace::{Error, Event, parse};
use congestion::Instant;
use congestion::linux::{LinuxFlow, LinuxSocketConfig};
use congestion::pacing::{Enqueue, Rate, SendPath, SendPathConfig};
use congestion::time::Duration;
use core::fmt::{self, Write};

/// `set` keys that only the send path knows.
const KEYS: [&str; 4] = [
    "tsq_limit",
    "truesize_overhead",
    "gso_max_segs",
    "min_tso_segs",
];

/// Events that only the send path knows.
const EVENTS: [&str; 2] = ["xmit", "txdone"];

/// The extra CSV columns, with their leading commas.
pub const EXTRA_HEADER: &str = ",departure_ns,tsq_queued,tsq_limit,tsq_throttled,tso_segs";

/// Whether `text` uses a send-path event or key (only then are the columns printed).
pub fn uses_pacing(text: &str) -> bool {
    parse(text).filter_map(Result::ok).any(|(_, ev)| {
        EVENTS.contains(&ev.keyword)
            || (ev.keyword == "set" && ev.arg(0).is_some_and(|k| KEYS.contains(&k)))
    })
}

/// The send path of the replayed flow and what its rows print.
pub struct PacingReplay {
    config: SendPathConfig,
    path: SendPath,
    last_departure_ns: u64,
    last_len: u32,
}

impl PacingReplay {
    /// Linux's defaults.
    pub fn new() -> Result<Self, Error> {
        let config = SendPathConfig::new();
        let params = config.validate().map_err(|_| "bad send-path settings")?;
        Ok(PacingReplay {
            config,
            path: SendPath::new(params),
            last_departure_ns: 0,
            last_len: 0,
        })
    }

    /// Applies `set KEY VALUE` if the key is the send path's; returns whether it was.
    pub fn set(&mut self, key: &str, value: u32) -> Result<bool, Error> {
        let c = &mut self.config;
        match key {
            "tsq_limit" => c.limit_output_bytes = value,
            "truesize_overhead" => c.truesize_overhead_bytes = value,
            "gso_max_segs" => c.gso_max_segs = value,
            "min_tso_segs" => c.min_tso_segs = value,
            _ => return Ok(false),
        }
        c.validate().map_err(|_| "bad send-path settings")?;
        Ok(true)
    }

    /// Copies the socket's pacing status and GSO size into the send path's settings.
    fn sync(&mut self, socket: &LinuxSocketConfig) -> Result<(), Error> {
        self.config.pacing_status = socket.pacing_status;
        self.config.gso_max_size = socket.gso_max_size;
        let params = self
            .config
            .validate()
            .map_err(|_| "bad send-path settings")?;
        self.path.set_params(params);
        Ok(())
    }

    /// An RTT sample from an `ack`.
    pub fn on_rtt(&mut self, now: Instant, rtt_us: u32) {
        self.path
            .on_rtt_sample(now, Duration::from_micros(u64::from(rtt_us)));
    }

    /// `xmit T BYTES` and `txdone T BYTES`.
    pub fn apply(&mut self, ev: &Event<'_>, now: Instant, flow: &LinuxFlow) -> Result<(), Error> {
        self.sync(flow.socket_config())?;
        let len: u32 = ev.int(1)?;
        if ev.keyword == "xmit" {
            let mss = flow.socket_config().mss.max(1);
            // tcp_skb_pcount: segments in the burst, at least 1.
            let segments = len.div_ceil(mss).max(1);
            let rtx_single = flow.socket_view().packets_out <= 1;
            self.last_len = len;
            let rate = rate_of(flow);
            if let Enqueue::Departs { departure_ns } = self
                .path
                .try_enqueue(now, len, segments, rate, false, rtx_single)
            {
                self.last_departure_ns = departure_ns;
            }
        } else {
            self.path.on_tx_completion(len);
        }
        Ok(())
    }

    /// Whether the event is one of the send path's.
    pub fn handles(keyword: &str) -> bool {
        EVENTS.contains(&keyword)
    }

    /// The extra columns after an event, given the flow (or none before `init`).
    pub fn write_columns(&mut self, out: &mut impl Write, flow: Option<&LinuxFlow>) -> fmt::Result {
        let Some(flow) = flow else {
            return out.write_str(",0,0,0,0,0");
        };
        if self.sync(flow.socket_config()).is_err() {
            return Err(fmt::Error);
        }
        let rate = rate_of(flow);
        let tsq = self.path.tsq();
        write!(
            out,
            ",{},{},{},{},{}",
            self.last_departure_ns,
            tsq.queued_bytes(),
            self.path.tsq_limit_bytes(rate, self.last_len, false),
            u8::from(tsq.is_throttled()),
            self.path.tso_segs(rate, flow.socket_config().mss),
        )
    }
}

/// The flow's `sk_pacing_rate` as a [`Rate`].
fn rate_of(flow: &LinuxFlow) -> Rate {
    Rate::from_bytes_per_second(flow.pacing_rate())
}
