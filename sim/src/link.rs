//! The path: one bottleneck (rate, drop-tail buffer in bytes), propagation delay each
//! way, optional random loss and delay jitter.
//!
//! Packets reach the bottleneck in time order (one flow, one FIFO NIC), so each
//! packet's fate is settled when it is offered: its queueing, its drop, its arrival at
//! the receiver. Jitter adds a uniform extra delay but never reorders (a packet never
//! arrives before the one ahead of it), as a serial path does.

use std::collections::VecDeque;

use crate::aqm::{Aqm, Verdict};
use crate::config::{AqmKind, Ect};
use crate::rng::SplitMix64;

/// What the bottleneck saw of the packets that reached it inside
/// [`Link::measure_between`]'s window.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinkStats {
    /// Packets that reached the queue (accepted, dropped or not).
    pub packets: u64,
    /// Sum of their sojourns before dequeue, ns (accepted packets only).
    pub sojourn_sum_ns: u64,
    /// Accepted packets (the sojourn sum's count).
    pub accepted: u64,
    /// Time the link spent serialising them, ns.
    pub busy_ns: u64,
}

impl LinkStats {
    /// Mean queueing delay (sojourn before dequeue), ns.
    pub fn mean_sojourn_ns(&self) -> f64 {
        if self.accepted == 0 {
            0.0
        } else {
            self.sojourn_sum_ns as f64 / self.accepted as f64
        }
    }
}

/// The bottleneck and the forward propagation delay.
#[derive(Clone, Debug)]
pub struct Link {
    rate_bps: u64,
    buffer_bytes: u64,
    one_way_ns: u64,
    jitter_ns: u64,
    loss: f64,
    free_ns: u64,
    queued: VecDeque<(u64, u32)>,
    queued_bytes: u64,
    last_arrival_ns: u64,
    /// Accepted packets not yet known to have left: (reaches the bottleneck, leaves
    /// it, wire bytes accepted up to and including it). Packets are offered ahead of
    /// time (when the sender queues them), so this tells what is really at the
    /// bottleneck at a given instant.
    schedule: VecDeque<(u64, u64, u64)>,
    /// Whether `schedule` is kept: only [`queued_bytes`](Self::queued_bytes) reads it.
    keep_schedule: bool,
    accepted_bytes: u64,
    left_bytes: u64,
    rng: SplitMix64,
    /// The last packet size's serialisation time, (wire bytes, ns): every packet of a
    /// flow has the same size, and a division by the rate for each costs tens of cycles.
    serialisation: (u32, u64),
    /// Packets dropped by the full buffer.
    pub tail_drops: u64,
    /// Packets dropped at random.
    pub random_drops: u64,
    /// The queue discipline.
    pub aqm: Aqm,
    /// Statistics of packets reaching the bottleneck from `measure_from_ns` on.
    pub stats: LinkStats,
    measure_from_ns: u64,
    measure_until_ns: u64,
}

impl Link {
    /// A bottleneck of `rate_bps` with `buffer_bytes` of buffer, `one_way_ns` of
    /// forward delay, `jitter_ns` of extra delay at most and loss probability `loss`.
    pub fn new(
        rate_bps: u64,
        buffer_bytes: u64,
        one_way_ns: u64,
        jitter_ns: u64,
        loss: f64,
        seed: u64,
    ) -> Self {
        Link {
            rate_bps,
            buffer_bytes,
            one_way_ns,
            jitter_ns,
            loss,
            free_ns: 0,
            queued: VecDeque::with_capacity(4096),
            queued_bytes: 0,
            last_arrival_ns: 0,
            schedule: VecDeque::with_capacity(4096),
            keep_schedule: true,
            accepted_bytes: 0,
            left_bytes: 0,
            rng: SplitMix64::new(seed),
            serialisation: (0, 0),
            tail_drops: 0,
            random_drops: 0,
            aqm: Aqm::new(AqmKind::DropTail, 1),
            stats: LinkStats::default(),
            measure_from_ns: 0,
            measure_until_ns: u64::MAX,
        }
    }

    /// The same link with `aqm` at the bottleneck for packets of `wire_bytes`.
    pub fn with_aqm(mut self, aqm: AqmKind, wire_bytes: u32) -> Self {
        self.aqm = Aqm::new(aqm, wire_bytes);
        self
    }

    /// Count [`stats`](Self::stats) only for packets reaching the bottleneck from
    /// `from_ns` until before `until_ns`, and busy time only inside that window.
    pub fn measure_between(mut self, from_ns: u64, until_ns: u64) -> Self {
        self.measure_from_ns = from_ns;
        self.measure_until_ns = until_ns;
        self
    }

    /// A packet of `wire_bytes` with ECN codepoint `ect` reaches the bottleneck at
    /// `at_ns`: when it reaches the receiver and whether it was marked CE, or `None` if
    /// it is dropped.
    pub fn offer(&mut self, at_ns: u64, wire_bytes: u32, ect: Ect) -> Option<(u64, bool)> {
        while self.queued.front().is_some_and(|&(end, _)| end <= at_ns) {
            if let Some((_, b)) = self.queued.pop_front() {
                self.queued_bytes -= u64::from(b);
            }
        }
        let measured = (self.measure_from_ns..self.measure_until_ns).contains(&at_ns);
        self.stats.packets += u64::from(measured);
        if self.queued_bytes + u64::from(wire_bytes) > self.buffer_bytes {
            self.tail_drops += 1;
            return None;
        }
        let start = self.free_ns.max(at_ns);
        let mut ce = false;
        if self.aqm.is_active() {
            match self
                .aqm
                .dequeue(at_ns, start, self.queued_bytes, ect, &mut self.rng)
            {
                Verdict::Pass => {}
                Verdict::Mark => ce = true,
                Verdict::Drop => {
                    // Dropped at dequeue: it held its place in the buffer until then
                    // and never used the link.
                    self.queued.push_back((start, wire_bytes));
                    self.queued_bytes += u64::from(wire_bytes);
                    return None;
                }
            }
        }
        if self.serialisation.0 != wire_bytes {
            let ns = u64::from(wire_bytes) * 8 * 1_000_000_000 / self.rate_bps;
            self.serialisation = (wire_bytes, ns);
        }
        let end = start + self.serialisation.1;
        if measured {
            self.stats.accepted += 1;
            self.stats.sojourn_sum_ns += start - at_ns;
            self.stats.busy_ns += end
                .min(self.measure_until_ns)
                .saturating_sub(start.max(self.measure_from_ns));
        }
        self.free_ns = end;
        self.queued.push_back((end, wire_bytes));
        self.queued_bytes += u64::from(wire_bytes);
        self.accepted_bytes += u64::from(wire_bytes);
        if self.keep_schedule {
            self.schedule.push_back((at_ns, end, self.accepted_bytes));
        }
        if self.loss > 0.0 && self.rng.next_f64() < self.loss {
            self.random_drops += 1;
            return None;
        }
        let jitter = self.rng.below(self.jitter_ns);
        let arrival = (end + self.one_way_ns + jitter).max(self.last_arrival_ns);
        self.last_arrival_ns = arrival;
        Some((arrival, ce))
    }

    /// A run that never asks for [`queued_bytes`](Self::queued_bytes) (its probe does
    /// not read the queue) keeps no record of when each packet is at the bottleneck.
    pub fn without_queue_record(mut self) -> Self {
        self.keep_schedule = false;
        self
    }

    /// Drop the record of packets that have left the bottleneck by `now_ns` (what
    /// [`queued_bytes`](Self::queued_bytes) does first; a run whose probe does not
    /// read the queue calls only this, so the record stays short).
    pub fn forget_left(&mut self, now_ns: u64) {
        while let Some(&(_, end, cum)) = self.schedule.front() {
            if end > now_ns {
                break;
            }
            self.left_bytes = cum;
            self.schedule.pop_front();
        }
    }

    /// Wire bytes of the packets that have reached the bottleneck by `now_ns` and not
    /// finished leaving it (the one being serialised counts whole). Packets the
    /// sender's host still holds are not counted: they are the host's backlog.
    /// `now_ns` must not go backwards between calls.
    pub fn queued_bytes(&mut self, now_ns: u64) -> u64 {
        self.forget_left(now_ns);
        // Arrival times only grow (one FIFO sender), so the arrived packets are a prefix.
        let arrived = self.schedule.partition_point(|&(at, _, _)| at <= now_ns);
        match arrived.checked_sub(1).and_then(|i| self.schedule.get(i)) {
            Some(&(_, _, cum)) => cum - self.left_bytes,
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_queue_behind_each_other_and_the_full_buffer_drops() {
        // 1 Gbit/s: 1538 B take 12304 ns. Buffer of two packets, 1 ms one way.
        let mut l = Link::new(1_000_000_000, 3076, 1_000_000, 0, 0.0, 1);
        assert_eq!(
            l.offer(0, 1538, Ect::NotEct),
            Some((12_304 + 1_000_000, false))
        );
        assert_eq!(
            l.offer(0, 1538, Ect::NotEct),
            Some((24_608 + 1_000_000, false))
        );
        assert_eq!(l.offer(0, 1538, Ect::NotEct), None, "3 x 1538 B > 3076 B");
        assert_eq!(l.tail_drops, 1);
        // Once the first has left, there is room again: it starts after the second.
        assert_eq!(
            l.offer(12_304, 1538, Ect::NotEct),
            Some((36_912 + 1_000_000, false))
        );
        // At 24608 ns the second has left too: 1 packet is still queued.
        assert_eq!(l.queued_bytes(24_608), 1538);
    }

    #[test]
    fn packets_offered_ahead_of_time_are_not_queued_before_they_arrive() {
        // 1 Gbit/s, one packet offered for 1 ms from now: nothing is queued until then.
        let mut l = Link::new(1_000_000_000, 1 << 20, 0, 0, 0.0, 1);
        l.offer(1_000_000, 1538, Ect::NotEct);
        assert_eq!(l.queued_bytes(0), 0);
        assert_eq!(l.queued_bytes(1_000_000), 1538);
        assert_eq!(l.queued_bytes(1_012_304), 0, "left after 12304 ns");
    }

    #[test]
    fn jitter_never_reorders_and_loss_is_drawn_from_the_seed() {
        let mut l = Link::new(1_000_000_000, 1 << 20, 1_000_000, 500_000, 0.5, 3);
        let mut last = 0;
        let mut lost = 0;
        for i in 0..1000u64 {
            match l.offer(i * 12_304, 1538, Ect::NotEct) {
                Some((t, _)) => {
                    assert!(t >= last);
                    last = t;
                }
                None => lost += 1,
            }
        }
        assert_eq!(lost, l.random_drops);
        assert!((400..600).contains(&lost), "{lost} of 1000 at p = 0.5");
    }
}
