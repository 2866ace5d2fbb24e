use super::*;

#[test]
fn the_state_has_the_kernels_layout() {
    // 11 u32 (44) + u16 + u8 + u8 (4) + 4 u32 (16) = 64, the 2.6.35 icsk_ca_priv.
    assert_eq!(core::mem::size_of::<Bictcp2635>(), 64);
    assert_eq!(core::mem::size_of::<Linux2635State>(), 76);
}
