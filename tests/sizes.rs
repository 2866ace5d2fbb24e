//! The per-flow state budget: Linux keeps CUBIC + HyStart in 60 bytes of `struct bictcp`
//! plus cwnd, ssthresh and cwnd_cnt in `tcp_sock`; ours must fit the same 72 bytes.
//! Run with `--nocapture` to see the sizes (or `cargo run --example sizes`).

use congestion::linux::{LinuxCubicState, LinuxFlow};
use core::mem::size_of;

#[test]
fn linux_mode_cubic_and_hystart_state_fits_in_72_bytes() {
    let state = size_of::<LinuxCubicState>();
    let flow = size_of::<LinuxFlow>();
    println!("LinuxCubicState (CUBIC + HyStart + cwnd/ssthresh/cwnd_cnt): {state} bytes");
    println!("LinuxFlow (full per-flow state with socket glue and config): {flow} bytes");
    assert!(state <= 72, "LinuxCubicState is {state} bytes");
    // The kernel's icsk_ca_priv is 104 bytes; the state must fit it with room to spare.
    assert!(state <= 104);
    assert!(flow < 256, "LinuxFlow grew to {flow} bytes");
}

#[test]
fn linux_2_6_35_state_is_the_eras_64_byte_bictcp_plus_the_window() {
    use congestion::v2_6_35::{Bictcp2635, Linux2635Flow, Linux2635State};
    let bictcp = size_of::<Bictcp2635>();
    let state = size_of::<Linux2635State>();
    let flow = size_of::<Linux2635Flow>();
    println!("Bictcp2635 (the era's struct bictcp): {bictcp} bytes");
    println!("Linux2635State (+ cwnd/ssthresh/cwnd_cnt): {state} bytes");
    println!("Linux2635Flow (with socket glue and config): {flow} bytes");
    // 2.6.35's icsk_ca_priv was 16 u32 = 64 bytes, and struct bictcp filled it exactly.
    assert_eq!(bictcp, 64);
    assert_eq!(state, 76);
    assert!(state <= 104, "must fit today's icsk_ca_priv too");
    assert!(flow < 256, "Linux2635Flow grew to {flow} bytes");
}
