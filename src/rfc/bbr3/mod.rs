//! BBRv3 in bytes for QUIC, per draft-ietf-ccwg-bbr-06 ("BBR Congestion Control",
//! July 2026): `congestion::rfc::Bbr3`, the model-based driver of RFC mode beside the
//! classic one ([`crate::rfc::Classic`]).
//!
//! Driven by RFC 9002's events (packets sent with their numbers and bytes, ACK frames
//! with ECN-CE counts, losses per packet or per offload burst, application-limited
//! periods as the stack marks them), through the same per-packet snapshot as Linux
//! mode ([`TxSnapshot`](crate::linux::tcp::TxSnapshot)) and the same delivery-rate
//! sampler (`crate::linux::tcp::rate`, generalised over its connection state: see
//! `sampler.rs`). Every piece of arithmetic that the draft shares with Google's v3
//! `tcp_bbr.c` is the Linux-mode function, imported (`crate::linux::bbr3`); where the
//! two differ the code follows the draft and says what the kernel does instead.
//! Randomness (the probe wait) comes from the caller's
//! [`RandomSource`](crate::linux::tcp::RandomSource), time from `now`.
//!
//! One idea per file, as s2n-quic-core's `recovery/bbr/`:
//!
//! | file | draft sections |
//! |---|---|
//! | `params.rs` | constants (§2.5–§2.16), [`Bbr3Config`] |
//! | `state.rs` | [`State`] (§5.1), the model's variables (§2) |
//! | `sampler.rs` | the delivery-rate sampler's connection state in bytes (§4.1.2) |
//! | `flow.rs` | [`Bbr3`]: initialization and the per-transmit, per-ACK and per-loss steps (§5.2) |
//! | `bandwidth.rs` | rounds (§5.5.1), `BBR.max_bw` (§5.5.2–§5.5.6), latest signals, `BBR.bw` |
//! | `aggregation.rs` | `BBR.extra_acked` (§5.5.9) |
//! | `startup.rs` | Startup's exits (§5.3.1), Drain (§5.3.2) |
//! | `probe_bw.rs` | ProbeBW's four states, their timing, `BBR.inflight_longterm` (§5.3.3) |
//! | `probe_rtt.rs` | `BBR.min_rtt`, ProbeRTT (§5.3.4, §5.5.7), restart from idle (§5.4) |
//! | `loss.rs` | loss while probing (§5.5.10.2), the short-term model (§5.5.10.3), undo (§5.5.11) |
//! | `ecn.rs` | CE marks as congestion (§3.7), with the kernel's response |
//! | `control.rs` | pacing rate, send quantum, cwnd (§5.6) |
//! | `controller.rs` | [`Bbr3Controller`]: the flow behind [`CongestionController`](crate::CongestionController) |
//!
//! `docs/compliance.md` lists every MUST and SHOULD of the draft with the code and the
//! test behind it, and what is not implemented.

mod aggregation;
mod bandwidth;
mod control;
mod controller;
mod ecn;
mod flow;
mod loss;
mod params;
mod probe_bw;
mod probe_rtt;
mod sampler;
mod startup;
mod state;

pub use controller::Bbr3Controller;
pub use flow::{Bbr3, Bbr3Ack};
pub use params::{
    BW_SCALE, BW_UNIT, Bbr3Config, Bbr3Params, DRAIN_PACING_GAIN, GAIN_UNIT,
    PROBE_DOWN_PACING_GAIN, PROBE_UP_CWND_GAIN, PROBE_UP_PACING_GAIN, STARTUP_PACING_GAIN,
};
pub use state::State;
