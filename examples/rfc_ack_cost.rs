//! A driver for counting RFC-mode (`Cubic`) instructions per event under callgrind,
//! on two ACK streams:
//!
//! - `project`: the benchmark stream of `benches/common` (a loss per 10,000 ACKs, the
//!   snapshot 1 s after a loss, so `W_cubic` is seconds away from `W_max`);
//! - `steady`: one loss at 1000 packets of 1200 bytes (20 ms RTT, an ACK per 2 packets
//!   every 40 µs, the window refilled after each ACK), then the snapshot 2.5 s before
//!   the curve reaches `W_max` (`t = K − 2.5 s`); a cycle runs 5 s of ACKs (125,000)
//!   from there, so the curve stays within 2.5 s of `W_max` (its µs tier) all along.
//!
//! ```text
//! rfc_ack_cost <project|steady> <ca|loss|base> <n>
//!   ca:   n ACKs (on_ack + the on_sent that refills the window)
//!   loss: n times (restore the snapshot, a loss, the ACK that ends recovery and
//!         starts the new epoch)
//!   base: n times (restore the snapshot, the same ACK), to subtract from loss
//! ```
//!
//! Per event = (Ir(2n) − Ir(n)) / n, as `scripts/instructions.sh` does:
//!
//! ```text
//! CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
//!   cargo build --release --example rfc_ack_cost
//! for n in 200000 400000; do valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$n \
//!   target/release/examples/rfc_ack_cost steady ca $n; done
//! ```
//!
//! The stream's own cost (loop, clock, `black_box`) is included; `rfc_ack_cost null ca n`
//! measures it alone to subtract. `scripts/rfc-cost.sh` does all of it.

#[path = "../benches/common/mod.rs"]
mod common;

use common::{NullController, Regime, Stream, StreamController};
use congestion::rfc::Cubic;
use congestion::{AckEvent, CongestionController, Instant, LossEvent, SentEvent};
use std::hint::black_box;
use std::process::ExitCode;

/// Peak of the steady stream's warm-up, packets.
const STEADY_PEAK_PACKETS: u32 = 1000;
/// The steady stream's snapshot is this long before `t = K`, µs.
const STEADY_BEFORE_K_US: u64 = 2_500_000;
/// ACKs per steady cycle: 5 s of the stream.
const STEADY_CYCLE_ACKS: u64 = 5_000_000 / common::ACK_INTERVAL_US;

/// `Cubic` driven as `common::OursRfc` drives it, with the flow and counters readable.
#[derive(Clone)]
struct Rfc {
    flow: Cubic,
    in_flight: u32,
    largest_sent: u64,
    largest_acked: u64,
}

impl Rfc {
    fn new() -> Self {
        let config = congestion::rfc::CubicConfig::new();
        let now = Instant::from_micros(common::START_US);
        Rfc {
            flow: Cubic::new(config, now).expect("RFC defaults are valid"),
            in_flight: 0,
            largest_sent: 0,
            largest_acked: 0,
        }
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        self.in_flight -= packets;
        self.largest_acked += u64::from(packets);
        let ack = AckEvent {
            acked: u64::from(packets * common::PACKET_BYTES),
            rtt: Some(congestion::Duration::from_micros(rtt_us)),
            largest_acked: Some(self.largest_acked),
            app_limited: false,
            ce_delta: 0,
        };
        self.flow.on_ack(Instant::from_micros(now_us), &ack);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        self.in_flight += packets;
        self.largest_sent += u64::from(packets);
        let sent = SentEvent::new(
            u64::from(self.in_flight) * u64::from(common::PACKET_BYTES),
            self.largest_sent,
        );
        self.flow.on_sent(Instant::from_micros(now_us), &sent);
    }

    fn loss(&mut self, now_us: u64) {
        self.in_flight -= 1;
        self.flow
            .on_loss(Instant::from_micros(now_us), &LossEvent::episode(0));
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        (self.flow.cwnd() / u64::from(common::PACKET_BYTES)) as u32
    }
}

/// Where a stream's snapshot is taken, after its warm-up loss.
#[derive(Clone, Copy)]
enum SnapshotAt {
    /// This many ACKs after the loss (the project's stream: 25,000, 1 s).
    AcksAfterLoss(u32),
    /// This long before the curve reaches `W_max` (`t = K − d`), µs.
    BeforeK(u64),
}

/// One stream: warm-up to a peak, a loss, a snapshot; cycles restart from it.
struct Run {
    snapshot: Rfc,
    snapshot_now_us: u64,
    live: Rfc,
    now_us: u64,
    acks_in_cycle: u64,
    cycle_acks: u64,
    loss_at_cycle_end: bool,
}

impl Run {
    fn new(peak_packets: u32, at: SnapshotAt, cycle_acks: u64, loss_at_cycle_end: bool) -> Self {
        let mut s = Run {
            snapshot: Rfc::new(),
            snapshot_now_us: common::START_US,
            live: Rfc::new(),
            now_us: common::START_US,
            acks_in_cycle: 0,
            cycle_acks,
            loss_at_cycle_end,
        };
        let iw = s.live.cwnd_packets();
        s.live.send(s.now_us, iw);
        while s.live.cwnd_packets() < peak_packets {
            s.one_ack();
        }
        s.live.loss(s.now_us);
        match at {
            SnapshotAt::AcksAfterLoss(n) => {
                for _ in 0..n {
                    s.one_ack();
                }
            }
            SnapshotAt::BeforeK(d_us) => loop {
                s.one_ack();
                let cubic = *s.live.flow.cubic();
                let now = Instant::from_micros(s.now_us);
                if cubic.epoch_start().is_some() && cubic.elapsed_us(now) + d_us >= cubic.k_us {
                    break;
                }
            },
        }
        s.snapshot = s.live.clone();
        s.snapshot_now_us = s.now_us;
        s
    }

    /// The project's stream (`benches/common`).
    fn project() -> Self {
        Run::new(
            common::WARMUP_PEAK_PACKETS,
            SnapshotAt::AcksAfterLoss(common::WARMUP_AFTER_LOSS_ACKS),
            u64::from(common::ACKS_PER_LOSS),
            true,
        )
    }

    /// The steady-growth stream.
    fn steady() -> Self {
        Run::new(
            STEADY_PEAK_PACKETS,
            SnapshotAt::BeforeK(STEADY_BEFORE_K_US),
            STEADY_CYCLE_ACKS,
            false,
        )
    }

    #[inline(always)]
    fn one_ack(&mut self) {
        self.now_us += common::ACK_INTERVAL_US;
        let now = black_box(self.now_us);
        let acked = common::PACKETS_PER_ACK.min(self.live.in_flight);
        self.live
            .ack(now, black_box(acked), black_box(common::RTT_US));
        let cwnd = self.live.cwnd_packets();
        let in_flight = self.live.in_flight;
        if cwnd > in_flight {
            self.live.send(now, cwnd - in_flight);
        }
    }

    #[inline(always)]
    fn restore(&mut self) {
        self.live.clone_from(&self.snapshot);
        self.now_us = self.snapshot_now_us;
        self.acks_in_cycle = 0;
    }

    #[inline(always)]
    fn step(&mut self) {
        self.one_ack();
        self.acks_in_cycle += 1;
        if self.acks_in_cycle == self.cycle_acks {
            if self.loss_at_cycle_end {
                self.live.loss(self.now_us);
            }
            self.restore();
        }
    }

    /// From the snapshot: a loss (or nothing, the baseline), then the ACK that ends
    /// recovery (it acknowledges a packet sent after the loss, as the first ACK a round
    /// later would) and so starts the new epoch: K and its cube root are counted.
    #[inline(always)]
    fn event_then_ack(&mut self, loss: bool) {
        self.restore();
        if loss {
            self.live.loss(black_box(self.now_us));
        }
        self.live.largest_acked = self.live.largest_sent;
        self.one_ack();
    }
}

fn run(mut stream: Run, scenario: &str, n: u64) -> Result<u64, String> {
    for _ in 0..n {
        match scenario {
            "ca" => stream.step(),
            "loss" => stream.event_then_ack(black_box(true)),
            "base" => stream.event_then_ack(black_box(false)),
            other => return Err(format!("unknown scenario {other}")),
        }
    }
    Ok(stream.live.flow.cwnd())
}

/// The project's stream with no controller, to subtract.
fn run_null(n: u64) -> u64 {
    let mut stream = Stream::new(NullController::default(), Regime::CongestionAvoidance);
    for _ in 0..n {
        stream.step();
    }
    u64::from(stream.live().cwnd_packets())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, stream, scenario, n] = args.as_slice() else {
        eprintln!("usage: rfc_ack_cost <project|steady|null> <ca|loss|base> <n>");
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("n must be a number");
        return ExitCode::from(2);
    };
    let result = match stream.as_str() {
        "project" => run(Run::project(), scenario, n),
        "null" => Ok(run_null(n)),
        "steady" => run(Run::steady(), scenario, n),
        other => Err(format!("unknown stream {other}")),
    };
    match result {
        Ok(cwnd) => {
            println!("{stream} {scenario} {n}: final cwnd {cwnd}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
