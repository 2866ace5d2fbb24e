//! A toy QUIC sender driving an RFC-mode flow the way a stack's loss recovery does:
//! packets go out when the paced flow allows, ACK frames come back one RTT later,
//! a burst of five packets is lost and reported packet by packet (one reduction), and
//! the window is printed as it moves.
//!
//! ```sh
//! cargo run --example quic_stack
//! ```

use congestion::hystart::PacingStatus;
use congestion::pacing::{NextPacket, PacedFlow, SendPathConfig, SendVerdict};
use congestion::rfc::{Cubic, CubicConfig};
use congestion::{
    AckEvent, ConfigError, CongestionController, Duration, Instant, LossEvent, Phase,
};
use std::collections::VecDeque;

/// Bytes per datagram (QUIC's max_datagram_size).
const MTU: u64 = 1200;
/// The path's round-trip time.
const RTT: Duration = Duration::from_millis(40);
/// Packets the path drops, as a burst: the stack's loss detection finds all five.
const LOST: std::ops::RangeInclusive<u64> = 300..=304;

/// What the toy stack remembers of each packet in flight.
struct Sent {
    pn: u64,
    at: Instant,
}

/// Runs 2 s of virtual time and returns the reductions seen and the final window.
fn run() -> Result<(u32, u64), ConfigError> {
    let cc = Cubic::new(CubicConfig::quic(MTU), Instant::ZERO)?;
    let mut path = SendPathConfig::new();
    path.pacing_status = PacingStatus::Needed; // this stack waits for each departure
    let mut flow = PacedFlow::new(cc, path.validate()?);

    let mut in_flight: VecDeque<Sent> = VecDeque::new();
    let mut next_pn = 0u64;
    let mut reductions = 0;
    let mut printed_at_pn = 0;
    let mut now = Instant::ZERO;
    let end = Instant::from_micros(2_000_000);
    while now < end {
        // ACK frames: every packet sent one RTT ago (but the lost ones) is acknowledged.
        let mut acked = 0;
        let mut largest = None;
        while let Some(p) = in_flight.front() {
            if now.saturating_duration_since(p.at) < RTT {
                break;
            }
            let p = in_flight.pop_front().unwrap_or(Sent { pn: 0, at: now });
            if LOST.contains(&p.pn) {
                // Loss detection: the packet threshold passed; each lost packet alone.
                let before = flow.cwnd();
                flow.on_loss(now, &LossEvent::packet(MTU, p.pn));
                if flow.cwnd() < before {
                    reductions += 1;
                    println!(
                        "{:>7} µs  loss of {} -> cwnd {}",
                        now.as_micros(),
                        p.pn,
                        flow.cwnd()
                    );
                }
                continue;
            }
            acked += MTU;
            largest = Some(p.pn);
        }
        if let Some(pn) = largest {
            flow.on_ack(now, &AckEvent::new(acked, pn, Some(RTT)));
        }
        // Send what the window and the pacer allow now.
        while let SendVerdict::Send { segments } = flow.poll(now, &NextPacket::default()) {
            for _ in 0..segments {
                flow.on_sent_counted(now, MTU, next_pn);
                in_flight.push_back(Sent {
                    pn: next_pn,
                    at: now,
                });
                next_pn += 1;
            }
            // The NIC takes the burst at once in this toy: TSQ is free again.
            flow.on_tx_completion(u32::try_from(u64::from(segments) * MTU).unwrap_or(u32::MAX));
        }
        // A line every 500 packets sent.
        if next_pn >= printed_at_pn + 500 && flow.phase() != Phase::Recovery {
            printed_at_pn = next_pn;
            println!(
                "{:>7} µs  cwnd {:>6} B  in flight {:>6} B  pacing {:>9} B/s  {:?}",
                now.as_micros(),
                flow.cwnd(),
                flow.in_flight(),
                flow.pacing_rate().as_bytes_per_second(),
                flow.phase()
            );
        }
        // The next thing that happens: a departure the pacer allows, or 1 ms on.
        now = flow
            .next_departure(now)
            .unwrap_or(now.saturating_add(Duration::from_millis(1)))
            .min(now.saturating_add(Duration::from_millis(1)));
    }
    Ok((reductions, flow.cwnd()))
}

fn main() -> Result<(), ConfigError> {
    let (reductions, cwnd) = run()?;
    println!("reductions {reductions}, final cwnd {cwnd} B");
    Ok(())
}

#[test]
fn the_lost_burst_reduces_once_and_the_flow_keeps_sending() {
    let (reductions, cwnd) = run().expect("valid configuration");
    assert_eq!(
        reductions, 1,
        "five losses of one burst are one congestion event"
    );
    assert!(cwnd >= 2 * MTU);
}
