//! The per-flow state budget: Linux keeps CUBIC + HyStart in 60 bytes of `struct bictcp`
//! plus cwnd, ssthresh and cwnd_cnt in `tcp_sock`; ours must fit the same 72 bytes, and
//! a whole Linux-mode flow two cache lines, the first holding what a CA ACK touches.
//! Run with `--nocapture` to see the sizes (or `cargo run --example sizes`).

use congestion::linux::{self, KernelDefaults, LinuxCubicState, LinuxFlowState, LinuxParams};
use core::mem::{align_of, size_of};

#[test]
fn linux_mode_cubic_and_hystart_state_fits_in_72_bytes() {
    let state = size_of::<LinuxCubicState>();
    println!("LinuxCubicState (CUBIC + HyStart + cwnd/ssthresh/cwnd_cnt): {state} bytes");
    assert!(state <= 72, "LinuxCubicState is {state} bytes");
    // The kernel's icsk_ca_priv is 104 bytes; the state must fit it with room to spare.
    assert!(state <= 104);
}

#[test]
fn a_linux_flow_is_one_hot_line_and_one_cold_line_with_shared_parameters() {
    let hot = LinuxFlowState::HOT_BYTES;
    let state = size_of::<LinuxFlowState>();
    let zero_sized = size_of::<linux::Cubic<KernelDefaults>>();
    let by_reference = size_of::<linux::Cubic<&'static LinuxParams>>();
    let owned = size_of::<linux::Cubic>();
    println!("LinuxFlowState: {state} bytes, hot line {hot}");
    println!(
        "linux::Cubic<KernelDefaults>: {zero_sized}, <&LinuxParams>: {by_reference}, owned: {owned}"
    );
    assert!(hot <= 64, "the hot line is {hot} bytes");
    assert!(state <= 128, "LinuxFlowState is {state} bytes");
    assert_eq!(align_of::<LinuxFlowState>(), 64);
    // A zero-sized handle to shared parameters adds nothing.
    assert_eq!(zero_sized, state);
    // Owned parameters are the one copy, beside the state.
    assert!(owned <= state + size_of::<LinuxParams>().next_multiple_of(64));
}

#[test]
fn linux_2_6_35_state_is_the_eras_64_byte_bictcp_plus_the_window() {
    use congestion::v2_6_35::{self, Bictcp2635, Linux2635Params, Linux2635State};
    let bictcp = size_of::<Bictcp2635>();
    let state = size_of::<Linux2635State>();
    let flow = size_of::<v2_6_35::Cubic>();
    let reading = size_of::<v2_6_35::Cubic<&'static Linux2635Params>>();
    println!("Bictcp2635 (the era's struct bictcp): {bictcp} bytes");
    println!("Linux2635State (+ cwnd/ssthresh/cwnd_cnt): {state} bytes");
    println!("v2_6_35::Cubic (with socket glue and config): {flow} bytes");
    // 2.6.35's icsk_ca_priv was 16 u32 = 64 bytes, and struct bictcp filled it exactly.
    assert_eq!(bictcp, 64);
    assert_eq!(state, 76);
    assert!(state <= 104, "must fit today's icsk_ca_priv too");
    assert!(flow < 256, "v2_6_35::Cubic grew to {flow} bytes");
    // Shared settings are not copied into the flow: only their address is.
    let without_settings = flow - size_of::<Linux2635Params>() + size_of::<usize>();
    let align = core::mem::align_of::<v2_6_35::Cubic<&'static Linux2635Params>>();
    assert_eq!(
        reading,
        without_settings.next_multiple_of(align),
        "a flow reading shared settings holds a copy of them"
    );
}

#[test]
fn rfc_mode_is_two_hot_lines_and_the_send_path_one() {
    use congestion::cubic::RfcCubic;
    use congestion::hystart::HystartPlusPlus;
    use congestion::pacing::{SendPath, SendPathParams, SendPathState};
    use congestion::rfc::{self, ClassicState, NewRenoWindow, RfcParams};
    let cubic = size_of::<ClassicState<RfcCubic>>();
    let newreno = size_of::<ClassicState<NewRenoWindow>>();
    let send = size_of::<SendPathState>();
    let hot = ClassicState::<RfcCubic>::HOT_BYTES;
    let hot_newreno = ClassicState::<NewRenoWindow>::HOT_BYTES;
    println!(
        "ClassicState<RfcCubic>: {cubic} (hot {hot}), ClassicState<NewRenoWindow>: {newreno} (hot {hot_newreno}), SendPathState: {send}"
    );
    println!(
        "RfcCubic {}, HystartPlusPlus {}, rfc::Cubic {}",
        size_of::<RfcCubic>(),
        size_of::<HystartPlusPlus>(),
        size_of::<rfc::Cubic>()
    );
    println!(
        "shared: RfcParams {}, SendPathParams {}; owned SendPath {}",
        size_of::<RfcParams>(),
        size_of::<SendPathParams>(),
        size_of::<SendPath>()
    );
    // Each state starts a cache line; NewReno's whole state is four of them.
    assert_eq!(align_of::<ClassicState<RfcCubic>>(), 64);
    assert!(
        newreno <= 256,
        "ClassicState<NewRenoWindow> is {newreno} bytes"
    );
    // The hot part: two lines for CUBIC, one for NewReno, from the start of the state.
    assert_eq!(hot, 128);
    assert!(
        hot_newreno <= 64,
        "NewRenoWindow's hot part is {hot_newreno} bytes"
    );
    // HyStart++ in 32-bit RTTs, CUBIC's epoch times beside flags.
    assert!(size_of::<HystartPlusPlus>() <= 24);
    assert!(size_of::<RfcCubic>() <= 120);
    // CUBIC's is six lines with its undo snapshot, which restores the state bit for bit;
    // without one (NoUndo, for stacks that never undo) four, and NewReno three.
    assert!(cubic <= 384, "ClassicState<RfcCubic> is {cubic} bytes");
    use congestion::rfc::NoUndo;
    let lean = size_of::<ClassicState<RfcCubic, NoUndo>>();
    let lean_newreno = size_of::<ClassicState<NewRenoWindow, NoUndo>>();
    println!("without undo: CUBIC {lean}, NewRenoWindow {lean_newreno}");
    assert!(
        lean <= 256,
        "ClassicState<RfcCubic, NoUndo> is {lean} bytes"
    );
    assert!(
        lean_newreno <= 192,
        "ClassicState<NewRenoWindow, NoUndo> is {lean_newreno} bytes"
    );
    assert_eq!(ClassicState::<RfcCubic, NoUndo>::HOT_BYTES, hot);
    // A flow owning its parameters: the state and one copy of them, line-aligned.
    assert_eq!(
        size_of::<rfc::Cubic>(),
        cubic + size_of::<RfcParams>().next_multiple_of(64)
    );
    assert!(size_of::<rfc::Cubic>() <= 512);
    // The send path's per-flow state is one line.
    assert!(send <= 64 && align_of::<SendPathState>() == 64);
}

/// The sentence the crate's front page and the README state (and the C header, checked
/// in ffi/tests/header.rs), made from the sizes themselves: one statement, the same
/// everywhere (`cargo run --example sizes` prints it last).
#[test]
fn the_docs_state_the_sizes_the_types_have() {
    use congestion::pacing::SendPathState;
    use congestion::rfc::ClassicState;
    let sentence = format!(
        "a Linux-mode flow is {} bytes of state, its send path {}, an RFC-mode CUBIC flow {}",
        size_of::<LinuxFlowState>(),
        size_of::<SendPathState>(),
        size_of::<ClassicState<congestion::cubic::RfcCubic>>()
    );
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    assert!(
        readme.contains(&sentence),
        "README.md should say: {sentence}"
    );
    let front = std::fs::read_to_string(root.join("src/lib.rs")).expect("src/lib.rs");
    // The front page is the README itself when lib.rs includes it.
    if front.contains("include_str!(\"../README.md\")") {
        return;
    }
    // Else it wraps its lines: compare with the comment markers removed.
    let front: String = front
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        front.contains(&sentence),
        "src/lib.rs should say: {sentence}"
    );
}

#[test]
fn the_new_linux_mode_flows_keep_the_kernels_sizes() {
    use congestion::AnyController;
    use congestion::linux::{self, RandomFn};
    let bbr_state = size_of::<linux::bbr::BbrState>();
    let bbr = size_of::<linux::Bbr>();
    let bbr3_state = size_of::<linux::bbr3::Bbr>();
    let bbr3 = size_of::<linux::Bbr3>();
    let dctcp_ca = size_of::<linux::dctcp::DctcpCa>();
    let dctcp = size_of::<linux::Dctcp>();
    let prague_ca = size_of::<linux::prague::PragueCa>();
    let prague = size_of::<linux::Prague>();
    let snapshot = size_of::<linux::tcp::TxSnapshot>();
    println!("BbrState {bbr_state}, Bbr {bbr}; bbr3::Bbr {bbr3_state}, Bbr3 {bbr3}");
    println!("DctcpCa {dctcp_ca}, Dctcp {dctcp}; PragueCa {prague_ca}, Prague {prague}");
    // The private states fit the kernel's icsk_ca_priv (104 bytes; v3's struct is 152).
    assert!(bbr_state <= 104 && dctcp_ca <= 104 && prague_ca <= 104);
    assert!(bbr3_state <= 152);
    // Issue 37: a whole BBR v1 flow at most 192 bytes, a whole BBRv3 flow 256.
    assert!(bbr <= 192, "Bbr is {bbr} bytes");
    assert!(bbr3 <= 256, "Bbr3 is {bbr3} bytes");
    // DCTCP and Prague carry the whole modelled socket (TcpSock) beside their state.
    let sock = size_of::<linux::tcp::TcpSock>();
    assert!(dctcp <= sock + dctcp_ca.next_multiple_of(8) + 8);
    assert!(prague <= sock + prague_ca.next_multiple_of(8) + 8);
    assert!(dctcp <= 256 && prague <= 336);
    // The per-packet snapshot a stack keeps: 32 bytes.
    assert_eq!(snapshot, 32);

    // Through the trait: the flow, the scoreboard (24 bytes), the random fn and the
    // owned parameters.
    let bbr_c = size_of::<linux::BbrController<RandomFn>>();
    let bbr3_c = size_of::<linux::Bbr3Controller<RandomFn>>();
    let dctcp_c = size_of::<linux::DctcpController<RandomFn>>();
    let prague_c = size_of::<linux::PragueController<RandomFn>>();
    println!("controllers: Bbr {bbr_c}, Bbr3 {bbr3_c}, Dctcp {dctcp_c}, Prague {prague_c}");
    assert!(bbr_c <= 256 && bbr3_c <= 320 && dctcp_c <= 288 && prague_c <= 384);
    // AnyController holds them inline: none is larger than rfc::Cubic. RFC-mode BBRv3
    // through the trait (its flow keeps the ACK's rate sample) is the largest variant
    // and makes the enum 576 bytes (512 before it).
    let any = size_of::<AnyController>();
    let rfc_bbr3_c = size_of::<congestion::rfc::Bbr3Controller<RandomFn>>();
    println!("AnyController {any}, rfc::Bbr3Controller {rfc_bbr3_c}");
    assert!(prague_c <= size_of::<congestion::rfc::Cubic>());
    assert!(rfc_bbr3_c <= 480 && rfc_bbr3_c < any);
    assert_eq!(any, 576);
}
