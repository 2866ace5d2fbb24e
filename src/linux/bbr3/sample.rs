//! The part of a `struct rate_sample` BBRv3 reads, and `struct bbr_context`.
//!
//! The glue builds one [`Sample`] per ACK from its rate sample (`tcp_rate_gen`), and
//! `bbr_skb_marked_lost` builds one from a lost skb's send snapshot, as the kernel
//! builds a `struct rate_sample` on the stack there. Field types are the kernel's
//! (`s32`, `long`), because BBR's tests on them are signed.

/// The rate-sample fields BBRv3 reads, with the kernel's names and signedness.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Sample {
    /// `prior_delivered`: `tp->delivered` when the sampled skb was sent.
    pub prior_delivered: u32,
    /// `delivered`: packets delivered over the interval (-1: invalid sample).
    pub delivered: i32,
    /// `delivered_ce`: of those, CE-marked.
    pub delivered_ce: i32,
    /// `lost`: `tp->lost` growth since the sampled skb was sent.
    pub lost: i32,
    /// `tx_in_flight`: packets in flight when the sampled skb was sent (itself included).
    pub tx_in_flight: u32,
    /// `interval_us`: the sample's interval (-1 or 0: invalid).
    pub interval_us: i64,
    /// `rtt_us`: this ACK's RTT sample (-1: none).
    pub rtt_us: i64,
    /// `losses`: packets newly marked lost by this ACK.
    pub losses: i32,
    /// `acked_sacked`: packets newly (S)ACKed by this ACK.
    pub acked_sacked: u32,
    /// `prior_in_flight`: packets in flight before this ACK.
    pub prior_in_flight: u32,
    /// `is_app_limited`: the sampled skb was sent with a bubble in the pipe.
    pub is_app_limited: bool,
    /// `is_ack_delayed`: the ACK may have been delayed by the receiver.
    pub is_ack_delayed: bool,
    /// `is_ece`: the ACK carried ECN-Echo.
    pub is_ece: bool,
}

/// What BBRv3's fast path decided on one ACK (the harness's `fast_path` column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FastPath {
    /// Not taken: the whole model and control update ran.
    #[default]
    NotTaken = 0,
    /// `bbr_run_fast_path` returned true: model and control updates were skipped.
    Skipped = 1,
    /// It ran, then mode, min_rtt or `try_fast_path` changed: only the rest of the
    /// model update was skipped.
    ControlOnly = 2,
}
