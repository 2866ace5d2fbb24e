//! The per-segment state the BBR replays (`--cc bbr`, `--cc bbr3`) keep for every
//! outstanding segment (what the kernel keeps in each skb of its retransmission queue):
//! departure time, `sacked` bits and the rate sampler's send snapshot, in a
//! fixed-capacity ring indexed by sequence number. No allocation: a window wider than
//! the ring is an error of the caller's.

use congestion::linux::tcp::TxSnapshot;

/// Segments the ring holds: at most this many may be outstanding at once (a power of
/// two, so slots survive the `u32` wrap of sequence numbers).
pub const CAPACITY: usize = 4096;

/// One outstanding segment (`struct sk_buff` with its `tcp_skb_cb`), `pcount` 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Segment {
    /// `tcp_skb_timestamp_us()`: departure time of its last (re)transmission, µs.
    pub tx_us: u64,
    /// `sacked`: the `TCPCB_*` bits (`congestion::linux::tcp::skb`).
    pub sacked: u8,
    /// `tx`: the rate sampler's snapshot taken when it was (last) sent.
    pub tx: TxSnapshot,
}

/// The outstanding segments `[una, nxt)`, by sequence number (wrapping `u32`).
#[derive(Clone, Debug)]
pub struct Scoreboard {
    segments: [Segment; CAPACITY],
}

impl Default for Scoreboard {
    fn default() -> Self {
        Scoreboard {
            segments: [Segment::default(); CAPACITY],
        }
    }
}

impl Scoreboard {
    /// The slot of `seq` (the ring wraps as the sequence space does).
    fn slot(seq: u32) -> usize {
        seq as usize % CAPACITY
    }

    /// Whether one more segment fits when `[una, nxt)` is outstanding.
    pub fn has_room(una: u32, nxt: u32) -> bool {
        (nxt.wrapping_sub(una) as usize) < CAPACITY
    }

    /// The segment `seq`; the caller keeps `seq` within the outstanding window.
    pub fn get(&self, seq: u32) -> Segment {
        self.segments
            .get(Self::slot(seq))
            .copied()
            .unwrap_or_default()
    }

    /// The segment `seq`, to update.
    pub fn get_mut(&mut self, seq: u32) -> Option<&mut Segment> {
        self.segments.get_mut(Self::slot(seq))
    }

    /// Forgets every segment (a new connection).
    pub fn clear(&mut self) {
        self.segments = [Segment::default(); CAPACITY];
    }

    /// Stores `segment` as `seq`.
    pub fn put(&mut self, seq: u32, segment: Segment) {
        if let Some(slot) = self.segments.get_mut(Self::slot(seq)) {
            *slot = segment;
        }
    }
}
