//! One way to read quantities on the command line, shared by `ccsim` (`sim/`) and the
//! quinn `quinn_transfer` example (`adapters/quinn/`), so a flag means the same in both.
//!
//! | quantity | written | read as |
//! |---|---|---|
//! | rate, bit/s | `10g`, `2.5g`, `100mbit`, `1Gbit/s`, `50Mbps` | `k` `m` `g` `t` = 10^3, 10^6, 10^9, 10^12; an optional `bit`, `bit/s` or `bps` after the prefix |
//! | size, bytes | `64k`, `1.5g`, `64KiB`, `9000`, `1500B` | `k` `m` `g` `t` alone or as `KiB` `MiB` `GiB` `TiB` = 2^10, 2^20, 2^30, 2^40 |
//! | size, bytes, SI | `256kB`, `100MB` | with a `B` after the prefix: 10^3, 10^6, 10^9, 10^12, as SI writes `kB`; `KB` is refused (read as 2^10 by some tools, 10^3 by others) |
//! | duration | `80ms`, `500us`, `1.5s`, `250ns`, `10min`, `1h`, `20d` | a unit is required: `ns`, `us` (or `µs`), `ms`, `s`, `min`, `h`, `d`; a bare number is refused, and so is `m` (minutes or milliseconds?) |
//! | probability | `0.001`, `0.5%` | a fraction in `[0, 1)`; a trailing `%` divides by 100 |
//!
//! Numbers are decimal digits with an optional fraction (`0.5m`, `2.5g`); signs,
//! exponents, `inf` and `nan` are refused. A value that is not a whole number of its
//! unit (`0.1k` = 102.4 bytes) is rounded to the nearest one, halves up. Every error
//! says what was wrong and what is accepted; the tools put the flag's name in front.
//!
//! [`limits`] holds the ranges both tools enforce (MTU, RTT, the socket buffer).

pub mod limits;
mod number;
mod parse;

pub use parse::{duration, probability, rate_bps, size_bytes};

/// Why a value was refused: a sentence naming what is accepted (no flag name; the
/// tool adds it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitError(pub String);

impl core::fmt::Display for UnitError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnitError {}
