extern crate std;
use super::*;
use crate::linux::{Cubic, CubicConfig};
use crate::time::Duration;
use std::format;

#[test]
fn the_ring_keeps_the_last_n_events_and_tells_the_story() {
    let flow = Cubic::new(CubicConfig::new(), Instant::ZERO).unwrap();
    let mut rec: FlightRecorder<_, 3> = FlightRecorder::new(flow);
    rec.on_sent(Instant::ZERO, &SentEvent::new(10, 10));
    let ack = AckEvent {
        acked: 2,
        rtt: Some(Duration::from_millis(20)),
        ..AckEvent::default()
    };
    rec.on_ack(Instant::from_micros(20_000), &ack);
    rec.on_loss(Instant::from_micros(21_000), &LossEvent::packet(1, 3));
    rec.on_ack(Instant::from_micros(40_000), &ack);

    assert_eq!(rec.events_seen(), 4);
    let seqs: std::vec::Vec<u64> = rec.records().map(|r| r.seq).collect();
    assert_eq!(seqs, [2, 3, 4]);
    // The loss: cwnd 12 -> 12 * 717 / 1024 = 8, a recovery period until snd_una
    // passes high_seq (12).
    let loss = rec.records().nth(1).unwrap();
    assert_eq!(
        (loss.cwnd, loss.ssthresh, loss.phase, loss.phase_changed),
        (8, Some(8), Phase::Recovery, true)
    );
    let story = format!("{rec:?}");
    assert!(story.contains("last 3 of 4 events"), "{story}");
    assert!(
        story.contains("loss 1 of Number(3) -> cwnd 8 ssthresh 8 Recovery (phase changed)"),
        "{story}"
    );
    // Recording changes nothing about the controller.
    assert_eq!(rec.cwnd(), rec.inner().cwnd());
}
