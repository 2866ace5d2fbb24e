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
mod tests {
    use super::{after, before};

    #[test]
    fn comparisons_wrap_at_two_to_the_32() {
        assert!(before(1, 2));
        assert!(!before(2, 2));
        assert!(before(u32::MAX, 0));
        assert!(after(0, u32::MAX));
        // Half the space apart: (s32)(0 - 2^31) = i32::MIN < 0, so 0 is "before" 2^31.
        assert!(before(0, 1 << 31));
    }
}
