//! The delivery-rate sampler's connection state in bytes (§4.1.2.1.1), read and written
//! by the one sampler both modes share (`crate::linux::tcp::rate`, through its
//! [`RateSock`] seam): the draft's `OnPacketSent`, `UpdateRateSample` and
//! `GenerateRateSample` are the kernel's `tcp_rate_skb_sent`, `tcp_rate_skb_delivered`
//! and `tcp_rate_gen`, with bytes where the kernel counts segments.

use crate::linux::tcp::rate::{RateSock, rate_sock_fields};

/// The sampler's `C.*` state (§4.1.2.1.1), bytes and µs. Counters wrap as the kernel's
/// `u32`s do: a single rate sample must cover less than 2 GB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(super) struct Sampler {
    /// `C.delivered`, bytes.
    pub delivered: u32,
    /// `C.lost`, bytes.
    pub lost: u32,
    /// `C.inflight`, bytes (RFC 9002 `bytes_in_flight`).
    pub inflight: u32,
    /// This event's time, µs (the caller's `now` plus 1 µs: the sampler reads a
    /// delivered time of 0 as "already acknowledged", so no stamp may be 0).
    pub mstamp: u64,
    /// `C.min_rtt` (lifetime), µs; `u32::MAX` before any sample.
    pub min_rtt_us: u32,
    /// `C.first_send_time`, µs.
    pub first_tx_mstamp: u64,
    /// `C.delivered_time`, µs.
    pub delivered_mstamp: u64,
    /// `C.app_limited`: the end of the app-limited bubble (bytes), 0 when none.
    pub app_limited: u32,
    /// The last kept sample's volume and interval (what the kernel shows in tcp_info).
    pub rate_delivered: u32,
    /// See `rate_delivered`.
    pub rate_interval_us: u32,
    /// Whether that sample was app-limited.
    pub rate_app_limited: bool,
}

impl Sampler {
    /// `MarkConnectionAppLimited()` (§4.1.2.4): the bubble ends once what is in flight
    /// now is delivered.
    pub fn mark_app_limited(&mut self) {
        // draft-ietf-ccwg-bbr §4.1.2.4 MarkConnectionAppLimited(): max(C.delivered + C.inflight, 1)
        self.app_limited = self.delivered.wrapping_add(self.inflight).max(1);
    }
}

impl RateSock for Sampler {
    fn pipe_empty(&self) -> bool {
        self.inflight == 0
    }
    /// CE counts are kept apart, in packets (QUIC's ECN counts are packets).
    fn delivered_ce(&self) -> u32 {
        0
    }
    fn mstamp(&self) -> u64 {
        self.mstamp
    }
    fn min_rtt_us(&self) -> u32 {
        self.min_rtt_us
    }
    rate_sock_fields!();
}
