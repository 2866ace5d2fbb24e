//! One call for a stack's send path: may this flow send now, how many segments in this
//! burst, and if not, when to ask again. It combines the congestion window (from any
//! [`CongestionController`]), the EDT pacer, the TSQ budget and TSO autosizing, in the
//! order Linux's `tcp_write_xmit` applies them.

use core::borrow::{Borrow, BorrowMut};

use crate::controller::{CongestionController, WindowUnit};
use crate::hystart::PacingStatus;
use crate::pacing::bandwidth::Rate;
use crate::pacing::edt::EdtPacer;
use crate::pacing::min_rtt::MinRttFilter;
use crate::pacing::send_config::SendPathParams;
use crate::pacing::tso::{TsoInput, tso_segs};
use crate::pacing::tsq::{TsqBudget, TsqLimitInput, tsq_limit_bytes};
use crate::time::{Duration, Instant};

mod handle;

pub use handle::SendPath;

/// What the stack knows at the moment it wants to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SendContext {
    /// Now.
    pub now: Instant,
    /// Amount in flight, in the controller's [`WindowUnit`].
    pub in_flight: u64,
    /// Current MSS, bytes (0 counts as 1).
    pub mss: u32,
    /// The flow's pacing rate (Linux `sk_pacing_rate`; see
    /// [`linux_pacing_rate`](crate::pacing::linux_pacing_rate) and
    /// [`pacing_rate_bytes`](crate::pacing::pacing_rate_bytes)).
    pub pacing_rate: Rate,
    /// Whether the next packet is a retransmission (TSQ budget doubles).
    pub retransmit: bool,
    /// Whether the retransmit queue (sent, unacknowledged packets) holds at most one
    /// packet: such a flow may always pass TSQ.
    pub rtx_queue_at_most_one: bool,
}

/// The send path's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SendVerdict {
    /// Send one burst of up to `segments` segments now, then report it with
    /// [`SendPath::on_send`].
    Send {
        /// Segments in this burst: within the window, TSO size and `gso_max_segs`.
        segments: u32,
    },
    /// The congestion window is full: ask again after the next ACK.
    WaitForAck,
    /// The flow paces itself and the next departure lies ahead: ask again then.
    WaitUntil {
        /// The next departure time, ns on the caller's clock (µs × 1000).
        departure_ns: u64,
    },
    /// Too much of the flow sits in the host queues: ask again when
    /// [`SendPath::on_tx_completion`] returns true.
    WaitForTxCompletion,
}

impl SendVerdict {
    /// For [`WaitUntil`](SendVerdict::WaitUntil): the departure as an [`Instant`],
    /// rounded up to the next µs so that a timer set for it never fires early.
    pub const fn retry_at(&self) -> Option<Instant> {
        match *self {
            SendVerdict::WaitUntil { departure_ns } => {
                let us = departure_ns / 1000 + if departure_ns % 1000 != 0 { 1 } else { 0 };
                Some(Instant::from_micros(us))
            }
            _ => None,
        }
    }
}

/// What happened to a packet handed to [`SendPath::try_enqueue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Enqueue {
    /// Queued; it may leave the host at `departure_ns`.
    Departs {
        /// Earliest departure time, ns.
        departure_ns: u64,
    },
    /// TSQ refused it; nothing was queued.
    Throttled,
}

/// One flow's send-path state without its settings: the pacer (16 bytes), the TSQ
/// budget (16), the windowed minimum RTT (24) and the last departure time (8), in one
/// 64-byte cache line (`align(64)`), `Copy`.
///
/// Every method takes the [`SendPathParams`] it works under, so that many flows can
/// share one parameter block: an array of these with the parameters once (the C ABI, a
/// firmware image, a server's flow table). [`SendPath`] pairs it with a handle to its
/// parameters and is what most stacks use.
///
/// Everything here changes per flow as packets are sent, completed and acknowledged;
/// what is configuration (pacing mode, shifts, GSO limits, the filter's window, the
/// truesize overhead) stays in the parameters, and `paced` is derived from them on use.
///
/// ```
/// use congestion::pacing::{SendPathConfig, SendPathParams, SendPathState};
/// use congestion::{Duration, Instant};
///
/// // The settings once, in a static; the flows in an array.
/// static PARAMS: SendPathParams = match SendPathConfig::new().validate() {
///     Ok(p) => p,
///     Err(_) => panic!("Linux defaults are valid"),
/// };
/// let mut flows = [SendPathState::new(); 4];
/// flows[2].on_rtt_sample(&PARAMS, Instant::ZERO, Duration::from_millis(20));
/// assert_eq!(flows[2].min_rtt_us(), 20_000);
/// assert_eq!(flows[1].min_rtt_us(), u32::MAX);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C, align(64))]
pub struct SendPathState {
    pacer: EdtPacer,
    tsq: TsqBudget,
    min_rtt: MinRttFilter,
    /// The departure time [`on_send`](SendPathState::on_send) last returned, ns.
    last_departure_ns: u64,
}

// One cache line: what a send, a completion and an RTT sample read and write.
const _: () = assert!(core::mem::size_of::<SendPathState>() <= 64);
const _: () = assert!(core::mem::align_of::<SendPathState>() == 64);

impl Default for SendPathState {
    fn default() -> Self {
        Self::new()
    }
}

/// Saturating `u64` to `u32`.
const fn sat_u32(v: u64) -> u32 {
    if v > u32::MAX as u64 {
        u32::MAX
    } else {
        v as u32
    }
}

impl SendPathState {
    /// Size of the state, bytes (one cache line).
    pub const BYTES: usize = core::mem::size_of::<SendPathState>();

    /// A new flow: nothing sent, nothing queued, no RTT sample.
    pub const fn new() -> Self {
        SendPathState {
            pacer: EdtPacer::new(),
            tsq: TsqBudget::new(),
            min_rtt: MinRttFilter::new(),
            last_departure_ns: 0,
        }
    }

    /// The pacer.
    pub const fn pacer(&self) -> &EdtPacer {
        &self.pacer
    }

    /// The TSQ budget.
    pub const fn tsq(&self) -> &TsqBudget {
        &self.tsq
    }

    /// The windowed minimum RTT, µs (`u32::MAX` before any sample).
    pub const fn min_rtt_us(&self) -> u32 {
        self.min_rtt.get_us()
    }

    /// The departure time of the last burst handed to the queues, ns on the caller's
    /// clock (µs × 1000); 0 before the first.
    pub const fn last_departure_ns(&self) -> u64 {
        self.last_departure_ns
    }

    /// An RTT sample (feeds the minimum RTT that TSO autosizing reads), windowed by
    /// `params`' `min_rtt_window_ms`. Samples above `u32::MAX` µs (71 minutes) count
    /// as that.
    // Linux net/ipv4/tcp_input.c tcp_update_rtt_min()
    pub fn on_rtt_sample(&mut self, params: &SendPathParams, now: Instant, rtt: Duration) {
        let window = params.config().min_rtt_window_ms;
        self.min_rtt.update(now, sat_u32(rtt.as_micros()), window);
    }

    /// Segments one burst may carry now (`tcp_tso_segs`).
    pub const fn tso_segs(&self, params: &SendPathParams, pacing_rate: Rate, mss: u32) -> u32 {
        self.tso_segs_with_floor(params, pacing_rate, mss, None)
    }

    /// As [`tso_segs`](Self::tso_segs), with the controller's own floor
    /// ([`min_tso_segs`](CongestionController::min_tso_segs), BBR's hook) in place of
    /// the configured `min_tso_segs` when it gives one, as `tcp_tso_segs()` asks
    /// `ca_ops->min_tso_segs` first.
    pub const fn tso_segs_with_floor(
        &self,
        params: &SendPathParams,
        pacing_rate: Rate,
        mss: u32,
        controller_floor: Option<u32>,
    ) -> u32 {
        let c = params.config();
        // Linux net/ipv4/tcp_output.c tcp_tso_segs(): ca_ops->min_tso_segs, else the sysctl
        let min_tso_segs = match controller_floor {
            Some(floor) => floor,
            None => c.min_tso_segs,
        };
        tso_segs(&TsoInput {
            pacing_rate,
            pacing_shift: c.pacing_shift,
            min_rtt_us: self.min_rtt.get_us(),
            tso_rtt_log: c.tso_rtt_log,
            gso_max_size: c.gso_max_size,
            gso_max_segs: c.gso_max_segs,
            min_tso_segs,
            mss,
        })
    }

    /// The TSQ limit for a packet of `len_bytes` (its truesize adds the overhead).
    pub const fn tsq_limit_bytes(
        &self,
        params: &SendPathParams,
        pacing_rate: Rate,
        len_bytes: u32,
        retransmit: bool,
    ) -> u64 {
        let c = params.config();
        tsq_limit_bytes(&TsqLimitInput {
            pacing_rate,
            pacing_shift: c.pacing_shift,
            truesize_bytes: len_bytes.saturating_add(c.truesize_overhead_bytes),
            paced: params.paced(),
            limit_output_bytes: c.limit_output_bytes,
            retransmit,
        })
    }

    /// May the flow send now, and how much? As [`SendPath::poll`], under `params`.
    pub fn poll<C: CongestionController + ?Sized>(
        &mut self,
        params: &SendPathParams,
        cc: &C,
        ctx: &SendContext,
    ) -> SendVerdict {
        let quota = window_quota(cc.unit(), cc.cwnd(), ctx.in_flight, ctx.mss);
        if quota == 0 {
            return SendVerdict::WaitForAck;
        }
        let now_ns = ctx.now.as_nanos();
        if matches!(params.config().pacing_status, PacingStatus::Needed)
            && self.pacer.must_wait(now_ns)
        {
            return SendVerdict::WaitUntil {
                departure_ns: self.pacer.next_departure_ns(),
            };
        }
        let tso = self.tso_segs_with_floor(params, ctx.pacing_rate, ctx.mss, cc.min_tso_segs());
        let segments = if tso < quota { tso } else { quota };
        let burst_bytes = sat_u32((segments as u64).saturating_mul(ctx.mss as u64));
        let limit = self.tsq_limit_bytes(params, ctx.pacing_rate, burst_bytes, ctx.retransmit);
        if !self.tsq.check(limit, ctx.rtx_queue_at_most_one) {
            return SendVerdict::WaitForTxCompletion;
        }
        SendVerdict::Send { segments }
    }

    /// A burst was handed to the queues: as [`SendPath::on_send`], under `params`. The
    /// departure time is returned and kept as
    /// [`last_departure_ns`](SendPathState::last_departure_ns).
    pub fn on_send(
        &mut self,
        params: &SendPathParams,
        now: Instant,
        len_bytes: u32,
        segments: u32,
        pacing_rate: Rate,
    ) -> u64 {
        // Linux skb->truesize: the payload plus the buffer overhead charged to sk_wmem_alloc
        let truesize = len_bytes as u64 + params.config().truesize_overhead_bytes as u64;
        self.tsq.on_enqueue(truesize);
        let departure_ns = self.pacer.on_send(
            now.as_nanos(),
            len_bytes as u64,
            segments,
            pacing_rate,
            params.paced(),
        );
        self.last_departure_ns = departure_ns;
        departure_ns
    }

    /// The qdisc-level step alone: as [`SendPath::try_enqueue`], under `params`.
    #[allow(clippy::too_many_arguments)] // the six of SendPath::try_enqueue and the params
    pub fn try_enqueue(
        &mut self,
        params: &SendPathParams,
        now: Instant,
        len_bytes: u32,
        segments: u32,
        pacing_rate: Rate,
        retransmit: bool,
        rtx_queue_at_most_one: bool,
    ) -> Enqueue {
        let limit = self.tsq_limit_bytes(params, pacing_rate, len_bytes, retransmit);
        if !self.tsq.check(limit, rtx_queue_at_most_one) {
            return Enqueue::Throttled;
        }
        Enqueue::Departs {
            departure_ns: self.on_send(params, now, len_bytes, segments, pacing_rate),
        }
    }

    /// TX completion of a packet of `len_bytes` sent earlier: as
    /// [`SendPath::on_tx_completion`], under `params`.
    pub fn on_tx_completion(&mut self, params: &SendPathParams, len_bytes: u32) -> bool {
        // Linux tcp_wfree(): the completed skb's truesize leaves sk_wmem_alloc
        let truesize = len_bytes as u64 + params.config().truesize_overhead_bytes as u64;
        self.tsq.on_tx_completion(truesize)
    }

    /// When the next packet may leave, if the flow paces itself
    /// (`PacingStatus::Needed` in `params`) and that time lies after `now`; `None`: it
    /// may leave now. Rounded up to the µs, so a timer set for it never fires early.
    pub fn next_departure(&self, params: &SendPathParams, now: Instant) -> Option<Instant> {
        let paces_itself = matches!(params.config().pacing_status, PacingStatus::Needed);
        let next_ns = self.pacer.next_departure_ns();
        if !paces_itself || next_ns <= now.as_nanos() {
            return None;
        }
        SendVerdict::WaitUntil {
            departure_ns: next_ns,
        }
        .retry_at()
    }
}

/// Segments the window lets go in one burst.
// Linux net/ipv4/tcp_output.c tcp_cwnd_test(): min(max(cwnd >> 1, 1), cwnd - in_flight)
fn window_quota(unit: WindowUnit, cwnd: u64, in_flight: u64, mss: u32) -> u32 {
    if in_flight >= cwnd {
        return 0;
    }
    let room = cwnd - in_flight;
    let (room_segs, half) = match unit {
        WindowUnit::Segments => (room, cwnd >> 1),
        WindowUnit::Bytes => {
            let mss = if mss == 0 { 1 } else { mss as u64 };
            (room.div_ceil(mss), (cwnd >> 1) / mss)
        }
    };
    let half = if half == 0 { 1 } else { half };
    sat_u32(if room_segs < half { room_segs } else { half })
}

#[cfg(test)]
mod tests;
