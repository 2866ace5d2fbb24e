//! Short real QUIC transfers between two noq endpoints through the relay with our
//! controllers: they complete, the window grows in slow start and falls after the
//! relay's buffer overflows, and our pacing rate and send quantum are what noq reads.

#[path = "../harness/transfer.rs"]
mod transfer;

use congestion_harness::relay::RelayConfig;
use std::time::Duration;
use transfer::{Cc, TransferConfig, TransferReport, run};

/// 20 Mbit/s, 20 ms: BDP 50 kB; a 40 kB buffer overflows well before 3 MB are sent.
async fn short_transfer(cc: Cc) -> TransferReport {
    let relay = RelayConfig::symmetric(20_000_000, Duration::from_millis(20), 40_000, 0);
    let config = TransferConfig {
        cc,
        bytes: 3_000_000,
        relay,
        sample_every: Duration::from_millis(5),
        timeout: Duration::from_secs(60),
    };
    run(config).await.expect("transfer completes")
}

fn check_slow_start_then_back_off(report: &TransferReport) {
    assert_eq!(report.bytes, 3_000_000);
    let samples = &report.samples;
    assert!(samples.len() > 10, "too few samples: {}", samples.len());
    let initial = samples[0].cwnd;
    // Slow start: before any loss the window more than doubles the initial one.
    let peak = samples
        .iter()
        .take_while(|s| s.lost_packets == 0)
        .map(|s| s.cwnd)
        .max()
        .unwrap_or(0);
    assert!(
        peak >= 2 * initial,
        "no slow-start growth: initial {initial}, peak before loss {peak}"
    );
    // The buffer overflowed, noq saw losses, and the window fell below its peak.
    assert!(
        report.tail_drops > 0 && report.lost_packets > 0,
        "{report:?}"
    );
    let first_loss = samples
        .iter()
        .position(|s| s.lost_packets > 0)
        .expect("a sample after the first loss");
    let after_loss_min = samples[first_loss..].iter().map(|s| s.cwnd).min().unwrap();
    assert!(
        after_loss_min < peak,
        "cwnd never fell after loss: peak {peak}, min after {after_loss_min}"
    );
    let adapter = report.adapter.expect("our adapter ran");
    assert!(
        adapter.reductions >= 1 && adapter.ack_frames > 0,
        "{adapter:?}"
    );
    // One reduction per recovery period: never more than noq's loss-detection passes,
    // and far fewer than the packets the overflowing buffer dropped (a slow-start
    // overshoot alone drops dozens in one period).
    assert!(adapter.reductions <= adapter.loss_events, "{adapter:?}");
    assert!(
        2 * adapter.reductions < report.tail_drops,
        "{adapter:?}, {} tail drops",
        report.tail_drops
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cubic_moves_3_mb_grows_in_slow_start_and_backs_off_after_loss() {
    let report = short_transfer(Cc::Ours).await;
    check_slow_start_then_back_off(&report);
    // Once the flow has an RTT sample, noq is given a pacing rate (bytes/s) and a send
    // quantum; the pacing rate tracks the window (100 %-200 % of cwnd / srtt).
    let paced: Vec<_> = report
        .samples
        .iter()
        .filter_map(|s| Some((s, s.pacing_rate?, s.send_quantum?)))
        .collect();
    assert!(paced.len() + 1 >= report.samples.len(), "unpaced samples");
    for (s, rate, quantum) in paced {
        let window_rate = s.cwnd as f64 / s.rtt.as_secs_f64();
        let ratio = rate as f64 / window_rate;
        assert!(
            (0.5..=3.0).contains(&ratio),
            "{s:?}: rate/window rate {ratio:.2}"
        );
        assert!(quantum >= 2 * 1200, "{s:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn newreno_moves_3_mb_grows_in_slow_start_and_backs_off_after_loss() {
    check_slow_start_then_back_off(&short_transfer(Cc::OursNewReno).await);
}

/// Our Linux-mode BBR over noq, the adapter keeping each packet's snapshot by packet
/// number and feeding BBR's pacing rate to noq's pacer: a short transfer completes, ACK
/// frames carried snapshots, and noq read a pacing rate from the controller.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_transfer_with_our_bbr_completes_paced_by_bbr() {
    let relay = RelayConfig::symmetric(20_000_000, Duration::from_millis(20), 40_000, 0);
    let config = TransferConfig {
        cc: Cc::OursBbr,
        bytes: 2_000_000,
        relay,
        sample_every: Duration::from_millis(5),
        timeout: Duration::from_secs(60),
    };
    let report = run(config).await.expect("transfer completes");
    assert_eq!(report.bytes, 2_000_000);
    let adapter = report.adapter.expect("our adapter ran");
    assert!(
        adapter.ack_frames > 0 && adapter.sampled_acks * 2 > adapter.ack_frames,
        "{adapter:?}"
    );
    assert!(
        report.samples.iter().any(|s| s.pacing_rate.is_some()),
        "noq never read a pacing rate"
    );
}
