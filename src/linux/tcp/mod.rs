//! The kernel's TCP socket glue, written once, and the hook table each Linux-mode
//! algorithm fills.
//!
//! Linux splits congestion control in two: `tcp_input.c`/`tcp_output.c`/`tcp_rate.c`
//! keep the socket (`struct tcp_sock`) and decide *when* an algorithm is consulted, and
//! each algorithm is one file (`tcp_bbr.c`, `tcp_dctcp.c`, …) that fills a
//! `struct tcp_congestion_ops`. This module is the first half:
//!
//! - [`TcpSock`]: the `tcp_sock` fields the hooks read and write, in segments;
//! - [`TcpCongestionOps`]: the hook table, one implementation per algorithm module
//!   (`crate::linux::bbr` maps to `tcp_bbr.c`, and so on);
//! - [`RandomSource`]: where `get_random_u32_below()` draws come from: the caller, as
//!   time does, never a generator hidden in the library.
//!
//! The glue's own steps live in the files beside this one, each named after the kernel
//! functions it follows: [`tcp_ack`] (the order of work on an ACK), the RTT estimators
//! ([`ack_update_rtt`]), the CA state machine with undo (`ca_state`: `tcp_set_ca_state`,
//! `tcp_enter_recovery`, `tcp_enter_loss`, `tcp_try_undo`, `tcp_fastretrans_alert`),
//! the reduction and PRR (`cwnd_reduction`: `tcp_init_cwnd_reduction`,
//! `tcp_cwnd_reduction`, `tcp_end_cwnd_reduction`, `tcp_enter_cwr`),
//! [`tcp_cong_control`] with the pacing update, Reno growth (`reno_cong_avoid`), the
//! idle restart (`cwnd_restart`), the transmit of one segment ([`tcp_transmit_skb`],
//! [`tcp_event_data_sent`], [`update_skb_after_send`]) and of a burst counted in
//! segments ([`tcp_write_xmit`] with `tcp_cwnd_validate`), the delivery-rate sampler
//! ([`rate`]) and its windowed filter ([`minmax`]). Each exists once; an algorithm adds
//! only its hook table. `docs/linux-mode.md` maps every file to its kernel function.
//! Everything counts segments and uses the kernel's wrapping `u32` sequence arithmetic.
//!
//! # The algorithms on this glue
//!
//! [`crate::linux::cubic_ops`] (`tcp_cubic.c`), [`crate::linux::bbr`] and
//! [`crate::linux::bbr3`] (`tcp_bbr.c`, v1 and Google's v3), [`crate::linux::dctcp`]
//! (`tcp_dctcp.c`) and [`crate::linux::prague`] (`tcp_prague.c`) each implement
//! [`TcpCongestionOps`]; [`TcpFlow`](crate::linux::TcpFlow) drives any of them through
//! this glue, event by event, and [`Bbr`](crate::linux::Bbr) /
//! [`Bbr3`](crate::linux::Bbr3) do so for a stack that keeps its own scoreboard.
//!
//! # CUBIC twice: the hooks and the packed flow
//!
//! [`crate::linux::Cubic`] (the fast path) is the same `tcp_cubic.c` hooks on the same
//! socket steps, packed into two 64-byte lines (against `TcpFlow<CubicOps>`'s whole
//! [`TcpSock`]) with the glue's steps inlined; both replay the same kernel traces (see
//! [`crate::linux::cubic_ops`]), so the packed layout cannot drift from the kernel's.

mod ack;
pub mod ack_update_rtt;
mod ca_state;
mod cong_control;
mod cwnd_reduction;
mod cwnd_restart;
pub mod minmax;
mod ops;
pub mod rate;
mod reno_cong_avoid;
pub mod seq;
pub mod skb;
mod sock;
mod transmit_skb;
pub mod update_skb_after_send;
mod write_xmit;

#[cfg(test)]
pub(crate) mod tests;

pub use ack::{AckOutcome, TcpAck, tcp_ack};
pub use ca_state::{
    tcp_enter_loss, tcp_enter_recovery, tcp_fastretrans_alert, tcp_set_ca_state,
    tcp_timeout_mark_lost, tcp_try_to_open, tcp_try_undo, tcp_undo_cwnd_reduction,
};
pub use cong_control::{TcpSysctl, tcp_cong_control, tcp_update_pacing_rate};
pub use cwnd_reduction::{
    tcp_cwnd_reduction, tcp_end_cwnd_reduction, tcp_enter_cwr, tcp_init_cwnd_reduction,
};
pub use cwnd_restart::{tcp_cwnd_restart, tcp_slow_start_after_idle_check};
pub use minmax::{Minmax, MinmaxSample};
pub use ops::{CaEvent, RandomSource, ReplayedRandom, TcpCongestionOps, ack_flags};
pub use rate::{RateSample, TxSnapshot};
pub use reno_cong_avoid::{tcp_cong_avoid_ai, tcp_reno_cong_avoid, tcp_slow_start};
pub use seq::{after, before};
pub(crate) use sock::tcp_packets_in_flight;
pub use sock::{GSO_LEGACY_MAX_SIZE, TcpSock, ecn_flags};
pub use transmit_skb::{tcp_event_data_sent, tcp_transmit_skb};
pub use write_xmit::tcp_write_xmit;
