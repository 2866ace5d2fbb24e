//! Linux-mode send-path events for the replay: the EDT pacer, TCP Small Queues and TSO
//! autosizing of `congestion::pacing::SendPath`, fed by a `Cubic`'s pacing rate.
//!
//! Events and keys (see tests/data/pacing/README.md):
//! - `set tsq_limit BYTES` (`tcp_limit_output_bytes`), `set truesize_overhead BYTES`,
//!   `set gso_max_segs N`, `set min_tso_segs N`; `gso_max_size` and `pacing_status` are
//!   the socket's own keys, read from the flow's socket settings.
//! - `xmit T BYTES`: the stack hands a packet or TSO burst of BYTES to the qdisc. Its
//!   truesize is BYTES + overhead. If TSQ allows, it is queued and stamped with a
//!   departure time; if not, nothing is queued and the flow is throttled. The flow's
//!   retransmit queue counts as holding at most one packet when `packets_out <= 1`.
//! - `txdone T BYTES`: TX completion of a queued packet of BYTES.
//!
//! Extra columns, printed only for traces that use one of these (see [`uses_pacing`]):
//! `departure_ns` (of the last queued packet), `tsq_queued`, `tsq_limit` (for a packet
//! the size of the last `xmit`), `tsq_throttled` and `tso_segs`.

use crate::{Event, Problem, parse, set_u32};
use congestion::linux::{Cubic, LinuxSocketConfig};
use congestion::pacing::{Enqueue, Rate, SendPath, SendPathConfig};
use congestion::time::Duration;
use congestion::{ConfigError, Instant};
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

/// Number of extra columns.
pub const EXTRA_COLUMNS: usize = 5;

/// Whether `text` uses a send-path event or key. Only then are the extra columns
/// printed, so that every other trace keeps the reference traces' exact columns.
/// (`gso_max_size` alone does not count: it is also HyStart's key.)
pub fn uses_pacing(text: &str) -> bool {
    parse(text).filter_map(|(_, ev)| ev.ok()).any(|ev| {
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
    /// Linux's defaults (which the library accepts; the error is its verdict anyway).
    pub fn new() -> Result<Self, ConfigError> {
        let config = SendPathConfig::new();
        Ok(PacingReplay {
            config,
            path: SendPath::new(config.validate()?),
            last_departure_ns: 0,
            last_len: 0,
        })
    }

    /// Applies `set KEY VALUE` if the key is the send path's; returns whether it was.
    pub fn set<'a>(&mut self, key: &'a str, value: u64) -> Result<bool, Problem<'a>> {
        let c = &mut self.config;
        match key {
            "tsq_limit" => c.limit_output_bytes = set_u32(key, value)?,
            "truesize_overhead" => c.truesize_overhead_bytes = set_u32(key, value)?,
            "gso_max_segs" => c.gso_max_segs = set_u32(key, value)?,
            "min_tso_segs" => c.min_tso_segs = set_u32(key, value)?,
            _ => return Ok(false),
        }
        c.validate()
            .map_err(|error| Problem::ConfigAfterSet { key, error })?;
        Ok(true)
    }

    /// Copies the socket's pacing status and GSO size into the send path's settings.
    fn sync(&mut self, socket: &LinuxSocketConfig) -> Result<(), ConfigError> {
        self.config.pacing_status = socket.pacing_status;
        self.config.gso_max_size = socket.gso_max_size;
        let params = self.config.validate()?;
        self.path.set_params(params);
        Ok(())
    }

    /// An RTT sample from an `ack`.
    pub fn on_rtt(&mut self, now: Instant, rtt_us: u32) {
        self.path
            .on_rtt_sample(now, Duration::from_micros(u64::from(rtt_us)));
    }

    /// `xmit T BYTES` and `txdone T BYTES`.
    pub fn apply<'a>(
        &mut self,
        ev: &Event<'a>,
        now: Instant,
        flow: &Cubic,
    ) -> Result<(), Problem<'a>> {
        self.sync(flow.socket_config()).map_err(Problem::Config)?;
        let len: u32 = ev.int(1)?;
        match ev.keyword {
            "xmit" => {
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
            }
            _ => {
                self.path.on_tx_completion(len);
            }
        }
        Ok(())
    }

    /// Whether the event is one of the send path's.
    pub fn handles(keyword: &str) -> bool {
        EVENTS.contains(&keyword)
    }

    /// The extra columns after an event, given the flow (or none before `init`).
    pub fn write_columns<W: Write>(&mut self, out: &mut W, flow: Option<&Cubic>) -> fmt::Result {
        let Some(flow) = flow else {
            for _ in 0..EXTRA_COLUMNS {
                out.write_str(",0")?;
            }
            return Ok(());
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
fn rate_of(flow: &Cubic) -> Rate {
    Rate::from_bytes_per_second(flow.sk_pacing_rate())
}
