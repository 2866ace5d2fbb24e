//! The kernel's wrapping comparisons of 32-bit sequence numbers and jiffies
//! (`before()`/`after()` of `include/net/tcp.h`).

/// `before(seq1, seq2)`: `seq1` comes earlier than `seq2` in `u32` sequence space
/// (their difference, read as signed, is negative).
pub const fn before(seq1: u32, seq2: u32) -> bool {
    // Linux include/net/tcp.h before(): (s32)(seq1 - seq2) < 0
    (seq1.wrapping_sub(seq2) as i32) < 0
}

/// `after(seq2, seq1)`: `seq2` comes later than `seq1`.
pub const fn after(seq2: u32, seq1: u32) -> bool {
    // Linux include/net/tcp.h after(): before(seq1, seq2)
    before(seq1, seq2)
}

#[cfg(test)]
mod tests;
