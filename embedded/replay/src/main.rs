//! Replays one trace through `congestion-replay` (replay/) on an emulated core: reads
//! the trace and writes the replay CSV to a host file, both through semihosting:
//!
//! ```text
//! qemu-system-arm -M mps2-an386 -nographic -kernel replay \
//!   -semihosting-config enable=on,target=native,arg=replay,arg=IN.events,arg=OUT.csv
//! qemu-system-arm -M mps2-an386 -nographic -kernel replay \
//!   -semihosting-config enable=on,target=native,arg=replay,arg=--cc,arg=bbr,arg=IN.events,arg=OUT.csv
//! ```
//!
//! `--cc WORD` names the algorithm as the host's `--cc` does (`cubic`, the default,
//! `bbr`, `bbr3`, `dctcp`, `prague`).
//!
//! The same code as the host's `examples/replay.rs` (both call
//! `congestion_replay::replay_cc`); `scripts/qemu.sh` compares the rows byte for byte.
//! Exit status 0 on success, 1 on a bad trace or an I/O error.
//!
//! The panic handler calls a symbol that exists nowhere, so an image in which any panic
//! path survived optimisation does not link. Buffers live on the stack: the image has
//! no `.data` and no `.bss`. The stack is the boards' RAM above the image (4 MiB on
//! mps2-an386, 16 MiB on virt): the trace buffer ([`MAX_TRACE_BYTES`]) plus the replay,
//! measured by painting at about 3 KiB for CUBIC, DCTCP and Prague and at about
//! 390 KiB (`--cc bbr`) and 590 KiB (`--cc bbr3`) for the BBR replays, whose state holds
//! a 4096-segment scoreboard of about 196 KiB that the replay moves into place.
#![no_std]
#![no_main]

mod csv;
mod entry;
#[allow(
    dead_code,
    reason = "shared with the cost binary, which prints to stdout"
)]
mod semihosting;

use congestion_replay::{Cc, Kernel};
use csv::Csv;
use semihosting::File;

/// Why the firmware stopped: a fixed message (the firmware prints without `core::fmt`).
type Error = &'static str;

/// The largest trace this firmware takes (the biggest shipped one,
/// `linux-bbr3/bw_step_change`, is 460 KiB).
const MAX_TRACE_BYTES: usize = 1024 * 1024;

/// The firmware's main, entered from the reset handler.
#[unsafe(no_mangle)]
pub extern "C" fn firmware_main() -> ! {
    let mut trace = [0u8; MAX_TRACE_BYTES];
    let mut out_buf = [0u8; 4096];
    let result = run(&mut trace, &mut out_buf);
    if let Err(e) = result {
        semihosting::print(b"replay firmware: ");
        semihosting::print(e.as_bytes());
        semihosting::print(b"\n");
    }
    semihosting::exit(result.is_ok())
}

/// What the command line (`replay [--cc WORD] IN OUT`) asks for.
struct Args<'c> {
    cc: Cc,
    input: &'c [u8],
    output: &'c [u8],
}

/// The command line's algorithm and paths; `None` for anything else.
fn args(cmdline: &[u8]) -> Option<Args<'_>> {
    let mut words = cmdline.split(|&b| b == b' ').filter(|w| !w.is_empty());
    let _program = words.next()?;
    let mut first = words.next()?;
    let mut cc = Cc::Cubic;
    if first == b"--cc" {
        let word = core::str::from_utf8(words.next()?).ok()?;
        cc = Cc::parse(word).ok()?;
        first = words.next()?;
    }
    let output = words.next()?;
    if words.next().is_some() {
        return None;
    }
    Some(Args {
        cc,
        input: first,
        output,
    })
}

fn run(trace: &mut [u8], out_buf: &mut [u8]) -> Result<(), Error> {
    let mut cmdline = [0u8; 512];
    let len = semihosting::command_line(&mut cmdline);
    let Args { cc, input, output } = args(cmdline.get(..len).unwrap_or(&[]))
        .ok_or("usage: replay [--cc cubic|bbr|bbr3|dctcp|prague] IN OUT")?;
    let mut file = File::open_read(input).ok_or("cannot open the trace")?;
    let mut filled = 0;
    loop {
        let room = trace.get_mut(filled..).ok_or("trace too large")?;
        if room.is_empty() {
            return Err("trace too large");
        }
        let n = file.read(room);
        if n == 0 {
            break;
        }
        filled += n;
    }
    let text = core::str::from_utf8(trace.get(..filled).unwrap_or(&[])).map_err(|_| "not UTF-8")?;
    let out = File::create(output).ok_or("cannot create the CSV")?;
    let mut csv = Csv::new(out, out_buf);
    replay(text, cc, &mut csv)?;
    csv.flush();
    if csv.failed {
        return Err("writing the CSV failed");
    }
    Ok(())
}

/// Replays `text` with algorithm `cc` into `out` (today's kernel; for CUBIC, RFC mode
/// when the trace asks for it): the header, then one row per event.
fn replay(text: &str, cc: Cc, out: &mut Csv<'_>) -> Result<(), Error> {
    congestion_replay::replay_cc(text, cc, Kernel::Today, out).map_err(|e| e.problem.summary())
}
