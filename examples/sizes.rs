//! Prints the size of every piece of per-flow state, as the README lists them.
//!
//! ```text
//! cargo run --example sizes
//! ```

use congestion::AnyController;
use congestion::cubic::{LinuxCubic, LinuxCubicParams, RfcCubic};
use congestion::hystart::{HystartPlusPlus, LinuxHystart};
use congestion::linux::{LinuxCubicState, LinuxFlow, LinuxSocketConfig};
use congestion::pacing::{EdtPacer, MinRttFilter, SendPath, TsqBudget};
use congestion::rfc::RfcFlow;
use congestion::v2_6_35::{Bictcp2635, Linux2635Config, Linux2635Flow, Linux2635State};
use core::mem::size_of;

fn main() {
    let rows: [(&str, usize, &str); 18] = [
        (
            "LinuxCubic",
            size_of::<LinuxCubic>(),
            "CUBIC half of struct bictcp",
        ),
        (
            "LinuxHystart",
            size_of::<LinuxHystart>(),
            "HyStart half of struct bictcp",
        ),
        (
            "LinuxCubicState",
            size_of::<LinuxCubicState>(),
            "CUBIC + HyStart + cwnd, ssthresh, cwnd_cnt (kernel: 60 + 12 = 72)",
        ),
        (
            "LinuxCubicParams",
            size_of::<LinuxCubicParams>(),
            "shared module parameters + derived constants",
        ),
        (
            "LinuxSocketConfig",
            size_of::<LinuxSocketConfig>(),
            "per-socket settings",
        ),
        (
            "LinuxFlow",
            size_of::<LinuxFlow>(),
            "full Linux-mode flow: state + glue + undo + copies of config",
        ),
        (
            "Bictcp2635",
            size_of::<Bictcp2635>(),
            "Linux 2.6.35 struct bictcp (kernel: 64, its whole icsk_ca_priv)",
        ),
        (
            "Linux2635State",
            size_of::<Linux2635State>(),
            "2.6.35 CUBIC + HyStart + cwnd, ssthresh, cwnd_cnt (64 + 12 = 76)",
        ),
        (
            "Linux2635Config",
            size_of::<Linux2635Config>(),
            "2.6.35 module parameters, sysctls, socket settings, HZ",
        ),
        (
            "Linux2635Flow",
            size_of::<Linux2635Flow>(),
            "full 2.6.35 flow: state + socket glue + undo + config",
        ),
        (
            "RfcCubic",
            size_of::<RfcCubic>(),
            "RFC 9438 CUBIC state in bytes and µs",
        ),
        (
            "HystartPlusPlus",
            size_of::<HystartPlusPlus>(),
            "RFC 9406 HyStart++ state",
        ),
        (
            "RfcFlow",
            size_of::<RfcFlow>(),
            "full RFC-mode flow: CUBIC + both detectors + undo snapshot + params",
        ),
        (
            "AnyController",
            size_of::<AnyController>(),
            "run-time choice of controller",
        ),
        (
            "EdtPacer",
            size_of::<EdtPacer>(),
            "earliest departure time pacer",
        ),
        (
            "TsqBudget",
            size_of::<TsqBudget>(),
            "TCP Small Queues budget",
        ),
        (
            "MinRttFilter",
            size_of::<MinRttFilter>(),
            "windowed min RTT (TSO autosizing)",
        ),
        (
            "SendPath",
            size_of::<SendPath>(),
            "pacer + TSQ + TSO + send-path parameters",
        ),
    ];
    println!("{:<20} {:>6}  what", "type", "bytes");
    for (name, bytes, what) in rows {
        println!("{name:<20} {bytes:>6}  {what}");
    }
}
