//! Prints the size of every piece of per-flow state, as the README lists them.
//!
//! ```text
//! cargo run --example sizes
//! ```

use congestion::AnyController;
use congestion::cubic::{LinuxCubic, LinuxCubicParams, RfcCubic};
use congestion::hystart::{HystartPlusPlus, LinuxHystart};
use congestion::linux::{
    self, KernelDefaults, LinuxCubicState, LinuxFlowState, LinuxParams, LinuxSocketConfig, RandomFn,
};
use congestion::pacing::{
    EdtPacer, MinRttFilter, SendPath, SendPathParams, SendPathState, TsqBudget,
};
use congestion::rfc::{self, ClassicState, NewRenoWindow, NoUndo, RfcParams};
use congestion::v2_6_35::{self, Bictcp2635, Linux2635Params, Linux2635State};
use core::mem::size_of;

fn main() {
    let rows: &[(&str, usize, &str)] = &[
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
            "LinuxParams",
            size_of::<LinuxParams>(),
            "module parameters + socket settings, shared by every flow",
        ),
        (
            "LinuxFlowState",
            size_of::<LinuxFlowState>(),
            "a Linux-mode flow's own state: two 64-byte lines, aligned",
        ),
        (
            "  its hot line",
            LinuxFlowState::HOT_BYTES,
            "what a congestion-avoidance ACK and its send touch",
        ),
        (
            "linux::Cubic<KernelDefaults>",
            size_of::<linux::Cubic<KernelDefaults>>(),
            "the flow on a zero-sized handle to a static: its state alone",
        ),
        (
            "linux::Cubic",
            size_of::<linux::Cubic>(),
            "the flow owning its parameters (one copy beside the state)",
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
            "v2_6_35::CubicConfig",
            size_of::<v2_6_35::CubicConfig>(),
            "2.6.35 module parameters, sysctls, socket settings, HZ",
        ),
        (
            "v2_6_35::Cubic",
            size_of::<v2_6_35::Cubic>(),
            "full 2.6.35 flow owning its settings: state + socket glue + undo + config",
        ),
        (
            "v2_6_35::Cubic<&Params>",
            size_of::<v2_6_35::Cubic<&'static Linux2635Params>>(),
            "the same flow reading settings shared with other flows",
        ),
        (
            "RfcCubic",
            size_of::<RfcCubic>(),
            "RFC 9438 CUBIC state in bytes and µs",
        ),
        (
            "HystartPlusPlus",
            size_of::<HystartPlusPlus>(),
            "RFC 9406 HyStart++ state (RTTs in 32 bits)",
        ),
        (
            "RfcParams",
            size_of::<RfcParams>(),
            "RFC-mode settings, shared by every flow",
        ),
        (
            "ClassicState<RfcCubic>",
            size_of::<ClassicState<congestion::cubic::RfcCubic>>(),
            "an RFC 9438 CUBIC flow's own state: detector, undo snapshot",
        ),
        (
            "  its hot part",
            ClassicState::<congestion::cubic::RfcCubic>::HOT_BYTES,
            "what a congestion-avoidance ACK and its send touch: two lines",
        ),
        (
            "ClassicState<RfcCubic, NoUndo>",
            size_of::<ClassicState<congestion::cubic::RfcCubic, NoUndo>>(),
            "the same without the undo snapshot (stacks that never undo)",
        ),
        (
            "ClassicState<NewRenoWindow>",
            size_of::<ClassicState<NewRenoWindow>>(),
            "an RFC 9002 NewReno flow's own state",
        ),
        (
            "ClassicState<NewRenoWindow, NoUndo>",
            size_of::<ClassicState<NewRenoWindow, NoUndo>>(),
            "the same without the undo snapshot",
        ),
        (
            "ClassicState<DctcpWindow>",
            size_of::<ClassicState<rfc::DctcpWindow>>(),
            "an RFC 8257 DCTCP flow in bytes (alpha and its observation window)",
        ),
        (
            "ClassicState<PragueWindow>",
            size_of::<ClassicState<rfc::PragueWindow>>(),
            "a Prague flow in bytes (with its RTT scaling and sub-MSS window)",
        ),
        (
            "rfc::Cubic",
            size_of::<rfc::Cubic>(),
            "the CUBIC flow owning its parameters",
        ),
        (
            "linux::bbr::BbrState",
            size_of::<linux::bbr::BbrState>(),
            "BBR v1's struct bbr (kernel ICSK_CA_PRIV_SIZE: 104)",
        ),
        (
            "linux::Bbr",
            size_of::<linux::Bbr>(),
            "a whole BBR v1 flow: struct bbr + socket glue + sampler (<= 192)",
        ),
        (
            "linux::BbrParams",
            size_of::<linux::BbrParams>(),
            "BBR v1 settings, shared by every flow",
        ),
        (
            "linux::bbr3::Bbr",
            size_of::<linux::bbr3::Bbr>(),
            "BBRv3's struct bbr (kernel: 152)",
        ),
        (
            "linux::Bbr3",
            size_of::<linux::Bbr3>(),
            "a whole BBRv3 flow: struct bbr + socket glue + sampler (<= 256)",
        ),
        (
            "linux::Bbr3Params",
            size_of::<linux::Bbr3Params>(),
            "BBRv3 module parameters, shared by every flow",
        ),
        (
            "linux::tcp::TxSnapshot",
            size_of::<linux::tcp::TxSnapshot>(),
            "the sampler's per-packet snapshot the stack keeps (tcp_skb_cb.tx)",
        ),
        (
            "linux::dctcp::DctcpCa",
            size_of::<linux::dctcp::DctcpCa>(),
            "DCTCP's struct dctcp",
        ),
        (
            "linux::Dctcp",
            size_of::<linux::Dctcp>(),
            "a whole DCTCP flow: struct dctcp + the socket (TcpSock)",
        ),
        (
            "linux::prague::PragueCa",
            size_of::<linux::prague::PragueCa>(),
            "TCP Prague's struct prague (kernel ICSK_CA_PRIV_SIZE: 104)",
        ),
        (
            "linux::Prague",
            size_of::<linux::Prague>(),
            "a whole Prague flow: struct prague + the socket (TcpSock)",
        ),
        (
            "BbrController<RandomFn>",
            size_of::<linux::BbrController<RandomFn>>(),
            "BBR v1 through the trait: flow + scoreboard + random fn + params",
        ),
        (
            "Bbr3Controller<RandomFn>",
            size_of::<linux::Bbr3Controller<RandomFn>>(),
            "BBRv3 through the trait",
        ),
        (
            "DctcpController<RandomFn>",
            size_of::<linux::DctcpController<RandomFn>>(),
            "DCTCP through the trait: flow + sysctl + random fn + params",
        ),
        (
            "PragueController<RandomFn>",
            size_of::<linux::PragueController<RandomFn>>(),
            "Prague through the trait (the largest Linux-mode variant)",
        ),
        (
            "rfc::Bbr3Controller<RandomFn>",
            size_of::<rfc::Bbr3Controller<RandomFn>>(),
            "RFC-mode BBRv3 through the trait (the largest variant)",
        ),
        (
            "AnyController",
            size_of::<AnyController>(),
            "run-time choice of controller (as large as rfc::Bbr3Controller)",
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
            "SendPathParams",
            size_of::<SendPathParams>(),
            "send-path settings, shared by every flow",
        ),
        (
            "SendPathState",
            size_of::<SendPathState>(),
            "a flow's pacer + TSQ + min RTT + last departure: one line",
        ),
        (
            "SendPath",
            size_of::<SendPath>(),
            "the send path owning its settings",
        ),
    ];
    println!("{:<30} {:>6}  what", "type", "bytes");
    for &(name, bytes, what) in rows {
        println!("{name:<30} {bytes:>6}  {what}");
    }
    // The one sentence the crate's front page, the README and the C header state
    // (tests/sizes.rs and ffi/tests/header.rs check that each says exactly this).
    println!(
        "\nIn the docs: a Linux-mode flow is {} bytes of state, its send path {}, an RFC-mode CUBIC flow {}.",
        size_of::<LinuxFlowState>(),
        size_of::<SendPathState>(),
        size_of::<ClassicState<congestion::cubic::RfcCubic>>()
    );
}
