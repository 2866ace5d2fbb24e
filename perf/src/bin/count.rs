//! Runs N events of one kind through one controller, for `scripts/instructions.sh`,
//! which runs it under callgrind with N and 2N and divides the difference by N (the
//! warm-up, the process start and everything else that is not per event cancel out).
//!
//! ```text
//! count <controller> <scenario> <n>
//!   controller: linux | hooks (Linux CUBIC hooks only) | rfc | quinn | s2n | null (the stream alone, to subtract)
//!   scenario:   ca (ACK in congestion avoidance, a loss per 10,000 ACKs)
//!               ss (ACK in slow start, HyStart active where the controller has it)
//!               loss | rto (snapshot, event, one ACK)   base (snapshot, one ACK)
//!               loss-only | rto-only (snapshot, event)  restore (snapshot alone)
//! count send <nothing|pacer|tsq|tso|sendpath> <n>: per packet, our send path
//! count sizes: size_of of ours and the peers' per-flow state
//! ```

use congestion_perf::common::send_path::{SendPiece, SendStream};
use congestion_perf::common::{NullController, OursLinuxHooks, OursRfc};
use congestion_perf::quinn::QuinnCubic;
use congestion_perf::s2n::S2nCubic;
use congestion_perf::{Event, OursLinux, Regime, Stream, StreamController};
use std::hint::black_box;
use std::process::ExitCode;

fn run<C: StreamController>(fresh: C, scenario: &str, n: u64) -> Result<u32, String> {
    let regime = if scenario == "ss" {
        Regime::SlowStart
    } else {
        Regime::CongestionAvoidance
    };
    let mut stream = Stream::new(fresh, regime);
    let (event, then_ack) = match scenario {
        "ca" | "ss" => (None, false),
        "loss" => (Some(Event::Loss), true),
        "rto" => (Some(Event::Rto), true),
        "base" => (Some(Event::Nothing), true),
        "loss-only" => (Some(Event::Loss), false),
        "rto-only" => (Some(Event::Rto), false),
        "restore" => (Some(Event::Nothing), false),
        other => return Err(format!("unknown scenario {other}")),
    };
    match event {
        None => {
            for _ in 0..n {
                stream.step();
            }
        }
        Some(event) if then_ack => {
            for _ in 0..n {
                stream.event_then_ack(black_box(event));
            }
        }
        Some(event) => {
            for _ in 0..n {
                stream.event_only(black_box(event));
            }
        }
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
            "congestion LinuxFlow",
            size_of::<congestion::linux::LinuxFlow>(),
        ),
        (
            "congestion LinuxCubicState",
            size_of::<congestion::linux::LinuxCubicState>(),
        ),
        ("congestion RfcFlow", size_of::<congestion::rfc::RfcFlow>()),
        (
            "congestion SendPath",
            size_of::<congestion::pacing::SendPath>(),
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
            "usage: count <linux|hooks|rfc|quinn|s2n|null> <ca|ss|loss|rto|base|loss-only|rto-only|restore> <n>\n       count send <nothing|pacer|tsq|tso|sendpath> <n>"
        );
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("n must be a number");
        return ExitCode::from(2);
    };
    let result = match controller.as_str() {
        "linux" => run(OursLinux::new(), scenario, n),
        "quinn" => run(QuinnCubic::new(), scenario, n),
        "s2n" => run(S2nCubic::new(), scenario, n),
        "hooks" => run(OursLinuxHooks::new(), scenario, n),
        "rfc" => run(OursRfc::new(), scenario, n),
        "send" => run_send(scenario, n),
        "null" => run(NullController::default(), scenario, n),
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
