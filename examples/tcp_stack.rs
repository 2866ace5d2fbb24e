//! A toy TCP sender driving a Linux-mode flow with its send path: bursts sized by TSO
//! autosizing and the window, cumulative ACKs one RTT later, and a retransmission
//! timeout when the path goes silent. Windows are in segments, as the kernel counts.
//!
//! ```sh
//! cargo run --example tcp_stack
//! ```

use congestion::hystart::PacingStatus;
use congestion::linux::{Cubic, CubicConfig};
use congestion::pacing::{NextPacket, PacedFlow, SendPathConfig, SendVerdict};
use congestion::{AckEvent, ConfigError, CongestionController, Duration, Instant, SentEvent};

/// The path's round-trip time.
const RTT: Duration = Duration::from_millis(20);

/// Runs the toy: returns cwnd before the outage, after the RTO, and at the end.
fn run() -> Result<(u64, u64, u64), ConfigError> {
    let cc = Cubic::new(CubicConfig::new(), Instant::ZERO)?;
    let mut path = SendPathConfig::new();
    path.pacing_status = PacingStatus::Fq; // an fq qdisc holds packets to their departure
    let mut flow = PacedFlow::new(cc, path.validate()?);
    let mss = u32::try_from(flow.mss_bytes()).unwrap_or(u32::MAX);

    // (segments, sent at) of each burst in flight; snd_nxt in segments.
    let mut bursts: Vec<(u64, Instant)> = Vec::new();
    let mut snd_nxt = 0u64;
    let mut snd_una = 0u64;
    let mut before_outage = 0;
    let mut after_rto = 0;
    let outage = 300_000..1_300_000; // µs: the path delivers nothing, ACKs stop
    let mut now = Instant::ZERO;
    while now.as_micros() < 2_000_000 {
        let t = now.as_micros();
        if outage.contains(&t) {
            if t == outage.start {
                before_outage = flow.cwnd();
                println!("{t:>7} µs  path goes silent at cwnd {before_outage}");
            }
            if t == outage.start + 200_000 {
                // The RTO fires: everything in flight is lost, the head is resent.
                flow.on_retransmission_timeout(now);
                after_rto = flow.cwnd();
                println!("{t:>7} µs  RTO -> cwnd {after_rto}, {:?}", flow.phase());
                bursts.clear();
                snd_nxt = snd_una + flow.in_flight();
                bursts.push((flow.in_flight(), now));
            }
            now = now.saturating_add(Duration::from_millis(1));
            continue;
        }
        // Cumulative ACKs for every burst sent one RTT ago.
        let mut acked = 0;
        bursts.retain(|&(segs, at)| {
            let due = now.saturating_duration_since(at) >= RTT;
            if due {
                acked += segs;
            }
            !due
        });
        if acked > 0 {
            snd_una += acked;
            flow.on_ack(now, &AckEvent::new(acked, snd_una, Some(RTT)));
        }
        while let SendVerdict::Send { segments } = flow.poll(now, &NextPacket::default()) {
            let segs = u64::from(segments);
            snd_nxt += segs;
            let in_flight = snd_nxt - snd_una;
            flow.on_sent(now, &SentEvent::new(in_flight, snd_nxt));
            bursts.push((segs, now));
            flow.on_tx_completion(segments.saturating_mul(mss));
        }
        if t % 100_000 == 0 {
            println!(
                "{t:>7} µs  cwnd {:>4}  in flight {:>4}  quantum {:>5} B  {:?}",
                flow.cwnd(),
                flow.in_flight(),
                flow.send_quantum_bytes(),
                flow.phase()
            );
        }
        now = now.saturating_add(Duration::from_millis(1));
    }
    Ok((before_outage, after_rto, flow.cwnd()))
}

fn main() -> Result<(), ConfigError> {
    let (before, rto, end) = run()?;
    println!("cwnd {before} before the outage, {rto} after the RTO, {end} at the end");
    Ok(())
}

#[test]
fn an_rto_collapses_the_window_and_slow_start_regrows_it() {
    let (before, rto, end) = run().expect("valid configuration");
    assert!(before > 10, "the window grew before the outage: {before}");
    assert_eq!(rto, 1, "tcp_enter_loss: cwnd 1");
    assert!(end > 10, "slow start after the RTO: {end}");
}
