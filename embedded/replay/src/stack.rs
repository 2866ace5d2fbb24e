//! Stack depth of a call, by painting: fill the unused stack below the current stack
//! pointer with a pattern, run the call, and find the deepest word it overwrote.

/// The pattern painted below the stack pointer.
const PAINT: u32 = 0xC0FF_EE00;
/// How far below the stack pointer to paint and look, bytes.
const DEPTH: usize = 16 * 1024;

/// The current stack pointer.
#[inline(always)]
fn stack_pointer() -> usize {
    let sp: usize;
    // SAFETY: reads the stack pointer register; no memory access.
    #[cfg(target_arch = "arm")]
    unsafe {
        core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack))
    };
    // SAFETY: as above.
    #[cfg(target_arch = "riscv32")]
    unsafe {
        core::arch::asm!("mv {}, sp", out(reg) sp, options(nomem, nostack))
    };
    sp
}

/// Bytes of stack `f` used below this function's frame (at most [`DEPTH`]).
#[inline(never)]
pub fn depth(f: impl FnOnce()) -> usize {
    let top = stack_pointer() & !3;
    let bottom = top - DEPTH;
    let mut addr = bottom;
    while addr < top {
        // SAFETY: [bottom, top) lies below the live stack pointer inside the board's
        // RAM (the stack has megabytes below it on both boards), so nothing live is
        // there.
        unsafe { core::ptr::write_volatile(addr as *mut u32, PAINT) };
        addr += 4;
    }
    f();
    let mut addr = bottom;
    while addr < top {
        // SAFETY: as above.
        if unsafe { core::ptr::read_volatile(addr as *const u32) } != PAINT {
            return top - addr;
        }
        addr += 4;
    }
    0
}
