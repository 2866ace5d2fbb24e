//! The body's own record of the current recovery period, kept from what the stack
//! did (never read back from the controller): when the period began and the largest
//! packet number (RFC mode) or `snd_nxt` (Linux modes) at that moment. A loss or CE
//! report naming a packet sent before it must not reduce again (RFC 9002 §7.3.2;
//! Linux's `high_seq`).

use congestion::{Instant, SentPacket};

/// How packet numbers compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// RFC mode: `u64` packet numbers; "before" is at or below the largest sent at the
    /// reduction.
    Rfc,
    /// Linux modes: the flow sees 32-bit sequences, the body counts them unwrapped in
    /// 64 bits (marks are `snd_nxt` at the reduction, unwrapped); see
    /// [`Period::sent_before_seq`].
    Linux64,
}

/// The period as the body knows it.
#[derive(Clone, Copy, Debug)]
pub struct Period {
    numbers: Numbers,
    /// Send times are compared as Linux mode compares them: on the kernel's 32-bit µs
    /// clock with wrap-around (valid within 2^31 µs, 35 minutes, of the period's start).
    time32: bool,
    /// `(mark, start)` of the current period: the largest sent (RFC) or `snd_nxt`
    /// (Linux) at the reduction, and its time. `None` before the first.
    current: Option<(u64, Instant)>,
    /// False after an event that may have restored an older period (an RFC-mode undo
    /// brings back the recovery of the undone event): "before" is then undecided until
    /// a report that is new whatever period is in force.
    known: bool,
    /// The largest mark and the latest start of every period so far (RFC mode): a
    /// report above both starts a new period whichever one an undo restored.
    max_mark: u64,
    max_start: Option<Instant>,
    /// Linux modes: an undo left the state (Recovery, CWR or Loss) the period filters
    /// in, so the flow may take the period as over (as the kernel does) or not.
    lapsed: bool,
}

/// The unwrapped sequence whose low 32 bits are `low`, nearest `near`.
pub fn unwrap32(low: u32, near: u64) -> u64 {
    let delta = low.wrapping_sub(near as u32) as i32;
    near.wrapping_add_signed(i64::from(delta))
}

/// `before(a, b)` on 32-bit sequences (Linux `before()`).
pub const fn before32(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}

impl Period {
    /// No period yet; send times compared in full.
    pub const fn new(numbers: Numbers) -> Self {
        Period::with_time32(numbers, false)
    }

    /// No period yet; send times compared on the 32-bit µs clock if `time32`.
    pub const fn with_time32(numbers: Numbers, time32: bool) -> Self {
        Period {
            numbers,
            time32,
            current: None,
            known: true,
            max_mark: 0,
            max_start: None,
            lapsed: false,
        }
    }

    /// The current period's mark and start, if it is known and there is one.
    pub fn current(&self) -> Option<(u64, Instant)> {
        if self.known { self.current } else { None }
    }

    /// Whether the period is known (no undo left it open to doubt).
    pub const fn is_known(&self) -> bool {
        self.known
    }

    /// `Some(true)`: `packet` was sent before the current period began, so the report
    /// must not reduce; `Some(false)`: it starts a new one; `None`: undecided.
    pub fn sent_before(&self, packet: SentPacket) -> Option<bool> {
        if let SentPacket::Unknown = packet {
            return Some(false);
        }
        if self.known {
            let Some((mark, start)) = self.current else {
                return Some(false);
            };
            return Some(match packet {
                SentPacket::Number(n) => n <= mark,
                SentPacket::SentAt(t) if self.time32 => {
                    // Within 35 minutes of the start the 32-bit clock agrees with the
                    // full one; beyond, the flow cannot tell (undecided).
                    let d = i128::from(t.as_micros()) - i128::from(start.as_micros());
                    if d.abs() >= 1 << 31 {
                        return None;
                    }
                    d <= 0
                }
                SentPacket::SentAt(t) => t <= start,
                SentPacket::Unknown => false,
            });
        }
        if self.time32 {
            if let SentPacket::SentAt(_) = packet {
                return None;
            }
        }
        // Undecided, unless the report is new against every period there has been.
        let new = match packet {
            SentPacket::Number(n) => self.numbers == Numbers::Rfc && n > self.max_mark,
            SentPacket::SentAt(t) => self.max_start.is_none_or(|s| t > s),
            SentPacket::Unknown => true,
        };
        if new { Some(false) } else { None }
    }

    /// [`sent_before`](Self::sent_before) for a Linux-mode report naming sequence `n`
    /// (its low 32 bits: the flow truncates it), the stack's unwrapped `snd_una` and
    /// `snd_nxt` being `una` and `nxt`. The sequence is unwrapped to the one nearest
    /// `snd_nxt` (what a 32-bit TCP means by it). Within 2^31 of the period's mark,
    /// 32-bit and unwrapped comparisons agree: before iff below the mark. More than
    /// 2^31 after it, the segment was sent long after the period began, and if it is
    /// sent and still unacknowledged (`una <= seq < nxt`) in a window below 2^31 it
    /// must start a new one (a stale `high_seq` must not judge it). Otherwise (a segment
    /// not sent yet, or acknowledged long ago) undecided.
    ///
    /// Once the mark is acknowledged (`una >= mark`: the period is over, as the kernel
    /// leaves Recovery or Loss at `high_seq`), every segment sent before the period is
    /// acknowledged too: a report naming one (by sequence or by a send time at or
    /// before the start) is a hostile report of acknowledged data, and undecided. A
    /// flow may ignore it (it was sent before the period) or take it as new (the period
    /// is over). The same after an undo ([`lapse`](Self::lapse)), which returns the
    /// kernel to Open.
    pub fn sent_before_seq(&self, packet: SentPacket, una: u64, nxt: u64) -> Option<bool> {
        let ended = self.lapsed || self.current.is_some_and(|(mark, _)| una >= mark);
        let SentPacket::Number(n) = packet else {
            let judged = self.sent_before(packet);
            return if ended && judged == Some(true) {
                None
            } else {
                judged
            };
        };
        if !self.known {
            return None;
        }
        let Some((mark, _)) = self.current else {
            return Some(false);
        };
        let seq = unwrap32(n as u32, nxt);
        let d = i128::from(seq) - i128::from(mark);
        if d.abs() < 1 << 31 {
            if d < 0 && ended { None } else { Some(d < 0) }
        } else if d > 0 && una <= seq && seq < nxt && nxt - una < 1 << 31 {
            // Known finding F2 (`known.rs`): the flow misjudges exactly this case.
            if super::known::F2_STALE_HIGH_SEQ {
                None
            } else {
                Some(false)
            }
        } else {
            None
        }
    }

    /// An event the body could not judge may have begun a period at `now` with
    /// `mark`: later reports count as new only if above it too.
    pub fn maybe_begun(&mut self, mark: u64, now: Instant) {
        self.max_mark = self.max_mark.max(mark);
        self.max_start = Some(self.max_start.map_or(now, |s| s.max(now)));
    }

    /// A period begins at `now`, `mark` being the largest sent (RFC) or `snd_nxt`.
    pub fn begin(&mut self, mark: u64, now: Instant) {
        self.current = Some((mark, now));
        self.known = true;
        self.lapsed = false;
        self.max_mark = self.max_mark.max(mark);
        self.max_start = Some(self.max_start.map_or(now, |s| s.max(now)));
    }

    /// The current period's mark moved to `mark` (known finding F3, `known.rs`).
    pub fn remark(&mut self, mark: u64) {
        if let Some((_, start)) = self.current {
            self.current = Some((mark, start));
            self.max_mark = self.max_mark.max(mark);
        }
    }

    /// Linux modes: an undo returned the flow to Open; reports of packets sent before
    /// the period are undecided from now on.
    pub fn lapse(&mut self) {
        self.lapsed = true;
    }

    /// Something may have restored an older period.
    pub fn forget(&mut self) {
        self.known = false;
    }
}
