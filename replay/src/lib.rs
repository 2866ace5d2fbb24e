//! The trace language of `shared/conformance` and its replay through the library, once
//! for every runner: the host's replay tool (`examples/replay.rs`) and trace tests, and
//! the firmware image (`embedded/replay`) that replays the same traces under QEMU.
//!
//! [`replay`] reads a whole trace from a `&str` and writes the CSV (a header, then one
//! row per event) into any [`core::fmt::Write`]. No allocation, no `std`: reading
//! files and collecting the CSV into a `String` stay with the runners.
//!
//! Modes: Linux mode (the default, `shared/conformance/linux-cubic`, with the send-path
//! columns when a trace uses the send path's events or keys), RFC mode (`set mode
//! rfc9438`), NewReno (`set mode newreno`) and the Linux 2.6.35 profile ([`Kernel::V2_6_35`], `--kernel 2.6.35`); BBR v1 ([`Cc::Bbr`], `--cc bbr`,
//! `shared/conformance/linux-bbr`). Nothing here knows any particular trace.
#![no_std]
#![forbid(unsafe_code)]

mod bbr;
mod bbr3;
mod bbr_csv;
mod bbr_model;
mod cubic_glue;
mod dctcp;
mod draws;
mod error;
mod linux;
mod pacing;
mod prague;
mod rfc;
mod scoreboard;
mod tcp_model;
mod trace;
mod v2_6_35;

pub use error::{Error, Problem};
pub use trace::{Event, MAX_ARGS, parse, requested_mode, set_u32};

use congestion::Instant;
use congestion::cubic::{LinuxCubicParams, RfcCubic};
use congestion::linux::dctcp::DctcpParams;
use congestion::linux::prague::PragueParams;
use congestion::rfc::NewRenoWindow;
use core::fmt::{self, Write};

/// Which kernel's Linux mode a replay runs (`--kernel` of the replay tool).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Today's kernel (6.x), the default: `shared/conformance/linux-cubic`.
    Today,
    /// Linux 2.6.35: `shared/conformance/linux-2.6.35`.
    V2_6_35,
}

/// A `--kernel` value other than `6` or `2.6.35`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownKernel<'a>(pub &'a str);

impl fmt::Display for UnknownKernel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--kernel {}: expected 6 or 2.6.35", self.0)
    }
}

impl Kernel {
    /// From the `--kernel` value: `6` (today's) or `2.6.35`.
    pub fn parse(name: &str) -> Result<Self, UnknownKernel<'_>> {
        match name {
            "6" => Ok(Kernel::Today),
            "2.6.35" => Ok(Kernel::V2_6_35),
            other => Err(UnknownKernel(other)),
        }
    }
}

/// Which algorithm a replay runs: the `--cc` word of the replay tool, the same word
/// `ccsim --cc` and the adapters use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Cc {
    /// CUBIC (the default): Linux mode, or RFC mode and NewReno when the trace says
    /// `set mode rfc9438` / `set mode newreno`.
    Cubic,
    /// Linux DCTCP (`tcp_dctcp.c`) in the socket model of `shared/conformance/linux-dctcp`.
    Dctcp,
    /// TCP Prague 0.7 (`tcp_prague.c`) in the same socket model
    /// (`shared/conformance/linux-prague`).
    Prague,
    /// BBR v1, Linux mode (`shared/conformance/linux-bbr`).
    Bbr,
    /// BBRv3 (Google's `tcp_bbr.c`, `BBR_VERSION 3`): `shared/conformance/linux-bbr3`.
    Bbr3,
}

/// A `--cc` value that names no algorithm the replay knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownCc<'a>(pub &'a str);

impl fmt::Display for UnknownCc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--cc {}: expected one of {}", self.0, Cc::WORDS)
    }
}

impl Cc {
    /// The valid `--cc` words, for error messages and usage lines.
    pub const WORDS: &'static str = "cubic, bbr, bbr3, dctcp, prague";

    /// From the `--cc` word.
    pub fn parse(name: &str) -> Result<Self, UnknownCc<'_>> {
        match name {
            "cubic" => Ok(Cc::Cubic),
            "dctcp" => Ok(Cc::Dctcp),
            "prague" => Ok(Cc::Prague),
            "bbr" => Ok(Cc::Bbr),
            "bbr3" => Ok(Cc::Bbr3),
            other => Err(UnknownCc(other)),
        }
    }
}

/// One mode's replay state: what [`replay`] drives event by event.
trait Mode<'a> {
    /// Whether the mode reads lines longer than [`MAX_ARGS`] arguments (through
    /// [`Event::words`]); the others refuse them.
    const LONG_LINES: bool = false;
    /// Writes the CSV header line.
    fn write_header<W: Write>(&self, out: &mut W) -> fmt::Result;
    /// `set KEY VALUE`.
    fn set(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>>;
    /// An event without a time (BBR's `rand V...`): returns whether the mode took it.
    /// It neither initialises the flow nor moves the trace's time.
    fn untimed(&mut self, ev: &Event<'a>) -> Result<bool, Problem<'a>> {
        let _ = ev;
        Ok(false)
    }
    /// Whether the flow exists (an `init` ran).
    fn has_flow(&self) -> bool;
    /// Builds the flow at `now` and sends its first packets: the count `init T [N]`
    /// names, or the initial window when `ev` is none (any event before `init`).
    fn init(&mut self, now: Instant, ev: Option<&Event<'a>>) -> Result<(), Problem<'a>>;
    /// Any event but `set` and `init`, on the running flow.
    fn event(&mut self, now: Instant, ev: &Event<'a>) -> Result<(), Problem<'a>>;
    /// Writes the row after an event; zeros before the flow exists.
    fn write_row<W: Write>(&mut self, out: &mut W, row: Row<'_>) -> fmt::Result;
}

/// The flow of a mode's `event`: the driver builds it (or stops at its error) before
/// any event, so `None` is not reached; it would report the event as unknown.
fn running<'f, 'a, F>(flow: &'f mut Option<F>, ev: &Event<'a>) -> Result<&'f mut F, Problem<'a>> {
    flow.as_mut().ok_or(Problem::UnknownEvent(ev.keyword))
}

/// The start of a row before the flow exists: `idx,keyword` and `cells` zeros.
fn zeros_after<W: Write>(out: &mut W, idx: usize, keyword: &str, cells: usize) -> fmt::Result {
    write!(out, "{idx},{keyword}")?;
    for _ in 0..cells {
        out.write_str(",0")?;
    }
    Ok(())
}

/// What a row names besides the mode's state.
#[derive(Clone, Copy, Debug)]
struct Row<'k> {
    /// The event's number in the trace, from 1.
    idx: usize,
    /// The event's keyword.
    keyword: &'k str,
    /// The trace's time after the event (that of the last timed event), µs.
    t_us: u64,
}

/// One event through `mode`, with the rules every mode shares: `set` configures; every
/// other event carries its time `T` first; any event before `init` initialises the
/// flow at its time first. Returns the trace's time after the event.
fn apply<'a, M: Mode<'a>>(mode: &mut M, ev: &Event<'a>, now_us: u64) -> Result<u64, Problem<'a>> {
    if ev.keyword == "set" {
        mode.set(ev)?;
        return Ok(now_us);
    }
    if mode.untimed(ev)? {
        return Ok(now_us);
    }
    let t_us = ev.time()?;
    let now = Instant::from_micros(t_us);
    if ev.keyword == "init" {
        mode.init(now, Some(ev))?;
    } else {
        if !mode.has_flow() {
            mode.init(now, None)?;
        }
        mode.event(now, ev)?;
    }
    Ok(t_us)
}

/// Replays `text` on `kernel` into `out`: the header, then one row per event.
///
/// `set mode rfc9438` selects RFC mode, `set mode newreno` RFC-mode NewReno, `set mode
/// linux` (or none) Linux mode; the 2.6.35 profile has one mode only.
pub fn replay<'a, W: Write>(text: &'a str, kernel: Kernel, out: &mut W) -> Result<(), Error<'a>> {
    replay_cc(text, Cc::Cubic, kernel, out)
}

/// Replays `text` with algorithm `cc` into `out`. `kernel` picks the profile for CUBIC
/// only; every other algorithm follows today's kernel.
pub fn replay_cc<'a, W: Write>(
    text: &'a str,
    cc: Cc,
    kernel: Kernel,
    out: &mut W,
) -> Result<(), Error<'a>> {
    match cc {
        Cc::Cubic => replay_cubic(text, kernel, out),
        Cc::Dctcp => run(
            tcp_model::TcpModelReplay::<dctcp::DctcpColumns>::new(DctcpParams::new()),
            text,
            out,
        ),
        Cc::Prague => run(
            tcp_model::TcpModelReplay::<prague::PragueColumns>::new(PragueParams::new()),
            text,
            out,
        ),
        Cc::Bbr => replay_bbr(text, out),
        Cc::Bbr3 => replay_bbr3(text, out),
    }
}

/// Replays a trace of `shared/conformance/linux-cubic` (Linux mode, today's kernel)
/// through the generic glue with CUBIC's hook table (`TcpFlow<CubicOps>`) instead of
/// the packed `linux::Cubic`: the same CSV, written by the other implementation.
pub fn replay_cubic_on_glue<'a, W: Write>(text: &'a str, out: &mut W) -> Result<(), Error<'a>> {
    run(
        tcp_model::TcpModelReplay::<cubic_glue::CubicColumns>::new(LinuxCubicParams::default()),
        text,
        out,
    )
}

/// BBR v1's replay. Out of line: its scoreboard is large (4096 segments), and a replay
/// of another algorithm (the firmware image's, on a stack of a few MiB) should not
/// reserve its stack frame.
#[inline(never)]
fn replay_bbr<'a, W: Write>(text: &'a str, out: &mut W) -> Result<(), Error<'a>> {
    run(bbr::BbrReplay::new(), text, out)
}

/// BBRv3's replay. Out of line for the same reason as [`replay_bbr`].
#[inline(never)]
fn replay_bbr3<'a, W: Write>(text: &'a str, out: &mut W) -> Result<(), Error<'a>> {
    run(bbr3::Bbr3Replay::new(), text, out)
}

/// CUBIC's replay: the kernel profile, then the mode the trace asks for.
fn replay_cubic<'a, W: Write>(text: &'a str, kernel: Kernel, out: &mut W) -> Result<(), Error<'a>> {
    if kernel == Kernel::V2_6_35 {
        return run(v2_6_35::Replay2635::new(), text, out);
    }
    match requested_mode(text) {
        None | Some((_, "linux")) => {
            let linux = linux::LinuxReplay::for_trace(text).map_err(|e| Error {
                line: 0,
                problem: Problem::Config(e),
            })?;
            run(linux, text, out)
        }
        Some((_, "rfc9438")) => run(rfc::RfcReplay::<RfcCubic>::new(), text, out),
        Some((_, "newreno")) => run(rfc::RfcReplay::<NewRenoWindow>::new(), text, out),
        Some((line, other)) => Err(Error {
            line,
            problem: Problem::UnknownMode(other),
        }),
    }
}

/// Drives `mode` through every event of `text`.
fn run<'a, M: Mode<'a>, W: Write>(
    mut mode: M,
    text: &'a str,
    out: &mut W,
) -> Result<(), Error<'a>> {
    let output = |line| Error {
        line,
        problem: Problem::Output,
    };
    mode.write_header(out).map_err(|_| output(0))?;
    let mut now_us = 0;
    for (idx, (line, event)) in parse(text).enumerate() {
        let at = |problem| Error { line, problem };
        let event = event.map_err(at)?;
        if event.is_long() && !M::LONG_LINES {
            return Err(at(Problem::TooManyArguments {
                keyword: event.keyword,
            }));
        }
        now_us = apply(&mut mode, &event, now_us).map_err(at)?;
        let row = Row {
            idx: idx + 1,
            keyword: event.keyword,
            t_us: now_us,
        };
        mode.write_row(out, row).map_err(|_| output(line))?;
    }
    Ok(())
}
