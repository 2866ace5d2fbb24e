//! The trace language: one event per line, `#` comments and blank lines skipped, words
//! separated by white space; at most [`MAX_ARGS`] arguments, so no allocation.

use crate::error::Problem;
use congestion::{EcnEvent, LossEvent, SentPacket};
use core::str::FromStr;

/// Arguments an event keeps by position (the longest CUBIC event, `ack`, has four).
/// Longer lines (BBRv3's `rtx` of many ranges, `rand` of many values) are read word by
/// word through [`Event::words`], by the modes that accept them.
pub const MAX_ARGS: usize = 8;

/// One parsed line.
#[derive(Clone, Copy, Debug)]
pub struct Event<'a> {
    /// The keyword (`set`, `init`, `ack`, ...).
    pub keyword: &'a str,
    args: [&'a str; MAX_ARGS],
    len: usize,
    /// All arguments, as written (for [`Event::words`]).
    rest: &'a str,
    /// The line has more than [`MAX_ARGS`] arguments.
    long: bool,
}

impl<'a> Event<'a> {
    /// The `i`-th argument, if present.
    pub fn arg(&self, i: usize) -> Option<&'a str> {
        if i < self.len {
            self.args.get(i).copied()
        } else {
            None
        }
    }

    /// Every argument, in order, however many there are.
    pub fn words(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        self.rest.split_whitespace()
    }

    /// Whether the line has more than [`MAX_ARGS`] arguments: only [`Event::words`]
    /// sees them all, so modes that read by position refuse such a line.
    pub const fn is_long(&self) -> bool {
        self.long
    }

    /// The `i`-th argument as an integer.
    pub fn int<T: FromStr>(&self, i: usize) -> Result<T, Problem<'a>> {
        let word = self.arg(i).ok_or(Problem::MissingArgument {
            keyword: self.keyword,
            position: i + 1,
        })?;
        word.parse().map_err(|_| Problem::BadNumber {
            keyword: self.keyword,
            word,
        })
    }

    /// The `i`-th argument as an integer if present.
    pub fn opt_int<T: FromStr>(&self, i: usize) -> Result<Option<T>, Problem<'a>> {
        match self.arg(i) {
            Some(_) => self.int(i).map(Some),
            None => Ok(None),
        }
    }

    /// The event time `T` (first argument of every event but `set`), µs.
    pub fn time(&self) -> Result<u64, Problem<'a>> {
        self.int(0)
    }

    /// The three numbers of `ack T ACKED RTT INFLIGHT_AFTER` after the time: ACKED and
    /// INFLIGHT_AFTER in the mode's unit `T` (packets or bytes), RTT in µs (negative:
    /// no sample).
    pub fn ack_args<T: FromStr>(&self) -> Result<(T, i64, T), Problem<'a>> {
        Ok((self.int(1)?, self.int(2)?, self.int(3)?))
    }

    /// The optional arguments of `loss T [LOST [NEWEST]]` (and `persistent T [LOST]`):
    /// the amount lost (default 0) and the sequence (Linux mode, segments) or packet
    /// number (RFC mode, the replay's byte sequence) of the newest lost packet. Without
    /// NEWEST the packet is unknown, so the loss is always a new congestion event (what
    /// `loss T` has always meant). `None` when the line has no argument after `T`.
    pub fn loss_args(&self) -> Result<Option<LossEvent>, Problem<'a>> {
        let Some(lost) = self.opt_int::<u64>(1)? else {
            return Ok(None);
        };
        let newest_lost = match self.opt_int::<u64>(2)? {
            Some(n) => SentPacket::Number(n),
            None => SentPacket::Unknown,
        };
        Ok(Some(LossEvent {
            lost,
            newest_lost,
            persistent_congestion: self.keyword == "persistent",
        }))
    }

    /// The optional argument of `ecn T [CE_INCREASE]`: a rise of the CE count in the ACK
    /// of `largest_acked` (what the replay last acknowledged). `None` without it: the
    /// mark is always a new congestion event (what `ecn T` has always meant).
    pub fn ecn_args(&self, largest_acked: u64) -> Result<Option<EcnEvent>, Problem<'a>> {
        Ok(self
            .opt_int::<u64>(1)?
            .map(|ce| EcnEvent::new(ce, largest_acked)))
    }

    /// Whether this is `set KEY ...`.
    pub fn sets(&self, key: &str) -> bool {
        self.keyword == "set" && self.arg(0) == Some(key)
    }

    /// The key of a `set` line.
    pub fn key(&self) -> Result<&'a str, Problem<'a>> {
        self.arg(0).ok_or(Problem::MissingArgument {
            keyword: self.keyword,
            position: 1,
        })
    }
}

/// `value` as a `u32` for `set KEY`, or the error naming the key and the valid range.
/// Keys whose setting is a `u64` take the value as it is and never call this.
pub fn set_u32(key: &str, value: u64) -> Result<u32, Problem<'_>> {
    u32::try_from(value).map_err(|_| Problem::OutOfRange { key, value })
}

/// The events of `text` with their line numbers (1-based).
pub fn parse(text: &str) -> impl Iterator<Item = (usize, Result<Event<'_>, Problem<'_>>)> {
    Lines(text).enumerate().filter_map(|(n, line)| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let mut words = line.split_whitespace();
        let keyword = words.next()?;
        let rest = line.get(keyword.len()..).unwrap_or("");
        let mut event = Event {
            keyword,
            args: [""; MAX_ARGS],
            len: 0,
            rest,
            long: false,
        };
        for word in words {
            match event.args.get_mut(event.len) {
                Some(slot) => *slot = word,
                None => {
                    event.long = true;
                    break;
                }
            }
            event.len += 1;
        }
        Some((n + 1, Ok(event)))
    })
}

/// The mode a trace asks for with its first `set mode NAME`, if any.
pub fn requested_mode(text: &str) -> Option<(usize, &str)> {
    parse(text)
        .filter_map(|(n, e)| e.ok().map(|e| (n, e)))
        .find(|(_, e)| e.sets("mode"))
        .map(|(n, e)| (n, e.arg(1).unwrap_or("")))
}

/// The lines of a text, split at `\n` (a trailing `\r` is trimmed with the rest of the
/// white space). core's `lines()` and `split()` keep a slice-index panic path that the
/// optimiser cannot remove, which the firmware's link check refuses; `str::get` has none.
struct Lines<'a>(&'a str);

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.0.is_empty() {
            return None;
        }
        let text = self.0;
        match text.bytes().position(|b| b == b'\n') {
            Some(end) => {
                self.0 = text.get(end + 1..).unwrap_or("");
                text.get(..end)
            }
            None => {
                self.0 = "";
                Some(text)
            }
        }
    }
}
