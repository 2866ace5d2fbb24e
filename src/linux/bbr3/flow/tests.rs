use super::*;
use crate::linux::tcp::tests::Rng;

const RING: usize = 1024;

/// One outstanding segment: when it left, what the flow returned, marked lost.
#[derive(Clone, Copy, Default)]
struct Seg {
    at_us: u64,
    sent: Sent,
    lost: bool,
}

/// Asserts that two flows agree on everything but the kept pacing inputs.
fn same_but_paced(a: &Bbr3, b: &Bbr3) {
    let mut b = *b;
    b.sock.paced = a.sock.paced;
    assert_eq!(*a, b);
}

/// The bandwidth and gain a flow keeps beside its pacing rate never change what it
/// does: a twin whose kept inputs are cleared before every event (so it computes the
/// rate afresh on every ACK, as the kernel does) samples, sends and sets cwnd and the
/// pacing rate identically, through path changes, losses and Recovery, ECN marks,
/// app-limited pauses, time jumps and timeouts.
#[test]
fn the_kept_pacing_inputs_change_nothing_the_flow_does() {
    for seed in 1..=8u64 {
        let mut config = Bbr3Config::new();
        config.initial_rtt_us = 10_000;
        config.mss = [1448, 1200, 536, 9000][(seed % 4) as usize];
        (config.ecn, config.ecn_low) = (seed % 2 == 0, seed % 2 == 0);
        let p = config.validate().unwrap();
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut now = 1_000_000u64;
        let mut a = Bbr3::new(&p, Instant::from_micros(now), &mut rng);
        let mut b = a;
        let mut ra = Rng(seed);
        let mut rb = Rng(seed);
        let mut ring = [Seg::default(); RING];
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
                // The path changes: its RTT and how fast it delivers.
                rtt = 1_000 + rng.upto(80_000);
                scale = [1, 5, 30, 200][rng.upto(4) as usize];
            }
            let t = Instant::from_micros(now);
            // Now and then the stack marks the oldest segment not yet marked lost.
            let mut lost_snap = [TxSnapshot::default(); 1];
            let mut n_lost = 0;
            if una != nxt && rng.upto(400) == 0 {
                let seg = &mut ring[una as usize % RING];
                if !seg.lost {
                    seg.lost = true;
                    lost_snap[0] = seg.sent.snapshot;
                    n_lost = 1;
                }
            }
            // Cumulative ACKs of what has been out for an RTT, 1 to 3 segments, and
            // now and then one that delivers nothing but may carry a loss mark.
            let due = una != nxt && ring[una as usize % RING].at_us + rtt <= now;
            let dup = una != nxt && (n_lost == 1 || rng.upto(8) == 0);
            if due || dup {
                let prior_flight = flight;
                flight.lost_out += n_lost;
                let n = if due {
                    (1 + rng.upto(3) as u32).min(nxt.wrapping_sub(una))
                } else {
                    0
                };
                let mut segs = [DeliveredSegment::default(); 3];
                for (i, seg) in segs.iter_mut().enumerate().take(n as usize) {
                    let seq = una.wrapping_add(i as u32);
                    let s = ring[seq as usize % RING];
                    seg.sent = s.sent;
                    seg.end_seq = seq.wrapping_add(1);
                    if s.lost {
                        flight.lost_out -= 1;
                    }
                }
                una = una.wrapping_add(n);
                flight.packets_out -= n;
                let rtt_us = if rng.upto(10) == 0 {
                    None
                } else {
                    Some(rtt as u32)
                };
                let mut segs_b = segs;
                let mut ack = Bbr3Ack {
                    snd_una: una,
                    snd_nxt: nxt,
                    delivered: &mut segs[..n as usize],
                    delivered_count: n,
                    newly_lost: &lost_snap[..n_lost as usize],
                    rtt_us,
                    srtt_us: rtt as u32,
                    ack_maybe_delayed: rng.upto(4) == 0,
                    ece: rng.upto(20) == 0,
                    nothing_queued: rng.upto(30) == 0,
                    is_cwnd_limited: rng.upto(2) == 0,
                    prior_flight,
                    flight,
                    undo: false,
                };
                b.sock.paced = PacedAt::NONE;
                let out_a = a.on_ack(&p, t, &mut ack, &mut ra);
                ack.delivered = &mut segs_b[..n as usize];
                let out_b = b.on_ack(&p, t, &mut ack, &mut rb);
                assert_eq!(out_a, out_b, "seed {seed} step {step}");
                same_but_paced(&a, &b);
            }
            if rng.upto(2_000) == 0 && flight.packets_out > 0 {
                // A timeout: everything outstanding is lost.
                let prior_flight = flight;
                let mut snaps = [TxSnapshot::default(); 8];
                let mut k = 0;
                for i in 0..nxt.wrapping_sub(una) {
                    let seg = &mut ring[una.wrapping_add(i) as usize % RING];
                    if !seg.lost {
                        seg.lost = true;
                        if k < snaps.len() {
                            snaps[k] = seg.sent.snapshot;
                            k += 1;
                        }
                    }
                }
                flight.lost_out = flight.packets_out;
                let rto = Bbr3Rto {
                    prior_flight,
                    flight,
                    newly_lost: &snaps[..k],
                    snd_una: una,
                    snd_nxt: nxt,
                    timeouts: 0,
                    nothing_queued: false,
                };
                b.sock.paced = PacedAt::NONE;
                a.on_rto(&p, t, &rto, &mut ra);
                b.on_rto(&p, t, &rto, &mut rb);
                same_but_paced(&a, &b);
            }
            // Sends while cwnd and the pacer allow, unless the application pauses.
            if rng.upto(50) == 0 {
                b.sock.paced = PacedAt::NONE;
                a.on_app_limited(&p, t, flight, true);
                b.on_app_limited(&p, t, flight, true);
                same_but_paced(&a, &b);
                continue;
            }
            while flight.in_flight() < a.cwnd()
                && a.next_departure_ns() <= now * 1000
                && (nxt.wrapping_sub(una) as usize) < RING
            {
                b.sock.paced = PacedAt::NONE;
                let sa = a.on_send(&p, t, flight, &mut ra);
                let sb = b.on_send(&p, t, flight, &mut rb);
                assert_eq!(sa, sb, "seed {seed} step {step}");
                same_but_paced(&a, &b);
                ring[nxt as usize % RING] = Seg {
                    at_us: now,
                    sent: sa,
                    lost: false,
                };
                nxt = nxt.wrapping_add(1);
                flight.packets_out += 1;
            }
            if a.sock.paced != PacedAt::NONE {
                kept += 1;
            }
        }

        // The stream exercised the kept inputs, delivered, and lost.
        assert!(kept > 1_000, "seed {seed}: kept {kept}");
        let (delivered, _, lost, _) = a.delivery_counters();
        assert!(
            delivered > 500 && lost > 0,
            "seed {seed}: {delivered} {lost}"
        );
    }
}
