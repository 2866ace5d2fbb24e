//! Replays one trace through `congestion-replay` (replay/) on an emulated core: reads
//! the trace and writes the replay CSV to a host file, both through semihosting:
//!
//! ```text
//! qemu-system-arm -M mps2-an386 -nographic -kernel replay \
//!   -semihosting-config enable=on,target=native,arg=replay,arg=IN.events,arg=OUT.csv
//! ```
//!
//! The same code as the host's `examples/replay.rs` (both call
//! `congestion_replay::replay`); `scripts/qemu.sh` compares the rows byte for byte.
//! Exit status 0 on success, 1 on a bad trace or an I/O error.
//!
//! The panic handler calls a symbol that exists nowhere, so an image in which any panic
//! path survived optimisation does not link. Buffers live on the stack: the image has
//! no `.data` and no `.bss`.
#![no_std]
#![no_main]

mod csv;
mod entry;
#[allow(
    dead_code,
    reason = "shared with the cost binary, which prints to stdout"
)]
mod semihosting;

use congestion_replay::Kernel;
use csv::Csv;
use semihosting::File;

/// Why the firmware stopped: a fixed message (the firmware prints without `core::fmt`).
type Error = &'static str;

/// The largest trace this firmware takes (the biggest shipped one is 180 KiB).
const MAX_TRACE_BYTES: usize = 512 * 1024;

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

/// The input and output paths from the command line (`replay IN OUT`).
fn paths(cmdline: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut words = cmdline.split(|&b| b == b' ').filter(|w| !w.is_empty());
    let _program = words.next()?;
    Some((words.next()?, words.next()?))
}

fn run(trace: &mut [u8], out_buf: &mut [u8]) -> Result<(), Error> {
    let mut cmdline = [0u8; 512];
    let len = semihosting::command_line(&mut cmdline);
    let (input, output) = paths(cmdline.get(..len).unwrap_or(&[])).ok_or("usage: replay IN OUT")?;
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
    replay(text, &mut csv)?;
    csv.flush();
    if csv.failed {
        return Err("writing the CSV failed");
    }
    Ok(())
}

/// Replays `text` into `out` (today's kernel; RFC mode when the trace asks for it):
/// the header, then one row per event.
fn replay(text: &str, out: &mut Csv<'_>) -> Result<(), Error> {
    congestion_replay::replay(text, Kernel::Today, out).map_err(|e| e.problem.summary())
}
