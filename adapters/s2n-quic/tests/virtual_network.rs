//! Transfers on s2n-quic's virtual-time network (`unstable-provider-io-testing`) through
//! a bottleneck link: real s2n-quic endpoints and TLS, simulated time, a few seconds of
//! CPU each.

#[path = "../harness/mod.rs"]
mod harness;

use congestion_s2n_quic::{AdapterStats, DepartureLog};
use harness::common::{Cc, Report};
use harness::sim::{SimConfig, run};
use harness::vnet::LinkConfig;
use std::time::Duration;

/// 20 Mbit/s, 40 ms RTT, a buffer of one bandwidth-delay product (100 kB).
fn link() -> LinkConfig {
    LinkConfig {
        rate_bps: 20_000_000,
        delay: Duration::from_millis(20),
        buffer_bytes: 100_000,
        loss_ppm: 0,
        seed: 7,
        blackout: None,
    }
}

fn transfer(cc: Cc, bytes: u64, link: LinkConfig, log: Option<DepartureLog>) -> Report {
    let report = run(SimConfig {
        cc,
        bytes,
        timer_slack: congestion_s2n_quic::DEFAULT_TIMER_SLACK,
        link,
        log,
    })
    .expect("the transfer completes");
    assert_eq!(report.bytes, bytes, "every byte reached the server");
    report
}

fn get(c: &std::sync::atomic::AtomicU64) -> u64 {
    AdapterStats::get(c)
}

#[test]
fn a_transfer_runs_at_the_bottleneck_rate() {
    for cc in [Cc::Ours, Cc::OursNewreno] {
        let r = transfer(cc, 4_000_000, link(), None);
        let goodput = r.goodput_mbit();
        // 4 MB at 20 Mbit/s is 1.6 s; slow start from 12 kB and the losses when it
        // overflows the buffer cost a few round trips: at least 80 % of the rate, never
        // more than all of it.
        assert!(
            (16.0..=20.0).contains(&goodput),
            "{}: {goodput:.2} Mbit/s",
            cc.name()
        );
        assert!(get(&r.adapter.ack_frames) > 100);
        assert!(
            get(&r.adapter.max_cwnd) >= 100_000,
            "the window reached the BDP"
        );
    }
}

#[test]
fn random_loss_is_survived_with_one_reduction_per_recovery_period() {
    let mut l = link();
    l.loss_ppm = 10_000; // 1 %
    let r = transfer(Cc::Ours, 2_000_000, l, None);
    let lost = get(&r.adapter.lost_packets);
    let reductions = get(&r.adapter.reductions);
    assert!(r.random_drops > 0 && lost > 0);
    // Every loss went to the flow; it reduced at most once per loss and ignored those
    // of packets sent before its recovery began.
    assert!(
        reductions >= 1 && reductions <= lost,
        "{reductions} of {lost}"
    );
    assert_eq!(reductions + get(&r.adapter.losses_in_recovery), lost);
    assert!(r.goodput_mbit() > 2.0, "{:.2} Mbit/s", r.goodput_mbit());
}

#[test]
fn a_long_blackout_is_survived() {
    let mut l = link();
    // The data direction drops everything for 4 s from 0.5 s on, far longer than
    // RFC 9002's persistent-congestion period (3 PTOs, well under 1 s here). s2n-quic
    // 1.91 still reports no persistent congestion: it skips a packet number before
    // every PTO probe, and its detector needs the lost packets' numbers contiguous
    // (its own source notes the interaction). So this checks the PTO path and that the
    // flow recovers; the persistent-congestion call itself is checked in the
    // adapter's unit tests.
    l.blackout = Some((Duration::from_millis(500), Duration::from_secs(4)));
    let log = DepartureLog::new(100_000);
    let r = transfer(Cc::Ours, 2_000_000, l, Some(log.clone()));
    assert!(r.blackout_drops > 0);
    assert!(get(&r.adapter.reductions) >= 1);
    let entries = log.entries();
    let after: Vec<_> = entries
        .iter()
        .filter(|d| d.sent_at_us > 4_500_000)
        .collect();
    assert!(!after.is_empty(), "the transfer went on after the blackout");
    // The window grew again from its smallest value after the blackout.
    let least = after.iter().map(|d| d.cwnd_bytes).min().unwrap();
    let last = after.last().unwrap().cwnd_bytes;
    assert!(last > least, "the window grew again: {least} -> {last}");
}

/// s2n-quic's timer granularity: `Timestamp::has_elapsed` treats a time less than this
/// far ahead as reached (RFC 9002's kGranularity).
const GRANULARITY_US: u64 = 1_000;

#[test]
fn s2n_quic_sends_at_the_pacers_departure_times() {
    let log = DepartureLog::new(100_000);
    let r = transfer(Cc::Ours, 2_000_000, link(), Some(log.clone()));
    let entries = log.entries();
    assert_eq!(entries.len() as u64, get(&r.adapter.sent_packets));
    let mut held_back = 0;
    let mut on_time = 0;
    let mut first_at_their_time = 0;
    for pair in entries.windows(2) {
        let (prev, d) = (pair[0], pair[1]);
        // No time before the first paced send (it may leave at once).
        let Some(edt) = d.earliest_departure_us else {
            assert!(d.number <= 2, "packet {} had no departure time", d.number);
            continue;
        };
        // s2n-quic checks the departure time before each datagram it builds, with the
        // time it woke up at; QUIC packets coalesced into one datagram (during the
        // handshake) share that check, and s2n-quic takes a time less than its timer
        // granularity (1 ms) ahead as reached. So the first packet sent at a new time
        // never left more than 1 ms before the time our pacer gave it.
        if d.sent_at_us > prev.sent_at_us {
            first_at_their_time += 1;
            assert!(
                d.sent_at_us + GRANULARITY_US > edt,
                "packet {} sent at {} before {edt}",
                d.number,
                d.sent_at_us
            );
        }
        if edt > prev.sent_at_us {
            held_back += 1;
            // ... and, held back, it left at that time: s2n-quic's pacing timer was
            // set to our departure time.
            if d.sent_at_us + GRANULARITY_US > edt && d.sent_at_us <= edt + GRANULARITY_US {
                on_time += 1;
            }
        }
    }
    assert!(first_at_their_time > entries.len() / 4);
    // Most packets were paced (the window alone would have let them leave earlier).
    assert!(
        held_back * 2 > entries.len(),
        "{held_back} of {}",
        entries.len()
    );
    assert!(
        on_time * 10 >= held_back * 9,
        "{on_time} of {held_back} on time"
    );
    // The send quantum is TSO autosizing's: at least two segments.
    assert!(entries.iter().all(|d| d.send_quantum_bytes >= 2 * 1200));
}

#[test]
fn unpaced_the_controller_gives_no_departure_time() {
    let log = DepartureLog::new(10_000);
    let r = transfer(Cc::OursUnpaced, 500_000, link(), Some(log.clone()));
    assert!(
        log.entries()
            .iter()
            .all(|d| d.earliest_departure_us.is_none())
    );
    assert_eq!(get(&r.adapter.paced_packets), 0);
}
