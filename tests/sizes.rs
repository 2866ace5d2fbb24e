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
