//! The event queue: a binary heap keyed by (time, insertion number), so events at the
//! same nanosecond run in the order they were scheduled and every run is repeatable.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What happens at one instant. Small and `Copy`: the queue holds hundreds of
/// thousands of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A data segment reaches the receiver.
    Arrive {
        /// Segment number.
        seq: u32,
    },
    /// An ACK reaches the sender.
    Ack {
        /// Cumulative ACK: every segment below is received.
        cum: u32,
        /// The SACK block of the segment that triggered this ACK, `[lo, hi)`; empty when
        /// `lo == hi`.
        sack_lo: u32,
        /// End of the SACK block.
        sack_hi: u32,
        /// The receive window the receiver advertises, segments beyond `cum`.
        rwnd: u32,
    },
    /// A TSO burst completed at the NIC (the TSQ budget reopens).
    TxCompletion {
        /// Payload bytes of the completed burst.
        bytes: u32,
    },
    /// The pacer's departure time has come.
    PacingWake,
    /// The retransmission timer may have expired.
    RtoTimer,
    /// The receiver's delayed-ACK timer may have expired.
    DelackTimer,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    time_ns: u64,
    order: u64,
    event: Event,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        (self.time_ns, self.order) == (other.time_ns, other.order)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    // Reversed: BinaryHeap is a max-heap and the earliest event must come out first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time_ns, other.order).cmp(&(self.time_ns, self.order))
    }
}

/// Pending events, earliest first; ties broken by scheduling order.
#[derive(Debug)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    next_order: u64,
    popped: u64,
}

impl EventQueue {
    /// An empty queue with room for `capacity` events before it must grow.
    pub fn with_capacity(capacity: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(capacity),
            next_order: 0,
            popped: 0,
        }
    }

    /// Schedule `event` at `time_ns`.
    pub fn push(&mut self, time_ns: u64, event: Event) {
        let order = self.next_order;
        self.next_order += 1;
        self.heap.push(Entry {
            time_ns,
            order,
            event,
        });
    }

    /// The earliest event, if any.
    pub fn pop(&mut self) -> Option<(u64, Event)> {
        let e = self.heap.pop()?;
        self.popped += 1;
        Some((e.time_ns, e.event))
    }

    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<u64> {
        self.heap.peek().map(|e| e.time_ns)
    }

    /// Events taken out so far (the `--stats` count).
    pub fn processed(&self) -> u64 {
        self.popped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_and_ties_in_scheduling_order() {
        let mut q = EventQueue::with_capacity(4);
        q.push(20, Event::PacingWake);
        q.push(10, Event::RtoTimer);
        q.push(10, Event::DelackTimer);
        assert_eq!(q.pop(), Some((10, Event::RtoTimer)));
        assert_eq!(q.pop(), Some((10, Event::DelackTimer)));
        assert_eq!(q.pop(), Some((20, Event::PacingWake)));
        assert_eq!(q.pop(), None);
        assert_eq!(q.processed(), 3);
    }
}
