//! Instructions per event on an emulated Cortex-M4 (QEMU mps2-an386) or RISC-V core
//! (QEMU virt) run with `-icount shift=0` (`src/counter.rs` says how each is read). The stream and the regimes are those of the x86-64 figures in
//! docs/performance.md (`src/stream.rs`); the stream's own cost, measured with no
//! controller, is subtracted from the ACK figures, and each congestion event is
//! measured against the same restore of the snapshot without it.
//!
//! Prints `cost NAME VALUE` lines (instructions, one decimal), `stack MODE BYTES` (the
//! deepest stack an event takes) and `size NAME BYTES` (`size_of` of each per-flow state and
//! each shared parameter block on this
//! target) to standard output through semihosting, for scripts/qemu.sh to tabulate.
#![no_std]
#![no_main]

mod counter;
mod csv;
mod entry;
#[allow(
    dead_code,
    reason = "shared with the replay binary, which uses the file calls"
)]
mod semihosting;
mod stack;
mod stream;

use core::fmt::Write;
use core::hint::black_box;
use csv::Csv;
use stream::{Driven, Linux, Null, Regime, Rfc, SLOW_START_ACKS, Stream};

/// ACKs timed per congestion-avoidance reading (fewer than the 10,000 before the
/// stream's next loss would fall).
const CA_ACKS: u32 = 8_000;
/// Slow-start cycles of [`SLOW_START_ACKS`] ACKs per reading.
const SLOW_START_CYCLES: u32 = 40;
/// Repetitions per congestion-event reading.
const EVENT_REPEATS: u32 = 2_000;

/// Instructions per event, in thousandths: `instructions * 1000 / events`.
fn per_event_milli(instructions: u64, events: u32) -> i64 {
    (instructions * 1000 / u64::from(events.max(1))) as i64
}

/// Prints `cost NAME X.Y` from thousandths.
fn report(out: &mut impl Write, name: &str, milli: i64) -> core::fmt::Result {
    let tenths = (milli + if milli >= 0 { 50 } else { -50 }) / 100;
    let sign = if tenths < 0 { "-" } else { "" };
    writeln!(
        out,
        "cost {name} {sign}{}.{}",
        tenths.abs() / 10,
        tenths.abs() % 10
    )
}

/// Per ACK in congestion avoidance, the stream's own cost included.
fn ca_ack<C: Driven>(s: &mut Stream<C>) -> i64 {
    s.restore();
    let n = counter::instructions(|| {
        for _ in 0..CA_ACKS {
            s.one_ack();
        }
    });
    per_event_milli(n, CA_ACKS)
}

/// Per ACK in slow start, the stream's own cost included (restores subtracted).
fn slow_start_ack<C: Driven>(s: &mut Stream<C>) -> i64 {
    let with_acks = counter::instructions(|| {
        for _ in 0..SLOW_START_CYCLES {
            s.restore();
            for _ in 0..SLOW_START_ACKS {
                s.one_ack();
            }
        }
    });
    let restores = counter::instructions(|| {
        for _ in 0..SLOW_START_CYCLES {
            s.restore();
            black_box(&s.live);
        }
    });
    per_event_milli(
        with_acks.saturating_sub(restores),
        SLOW_START_CYCLES * SLOW_START_ACKS,
    )
}

/// What an event adds to a restore of the snapshot (`then_ack`: and to the ACK after
/// it, where Linux CUBIC computes its new K).
fn event<C: Driven>(s: &mut Stream<C>, event: fn(&mut C, u64), then_ack: bool) -> i64 {
    let with_event = counter::instructions(|| {
        for _ in 0..EVENT_REPEATS {
            s.restore();
            let now = s.now_us();
            event(&mut s.live, now);
            if then_ack {
                s.one_ack();
            }
        }
    });
    let without = counter::instructions(|| {
        for _ in 0..EVENT_REPEATS {
            s.restore();
            black_box(&s.live);
            if then_ack {
                s.one_ack();
            }
        }
    });
    per_event_milli(with_event, EVENT_REPEATS) - per_event_milli(without, EVENT_REPEATS)
}

/// The deepest stack any event of the stream takes, bytes.
fn stack_of<C: Driven>(fresh: C) -> usize {
    let mut ss = Stream::new(fresh.clone(), Regime::SlowStart);
    let mut ca = Stream::new(fresh, Regime::CongestionAvoidance);
    let mut deepest = stack::depth(|| ss.one_ack());
    for f in [C::loss as fn(&mut C, u64), C::rto] {
        deepest = deepest.max(stack::depth(|| {
            ca.restore();
            let now = ca.now_us();
            f(&mut ca.live, now);
            ca.one_ack();
        }));
    }
    deepest.max(stack::depth(|| ca.one_ack()))
}

/// 32 `nop`s, in a function of their own: LLVM counts an `asm!` block as one
/// instruction when it places thumbv6m literal pools, so it must not sit inside a
/// larger function.
#[inline(never)]
fn nops() {
    // SAFETY: no-operation instructions.
    unsafe { core::arch::asm!(".rept 32", "nop", ".endr", options(nomem, nostack)) };
}

/// [`nops`] 1000 times: 32 instructions a call plus the call, the return and the
/// loop's own few, if the counter really counts instructions.
fn calibration() -> i64 {
    let n = counter::instructions(|| {
        for i in 0..1000u32 {
            black_box(i);
            nops();
        }
    });
    per_event_milli(n, 1000)
}

fn measure(out: &mut impl Write) -> Result<(), &'static str> {
    let fmt = |_| "formatting failed";
    counter::start();
    report(out, "calibration_32_nops", calibration()).map_err(fmt)?;
    let mut null = Stream::new(Null::default(), Regime::SlowStart);
    let stream_alone = ca_ack(&mut null);
    report(out, "stream_alone", stream_alone).map_err(fmt)?;

    let linux = Linux::new().ok_or("Linux defaults refused")?;
    let mut ca = Stream::new(linux.clone(), Regime::CongestionAvoidance);
    report(out, "linux_ack_ca", ca_ack(&mut ca) - stream_alone).map_err(fmt)?;
    report(out, "linux_loss", event(&mut ca, Linux::loss, false)).map_err(fmt)?;
    report(
        out,
        "linux_loss_next_ack",
        event(&mut ca, Linux::loss, true),
    )
    .map_err(fmt)?;
    report(out, "linux_rto", event(&mut ca, Linux::rto, false)).map_err(fmt)?;
    let mut ss = Stream::new(linux, Regime::SlowStart);
    report(out, "linux_ack_ss", slow_start_ack(&mut ss) - stream_alone).map_err(fmt)?;

    let rfc = Rfc::new().ok_or("RFC defaults refused")?;
    let mut ca = Stream::new(rfc.clone(), Regime::CongestionAvoidance);
    report(out, "rfc_ack_ca", ca_ack(&mut ca) - stream_alone).map_err(fmt)?;
    report(out, "rfc_loss", event(&mut ca, Rfc::loss, false)).map_err(fmt)?;
    report(out, "rfc_loss_next_ack", event(&mut ca, Rfc::loss, true)).map_err(fmt)?;
    report(out, "rfc_rto", event(&mut ca, Rfc::rto, false)).map_err(fmt)?;
    let mut ss = Stream::new(rfc, Regime::SlowStart);
    report(out, "rfc_ack_ss", slow_start_ack(&mut ss) - stream_alone).map_err(fmt)?;

    // Stack: the deepest of an ACK in slow start and in congestion avoidance, a loss
    // with the ACK after it, and a timeout (below `depth`'s own frame).
    let linux = Linux::new().ok_or("Linux defaults refused")?;
    writeln!(out, "stack linux {}", stack_of(linux)).map_err(fmt)?;
    let rfc = Rfc::new().ok_or("RFC defaults refused")?;
    writeln!(out, "stack rfc {}", stack_of(rfc)).map_err(fmt)?;

    use core::mem::size_of;
    // Per flow, the states; once, the parameter blocks every flow shares.
    for (name, bytes) in [
        (
            "LinuxFlowState",
            size_of::<congestion::linux::LinuxFlowState>(),
        ),
        (
            "SendPathState",
            size_of::<congestion::pacing::SendPathState>(),
        ),
        (
            "RfcState",
            size_of::<congestion::rfc::ClassicState<congestion::cubic::RfcCubic>>(),
        ),
        ("LinuxParams", size_of::<congestion::linux::LinuxParams>()),
        (
            "SendPathParams",
            size_of::<congestion::pacing::SendPathParams>(),
        ),
        ("RfcParams", size_of::<congestion::rfc::RfcParams>()),
    ] {
        writeln!(out, "size {name} {bytes}").map_err(fmt)?;
    }
    Ok(())
}

/// The firmware's main, entered from the reset handler.
#[unsafe(no_mangle)]
pub extern "C" fn firmware_main() -> ! {
    let mut buf = [0u8; 1024];
    let Some(console) = semihosting::stdout() else {
        semihosting::exit(false)
    };
    let mut out = Csv::new(console, &mut buf);
    let result = measure(&mut out);
    out.flush();
    if let Err(e) = result {
        semihosting::print(e.as_bytes());
        semihosting::print(b"\n");
    }
    semihosting::exit(result.is_ok() && !out.failed)
}
