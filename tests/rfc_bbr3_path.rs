//! `rfc::Bbr3` on a simulated bottleneck: a sanity check beyond the hand-worked
//! scenarios of `rfc_bbr3.rs`. A sender that obeys cwnd and the pacing rate sends
//! 1,200-byte packets through a FIFO bottleneck (rate, buffer) with a fixed two-way
//! propagation delay; the receiver acknowledges every packet; a packet is declared
//! lost when one sent 3 packet numbers later is acknowledged (RFC 9002 §6.1.1).

use congestion::Instant;
use congestion::linux::tcp::{RandomSource, TxSnapshot};
use congestion::rfc::bbr3::State;
use congestion::rfc::{Bbr3, Bbr3Ack, Bbr3Config};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

const SMSS: u32 = 1200;

struct Lcg(u64);
impl RandomSource for Lcg {
    fn below(&mut self, ceil: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        ((self.0 >> 33) as u32) % ceil.max(1)
    }
}

struct Outcome {
    goodput_bytes_per_s: u64,
    lost: u64,
    sent: u64,
    mean_late_rtt_us: u64,
    states_seen: Vec<State>,
}

/// Runs `secs` seconds on a link of `bytes_per_s` with `rtt_us` propagation and a
/// buffer of `buffer_packets`; goodput is measured over the second half.
fn run(
    bytes_per_s: u64,
    rtt_us: u64,
    buffer_packets: u64,
    secs: u64,
    random_loss_per_mille: u64,
) -> Outcome {
    let p = Bbr3Config::quic(SMSS).validate().expect("valid");
    let mut f = Bbr3::new(&p, Instant::ZERO);
    let mut rand = Lcg(7);
    let mut drop_rng = Lcg(11);
    let end = secs * 1_000_000;
    let half = end / 2;
    let mut now = 0u64;
    let mut next_send = 0u64;
    let mut link_free = 0u64; // when the bottleneck finishes its queue, µs
    let mut pn = 0u64;
    // ACK arrivals: (time, pn); outstanding packets by number.
    let mut acks: BinaryHeap<Reverse<(u64, u64)>> = BinaryHeap::new();
    let mut out: BTreeMap<u64, (TxSnapshot, u64)> = BTreeMap::new();
    let mut delivered_late = 0u64;
    let (mut lost, mut sent) = (0u64, 0u64);
    let (mut rtt_sum, mut rtt_n) = (0u64, 0u64);
    let mut states_seen = vec![f.state()];
    while now < end {
        let can_send = f.bytes_in_flight() + SMSS <= f.cwnd();
        let next_ack = acks.peek().map(|Reverse((t, _))| *t);
        let send_at = if can_send {
            Some(next_send.max(now))
        } else {
            None
        };
        now = match (send_at, next_ack) {
            (Some(s), Some(a)) => s.min(a),
            (Some(s), None) => s,
            (None, Some(a)) => a,
            (None, None) => break,
        };
        if next_ack == Some(now) {
            let Reverse((_, acked_pn)) = acks.pop().expect("peeked");
            if let Some((mut tx, at)) = out.remove(&acked_pn) {
                f.on_packet_acked(&mut tx, Instant::from_micros(at), acked_pn, SMSS);
                if now >= half {
                    delivered_late += u64::from(SMSS);
                }
                // Packet threshold 3: everything 3 or more below is lost.
                let gone: Vec<u64> = out
                    .range(..acked_pn.saturating_sub(2))
                    .map(|(k, _)| *k)
                    .collect();
                for q in gone {
                    let (tx, _) = out.remove(&q).expect("listed");
                    f.on_packet_lost(&p, Instant::from_micros(now), &tx, q, SMSS, &mut rand);
                    lost += 1;
                }
                let rtt = now - at;
                if now >= half {
                    rtt_sum += rtt;
                    rtt_n += 1;
                }
                let mut ack = Bbr3Ack::with_rtt_us(rtt);
                ack.is_cwnd_limited = f.bytes_in_flight() + 2 * SMSS > f.cwnd();
                f.on_ack(&p, Instant::from_micros(now), &ack, &mut rand);
                f.invariants(&p).expect("invariants");
                if states_seen.last() != Some(&f.state()) {
                    states_seen.push(f.state());
                }
            }
            continue;
        }
        // Send one packet now.
        let tx = f.on_packet_sent(Instant::from_micros(now), pn, SMSS, &mut rand);
        sent += 1;
        let service_us = u64::from(SMSS) * 1_000_000 / bytes_per_s;
        let queued = link_free.saturating_sub(now) / service_us.max(1);
        let random_drop =
            random_loss_per_mille > 0 && u64::from(drop_rng.below(1000)) < random_loss_per_mille;
        if queued < buffer_packets && !random_drop {
            link_free = link_free.max(now) + service_us;
            acks.push(Reverse((link_free + rtt_us, pn)));
        }
        out.insert(pn, (tx, now));
        pn += 1;
        let pace_us = (u64::from(SMSS) * 1_000_000).div_ceil(f.pacing_rate().max(1));
        next_send = now + pace_us;
    }
    Outcome {
        goodput_bytes_per_s: delivered_late / (secs - secs / 2),
        lost,
        sent,
        mean_late_rtt_us: rtt_sum / rtt_n.max(1),
        states_seen,
    }
}

#[test]
fn fills_a_10_mbit_40_ms_path_with_a_bdp_of_buffer() {
    // 10 Mbit/s = 1,250,000 B/s; BDP = 50,000 B ≈ 42 packets; buffer 42 packets.
    // Goodput over the second half: 96.7 % of the link in this run.
    let o = run(1_250_000, 40_000, 42, 20, 0);
    assert!(
        o.goodput_bytes_per_s >= 1_250_000 * 9 / 10,
        "goodput {} B/s",
        o.goodput_bytes_per_s
    );
    // In steady state BBR keeps the queue small: over the second half the mean RTT
    // (44.6 ms in this run) stays within 25 % of the 40 ms propagation delay, where a
    // buffer-filling sender would see up to 40 + 42 × 0.96 = 80 ms.
    assert!(
        o.mean_late_rtt_us <= 50_000,
        "mean rtt {}",
        o.mean_late_rtt_us
    );
    for s in [
        State::Startup,
        State::Drain,
        State::ProbeBwCruise,
        State::ProbeBwUp,
        State::ProbeRtt,
    ] {
        assert!(
            o.states_seen.contains(&s),
            "{s:?} never seen: {:?}",
            &o.states_seen[..10.min(o.states_seen.len())]
        );
    }
    assert!(o.lost * 100 <= o.sent, "lost {} of {}", o.lost, o.sent);
}

#[test]
fn keeps_most_of_a_shallow_lossy_path() {
    // 50 Mbit/s, 40 ms, 30 kB of buffer (25 packets, an eighth of the BDP), 1 % random
    // loss: a loss-based sender collapses; BBR's loss response is bounded per round
    // (76 % of the link in this run).
    let o = run(6_250_000, 40_000, 25, 20, 10);
    assert!(
        o.goodput_bytes_per_s >= 6_250_000 / 2,
        "goodput {} B/s",
        o.goodput_bytes_per_s
    );
}
