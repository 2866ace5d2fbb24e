//! The trace language of `tests/replay/` (`shared/conformance`): one event per line,
//! `#` comments and blank lines skipped, words separated by white space. The same rules
//! as `tests/replay/mod.rs`, without allocation: at most [`MAX_ARGS`] arguments.

use core::str::FromStr;

/// Arguments an event may carry (the longest, `ack`, has four).
pub const MAX_ARGS: usize = 8;

/// Why a trace could not be replayed (the host replay words these with more detail; a
/// firmware run only has to stop with the line number).
pub type Error = &'static str;

/// One parsed line.
pub struct Event<'a> {
    /// The keyword (`set`, `init`, `ack`, ...).
    pub keyword: &'a str,
    args: [&'a str; MAX_ARGS],
    len: usize,
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

    /// The `i`-th argument as an integer.
    pub fn int<T: FromStr>(&self, i: usize) -> Result<T, Error> {
        self.arg(i)
            .ok_or("missing argument")?
            .parse()
            .map_err(|_| "bad number")
    }

    /// The `i`-th argument as an integer if present.
    pub fn opt_int<T: FromStr>(&self, i: usize) -> Result<Option<T>, Error> {
        match self.arg(i) {
            Some(_) => self.int(i).map(Some),
            None => Ok(None),
        }
    }

    /// The event time (first argument of every event but `set`), µs.
    pub fn time(&self) -> Result<u64, Error> {
        self.int(0)
    }

    /// Whether this is `set KEY ...`.
    pub fn sets(&self, key: &str) -> bool {
        self.keyword == "set" && self.arg(0) == Some(key)
    }
}

/// The events of `text` with their line numbers.
pub fn parse(text: &str) -> impl Iterator<Item = Result<(usize, Event<'_>), Error>> {
    Lines(text).enumerate().filter_map(|(n, line)| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let mut words = line.split_whitespace();
        let keyword = words.next()?;
        let mut event = Event {
            keyword,
            args: [""; MAX_ARGS],
            len: 0,
        };
        for word in words {
            match event.args.get_mut(event.len) {
                Some(slot) => *slot = word,
                None => return Some(Err("too many arguments")),
            }
            event.len += 1;
        }
        Some(Ok((n + 1, event)))
    })
}

/// The mode a trace asks for with its first `set mode NAME`, if any.
pub fn requested_mode(text: &str) -> Option<&str> {
    parse(text)
        .filter_map(Result::ok)
        .find(|(_, e)| e.sets("mode"))
        .map(|(_, e)| e.arg(1).unwrap_or(""))
}

/// The lines of a text, split at `\n` (a trailing `\r` is trimmed with the rest of the
/// white space). core's `lines()` and `split()` keep a slice-index panic path that the
/// optimiser cannot remove; `str::get` has none.
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
