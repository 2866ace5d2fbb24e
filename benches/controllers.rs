//! Per-event cost of Linux-mode `linux::Cubic` and RFC-mode `rfc::Cubic` on the benchmark
//! ACK stream (`benches/common`): ACK in congestion avoidance, ACK in slow start with
//! HyStart (Linux) or HyStart++ (RFC) active, loss, retransmission timeout (RFC mode:
//! persistent congestion). The same stream drives other Rust CUBICs in
//! `perf/` (`cd perf && cargo bench`), which this crate's tests never compile.
//!
//! ```text
//! cargo bench -p congestion-benches --bench controllers
//! ```

#![expect(
    missing_docs,
    reason = "criterion_group! generates undocumented functions"
)]

mod common;

use common::{Event, OursLinux, OursLinuxHooks, OursRfc, Regime, Stream, StreamController};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// ACKs of the stream, continuing across batches.
fn ack_stream<C: StreamController>(c: &mut Criterion, name: &str, fresh: C, regime: Regime) {
    let mut stream = Stream::new(fresh, regime);
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                stream.step();
            }
            start.elapsed()
        })
    });
}

/// From the CA snapshot: the event, then the next ACK (where Linux CUBIC computes K).
/// Criterion reports the pair; subtract `linux/snapshot_then_ack` for the event alone.
fn event_then_ack<C: StreamController>(c: &mut Criterion, name: &str, fresh: C, event: Event) {
    let mut stream = Stream::new(fresh, Regime::CongestionAvoidance);
    c.bench_function(name, |b| b.iter(|| stream.event_then_ack(black_box(event))));
}

fn linux_mode(c: &mut Criterion) {
    ack_stream(
        c,
        "linux/ack_in_ca",
        OursLinux::new(),
        Regime::CongestionAvoidance,
    );
    ack_stream(
        c,
        "linux/ack_in_slow_start_hystart",
        OursLinux::new(),
        Regime::SlowStart,
    );
    event_then_ack(
        c,
        "linux/snapshot_then_ack",
        OursLinux::new(),
        Event::Nothing,
    );
    event_then_ack(c, "linux/loss_then_ack", OursLinux::new(), Event::Loss);
    event_then_ack(c, "linux/rto_then_ack", OursLinux::new(), Event::Rto);
    ack_stream(
        c,
        "linux_hooks/ack_in_ca",
        OursLinuxHooks::new(),
        Regime::CongestionAvoidance,
    );
    ack_stream(
        c,
        "linux_hooks/ack_in_slow_start_hystart",
        OursLinuxHooks::new(),
        Regime::SlowStart,
    );
}

fn rfc_mode(c: &mut Criterion) {
    ack_stream(
        c,
        "rfc/ack_in_ca",
        OursRfc::new(),
        Regime::CongestionAvoidance,
    );
    ack_stream(
        c,
        "rfc/ack_in_slow_start_hystart_pp",
        OursRfc::new(),
        Regime::SlowStart,
    );
    event_then_ack(c, "rfc/snapshot_then_ack", OursRfc::new(), Event::Nothing);
    event_then_ack(c, "rfc/loss_then_ack", OursRfc::new(), Event::Loss);
    event_then_ack(
        c,
        "rfc/persistent_congestion_then_ack",
        OursRfc::new(),
        Event::Rto,
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = linux_mode, rfc_mode
}
criterion_main!(benches);
