//! The trace language of `shared/conformance` and a driver that replays it through the
//! library, printing one CSV row per event.
//!
//! Shared by `examples/replay.rs` (the command-line tool) and the trace tests, so both
//! run exactly the same code. It knows nothing about any particular trace.

#![allow(dead_code, reason = "each includer uses a different part")]

mod linux;
mod rfc;
pub mod v2_6_35;

use std::fmt::Write as _;

pub use linux::LinuxReplay;

/// One parsed line of a `.events` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event<'a> {
    /// The keyword (`set`, `init`, `ack`, ...).
    pub keyword: &'a str,
    /// The words after the keyword.
    pub args: Vec<&'a str>,
}

impl<'a> Event<'a> {
    /// The `i`-th argument as an integer, or an error naming the line.
    pub fn int<T: std::str::FromStr>(&self, i: usize) -> Result<T, String> {
        let word = self
            .args
            .get(i)
            .ok_or_else(|| format!("`{}` needs argument {}", self.keyword, i + 1))?;
        word.parse()
            .map_err(|_| format!("`{}`: bad number `{word}`", self.keyword))
    }

    /// The `i`-th argument as an integer if present.
    pub fn opt_int<T: std::str::FromStr>(&self, i: usize) -> Result<Option<T>, String> {
        if self.args.len() > i {
            self.int(i).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The event time `T` (first argument of every event but `set`).
    pub fn time(&self) -> Result<u64, String> {
        self.int(0)
    }
}

/// `value` as a `u32` for `set KEY`, or an error naming the key and the valid range.
/// Keys whose setting is a `u64` take the value as it is and never call this.
pub fn set_u32(key: &str, value: u64) -> Result<u32, String> {
    u32::try_from(value)
        .map_err(|_| format!("`set {key}`: {value} is out of range (0..={})", u32::MAX))
}

/// Splits a trace into events, skipping blank lines and `#` comments.
pub fn parse(text: &str) -> impl Iterator<Item = (usize, Event<'_>)> {
    text.lines().enumerate().filter_map(|(n, line)| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let mut words = line.split_whitespace();
        let keyword = words.next()?;
        Some((
            n + 1,
            Event {
                keyword,
                args: words.collect(),
            },
        ))
    })
}

/// Which kernel's Linux mode a replay runs (`--kernel` of the replay tool).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Today's kernel (6.x), the default: `shared/conformance/linux-cubic`.
    Today,
    /// Linux 2.6.35: `shared/conformance/linux-2.6.35`.
    V2_6_35,
}

impl Kernel {
    /// From the `--kernel` value: `6` (today's) or `2.6.35`.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "6" => Ok(Kernel::Today),
            "2.6.35" => Ok(Kernel::V2_6_35),
            other => Err(format!("--kernel {other}: expected 6 or 2.6.35")),
        }
    }
}

/// Replays `text` on `kernel` and returns the CSV.
pub fn replay_kernel(text: &str, kernel: Kernel) -> Result<String, String> {
    match kernel {
        Kernel::Today => replay(text),
        Kernel::V2_6_35 => v2_6_35::replay(text),
    }
}

/// Replays `text` and returns the CSV (header plus one row per event).
pub fn replay(text: &str) -> Result<String, String> {
    // `set mode rfc9438` selects RFC mode (tests/replay/rfc.rs); the default is Linux.
    match rfc::requested_mode(text).as_deref() {
        None | Some("linux") => {}
        Some("rfc9438") => return rfc::replay(text),
        Some(other) => return Err(format!("unknown mode `{other}`: linux or rfc9438")),
    }
    let mut out = String::new();
    let mut replay = LinuxReplay::for_trace(text);
    writeln!(out, "{}", replay.header()).map_err(|e| e.to_string())?;
    for (idx, (line_no, event)) in parse(text).enumerate() {
        // `set mode linux` only names the default mode.
        if !(event.keyword == "set" && event.args.first() == Some(&"mode")) {
            replay
                .apply(&event)
                .map_err(|e| format!("line {line_no}: {e}"))?;
        }
        replay
            .write_row(&mut out, idx + 1, event.keyword)
            .map_err(|e| e.to_string())?;
    }
    Ok(out)
}
