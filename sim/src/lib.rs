//! `ccsim`: a deterministic discrete-event path simulator whose sender is the
//! `congestion` crate.
//!
//! One TCP flow crosses a sender host (qdisc + NIC), a bottleneck with a drop-tail
//! buffer and a propagation delay, and reaches a receiver that ACKs with delayed
//! ACKs and SACK. Every packet is an event; a binary heap keyed by (time, insertion
//! order) orders them, so a run is a pure function of its [`SimConfig`] and seed.
//! See `docs/simulator.md` for the model and its limits.

pub mod app;
pub mod aqm;
pub mod cc;
pub mod cc_linux;
pub mod cli;
pub mod config;
pub mod delack;
pub mod event;
pub mod host;
pub mod limits;
pub mod link;
pub mod plot;
pub mod presets;
pub mod probe;
pub mod rcv_rtt;
pub mod receiver;
pub mod recorder;
pub mod report;
pub mod rng;
pub mod rtt;
pub mod say;
pub mod scoreboard;
pub mod sender;
pub mod sendpath;
pub mod series;
pub mod sim;
pub mod tso_defer;
pub mod units;
pub mod window;
pub mod write_queue;

pub use config::SimConfig;
pub use probe::{IntervalReport, NoProbe, Probe, TraceRow};
pub use sim::{Summary, run};
