//! The host send path of one flow: the library's [`congestion::pacing::SendPath`]
//! (congestion window, EDT pacer, TSQ budget, TSO autosizing, in `tcp_write_xmit`'s
//! order) configured from the simulator's modes.
//!
//! The modes map onto the library's settings as follows:
//! - `--pacing on`: `PacingStatus::Needed` (TCP paces itself and waits for each
//!   departure time); off: `PacingStatus::None`.
//! - `--tso auto`: the library's autosizing; `off`: `gso_max_segs = 1`; `SEGS`: a fixed
//!   burst as kernels before 3.12 sent (`min_tso_segs = gso_max_segs = SEGS`).
//! - `--tsq-limit auto`: the library's default (current Linux); `BYTES`: the 2012
//!   patch's fixed limit, expressed as `tcp_limit_output_bytes = BYTES` with
//!   `pacing_shift = 0` (the rate term then exceeds any limit, so only the fixed one
//!   binds, as in 2012) and TSO bursts capped at half the limit ("TSO packets are
//!   sized/capped to half the limit", seed 002). A paced flow (BBR, Prague, `--pacing
//!   on`) had no 2012 kernel: for it `BYTES` is today's `tcp_limit_output_bytes`
//!   sysctl, which today's kernel applies to unpaced flows only, so its budget stays
//!   `max(2 truesize, pacing_rate >> 10)` whatever `BYTES`; `off`: the budget is told the flow is always exempt (the `tcp_small_queue_check` exemption
//!   for a retransmit queue of at most one packet), so it never throttles.

use congestion::hystart::PacingStatus;
use congestion::pacing::{self, Rate, SendContext, SendPathConfig, SendVerdict};
use congestion::{Duration, Instant, WindowUnit};

use crate::cc::SimController;
use crate::config::{SKB_OVERHEAD_BYTES, TsoMode, TsqMode};

/// Settings of the send path.
#[derive(Clone, Copy, Debug)]
pub struct SendPathModes {
    /// Whether TCP paces (EDT).
    pub pacing: bool,
    /// TSQ limit.
    pub tsq: TsqMode,
    /// TSO burst size.
    pub tso: TsoMode,
    /// MSS, bytes.
    pub mss: u32,
}

/// What the send path says about the next burst.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Send a burst of up to this many segments now.
    Send(u32),
    /// The window is full.
    WaitForAck,
    /// The pacer holds the flow until this time, ns.
    WaitUntil(u64),
    /// TSQ holds the flow until a TX completion reopens its budget.
    WaitForTxCompletion,
}

/// The library's send path plus the simulator's TSQ-off switch.
#[derive(Clone, Debug)]
pub struct SendPath {
    inner: pacing::SendPath,
    tsq_off: bool,
    mss: u32,
    /// Whether anything here reads the pacing rate: the pacer (`--pacing on`), TSO
    /// autosizing (`--tso auto`) or a TSQ limit. Without them (the 2.6.35 host: fixed
    /// bursts, no TSQ, no pacing) the rate is not computed for every burst.
    reads_pacing_rate: bool,
    /// Whether the flow paces itself (`--pacing on`).
    paces: bool,
    /// Whether TSO autosizing (`--tso auto`), the one reader of the minimum RTT, is on:
    /// fixed bursts (the 2.6.35 host) and `--tso off` skip the filter on every ACK.
    autosizes: bool,
}

fn instant(now_ns: u64) -> Instant {
    Instant::from_micros(now_ns / 1000)
}

impl SendPath {
    /// The send path `modes` describe, or why the library refused it.
    pub fn new(modes: SendPathModes) -> Result<Self, String> {
        let mut c = SendPathConfig::new();
        c.pacing_status = if modes.pacing {
            PacingStatus::Needed
        } else {
            PacingStatus::None
        };
        c.truesize_overhead_bytes = SKB_OVERHEAD_BYTES;
        let mss = modes.mss.max(1);
        match modes.tso {
            TsoMode::Auto => {}
            TsoMode::Off => {
                c.gso_max_segs = 1;
                c.min_tso_segs = 1;
            }
            TsoMode::Segs(n) => {
                c.gso_max_segs = n.max(1);
                c.min_tso_segs = n.max(1);
                c.gso_max_size = c.gso_max_size.max(n.saturating_mul(mss));
            }
        }
        if let TsqMode::Fixed(limit) = modes.tsq {
            c.limit_output_bytes = limit.clamp(1, u64::from(u32::MAX)) as u32;
        }
        if let (TsqMode::Fixed(limit), false) = (modes.tsq, modes.pacing) {
            c.pacing_shift = 0;
            // Seed 002: "TSO packets are sized/capped to half the limit".
            let half = ((limit / 2) / u64::from(mss)).clamp(1, u64::from(u32::MAX)) as u32;
            c.gso_max_segs = c.gso_max_segs.min(half);
            c.min_tso_segs = c.min_tso_segs.min(half);
        }
        let params = c.validate().map_err(|e| format!("send path: {e:?}"))?;
        Ok(SendPath {
            inner: pacing::SendPath::new(params),
            tsq_off: modes.tsq == TsqMode::Off,
            mss,
            reads_pacing_rate: modes.pacing
                || modes.tso == TsoMode::Auto
                || modes.tsq != TsqMode::Off,
            paces: modes.pacing,
            autosizes: modes.tso == TsoMode::Auto,
        })
    }

    /// Whether [`poll`](Self::poll) can only answer `Send` (room in cwnd) or
    /// `WaitForAck` (none): no pacer and no TSQ, whose answers would depend on more.
    pub fn says_only_send_or_cwnd_full(&self) -> bool {
        self.tsq_off && !self.paces
    }

    /// The controller's pacing rate, bytes/s, where this path reads it; 0 where
    /// nothing does (the bursts are fixed, no pacer, no TSQ), so that it is not
    /// computed for every burst.
    pub fn pacing_rate(&self, cc: &SimController) -> u64 {
        if self.reads_pacing_rate {
            cc.pacing_rate()
        } else {
            0
        }
    }

    /// May the flow send at `now_ns` with `in_flight` segments out, and how much?
    /// `packets_out` is the retransmit queue's length (TSQ's exemption).
    pub fn poll(
        &mut self,
        cc: &SimController,
        now_ns: u64,
        in_flight: u32,
        packets_out: u32,
        retransmit: bool,
    ) -> Decision {
        let ctx = SendContext {
            now: instant(now_ns),
            // The library counts in the controller's unit.
            in_flight: match cc.unit() {
                WindowUnit::Segments => u64::from(in_flight),
                WindowUnit::Bytes => u64::from(in_flight) * u64::from(self.mss),
            },
            mss: self.mss,
            pacing_rate: Rate::from_bytes_per_second(self.pacing_rate(cc)),
            retransmit,
            rtx_queue_at_most_one: self.tsq_off || packets_out <= 1,
        };
        let v = self.inner.poll(cc.controller(), &ctx);
        match v {
            SendVerdict::Send { segments } => Decision::Send(segments),
            SendVerdict::WaitForAck => Decision::WaitForAck,
            SendVerdict::WaitForTxCompletion => Decision::WaitForTxCompletion,
            // Rounded up to the µs the library's clock ticks in: always after now_ns.
            SendVerdict::WaitUntil { .. } => Decision::WaitUntil(
                v.retry_at()
                    .map_or(now_ns + 1000, |t| t.as_nanos())
                    .max(now_ns + 1),
            ),
        }
    }

    /// A burst of `segments` segments, `len_bytes` of payload, leaves at `now_ns`
    /// with the flow pacing at `rate` bytes/s. Returns its departure time, ns.
    pub fn on_send(&mut self, now_ns: u64, len_bytes: u32, segments: u32, rate: u64) -> u64 {
        self.inner.on_send(
            instant(now_ns),
            len_bytes,
            segments,
            Rate::from_bytes_per_second(rate),
        )
    }

    /// A burst of `len_bytes` payload completed at the NIC. True when a throttled flow
    /// may now try again.
    pub fn on_tx_completion(&mut self, len_bytes: u32) -> bool {
        self.inner.on_tx_completion(len_bytes)
    }

    /// An RTT sample (feeds the minimum RTT that TSO autosizing reads; ignored when the
    /// bursts are fixed, as nothing else reads it).
    pub fn on_rtt_sample(&mut self, now_ns: u64, rtt_ns: u64) {
        if !self.autosizes {
            return;
        }
        self.inner
            .on_rtt_sample(instant(now_ns), Duration::from_micros(rtt_ns / 1000));
    }

    /// Truesize bytes this flow has in qdisc + NIC.
    pub fn queued_bytes(&self) -> u64 {
        self.inner.tsq().queued_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(tso: TsoMode) -> SendPath {
        SendPath::new(SendPathModes {
            pacing: false,
            tsq: TsqMode::Auto,
            tso,
            mss: 1448,
        })
        .unwrap()
    }

    /// Autosizing reads the minimum RTT, so its samples must reach it; fixed bursts do
    /// not, and skip the filter.
    #[test]
    fn rtt_samples_reach_tso_autosizing_and_only_it() {
        // 100 Mbit/s: 12.5e6 B/s >> 10 = 12207 B. Before any sample no RTT bonus: 8
        // segments of 1448 B. A 1.1 ms minimum RTT (>> 9 = 2) adds 65536 >> 2 = 16384 B:
        // 28591 B = 19 segments (Linux tcp_tso_autosize()).
        let rate = Rate::from_bytes_per_second(12_500_000);
        let mut auto = path(TsoMode::Auto);
        assert_eq!(auto.inner.tso_segs(rate, 1448), 8);
        auto.on_rtt_sample(5_000_000, 1_100_000);
        assert_eq!(auto.inner.min_rtt_us(), 1100);
        assert_eq!(auto.inner.tso_segs(rate, 1448), 19);

        let mut fixed = path(TsoMode::Segs(7));
        fixed.on_rtt_sample(5_000_000, 1_100_000);
        assert_eq!(
            fixed.inner.min_rtt_us(),
            path(TsoMode::Segs(7)).inner.min_rtt_us()
        );
        assert_eq!(fixed.inner.tso_segs(rate, 1448), 7);
    }
}
