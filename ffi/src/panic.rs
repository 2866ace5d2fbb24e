//! The panic handler of bare-metal builds. Nothing in this crate or the library panics
//! (the library's rules; `scripts/ffi-nostd.sh` links every entry point with
//! `--gc-sections` and fails if any panic routine survives), so this never runs. Were
//! it ever reached it would stop the core in a tight loop rather than return into
//! corrupted state; it needs no symbol from the firmware that links the library.

use core::panic::PanicInfo;

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    loop {
        core::hint::spin_loop();
    }
}
