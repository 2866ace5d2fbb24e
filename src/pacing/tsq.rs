//! TCP Small Queues: a per-flow budget of bytes sitting in the host's queues (qdisc and
//! NIC ring), as Linux's `tcp_small_queue_check`.
//!
//! The stack reports each packet handed to the queues ([`TsqBudget::on_enqueue`]) and
//! each TX completion ([`TsqBudget::on_tx_completion`]), both with the packet's
//! *truesize* (payload plus buffer overhead, what Linux charges to `sk_wmem_alloc`).

use crate::pacing::bandwidth::Rate;

/// Default `sk_pacing_shift`: the budget is `rate >> 10`, about 1 ms of data.
// Linux include/net/sock.h sk_pacing_shift default (10: ~1 ms)
pub const PACING_SHIFT: u8 = 10;

/// Default `tcp_limit_output_bytes` in current Linux: 4 MiB.
// Linux net/ipv4/tcp_ipv4.c sysctl_tcp_limit_output_bytes = 4 MB (since 2023)
pub const LIMIT_OUTPUT_BYTES: u32 = 4 << 20;

/// `tcp_limit_output_bytes` of the original 2012 TSQ patch: 128 KiB.
// The 2012 TSQ patch (the TSQ seed thread): "allowing no more than ~128KB per tcp socket"
pub const LIMIT_OUTPUT_BYTES_ORIGINAL: u32 = 128 << 10;

/// What goes into one TSQ limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TsqLimitInput {
    /// The flow's pacing rate (`sk_pacing_rate`).
    pub pacing_rate: Rate,
    /// `sk_pacing_shift` (default [`PACING_SHIFT`]); shifts of 64 or more give 0.
    pub pacing_shift: u8,
    /// Truesize of the packet about to be queued, bytes.
    pub truesize_bytes: u32,
    /// Whether the flow is paced (Linux `sk_pacing_status != SK_PACING_NONE`).
    pub paced: bool,
    /// `tcp_limit_output_bytes`, applied only when the flow is not paced.
    pub limit_output_bytes: u32,
    /// Whether the packet is a retransmission (the limit doubles).
    pub retransmit: bool,
}

/// The TSQ limit in bytes: `max(2 · truesize, rate >> pacing_shift)`, at most
/// `limit_output_bytes` when not paced, doubled for retransmissions.
pub const fn tsq_limit_bytes(i: &TsqLimitInput) -> u64 {
    let per_rate = if i.pacing_shift < 64 {
        i.pacing_rate.as_bytes_per_second() >> i.pacing_shift
    } else {
        0
    };
    // truesize < 2^32, so doubling fits in u64.
    let two_packets = 2 * i.truesize_bytes as u64;
    // Linux net/ipv4/tcp_output.c tcp_small_queue_check(): max(2 * truesize, rate >> shift)
    let mut limit = if two_packets > per_rate {
        two_packets
    } else {
        per_rate
    };
    // Linux tcp_small_queue_check(): unpaced flows are capped by tcp_limit_output_bytes
    if !i.paced && limit > i.limit_output_bytes as u64 {
        limit = i.limit_output_bytes as u64;
    }
    // Linux tcp_small_queue_check(): limit <<= factor (1 for retransmits), saturating here
    if i.retransmit {
        limit = limit.saturating_mul(2);
    }
    limit
}

/// [`TsqBudget`]'s throttle limit while the flow is not throttled. No refusal can
/// record it: [`TsqBudget::check`] refuses only when the bytes queued exceed the limit,
/// and nothing exceeds `u64::MAX`.
const NOT_THROTTLED: u64 = u64::MAX;

/// Bytes one flow has in the host queues, and whether it waits for a TX completion.
/// 16 bytes, `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TsqBudget {
    /// Linux `sk_wmem_alloc` minus its base reference: truesize bytes queued, not yet
    /// completed.
    queued_bytes: u64,
    /// The limit the flow was throttled at; [`NOT_THROTTLED`] stands for Linux's
    /// `TSQ_THROTTLED` being clear (a flag of its own would cost 8 bytes of padding).
    throttle_limit_bytes: u64,
}

impl Default for TsqBudget {
    fn default() -> Self {
        Self::new()
    }
}

impl TsqBudget {
    /// Nothing queued, not throttled.
    pub const fn new() -> Self {
        TsqBudget {
            queued_bytes: 0,
            throttle_limit_bytes: NOT_THROTTLED,
        }
    }

    /// Truesize bytes queued and not yet completed.
    pub const fn queued_bytes(&self) -> u64 {
        self.queued_bytes
    }

    /// Whether the flow was refused and waits for a completion to reopen its budget.
    pub const fn is_throttled(&self) -> bool {
        self.throttle_limit_bytes != NOT_THROTTLED
    }

    /// Whether a packet may be queued now under `limit_bytes` (from [`tsq_limit_bytes`]).
    ///
    /// The kernel's test: the bytes *already* queued must not exceed the limit. A flow
    /// whose retransmit queue holds at most one packet may always send. A refused flow
    /// is throttled until [`on_tx_completion`](TsqBudget::on_tx_completion) reopens it.
    // Linux net/ipv4/tcp_output.c tcp_small_queue_check(): sk_wmem_alloc > limit
    pub fn check(&mut self, limit_bytes: u64, rtx_queue_at_most_one: bool) -> bool {
        if self.queued_bytes <= limit_bytes || rtx_queue_at_most_one {
            return true;
        }
        // queued_bytes > limit_bytes, so limit_bytes < u64::MAX = NOT_THROTTLED.
        self.throttle_limit_bytes = limit_bytes;
        false
    }

    /// A packet of `truesize_bytes` was handed to the queues (saturating at `u64::MAX`).
    pub fn on_enqueue(&mut self, truesize_bytes: u64) {
        self.queued_bytes = self.queued_bytes.saturating_add(truesize_bytes);
    }

    /// A packet of `truesize_bytes` completed (left the NIC, Linux `tcp_wfree`).
    ///
    /// Returns true when this completion reopened the budget of a throttled flow: the
    /// stack should try to send again. Completing more than is queued (a stack
    /// bookkeeping error) empties the count instead of going negative.
    ///
    /// Deviation: Linux wakes a throttled flow on any completion; this wakes it only once
    /// the queue is back within the refused limit (the same sends, fewer retries).
    // Linux net/ipv4/tcp_output.c tcp_wfree(): TSQ_THROTTLED -> reschedule tcp_write_xmit
    pub fn on_tx_completion(&mut self, truesize_bytes: u64) -> bool {
        self.queued_bytes = self.queued_bytes.saturating_sub(truesize_bytes);
        if self.is_throttled() && self.queued_bytes <= self.throttle_limit_bytes {
            self.throttle_limit_bytes = NOT_THROTTLED;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests;
