//! What the unit tests of the Linux-mode flows share.

use super::RandomSource;

/// xorshift64*: a deterministic stream for a twin test's events and its flows' draws.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform enough below `n` (at least 1).
    pub(crate) fn upto(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

impl RandomSource for Rng {
    fn below(&mut self, ceil: u32) -> u32 {
        (self.next() % u64::from(ceil.max(1))) as u32
    }
}
