//! The host send path of one flow: pacer, TSQ budget and TSO burst sizing, the three
//! decisions Linux's `tcp_write_xmit` takes before each skb leaves.
//!
//! STAND-IN: this mirrors the formulas of the library's `src/pacing/` (branch
//! `pacing`, not yet merged into this build): `tcp_tso_autosize`,
//! `tcp_small_queue_check` and EDT pacing with `tcp_wstamp_ns`. When that branch lands
//! the bodies of these methods are to call the library instead; the interface stays.

use crate::config::{TsoMode, TsqMode};

/// Linux `sk_pacing_shift`: budgets of about 1 ms (rate >> 10).
const PACING_SHIFT: u32 = 10;
/// Linux `GSO_LEGACY_MAX_SIZE`.
const GSO_MAX_SIZE: u64 = 65_536;
/// Linux `tcp_min_tso_segs`.
const MIN_TSO_SEGS: u32 = 2;
/// Linux `tcp_tso_rtt_log`: the short-path allowance halves every 512 µs of min RTT.
const TSO_RTT_LOG: u32 = 9;
/// Linux `tcp_limit_output_bytes` since 2023: 4 MiB.
const LIMIT_OUTPUT_BYTES: u64 = 4 << 20;
/// sch_fq and TCP's internal pacing leave the first 10 segments unpaced.
const UNPACED_SEGMENTS: u64 = 10;

/// Settings of the send path.
#[derive(Clone, Copy, Debug)]
pub struct SendPathConfig {
    /// Whether TCP paces (EDT).
    pub pacing: bool,
    /// TSQ limit.
    pub tsq: TsqMode,
    /// TSO burst size.
    pub tso: TsoMode,
    /// MSS, bytes.
    pub mss: u32,
}

/// Pacer + TSQ + TSO of one flow.
#[derive(Clone, Debug)]
pub struct SendPath {
    cfg: SendPathConfig,
    next_departure_ns: u64,
    segments_sent: u64,
    queued_bytes: u64,
    throttled: bool,
}

impl SendPath {
    /// A fresh send path: nothing queued, nothing sent.
    pub fn new(cfg: SendPathConfig) -> Self {
        SendPath {
            cfg,
            next_departure_ns: 0,
            segments_sent: 0,
            queued_bytes: 0,
            throttled: false,
        }
    }

    /// Segments the next burst may carry, given the pacing rate (bytes/s) and the
    /// flow's minimum RTT.
    // Linux net/ipv4/tcp_output.c tcp_tso_autosize(), tcp_tso_segs()
    pub fn tso_segs(&self, pacing_rate: u64, min_rtt_us: u32) -> u32 {
        let mss = u64::from(self.cfg.mss.max(1));
        let segs = match self.cfg.tso {
            TsoMode::Off => 1,
            TsoMode::Segs(n) => n,
            TsoMode::Auto => {
                let mut bytes = pacing_rate >> PACING_SHIFT;
                let r = min_rtt_us >> TSO_RTT_LOG;
                if r < 32 {
                    bytes += GSO_MAX_SIZE >> r;
                }
                ((bytes.min(GSO_MAX_SIZE) / mss) as u32).max(MIN_TSO_SEGS)
            }
        };
        // 2012 TSQ patch: "TSO packets are sized/capped to half the limit".
        match self.cfg.tsq {
            TsqMode::Fixed(limit) => segs.min(((limit / 2) / mss).max(1) as u32),
            _ => segs,
        }
    }

    /// When pacing holds the next burst back: its departure time, if after `now_ns`.
    // Linux net/ipv4/tcp_output.c tcp_pacing_check()
    pub fn pacing_wait(&self, now_ns: u64) -> Option<u64> {
        (self.cfg.pacing && self.next_departure_ns > now_ns).then_some(self.next_departure_ns)
    }

    /// Whether TSQ lets a burst of `truesize` bytes be queued now; marks the flow
    /// throttled (woken by [`on_tx_completion`](Self::on_tx_completion)) if not.
    // Linux net/ipv4/tcp_output.c tcp_small_queue_check()
    pub fn tsq_allows(&mut self, pacing_rate: u64, truesize: u64, retransmit: bool) -> bool {
        let limit = match self.cfg.tsq {
            TsqMode::Off => return true,
            TsqMode::Fixed(l) => l,
            TsqMode::Auto => {
                let l = (2 * truesize).max(pacing_rate >> PACING_SHIFT);
                if self.cfg.pacing {
                    l
                } else {
                    l.min(LIMIT_OUTPUT_BYTES)
                }
            }
        };
        let limit = if retransmit { limit * 2 } else { limit };
        if self.queued_bytes <= limit {
            return true;
        }
        self.throttled = true;
        false
    }

    /// A burst of `segments` segments, `bytes` long (`truesize` charged), leaves at
    /// `now_ns` with the flow pacing at `pacing_rate` bytes/s.
    // Linux net/ipv4/tcp_output.c tcp_update_skb_after_send(): wstamp += len / rate
    pub fn on_send(&mut self, now_ns: u64, bytes: u64, truesize: u64, segments: u32, rate: u64) {
        self.queued_bytes += truesize;
        self.segments_sent += u64::from(segments);
        if !self.cfg.pacing || rate == 0 || self.segments_sent <= UNPACED_SEGMENTS {
            return;
        }
        let len_ns = (u128::from(bytes) * 1_000_000_000 / u128::from(rate)) as u64;
        // A late sender is forgiven at most half a packet time, so it cannot burst.
        let start = self
            .next_departure_ns
            .max(now_ns.saturating_sub(len_ns / 2));
        self.next_departure_ns = start + len_ns;
    }

    /// A burst of `truesize` bytes completed at the NIC. True when a throttled flow may
    /// now try again.
    // Linux net/ipv4/tcp_output.c tcp_wfree()
    pub fn on_tx_completion(&mut self, truesize: u64) -> bool {
        self.queued_bytes = self.queued_bytes.saturating_sub(truesize);
        std::mem::take(&mut self.throttled)
    }

    /// Truesize bytes this flow has in qdisc + NIC.
    pub fn queued_bytes(&self) -> u64 {
        self.queued_bytes
    }
}
