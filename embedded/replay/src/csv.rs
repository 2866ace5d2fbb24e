//! The CSV output: a fixed buffer that `core::fmt` writes into, flushed to a host file
//! through semihosting whenever it fills.

use crate::semihosting::File;
use core::fmt;

/// Buffered output to a host file.
pub struct Csv<'b> {
    file: File,
    buf: &'b mut [u8],
    len: usize,
    /// Set once the host refused a write.
    pub failed: bool,
}

impl<'b> Csv<'b> {
    /// Output to `file` through `buf`.
    pub fn new(file: File, buf: &'b mut [u8]) -> Self {
        Csv {
            file,
            buf,
            len: 0,
            failed: false,
        }
    }

    /// Writes what is buffered.
    pub fn flush(&mut self) {
        if let Some(pending) = self.buf.get(..self.len)
            && !self.file.write_all(pending)
        {
            self.failed = true;
        }
        self.len = 0;
    }

    /// Appends `bytes`, flushing as needed.
    fn push(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if self.len == self.buf.len() {
                self.flush();
            }
            let room = self.buf.len() - self.len;
            let n = room.min(bytes.len());
            let (now, rest) = bytes.split_at(n);
            if let Some(dst) = self.buf.get_mut(self.len..self.len + n) {
                dst.copy_from_slice(now);
            }
            self.len += n;
            bytes = rest;
        }
    }
}

impl fmt::Write for Csv<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push(s.as_bytes());
        Ok(())
    }
}
