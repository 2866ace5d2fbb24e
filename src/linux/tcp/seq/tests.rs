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
