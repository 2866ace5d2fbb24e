//! Reading fuzz input: a cursor that never fails (missing bytes read as zero) and the
//! hostile values a broken or malicious peer can produce.

/// A cursor over the fuzz input; reads past the end return 0.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// Starts at the first byte.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// Next byte, or 0.
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// Next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// Next four bytes, little-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// A time step in µs: mostly small, sometimes huge, sometimes backwards (negative).
    pub fn time_step_us(&mut self) -> i64 {
        match self.u8() % 16 {
            0 => -i64::from(self.u32()),        // time going backwards
            1 => i64::from(self.u32()) * 1_000, // a gap of up to 49 days
            2 => 0,                             // same instant
            _ => i64::from(self.u16()),         // up to 65 ms
        }
    }

    /// An amount: mostly small, sometimes zero or absurd.
    pub fn amount(&mut self, unit: u64) -> u64 {
        match self.u8() % 16 {
            0 => 0,
            1 => u64::from(self.u32()),
            2 => u64::MAX,
            _ => u64::from(self.u8() % 64) * unit,
        }
    }

    /// An RTT sample in µs: none, 0, 1, typical, or an hour and beyond.
    pub fn rtt_us(&mut self) -> Option<u64> {
        match self.u8() % 8 {
            0 => None,
            1 => Some(0),
            2 => Some(1),
            3 => Some(3_600_000_000),
            4 => Some(u64::from(self.u32()) * 1_000),
            _ => Some(u64::from(self.u16()) * 4),
        }
    }
}
