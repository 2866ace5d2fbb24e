//! Firmware that drives `congestion` from a fake ACK source: each loop reads one word
//! from a (pretend) NIC register, turns it into an ACK, a loss or a timeout for a
//! Linux-mode flow with its send path (EDT pacer, TSQ, TSO autosizing) or for an
//! RFC-mode flow with HyStart++, and writes the window and other outputs to registers. The
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

#[cfg(all(feature = "bbr", not(any(feature = "kernel", feature = "no-library"))))]
mod bbr;
#[cfg(all(
    feature = "kernel",
    not(any(feature = "linux", feature = "rfc", feature = "no-library"))
))]
mod kernel;
#[cfg(all(feature = "linux", not(feature = "no-library")))]
mod linux;
#[cfg(all(feature = "rfc", not(feature = "no-library")))]
mod rfc;

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

/// Stop here (a configuration the library refused; cannot happen with the defaults).
/// Only Linux mode builds a configuration at run time (its send path's, BBR's).
#[cfg(all(any(feature = "linux", feature = "bbr"), not(feature = "no-library")))]
fn halt() -> ! {
    registers::report_aux(u32::MAX);
    loop {
        core::hint::spin_loop();
    }
}

/// The firmware's main loop, entered from the reset handler.
#[unsafe(no_mangle)]
pub extern "C" fn firmware_main() -> ! {
    // Which flow this image runs is chosen at run time (a strap pin, here the first
    // descriptor), so both stay in the image.
    #[cfg(all(feature = "linux", feature = "rfc", not(feature = "no-library")))]
    {
        if registers::next_descriptor() & 1 == 0 {
            linux::run()
        } else {
            rfc::run()
        }
    }
    #[cfg(all(feature = "linux", not(feature = "rfc"), not(feature = "no-library")))]
    {
        linux::run()
    }
    #[cfg(all(feature = "rfc", not(feature = "linux"), not(feature = "no-library")))]
    {
        rfc::run()
    }
    #[cfg(all(
        feature = "kernel",
        not(any(feature = "linux", feature = "rfc", feature = "no-library"))
    ))]
    {
        kernel::run()
    }
    #[cfg(all(
        feature = "bbr",
        not(any(
            feature = "linux",
            feature = "rfc",
            feature = "kernel",
            feature = "no-library"
        ))
    ))]
    {
        bbr::run()
    }
    #[cfg(any(
        feature = "no-library",
        not(any(
            feature = "linux",
            feature = "rfc",
            feature = "kernel",
            feature = "bbr"
        ))
    ))]
    {
        registers::echo_forever()
    }
}
