//! The sender host below TCP: a FIFO qdisc and a NIC that serialises skbs at line rate.
//!
//! One flow owns the host, so the NIC's schedule is known when an skb is queued: it
//! starts when the NIC is free and its segments leave back to back. The qdisc holds at
//! most `txqueuelen` skbs (Linux counts skbs, not bytes: a TSO burst is one).

use std::collections::VecDeque;

/// Qdisc + NIC.
#[derive(Clone, Debug)]
pub struct Host {
    nic_rate_bps: u64,
    txqueuelen: usize,
    nic_free_ns: u64,
    /// NIC finish times of the skbs not yet fully sent, oldest first.
    in_queue: VecDeque<u64>,
}

impl Host {
    /// A NIC of `nic_rate_bps` behind a qdisc of `txqueuelen` skbs.
    pub fn new(nic_rate_bps: u64, txqueuelen: u32) -> Self {
        Host {
            nic_rate_bps,
            txqueuelen: txqueuelen.max(1) as usize,
            nic_free_ns: 0,
            in_queue: VecDeque::with_capacity(txqueuelen.max(1) as usize + 1),
        }
    }

    /// Time to serialise `wire_bytes` on the NIC, ns.
    pub fn serialisation_ns(&self, wire_bytes: u64) -> u64 {
        wire_bytes * 8 * 1_000_000_000 / self.nic_rate_bps
    }

    fn forget_sent(&mut self, now_ns: u64) {
        while self.in_queue.front().is_some_and(|&t| t <= now_ns) {
            self.in_queue.pop_front();
        }
    }

    /// Whether the qdisc is full at `now_ns`; if so, when its head skb leaves.
    pub fn full_until(&mut self, now_ns: u64) -> Option<u64> {
        self.forget_sent(now_ns);
        if self.in_queue.len() >= self.txqueuelen {
            self.in_queue.front().copied()
        } else {
            None
        }
    }

    /// Queue an skb of `segments` packets of `wire_bytes` each at `now_ns`. Returns
    /// the time the NIC starts it and the time per packet: packet `i` leaves the NIC
    /// at `start + (i + 1) * per_packet`.
    pub fn enqueue(&mut self, now_ns: u64, segments: u32, wire_bytes: u64) -> (u64, u64) {
        let per_packet = self.serialisation_ns(wire_bytes);
        let start = self.nic_free_ns.max(now_ns);
        self.nic_free_ns = start + per_packet * u64::from(segments);
        self.in_queue.push_back(self.nic_free_ns);
        (start, per_packet)
    }

    /// Bytes waiting in qdisc + NIC at `now_ns` (the NIC's remaining backlog).
    pub fn backlog_bytes(&self, now_ns: u64) -> u64 {
        (u128::from(self.nic_free_ns.saturating_sub(now_ns)) * u128::from(self.nic_rate_bps)
            / 8_000_000_000) as u64
    }
}
