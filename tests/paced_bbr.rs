//! A Linux-mode BBR flow inside a [`PacedFlow`], end to end: BBR's pacing rate drives
//! the EDT pacer, its `min_tso_segs` hook the TSO autosizing, TSQ throttles as for any
//! controller; each value below is worked out by hand in the comments.

use congestion::hystart::PacingStatus;
use congestion::linux::tcp::{ReplayedRandom, TxSnapshot};
use congestion::linux::{BbrConfig, BbrController};
use congestion::pacing::{NextPacket, PacedFlow, SendPathConfig, SendVerdict};
use congestion::{AckEvent, AckedPacket, CongestionController, Duration, Instant};

const MSS: u64 = 1448;
/// The NIC reports each burst sent at once (TSQ never holds the flow back).
const COMPLETE: bool = true;

fn paced(initial_rtt_us: u32, t0: Instant) -> PacedFlow<BbrController<ReplayedRandom<4>>> {
    let mut c = BbrConfig::new();
    c.initial_rtt_us = initial_rtt_us;
    let cc = BbrController::new(c, t0, ReplayedRandom::new()).unwrap();
    let mut path = SendPathConfig::new();
    path.pacing_status = PacingStatus::Needed; // the stack waits for each departure
    PacedFlow::new(cc, path.validate().unwrap())
}

/// Polls at `now` and, if it may, sends one burst (numbered from `next_seq`) through
/// the per-packet call; returns the burst's size and snapshot.
fn try_send(
    flow: &mut PacedFlow<BbrController<ReplayedRandom<4>>>,
    now: Instant,
    next_seq: &mut u64,
    complete: bool,
) -> (SendVerdict, Option<TxSnapshot>) {
    let verdict = flow.poll(now, &NextPacket::default());
    let SendVerdict::Send { segments } = verdict else {
        return (verdict, None);
    };
    let n = u64::from(segments);
    *next_seq += n;
    let snapshot = flow.on_packet_sent_counted(now, n, *next_seq - 1);
    if complete {
        flow.on_tx_completion((n * MSS) as u32);
    }
    (verdict, Some(snapshot))
}

#[test]
fn bbr_paces_the_edt_pacer_and_sizes_its_bursts() {
    let t0 = Instant::from_micros(1_000_000);
    let mut flow = paced(10_000, t0);
    // BBR's initial rate (10 segments per 10 ms at 739/256, less 1 %): 4,138,115 B/s.
    assert_eq!(flow.pacing_rate().as_bytes_per_second(), 4_138_115);
    // tcp_tso_segs(): 4,138,115 >> 10 = 4041 bytes per burst (no RTT allowance: no
    // sample yet) = 2 segments, at least bbr_min_tso_segs() = 2 (above 1.2 Mbit/s).
    assert_eq!(flow.min_tso_segs(), Some(2));
    assert_eq!(flow.send_quantum_bytes(), 2 * MSS);
    // The bare controller's quantum is bbr_tso_segs_goal(): min(4041, 65535 - 1 - 320)
    // / 1448 = 2 segments, the same here.
    assert_eq!(flow.controller().send_quantum_bytes(), 2 * MSS);

    // The initial window leaves at t0 in bursts of 2 (TSO), unpaced (sch_fq's first 10
    // segments); the fifth burst reaches the tenth segment and is the first paced one:
    // the next departure moves by 2896 B at 4,138,115 B/s = 2896 · 8e9 / 33,104,920 bit/s
    // = 699,835 ns. The NIC completes each burst at once (TSQ stays open; see below).
    let mut seq = 0;
    let mut kept = Vec::new();
    for _ in 0..5 {
        let (verdict, snapshot) = try_send(&mut flow, t0, &mut seq, COMPLETE);
        assert_eq!(verdict, SendVerdict::Send { segments: 2 });
        kept.push(snapshot.unwrap());
    }
    assert_eq!(flow.in_flight(), 10);
    assert_eq!(
        flow.next_departure(t0),
        Some(Instant::from_micros(1_000_700))
    ); // 699,835 ns, rounded up to the µs
    assert_eq!(
        try_send(&mut flow, t0, &mut seq, COMPLETE).0,
        SendVerdict::WaitForAck
    );

    // 10 ms later the first burst (segments 0 and 1) is acknowledged: BBR measures
    // 2 segments in 10 ms (bw 3355), STARTUP grows cwnd to 12 and keeps its higher
    // initial rate (3355 would pace at 3355 · 1448 · 739 >> 8 = 14,023,795;
    // · 990,000 >> 24 = 827,524 B/s).
    let t1 = Instant::from_micros(1_010_000);
    let ack = AckEvent::new(2, 1, Some(Duration::from_millis(10)));
    flow.on_ack_sampled(t1, &ack, &AckedPacket::new(t0, kept[0]));
    let bbr = flow.controller().flow();
    assert_eq!((bbr.bw(), flow.cwnd(), flow.in_flight()), (3355, 12, 8));
    assert_eq!(flow.pacing_rate().as_bytes_per_second(), 4_138_115);
    // The send path's min-RTT filter has its sample: the RTT allowance is 65536 >>
    // (10,000 >> 9 = 19) = 0 bytes; still 2 segments.
    assert_eq!(flow.send_path().min_rtt_us(), 10_000);
    assert_eq!(flow.send_quantum_bytes(), 2 * MSS);

    // Room for 4: the first burst of 2 leaves at once (the pacer's clock fell behind by
    // 9.3 ms, so half of its 699,835 ns, 349,917, is forgiven: the next departure is
    // 349,918 ns later); the second waits for it.
    let (verdict, _) = try_send(&mut flow, t1, &mut seq, COMPLETE);
    assert_eq!(verdict, SendVerdict::Send { segments: 2 });
    assert_eq!(flow.last_departure_ns(), t1.as_nanos());
    let (verdict, _) = try_send(&mut flow, t1, &mut seq, COMPLETE);
    let due_ns = t1.as_nanos() + 349_918;
    assert_eq!(
        verdict,
        SendVerdict::WaitUntil {
            departure_ns: due_ns
        }
    );
    // At that time (rounded up to the µs) it leaves.
    let t2 = Instant::from_micros(due_ns.div_ceil(1000));
    let (verdict, _) = try_send(&mut flow, t2, &mut seq, COMPLETE);
    assert_eq!(verdict, SendVerdict::Send { segments: 2 });
    assert_eq!(flow.last_departure_ns(), t2.as_nanos());
    assert_eq!(flow.in_flight(), 12);
    assert_eq!(
        try_send(&mut flow, t2, &mut seq, COMPLETE).0,
        SendVerdict::WaitForAck
    );
}

#[test]
fn a_slow_bbr_flow_asks_for_single_segment_bursts() {
    // A 1 s handshake RTT: 10 · 1448 B per second at 739/256, less 1 %: bw = 10 · 2^24 /
    // 1,000,000 = 167; 167 · 1448 · 739 >> 8 = 698,054; · 990,000 >> 24 = 41,191 B/s,
    // below 1.2 Mbit/s (150,000 B/s): bbr_min_tso_segs() = 1, and tcp_tso_segs() =
    // max(41,191 >> 10 = 40 bytes / 1448 = 0, 1) = 1 segment, where the host's default
    // floor would give 2.
    let t0 = Instant::from_micros(1_000_000);
    let mut flow = paced(1_000_000, t0);
    assert_eq!(flow.pacing_rate().as_bytes_per_second(), 41_191);
    assert_eq!(flow.min_tso_segs(), Some(1));
    assert_eq!(flow.send_quantum_bytes(), MSS);
    assert_eq!(flow.controller().send_quantum_bytes(), MSS);
    let mut seq = 0;
    let (verdict, _) = try_send(&mut flow, t0, &mut seq, COMPLETE);
    assert_eq!(verdict, SendVerdict::Send { segments: 1 });
}

#[test]
fn tsq_throttles_a_paced_bbr_flow_until_tx_completion() {
    // TSQ as for every controller: the host queues may hold up to
    // max(2 · truesize, rate >> 10) = max(2 · 2896, 4041) = 5792 bytes (no buffer
    // overhead configured). Each poll compares what is already queued with that limit:
    // before the first three bursts of 2896 B, 0, 2896 and 5792 are queued and pass;
    // before the fourth, 8688 > 5792 throttles it until a TX completion.
    let t0 = Instant::from_micros(1_000_000);
    let mut flow = paced(10_000, t0);
    let mut seq = 0;
    for _ in 0..3 {
        let (verdict, _) = try_send(&mut flow, t0, &mut seq, false);
        assert_eq!(verdict, SendVerdict::Send { segments: 2 });
    }
    assert_eq!(
        try_send(&mut flow, t0, &mut seq, false).0,
        SendVerdict::WaitForTxCompletion
    );
    // One burst leaves the NIC: 5792 queued, within the limit again.
    assert!(flow.on_tx_completion(2 * 1448));
    let (verdict, _) = try_send(&mut flow, t0, &mut seq, false);
    assert_eq!(verdict, SendVerdict::Send { segments: 2 });
    assert_eq!(flow.in_flight(), 8);
}

#[test]
fn the_pacer_follows_bbrs_rate_as_it_changes() {
    // A 10 ms path without a bottleneck: each burst is acknowledged whole 10 ms after it
    // left, with its snapshot. BBR's rate changes as STARTUP measures more; every paced
    // departure is spaced by the burst's serialisation time at the rate BBR set before
    // the send (less the credit the late sender earns, at most half).
    let t0 = Instant::from_micros(1_000_000);
    let mut flow = paced(10_000, t0);
    let mut now = t0;
    let mut seq = 0u64;
    let mut in_air: std::collections::VecDeque<(Instant, u64, u64, TxSnapshot)> =
        std::collections::VecDeque::new();
    let mut rates = std::collections::BTreeSet::new();
    let mut checked = 0;
    while now < Instant::from_micros(1_300_000) {
        let rate = flow.pacing_rate();
        let prior_next = flow.send_path().pacer().next_departure_ns();
        match try_send(&mut flow, now, &mut seq, COMPLETE) {
            (SendVerdict::Send { segments }, Some(snapshot)) => {
                let departure = flow.last_departure_ns();
                let next = flow.send_path().pacer().next_departure_ns();
                let len_ns = rate.transmit_time_ns(u64::from(segments) * MSS).unwrap();
                // tcp_update_skb_after_send(): len_ns - min(len_ns / 2, credit), where
                // credit is how far the departure clock jumped to catch up with now.
                let credit = departure - prior_next.min(departure);
                if seq > 10 && departure >= prior_next {
                    assert_eq!(next - departure, len_ns - (len_ns / 2).min(credit));
                    checked += 1;
                }
                rates.insert(rate.as_bytes_per_second());
                in_air.push_back((now, u64::from(segments), seq - 1, snapshot));
            }
            (SendVerdict::WaitUntil { departure_ns }, _) => {
                let at = Instant::from_micros(departure_ns.div_ceil(1000));
                now = match in_air.front() {
                    Some(&(sent, ..)) if sent.as_micros() + 10_000 <= at.as_micros() => {
                        Instant::from_micros(sent.as_micros() + 10_000)
                    }
                    _ => at,
                };
            }
            (verdict, _) => {
                assert_eq!(verdict, SendVerdict::WaitForAck);
                let (sent, ..) = *in_air.front().expect("a window's worth in the air");
                now = now.max(Instant::from_micros(sent.as_micros() + 10_000));
            }
        }
        while let Some(&(sent, n, last, snapshot)) = in_air.front() {
            if sent.as_micros() + 10_000 > now.as_micros() {
                break;
            }
            in_air.pop_front();
            let rtt = Some(Duration::from_micros(now.as_micros() - sent.as_micros()));
            let ack = AckEvent::new(n, last, rtt);
            flow.on_ack_sampled(now, &ack, &AckedPacket::new(sent, snapshot));
        }
    }
    // STARTUP doubled the rate several times, and each rate paced the bursts sent at it.
    assert!(rates.len() >= 3, "rates {rates:?}");
    assert!(checked > 50, "{checked} paced departures checked");
    assert!(*rates.last().unwrap() > 2 * 4_138_115);
}
