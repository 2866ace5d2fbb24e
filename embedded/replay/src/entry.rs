//! The reset entry point `_start` (the linker script's `ENTRY`), and the panic handler:
//! it calls a symbol that exists nowhere, so an image in which any panic path survived
//! optimisation does not link.

use core::panic::PanicInfo;

unsafe extern "C" {
    /// Deliberately undefined: a reference to it is a link error.
    fn congestion_panic_path_must_not_be_linked() -> !;
}

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    // SAFETY: never runs; the symbol does not exist, so an image that can reach this
    // line does not link.
    unsafe { congestion_panic_path_must_not_be_linked() }
}

/// Cortex-M: the core loads the stack pointer from the vector table, so the reset
/// handler can be plain Rust.
#[cfg(target_arch = "arm")]
#[unsafe(no_mangle)]
#[unsafe(link_section = ".text.start")]
pub extern "C" fn _start() -> ! {
    crate::firmware_main()
}

// RISC-V: set the stack pointer, then jump to the Rust main.
#[cfg(target_arch = "riscv32")]
core::arch::global_asm!(
    ".section .text.start, \"ax\"",
    ".global _start",
    "_start:",
    "    la sp, _stack_top",
    "    j firmware_main",
);
