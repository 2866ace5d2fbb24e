//! The pretend NIC: an ACK-source register and output registers, read and written with
//! volatile accesses so the optimiser treats their values as unknown.

/// Each read yields the next ACK descriptor.
const ACK_SOURCE: *const u32 = 0x4000_0000 as *const u32;
/// The congestion window is written here.
const CWND_OUT: *mut u32 = 0x4000_0004 as *mut u32;
/// Whatever else the firmware reports (pacing rate, phase) is written here.
const AUX_OUT: *mut u32 = 0x4000_0008 as *mut u32;

/// The next descriptor from the ACK source.
pub fn next_descriptor() -> u32 {
    // SAFETY: a device register on the pretend NIC; reading it has no other effect.
    unsafe { core::ptr::read_volatile(ACK_SOURCE) }
}

/// Publish the window.
pub fn report_cwnd(cwnd: u32) {
    // SAFETY: a device register on the pretend NIC.
    unsafe { core::ptr::write_volatile(CWND_OUT, cwnd) }
}

/// Publish another output.
pub fn report_aux(value: u32) {
    // SAFETY: a device register on the pretend NIC.
    unsafe { core::ptr::write_volatile(AUX_OUT, value) }
}

/// The baseline image: the same register traffic, no library.
#[cfg(any(
    feature = "no-library",
    not(any(
        feature = "linux",
        feature = "rfc",
        feature = "kernel",
        feature = "bbr"
    ))
))]
pub fn echo_forever() -> ! {
    let mut now_us: u32 = 0;
    loop {
        let d = next_descriptor();
        now_us = now_us.wrapping_add(40 + (d & 0xff));
        report_cwnd(d ^ now_us);
        report_aux(d >> 8);
    }
}
