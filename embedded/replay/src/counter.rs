//! Instruction counting on the emulated core, under QEMU's `-icount shift=0` (every
//! instruction advances virtual time by exactly 1 ns).
//!
//! - Cortex-M4: SysTick counts the mps2 board's 25 MHz processor clock in virtual time,
//!   so one tick is 40 instructions. Callers time thousands of events per reading, so
//!   that step is a small fraction of an instruction per event; `cost` checks the scale
//!   on a loop of `nop`s.
//! - RISC-V: the `instret` counter, which QEMU derives from the instruction count under
//!   `-icount`: exact.

/// SysTick control and status.
#[cfg(target_arch = "arm")]
const SYST_CSR: *mut u32 = 0xE000_E010 as *mut u32;
/// SysTick reload value.
#[cfg(target_arch = "arm")]
const SYST_RVR: *mut u32 = 0xE000_E014 as *mut u32;
/// SysTick current value (counts down).
#[cfg(target_arch = "arm")]
const SYST_CVR: *mut u32 = 0xE000_E018 as *mut u32;
/// The SysTick counter is 24 bits wide.
#[cfg(target_arch = "arm")]
const MASK: u32 = 0x00FF_FFFF;
/// Instructions per SysTick tick: 1 ns per instruction, 25 MHz ticks.
#[cfg(target_arch = "arm")]
const INSTRUCTIONS_PER_TICK: u64 = 40;

/// Starts SysTick free-running on the processor clock, no interrupt.
#[cfg(target_arch = "arm")]
pub fn start() {
    // SAFETY: SysTick's registers, architecturally defined on every Cortex-M.
    unsafe {
        core::ptr::write_volatile(SYST_RVR, MASK);
        core::ptr::write_volatile(SYST_CVR, 0);
        // ENABLE | CLKSOURCE (processor clock); TICKINT off.
        core::ptr::write_volatile(SYST_CSR, 0b101);
    }
}

/// Instructions `f` takes (fewer than 2^24 ticks, 671 million instructions, or the
/// counter wraps unseen).
#[cfg(target_arch = "arm")]
pub fn instructions(f: impl FnOnce()) -> u64 {
    // SAFETY (both reads): SysTick's current value; reading it has no side effect.
    let before = unsafe { core::ptr::read_volatile(SYST_CVR) };
    f();
    let after = unsafe { core::ptr::read_volatile(SYST_CVR) };
    u64::from(before.wrapping_sub(after) & MASK) * INSTRUCTIONS_PER_TICK
}

/// Nothing to start: `instret` always runs.
#[cfg(target_arch = "riscv32")]
pub fn start() {}

/// The low word of `instret`.
#[cfg(target_arch = "riscv32")]
#[inline(always)]
fn instret() -> u32 {
    let n: u32;
    // SAFETY: reads a counter CSR; no memory access.
    unsafe { core::arch::asm!("csrr {}, instret", out(reg) n, options(nomem, nostack)) };
    n
}

/// Instructions `f` takes (fewer than 2^32).
#[cfg(target_arch = "riscv32")]
pub fn instructions(f: impl FnOnce()) -> u64 {
    let before = instret();
    f();
    u64::from(instret().wrapping_sub(before))
}
