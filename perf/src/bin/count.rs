//! Runs N events of one kind through one controller, for `scripts/instructions.sh`,
//! which runs it under callgrind with N and 2N and divides the difference by N (the
//! warm-up, the process start and everything else that is not per event cancel out).
//!
//! ```text
//! count <controller> <scenario> <n>
//!   controller: linux | linux-paced | hooks (Linux CUBIC hooks only) | rfc | rfc-paced
//!               | linux-counted | rfc-counted (linux, rfc through the `_observed`
//!               calls with a `Counters` sink)
//!               | quinn | s2n (with its pacer) | s2n-nopacer | null (the stream alone)
//!   scenario:   ca (the project's stream: ACK + sends in congestion avoidance)
//!               steady (the steady-growth stream near W_max: ACK + sends)
//!               ss (ACK + sends in slow start, HyStart active where the controller has it)
//!               send (snapshot, the send call(s) for 2 packets)
//!               loss | rto (snapshot, event, the ACK that ends recovery and starts the
//!               epoch)   base (snapshot, that ACK)
//!               loss-only | rto-only (snapshot, event)  restore (snapshot alone)
//!               steady-loss | steady-base: loss | base on the steady stream's snapshot
//! count send <nothing|pacer|tsq|tso|sendpath> <n>: per packet, our send path
//! count <bbr|bbr3|quinn-bbr|s2n-bbr|null-tcp> <bbr-steady|bbr-probertt> <n>: the BBR
//!   streams (perf/src/bbr): ACK + sends in PROBE_BW, or through PROBE_RTT and losses
//! count <dctcp-hooks|dctcp> <ca|loss|base> <n>: DCTCP's hooks alone, or linux::Dctcp,
//!   on the project's stream with 2 % of ACKs CE-marked (perf/src/dctcp.rs)
//! count <prague-hooks|prague> <ca|loss|base> <n>: Prague's cong_control hook alone, or
//!   linux::Prague, on the same stream (perf/src/prague.rs)
//! count sizes: size_of of ours and the peers' per-flow state
//! ```

use congestion_perf::bbr::{
    BbrController, BbrRegime, BbrStream, NullTcp, OursBbr, OursBbr3, QuinnBbr, S2nBbr,
};
use congestion_perf::common::send_path::{SendPiece, SendStream};
use congestion_perf::common::{NullController, OursLinuxHooks, OursRfc, Paced};
use congestion_perf::observed::{OursLinuxCounted, OursRfcCounted};
use congestion_perf::quinn::QuinnCubic;
use congestion_perf::s2n::S2nCubic;
use congestion_perf::{Event, OursLinux, Regime, Stream, StreamController};
use std::hint::black_box;
use std::process::ExitCode;

/// Packets one send call of the stream carries in congestion avoidance (the 2 an ACK
/// frees; growth adds a third on a few ACKs).
const PACKETS_PER_SEND: u32 = 2;

fn run<C: StreamController>(fresh: C, scenario: &str, n: u64) -> Result<u32, String> {
    let regime = match scenario {
        "ss" => Regime::SlowStart,
        "steady" | "steady-loss" | "steady-base" => Regime::SteadyGrowth,
        _ => Regime::CongestionAvoidance,
    };
    enum Kind {
        Stream,
        EventThenAck(Event),
        EventOnly(Event),
        Send,
    }
    let kind = match scenario {
        "ca" | "ss" | "steady" => Kind::Stream,
        "loss" | "steady-loss" => Kind::EventThenAck(Event::Loss),
        "rto" => Kind::EventThenAck(Event::Rto),
        "base" | "steady-base" => Kind::EventThenAck(Event::Nothing),
        "loss-only" => Kind::EventOnly(Event::Loss),
        "rto-only" => Kind::EventOnly(Event::Rto),
        "restore" => Kind::EventOnly(Event::Nothing),
        "send" => Kind::Send,
        other => return Err(format!("unknown scenario {other}")),
    };
    let mut stream = Stream::new(fresh, regime);
    match kind {
        Kind::Stream => {
            for _ in 0..n {
                stream.step();
            }
        }
        Kind::EventThenAck(event) => {
            for _ in 0..n {
                stream.event_then_ack(black_box(event));
            }
        }
        Kind::EventOnly(event) => {
            for _ in 0..n {
                stream.event_only(black_box(event));
            }
        }
        Kind::Send => {
            for _ in 0..n {
                stream.send_only(PACKETS_PER_SEND);
            }
        }
    }
    Ok(black_box(stream.live().cwnd_packets()))
}

/// N events of a BBR stream.
fn run_bbr<C: BbrController>(fresh: C, scenario: &str, n: u64) -> Result<u32, String> {
    let regime = match scenario {
        "bbr-steady" => BbrRegime::Steady,
        "bbr-probertt" => BbrRegime::ProbeRttLoss,
        other => return Err(format!("unknown BBR scenario {other}")),
    };
    let mut stream = BbrStream::new(fresh, regime);
    for _ in 0..n {
        stream.step();
    }
    Ok(black_box(stream.live().cwnd_packets()))
}

/// The send-path pieces, per packet, for our Linux-mode flow.
fn run_send(piece: &str, n: u64) -> Result<u32, String> {
    let piece = match piece {
        "nothing" => SendPiece::Nothing,
        "pacer" => SendPiece::Pacer,
        "tsq" => SendPiece::TsqCheck,
        "tso" => SendPiece::TsoAutosize,
        "sendpath" => SendPiece::WholeSendPath,
        other => return Err(format!("unknown send-path piece {other}")),
    };
    let mut s = SendStream::new();
    let mut sum = 0u64;
    for _ in 0..n {
        sum = sum.wrapping_add(s.packet(black_box(piece)));
    }
    Ok(black_box(sum) as u32)
}

/// `size_of` of every controller's per-flow state, ours and the peers'.
fn print_sizes() {
    use std::mem::size_of;
    let rows = [
        (
            "congestion LinuxFlowState",
            size_of::<congestion::linux::LinuxFlowState>(),
        ),
        (
            "congestion LinuxCubicState",
            size_of::<congestion::linux::LinuxCubicState>(),
        ),
        ("congestion Cubic", size_of::<congestion::rfc::Cubic>()),
        (
            "congestion SendPath",
            size_of::<congestion::pacing::SendPath>(),
        ),
        ("congestion linux::Bbr", size_of::<congestion::linux::Bbr>()),
        (
            "congestion linux::Bbr3",
            size_of::<congestion::linux::Bbr3>(),
        ),
        (
            "quinn-proto 0.11 Bbr",
            size_of::<quinn_proto::congestion::Bbr>(),
        ),
        (
            "s2n-quic-core 0.91 BbrCongestionController",
            size_of::<s2n_quic_core::recovery::bbr::BbrCongestionController>(),
        ),
        (
            "quinn-proto 0.11 Cubic",
            size_of::<quinn_proto::congestion::Cubic>(),
        ),
        (
            "s2n-quic-core 0.91 CubicCongestionController",
            size_of::<s2n_quic_core::recovery::CubicCongestionController>(),
        ),
    ];
    for (name, bytes) in rows {
        println!("{name:<46} {bytes:>5}");
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("sizes") {
        print_sizes();
        return ExitCode::SUCCESS;
    }
    let [_, controller, scenario, n] = args.as_slice() else {
        eprintln!(
            "usage: count <linux|linux-paced|hooks|rfc|rfc-paced|linux-counted|rfc-counted|quinn|s2n|s2n-nopacer|null> <ca|steady|ss|send|loss|rto|base|loss-only|rto-only|restore|steady-loss|steady-base> <n>\n       count send <nothing|pacer|tsq|tso|sendpath> <n>"
        );
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("n must be a number");
        return ExitCode::from(2);
    };
    let result = match controller.as_str() {
        "linux" => run(OursLinux::new(), scenario, n),
        "linux-paced" => run(Paced::new(OursLinux::new()), scenario, n),
        "quinn" => run(QuinnCubic::new(), scenario, n),
        "s2n" => run(S2nCubic::new(), scenario, n),
        "s2n-nopacer" => run(S2nCubic::without_pacer(), scenario, n),
        "hooks" => run(OursLinuxHooks::new(), scenario, n),
        "rfc" => run(OursRfc::new(), scenario, n),
        "rfc-paced" => run(Paced::new(OursRfc::new()), scenario, n),
        "linux-counted" => run(OursLinuxCounted::new(), scenario, n),
        "rfc-counted" => run(OursRfcCounted::new(), scenario, n),
        "send" => run_send(scenario, n),
        "null" => run(NullController::default(), scenario, n),
        "bbr" => run_bbr(OursBbr::new(), scenario, n),
        "bbr3" => run_bbr(OursBbr3::new(), scenario, n),
        "quinn-bbr" => run_bbr(QuinnBbr::new(), scenario, n),
        "s2n-bbr" => run_bbr(S2nBbr::new(), scenario, n),
        "null-tcp" => run_bbr(NullTcp::new(), scenario, n),
        "dctcp-hooks" => run(congestion_perf::dctcp::OursDctcpHooks::new(), scenario, n),
        "dctcp" => run(congestion_perf::dctcp::OursDctcp::new(), scenario, n),
        "prague-hooks" => run(congestion_perf::prague::OursPragueHooks::new(), scenario, n),
        "prague" => run(congestion_perf::prague::OursPrague::new(), scenario, n),
        other => Err(format!("unknown controller {other}")),
    };
    match result {
        Ok(cwnd) => {
            println!("{controller} {scenario} {n}: final cwnd {cwnd} packets");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
