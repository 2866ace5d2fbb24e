//! The random source of the BBR replays (`--cc bbr`, `--cc bbr3`): the trace's `rand`
//! lines queued in order, and the draws of the current event recorded for the
//! `rand_drawn` column (`value/ceil;...`, `-` for none).

use crate::{Event, Problem};
use congestion::linux::tcp::{RandomSource, ReplayedRandom};
use core::fmt::{self, Write};

/// Values the `rand` lines may queue ahead of the draws.
const QUEUE: usize = 64;

/// The queued `rand` values and the draws of the current event (at most `N` recorded).
pub(crate) struct Draws<const N: usize> {
    queue: ReplayedRandom<QUEUE>,
    drawn: [(u32, u32); N],
    count: usize,
    /// A draw of this event found the queue empty.
    starved: bool,
}

impl<const N: usize> Draws<N> {
    /// Nothing queued, nothing drawn.
    pub(crate) const fn new() -> Self {
        Draws {
            queue: ReplayedRandom::new(),
            drawn: [(0, 0); N],
            count: 0,
            starved: false,
        }
    }

    /// `rand V...`: queues the values for the next draws.
    pub(crate) fn queue_line<'a>(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        for word in ev.words() {
            let value: u32 = word.parse().map_err(|_| Problem::BadNumber {
                keyword: ev.keyword,
                word,
            })?;
            if !self.queue.push(value) {
                return Err(Problem::OutOfRange {
                    key: "rand",
                    value: u64::from(value),
                });
            }
        }
        Ok(())
    }

    /// A new event (or row): nothing drawn yet.
    pub(crate) fn begin_event(&mut self) {
        self.count = 0;
        self.starved = false;
    }

    /// The draws of this event, `(value, ceil)` (the first `N`).
    pub(crate) fn drawn(&self) -> &[(u32, u32)] {
        self.drawn.get(..self.count.min(N)).unwrap_or(&[])
    }

    /// A draw of this event found no `rand` value queued: the trace is short of them.
    pub(crate) fn check(&self) -> Result<(), Problem<'static>> {
        if self.starved {
            return Err(Problem::RandomExhausted);
        }
        Ok(())
    }
}

impl<const N: usize> RandomSource for Draws<N> {
    fn below(&mut self, ceil: u32) -> u32 {
        if self.queue.pending() == 0 {
            self.starved = true;
            return 0;
        }
        let value = self.queue.below(ceil);
        if let Some(slot) = self.drawn.get_mut(self.count) {
            *slot = (value, ceil);
        }
        self.count = self.count.saturating_add(1);
        value
    }
}

/// The `rand_drawn` cell: `value/ceil` joined by `;`, or `-` for none.
pub(crate) fn write_drawn<W: Write>(out: &mut W, drawn: &[(u32, u32)]) -> fmt::Result {
    if drawn.is_empty() {
        return out.write_str("-");
    }
    for (i, (value, ceil)) in drawn.iter().enumerate() {
        if i > 0 {
            out.write_str(";")?;
        }
        write!(out, "{value}/{ceil}")?;
    }
    Ok(())
}
