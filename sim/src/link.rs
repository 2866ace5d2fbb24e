//! The path: one bottleneck (rate, drop-tail buffer in bytes), propagation delay each
//! way, optional random loss and delay jitter.
//!
//! Packets reach the bottleneck in time order (one flow, one FIFO NIC), so each
//! packet's fate is settled when it is offered: its queueing, its drop, its arrival at
//! the receiver. Jitter adds a uniform extra delay but never reorders (a packet never
//! arrives before the one ahead of it), as a serial path does.

use std::collections::VecDeque;

use crate::rng::SplitMix64;

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
        }
    }

    /// A packet of `wire_bytes` reaches the bottleneck at `at_ns`: when it reaches the
    /// receiver, or `None` if it is dropped.
    pub fn offer(&mut self, at_ns: u64, wire_bytes: u32) -> Option<u64> {
        while self.queued.front().is_some_and(|&(end, _)| end <= at_ns) {
            if let Some((_, b)) = self.queued.pop_front() {
                self.queued_bytes -= u64::from(b);
            }
        }
        if self.queued_bytes + u64::from(wire_bytes) > self.buffer_bytes {
            self.tail_drops += 1;
            return None;
        }
        let start = self.free_ns.max(at_ns);
        if self.serialisation.0 != wire_bytes {
            let ns = u64::from(wire_bytes) * 8 * 1_000_000_000 / self.rate_bps;
            self.serialisation = (wire_bytes, ns);
        }
        let end = start + self.serialisation.1;
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
        Some(arrival)
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
        assert_eq!(l.offer(0, 1538), Some(12_304 + 1_000_000));
        assert_eq!(l.offer(0, 1538), Some(24_608 + 1_000_000));
        assert_eq!(l.offer(0, 1538), None, "3 x 1538 B > 3076 B");
        assert_eq!(l.tail_drops, 1);
        // Once the first has left, there is room again: it starts after the second.
        assert_eq!(l.offer(12_304, 1538), Some(36_912 + 1_000_000));
        // At 24608 ns the second has left too: 1 packet is still queued.
        assert_eq!(l.queued_bytes(24_608), 1538);
    }

    #[test]
    fn packets_offered_ahead_of_time_are_not_queued_before_they_arrive() {
        // 1 Gbit/s, one packet offered for 1 ms from now: nothing is queued until then.
        let mut l = Link::new(1_000_000_000, 1 << 20, 0, 0, 0.0, 1);
        l.offer(1_000_000, 1538);
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
            match l.offer(i * 12_304, 1538) {
                Some(t) => {
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
