//! No controller call allocates: a counting global allocator watches millions of
//! events of every kind go through every controller, and must count zero.
//!
//! The allocator (stats_alloc's instrumented `System`) counts for the whole process, so
//! this test runs without libtest's harness (`harness = false` in Cargo.toml): with the
//! harness, its own threads allocated now and then during the counted region and made
//! the count flaky. Here `main` is the only thread.

use congestion::linux;
use congestion::observe::{Counters, Observed};
use congestion::{
    AckEvent, AnyController, CongestionController, Duration, EcnEvent, Instant, LossEvent,
    SentEvent,
};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use std::hint::black_box;

#[global_allocator]
static COUNTING: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// One ACK of 2 packets every 40 µs with a 20 ms RTT sample, the window refilled after
/// each, a loss every 10,000 ACKs, and every 50,000 ACKs an ECN mark, a spurious-loss
/// undo, a retransmission timeout and a restart after idle: every entry point, often.
fn drive(c: &mut impl CongestionController, acks: u64) -> u64 {
    let mut now_us = 1_000_000u64;
    let mut in_flight = c.cwnd();
    c.on_sent(
        Instant::from_micros(now_us),
        &SentEvent::new(in_flight, in_flight),
    );
    let mut largest = in_flight;
    let mut checksum = 0u64;
    for i in 1..=acks {
        now_us += 40;
        let now = Instant::from_micros(now_us);
        let acked = in_flight.min(2);
        in_flight -= acked;
        let ack = AckEvent {
            acked,
            rtt: Some(Duration::from_micros(20_000)),
            largest_acked: Some(largest - in_flight),
            app_limited: false,
            ce_delta: 0,
        };
        c.on_ack(now, black_box(&ack));
        if i % 10_000 == 0 {
            c.on_loss(now, &LossEvent::episode(0));
        }
        if i % 50_000 == 0 {
            c.on_ecn(now, &EcnEvent::episode(1));
            c.on_spurious_congestion(now);
            c.on_retransmission_timeout(now);
            in_flight = 1;
            c.on_loss(now, &LossEvent::episode(0).with_persistent_congestion(true));
            c.on_transmit_start(now);
        }
        let cwnd = c.cwnd();
        if cwnd > in_flight {
            largest += cwnd - in_flight;
            in_flight = cwnd;
            c.on_sent(now, &SentEvent::new(in_flight, largest));
        }
        checksum = checksum
            .wrapping_add(cwnd ^ c.ssthresh().unwrap_or(u64::MAX))
            .wrapping_add(c.phase() as u64);
    }
    checksum
}

fn main() {
    no_controller_call_allocates();
    println!("test no_controller_call_allocates ... ok");
    println!("1 passed, 0 failed");
}

fn no_controller_call_allocates() {
    let mut linux = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap();
    let mut any = AnyController::LinuxCubic(linux);
    let mut flows = [linux; 4];

    let region = Region::new(COUNTING);
    let mut sum = drive(&mut linux, 1_000_000);
    sum ^= drive(&mut any, 200_000);
    for flow in &mut flows {
        sum ^= drive(flow, 50_000);
    }
    let mut era =
        congestion::v2_6_35::Cubic::new(congestion::v2_6_35::CubicConfig::new(), Instant::ZERO)
            .unwrap();
    sum ^= drive(&mut era, 200_000);
    let mut any_era = AnyController::V2_6_35Cubic(era);
    sum ^= drive(&mut any_era, 100_000);
    // Observed, every decision counted: the sink allocates nothing either.
    let rfc = congestion::rfc::Cubic::new(congestion::rfc::CubicConfig::quic(1200), Instant::ZERO)
        .unwrap();
    let mut observed = Observed::new(AnyController::RfcCubic(rfc), Counters::new());
    sum ^= drive(&mut observed, 200_000);
    let mut observed = Observed::new(linux, Counters::new());
    sum ^= drive(&mut observed, 200_000);
    assert!(observed.observer().reductions() > 0);
    let counted = region.change();

    // The counter does see allocations: one Box is one.
    let probe = Region::new(COUNTING);
    black_box(Box::new(sum));
    assert_eq!(probe.change().allocations, 1);

    assert_eq!(counted.allocations, 0, "{counted:?}");
    assert_eq!(counted.reallocations, 0, "{counted:?}");
    assert_eq!(counted.bytes_allocated, 0, "{counted:?}");
}
