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
//! The glue's own steps (the CA state machine, PRR, undo, the delivery-rate sampler)
//! live in the files beside this one, each named after the kernel function it follows.
//! Everything counts segments and uses the kernel's wrapping `u32` sequence arithmetic.

pub mod ack_update_rtt;
pub mod bbr_glue;
pub mod minmax;
mod ops;
pub mod rate;
pub mod seq;
pub mod skb;
mod sock;
pub mod update_skb_after_send;

pub use minmax::{Minmax, MinmaxSample};
pub use ops::{CaEvent, RandomSource, ReplayedRandom, TcpCongestionOps, ack_flags};
pub use rate::{RateSample, TxSnapshot};
pub use sock::{TcpSock, ecn_flags};
