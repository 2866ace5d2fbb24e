//! Firmware that drives `congestion` from a fake ACK source: each loop reads one word
//! from a (pretend) NIC register, turns it into an ACK, a loss or a timeout for a
//! Linux-mode flow, and writes the window and pacing rate to output registers. The
//! inputs come through volatile reads, so the optimiser knows nothing about them and
//! every check the library makes stays in the image.
//!
//! The panic handler calls `congestion_panic_path_must_not_be_linked`, which exists
//! nowhere: if any panic path survived optimisation, the link fails. All the `unsafe`
//! this takes (the entry point, the registers, that declaration) lives here, never in
//! the library.
//!
//! Build: `scripts/firmware.sh` (all targets, sizes, symbol checks).
#![no_std]
#![no_main]

mod entry;
mod registers;

#[cfg(not(feature = "no-library"))]
mod linux;

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

/// The firmware's main loop, entered from the reset handler.
#[unsafe(no_mangle)]
pub extern "C" fn firmware_main() -> ! {
    #[cfg(not(feature = "no-library"))]
    {
        linux::run()
    }
    #[cfg(feature = "no-library")]
    {
        registers::echo_forever()
    }
}
