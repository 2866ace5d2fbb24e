use super::*;
use crate::hystart::PacingStatus;
use crate::linux::tcp::tests::Rng;

const RING: usize = 1024;

/// Asserts that two flows agree on everything but the kept TSO goal, and that pacing
/// is on (the view's send takes `sk_pacing_status != 0` without testing it).
fn same_but_goal(a: &Bbr, b: &Bbr) {
    assert_ne!(a.sock.sk_pacing_status(), 0);
    let mut b = *b;
    b.sock.tso_goal = a.sock.tso_goal;
    assert_eq!(*a, b);
}

/// The TSO goal a flow keeps between events never changes what it does: a twin whose
/// kept goal is cleared before every event (so it computes the goal afresh each time,
/// as the kernel does) sends, samples and sets cwnd and the pacing rate identically,
/// through rate changes, app-limited pauses, time jumps, timeouts and Loss recovery.
#[test]
fn the_kept_tso_goal_changes_nothing_the_flow_does() {
    for seed in 1..=8u64 {
        let mut config = BbrConfig::new();
        config.initial_rtt_us = 10_000;
        config.mss = [1448, 1200, 536, 9000][(seed % 4) as usize];
        config.pacing_status = [PacingStatus::None, PacingStatus::Fq][(seed % 2) as usize];
        let p = config.validate().unwrap();
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut now = 1_000_000u64;
        let mut a = Bbr::new(&p, Instant::from_micros(now), &mut rng);
        let mut b = a;
        let mut ra = Rng(seed);
        let mut rb = Rng(seed);
        let mut ring = [(0u64, Sent::default()); RING];
        let (mut una, mut nxt) = (0u32, 0u32);
        let mut flight = Flight::default();
        let mut rtt = 10_000u64;
        let mut scale = 1u64;
        let mut kept = 0u32;
        for step in 0..20_000u32 {
            now += 1 + rng.upto(40 * scale);
            if rng.upto(500) == 0 {
                now += rng.upto(2_000_000); // idle, or a jump
            }
            if rng.upto(300) == 0 {
                // The path changes: its RTT and how fast it delivers (rates over
                // three orders of magnitude, so the TSO goal moves).
                rtt = 1_000 + rng.upto(80_000);
                scale = [1, 5, 30, 200][rng.upto(4) as usize];
            }
            let t = Instant::from_micros(now);
            // Cumulative ACKs of what has been out for an RTT, 1 to 3 segments, and
            // now and then one that delivers nothing (a rate change on such an ACK
            // leaves cwnd's goal uncomputed: only the view's reset catches it).
            let due = una != nxt && ring[una as usize % RING].0 + rtt <= now;
            let dup = una != nxt && rng.upto(8) == 0;
            if due || dup {
                let prior_flight = flight;
                let n = if due {
                    (1 + rng.upto(3) as u32).min(nxt.wrapping_sub(una))
                } else {
                    0
                };
                let mut segs = [DeliveredSegment::default(); 3];
                for (i, seg) in segs.iter_mut().enumerate().take(n as usize) {
                    let seq = una.wrapping_add(i as u32);
                    seg.sent = ring[seq as usize % RING].1;
                    seg.end_seq = seq.wrapping_add(1);
                }
                una = una.wrapping_add(n);
                flight.packets_out -= n;
                flight.lost_out = flight.lost_out.min(flight.packets_out);
                let rtt_us = if rng.upto(10) == 0 {
                    None
                } else {
                    Some(rtt as u32)
                };
                let mut segs_b = segs;
                let mut ack = BbrAck {
                    snd_una: una,
                    snd_nxt: nxt,
                    delivered: &mut segs[..n as usize],
                    delivered_count: n,
                    newly_lost: 0,
                    rtt_us,
                    srtt_us: rtt as u32,
                    ack_maybe_delayed: rng.upto(4) == 0,
                    prior_flight,
                    flight,
                    undo: false,
                };
                b.sock.tso_goal = 0;
                let rs_a = a.on_ack(&p, t, &mut ack, &mut ra);
                ack.delivered = &mut segs_b[..n as usize];
                let rs_b = b.on_ack(&p, t, &mut ack, &mut rb);
                assert_eq!(rs_a, rs_b, "seed {seed} step {step}");
                same_but_goal(&a, &b);
            }
            if rng.upto(2_000) == 0 && flight.packets_out > 0 {
                // A timeout: everything outstanding is lost.
                let newly = flight.packets_out - flight.lost_out;
                flight.lost_out = flight.packets_out;
                b.sock.tso_goal = 0;
                a.on_rto(&p, t, flight, newly, una, nxt, 0, &mut ra);
                b.on_rto(&p, t, flight, newly, una, nxt, 0, &mut rb);
                same_but_goal(&a, &b);
            }
            // Sends while cwnd and the pacer allow, unless the application pauses.
            if rng.upto(50) == 0 {
                b.sock.tso_goal = 0;
                a.on_app_limited(&p, t, flight, true);
                b.on_app_limited(&p, t, flight, true);
                same_but_goal(&a, &b);
                continue;
            }
            while flight.in_flight() < a.cwnd()
                && a.next_departure_ns() <= now * 1000
                && (nxt.wrapping_sub(una) as usize) < RING
            {
                b.sock.tso_goal = 0;
                let sa = a.on_send(&p, t, flight, &mut ra);
                let sb = b.on_send(&p, t, flight, &mut rb);
                assert_eq!(sa, sb, "seed {seed} step {step}");
                same_but_goal(&a, &b);
                ring[nxt as usize % RING] = (now, sa);
                nxt = nxt.wrapping_add(1);
                flight.packets_out += 1;
            }
            if a.sock.tso_goal != 0 {
                kept += 1;
                assert_eq!(u32::from(a.sock.tso_goal), a.tso_segs_goal(&p));
            }
        }
        // The stream exercised the kept goal, and delivered.
        assert!(kept > 1_000, "seed {seed}: kept {kept}");
        assert!(
            a.delivery_counters().0 > 500,
            "seed {seed}: {:?} kept {kept}",
            a.delivery_counters()
        );
    }
}
