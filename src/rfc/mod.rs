//! RFC mode: byte-counting flows for QUIC (and RFC-following TCP) stacks. One classic
//! driver ([`Classic`]) owns slow start (standard, Linux HyStart, or RFC 9406
//! HyStart++), recovery periods, window use and pacing; a [`WindowAdjustment`] grows and
//! reduces the window: RFC 9438 CUBIC ([`Cubic`]), RFC 9002 NewReno ([`NewReno`]), or
//! the scalable (L4S) responses driven by ECN-CE counts, RFC 8257 DCTCP ([`Dctcp`]) and
//! Prague ([`Prague`], RFC 9331 §4.3).
//! The model-based driver [`Bbr3`] follows draft-ietf-ccwg-bbr (BBRv3).
//!
//! See `docs/compliance.md` for every MUST, SHOULD and MAY of RFC 9438 §4–§5 and
//! RFC 9406 §4, with the code and the test behind each.

mod adjustment;
pub mod bbr3;
mod bound;
mod classic_ecn;
mod config;
mod dctcp;
mod flow;
mod newreno;
mod prague;
mod scalable;
mod undo;

pub use adjustment::{RoundAck, WindowAdjustment};
pub use bbr3::{Bbr3, Bbr3Ack, Bbr3Config, Bbr3Controller, Bbr3Params};
pub use bound::BoundClassic;
pub use classic_ecn::{
    CLASSIC_MIN, ClassicEcnDetector, D0_US, DEGREE_ONE, LG_ONE, SCALABLE_MAX, SCORE_MAX, V0_US,
    log2_q8,
};
#[allow(deprecated)]
pub use config::RfcFlowConfig;
pub use config::{
    ClassicConfig, CubicConfig, DctcpConfig, NewRenoConfig, PragueConfig, RfcParams,
    ScalableConfig, ScalableParams, SlowStartKind,
};
pub use dctcp::{Dctcp, DctcpWindow};
pub use flow::{Classic, ClassicState, Cubic, NewReno};
#[allow(deprecated)]
pub use flow::{NewRenoFlow, RfcFlow};
pub use newreno::NewRenoWindow;
pub use prague::{AI_ONE, Prague, PragueWindow, SUB_MSS_FLOOR_DIVISOR, ai_factor};
pub use scalable::{ALPHA_ONE, AlphaEstimator, ScalableUndo};
pub use undo::{KeepUndo, NoUndo, UndoSnapshot, UndoStorage};
