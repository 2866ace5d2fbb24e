//! A real-time transfer over UDP on 127.0.0.1 through `congestion-harness`'s relay,
//! with our controller and with s2n-quic's CUBIC: what `examples/s2n_transfer.rs` runs, kept
//! short (1 MB at 20 Mbit/s, a debug build on a shared machine), so it checks that the
//! path works, not the rates.

#[path = "../harness/mod.rs"]
mod harness;

use congestion_harness::relay::RelayConfig;
use congestion_s2n_quic::{AdapterStats, DEFAULT_TIMER_SLACK};
use harness::common::Cc;
use harness::udp::{UdpConfig, run};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transfer_through_the_relay_completes_with_ours_and_with_s2n_quics_cubic() {
    for cc in [Cc::Ours, Cc::Cubic] {
        let relay = RelayConfig::symmetric(20_000_000, Duration::from_millis(20), 100_000, 0);
        let report = run(UdpConfig {
            cc,
            bytes: 1_000_000,
            timer_slack: DEFAULT_TIMER_SLACK,
            relay,
            sample_every: Duration::from_millis(100),
            timeout: Duration::from_secs(60),
        })
        .await
        .expect("the transfer completes");
        assert_eq!(report.bytes, 1_000_000, "{}", cc.name());
        assert!(
            report.goodput_mbit() > 0.5,
            "{}: {:.2}",
            cc.name(),
            report.goodput_mbit()
        );
        let ours = AdapterStats::get(&report.adapter.sent_packets) > 0;
        assert_eq!(ours, cc == Cc::Ours, "only our controller counts");
    }
}

/// Our Linux-mode BBR through s2n-quic, each packet's snapshot in s2n-quic's
/// `PacketInfo` and departures from the crate's EDT pacer at BBR's rate: a short
/// transfer completes, our controller saw the ACKs, and the pacer held packets back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transfer_through_the_relay_completes_with_our_bbr() {
    let relay = RelayConfig::symmetric(20_000_000, Duration::from_millis(20), 100_000, 0);
    let report = run(UdpConfig {
        cc: Cc::OursBbr,
        bytes: 1_000_000,
        timer_slack: DEFAULT_TIMER_SLACK,
        relay,
        sample_every: Duration::from_millis(100),
        timeout: Duration::from_secs(60),
    })
    .await
    .expect("the transfer completes");
    assert_eq!(report.bytes, 1_000_000);
    let a = &report.adapter;
    assert!(
        AdapterStats::get(&a.sent_packets) > 0 && AdapterStats::get(&a.ack_frames) > 0,
        "{a:?}"
    );
}
