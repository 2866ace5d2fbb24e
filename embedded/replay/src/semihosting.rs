//! Semihosting: the debugger-call convention (ARM's, which RISC-V adopted) through
//! which the emulated core opens, reads and writes files on the host and exits with a
//! status. QEMU serves it with `-semihosting-config enable=on,target=native`.
//!
//! Every call passes an operation number and the address of a block of words.

/// `SYS_OPEN`: open a file; returns a handle or -1.
const SYS_OPEN: usize = 0x01;
/// `SYS_CLOSE`: close a handle.
const SYS_CLOSE: usize = 0x02;
/// `SYS_WRITE`: write bytes; returns how many were NOT written.
const SYS_WRITE: usize = 0x05;
/// `SYS_READ`: read bytes; returns how many were NOT read.
const SYS_READ: usize = 0x06;
/// `SYS_GET_CMDLINE`: the command line QEMU was given with `arg=` options.
const SYS_GET_CMDLINE: usize = 0x15;
/// `SYS_EXIT`: stop the emulator.
const SYS_EXIT: usize = 0x18;
/// `SYS_EXIT` reason for a normal end (QEMU exits 0); any other reason exits 1.
const ADP_STOPPED_APPLICATION_EXIT: usize = 0x2_0026;
/// `SYS_EXIT` reason for a run-time error (QEMU exits 1).
const ADP_STOPPED_RUN_TIME_ERROR: usize = 0x2_0023;
/// `SYS_OPEN` mode "rb".
const MODE_READ_BINARY: usize = 1;
/// `SYS_OPEN` mode "wb".
const MODE_WRITE_BINARY: usize = 5;

/// One semihosting call.
#[cfg(target_arch = "arm")]
fn call(op: usize, block: *const usize) -> usize {
    let result;
    // SAFETY: `bkpt 0xab` is the Thumb semihosting trap; QEMU reads the block the
    // caller built and writes nothing but r0 and the buffers the block names.
    unsafe {
        core::arch::asm!("bkpt 0xab", inout("r0") op => result, in("r1") block,
            options(nostack));
    }
    result
}

// RISC-V: the trap is `ebreak` between two marker instructions, all uncompressed and in
// one page, so it lives in an aligned function of its own.
#[cfg(target_arch = "riscv32")]
core::arch::global_asm!(
    ".section .text.semihosting_trap, \"ax\"",
    ".balign 16",
    ".global semihosting_trap",
    "semihosting_trap:",
    ".option push",
    ".option norvc",
    "    slli zero, zero, 0x1f",
    "    ebreak",
    "    srai zero, zero, 7",
    ".option pop",
    "    ret",
);

#[cfg(target_arch = "riscv32")]
unsafe extern "C" {
    /// The trap above: operation in a0, block address in a1, result in a0.
    fn semihosting_trap(op: usize, block: *const usize) -> usize;
}

/// One semihosting call.
#[cfg(target_arch = "riscv32")]
fn call(op: usize, block: *const usize) -> usize {
    // SAFETY: as on ARM; the trap follows the C calling convention.
    unsafe { semihosting_trap(op, block) }
}

/// An open host file.
pub struct File(usize);

impl File {
    fn open(path: &[u8], mode: usize) -> Option<File> {
        // SYS_OPEN wants a NUL-terminated name, and its length without the NUL.
        let mut name = [0u8; 256];
        if path.len() >= name.len() {
            return None;
        }
        let stored = name.get_mut(..path.len())?;
        stored.copy_from_slice(path);
        let block = [name.as_ptr() as usize, mode, path.len()];
        let handle = call(SYS_OPEN, block.as_ptr());
        (handle != usize::MAX).then_some(File(handle))
    }

    /// Opens `path` for reading.
    pub fn open_read(path: &[u8]) -> Option<File> {
        Self::open(path, MODE_READ_BINARY)
    }

    /// Creates (or truncates) `path` for writing.
    pub fn create(path: &[u8]) -> Option<File> {
        Self::open(path, MODE_WRITE_BINARY)
    }

    /// Reads into `buf`; returns how many bytes came (0 at the end of the file).
    pub fn read(&mut self, buf: &mut [u8]) -> usize {
        let block = [self.0, buf.as_mut_ptr() as usize, buf.len()];
        let not_read = call(SYS_READ, block.as_ptr());
        buf.len().saturating_sub(not_read)
    }

    /// Writes all of `bytes`; false if the host refused some.
    pub fn write_all(&mut self, bytes: &[u8]) -> bool {
        let block = [self.0, bytes.as_ptr() as usize, bytes.len()];
        call(SYS_WRITE, block.as_ptr()) == 0
    }
}

impl Drop for File {
    fn drop(&mut self) {
        let block = [self.0];
        call(SYS_CLOSE, block.as_ptr());
    }
}

/// The command line (`arg=` options, space-separated) into `buf`; its length.
pub fn command_line(buf: &mut [u8]) -> usize {
    let mut block = [buf.as_mut_ptr() as usize, buf.len()];
    if call(SYS_GET_CMDLINE, block.as_mut_ptr()) != 0 {
        return 0;
    }
    // QEMU writes the length it used back into the block.
    block[1].min(buf.len())
}

/// The emulator's standard output: ":tt" opened for writing (mode 4, "w").
pub fn stdout() -> Option<File> {
    File::open(b":tt", 4)
}

/// Writes to the emulator's standard error: ":tt" opened for appending (mode 8, "a").
pub fn print(text: &[u8]) {
    if let Some(mut console) = File::open(b":tt", 8) {
        console.write_all(text);
    }
}

/// Stops the emulator: exit status 0 if `ok`, else 1.
pub fn exit(ok: bool) -> ! {
    let reason = if ok {
        ADP_STOPPED_APPLICATION_EXIT
    } else {
        ADP_STOPPED_RUN_TIME_ERROR
    };
    call(SYS_EXIT, reason as *const usize);
    loop {
        core::hint::spin_loop();
    }
}
