//! Why a trace could not be replayed: the line and what was wrong with it, borrowed
//! from the trace so that no allocation is needed to say it.

use congestion::ConfigError;
use core::fmt;

/// A replay error: the 1-based line of the trace and the problem there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error<'a> {
    /// The line of the trace (counting blank and comment lines).
    pub line: usize,
    /// What was wrong.
    pub problem: Problem<'a>,
}

/// What was wrong with a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem<'a> {
    /// An argument the event needs is missing (`position` counts from 1).
    MissingArgument {
        /// The event's keyword.
        keyword: &'a str,
        /// Which argument.
        position: usize,
    },
    /// An argument is not a number of the type the event needs.
    BadNumber {
        /// The event's keyword.
        keyword: &'a str,
        /// The word.
        word: &'a str,
    },
    /// More than [`crate::MAX_ARGS`] arguments.
    TooManyArguments {
        /// The event's keyword.
        keyword: &'a str,
    },
    /// A `set` value wider than the key's `u32`.
    OutOfRange {
        /// The key.
        key: &'a str,
        /// The value given.
        value: u64,
    },
    /// An event the mode does not know.
    UnknownEvent(&'a str),
    /// A `set` key the mode does not know.
    UnknownKey(&'a str),
    /// `set mode NAME` with a name other than `linux` or `rfc9438`.
    UnknownMode(&'a str),
    /// A `set` word outside its valid choices (the text names them).
    BadChoice {
        /// The key.
        key: &'a str,
        /// The valid choices.
        expected: &'static str,
    },
    /// The library refused the settings.
    Config(ConfigError),
    /// The library refused the settings after `set KEY`.
    ConfigAfterSet {
        /// The key.
        key: &'a str,
        /// The library's reason.
        error: ConfigError,
    },
    /// The output sink refused a write.
    Output,
    /// A segment range (`A` or `A-B`) that is not one.
    BadRange(&'a str),
    /// A segment the event names is not outstanding (or, for `rtx`, already SACKed).
    NotOutstanding(u32),
    /// More segments outstanding than the replay's scoreboard holds.
    ScoreboardFull(usize),
    /// An algorithm drew a random number and no `rand` value was queued.
    RandomExhausted,
    /// The event breaks the replay's socket model (the text says how).
    Model(&'static str),
}

impl Problem<'_> {
    /// A fixed one-line summary, for targets that print without `core::fmt`.
    pub fn summary(&self) -> &'static str {
        match self {
            Problem::MissingArgument { .. } => "missing argument",
            Problem::BadNumber { .. } => "bad number",
            Problem::TooManyArguments { .. } => "too many arguments",
            Problem::OutOfRange { .. } => "value out of range",
            Problem::UnknownEvent(_) => "unknown event",
            Problem::UnknownKey(_) => "unknown `set` key",
            Problem::UnknownMode(_) => "unknown mode: linux or rfc9438",
            Problem::BadChoice { expected, .. } => expected,
            Problem::Config(_) | Problem::ConfigAfterSet { .. } => "bad settings",
            Problem::Output => "writing the CSV failed",
            Problem::BadRange(_) => "bad segment range",
            Problem::NotOutstanding(_) => "segment not outstanding",
            Problem::ScoreboardFull(_) => "too many segments outstanding",
            Problem::RandomExhausted => "a random draw with no `rand` value queued",
            Problem::Model(what) => what,
        }
    }
}

impl fmt::Display for Problem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::MissingArgument { keyword, position } => {
                write!(f, "`{keyword}` needs argument {position}")
            }
            Problem::BadNumber { keyword, word } => write!(f, "`{keyword}`: bad number `{word}`"),
            Problem::TooManyArguments { keyword } => {
                write!(f, "`{keyword}`: more than {} arguments", crate::MAX_ARGS)
            }
            Problem::OutOfRange { key, value } => {
                write!(f, "`set {key}`: {value} is out of range (0..={})", u32::MAX)
            }
            Problem::UnknownEvent(kw) => write!(f, "unknown event `{kw}`"),
            Problem::UnknownKey(key) => write!(f, "unknown `set` key `{key}`"),
            Problem::UnknownMode(name) => write!(f, "unknown mode `{name}`: linux or rfc9438"),
            Problem::BadChoice { key, expected } => write!(f, "`set {key}`: {expected}"),
            Problem::Config(e) => write!(f, "{e}"),
            Problem::ConfigAfterSet { key, error } => write!(f, "`set {key}`: {error}"),
            Problem::Output => f.write_str("writing the CSV failed"),
            Problem::BadRange(word) => write!(f, "bad segment range `{word}`"),
            Problem::NotOutstanding(seq) => write!(f, "segment {seq} is not outstanding"),
            Problem::ScoreboardFull(cap) => {
                write!(
                    f,
                    "more than {cap} segments outstanding (the scoreboard's capacity)"
                )
            }
            Problem::RandomExhausted => f.write_str("a random draw with no `rand` value queued"),
            Problem::Model(what) => f.write_str(what),
        }
    }
}

impl fmt::Display for Error<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}
