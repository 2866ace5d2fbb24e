//! The reset entry point `_start` (the linker script's `ENTRY`).

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
