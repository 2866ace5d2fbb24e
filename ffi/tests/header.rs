//! The committed header `include/congestion.h` is what cbindgen generates from this
//! crate. Regenerate with `UPDATE_HEADER=1 cargo test -p congestion-ffi --test header`.

use std::path::Path;

#[test]
#[cfg_attr(miri, ignore = "cbindgen reads the crate's files")]
fn the_committed_header_matches_the_source() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("config");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("utf-8");
    let path = crate_dir.join("include/congestion.h");
    if std::env::var_os("UPDATE_HEADER").is_some() {
        std::fs::write(&path, &generated).expect("write header");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/congestion.h is stale: run UPDATE_HEADER=1 cargo test -p congestion-ffi --test header"
    );
    // The sizes stated in the README and on the crate's front page (tests/sizes.rs).
    let sentence = format!(
        "a Linux-mode flow is {} bytes of state, its send path {}, an RFC-mode CUBIC flow {}",
        size_of::<congestion::linux::LinuxFlowState>(),
        size_of::<congestion::pacing::SendPathState>(),
        size_of::<congestion::rfc::ClassicState<congestion::cubic::RfcCubic>>()
    );
    let unwrapped: String = generated
        .lines()
        .map(|l| l.trim_start_matches([' ', '*']).trim_end())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        unwrapped.contains(&sentence),
        "the header should say: {sentence}"
    );
    for name in [
        "CONGESTION_LINUX_STATE_SIZE 256",
        "CONGESTION_LINUX_STATE_ALIGN 64",
        "CONGESTION_LINUX_PARAMS_SIZE 192",
        "congestion_linux_cubic_params_init",
        "CONGESTION_RFC_STATE_SIZE 576",
        "CONGESTION_RFC_STATE_ALIGN 64",
        "CONGESTION_RFC_PARAMS_SIZE 192",
        "congestion_rfc_cubic_params_init",
        "CONGESTION_ERR_ALIGNMENT -4",
        "CONGESTION_ERR_SIZE -5",
        "CONGESTION_PACKET_UNKNOWN UINT64_MAX",
        "CONGESTION_SSTHRESH_NONE UINT64_MAX",
        "congestion_linux_cubic_init",
        "congestion_linux_cubic_send_enqueue",
        "congestion_linux_cubic_send_poll",
        "congestion_rfc_cubic_init",
        "CONGESTION_RFC_ALGORITHM_NEWRENO",
    ] {
        assert!(generated.contains(name), "header lacks {name}");
    }
    // Both modes name every event and getter the same way.
    for call in [
        "on_sent",
        "on_sent_counted",
        "on_ack",
        "on_loss",
        "on_loss_sent_at",
        "on_persistent_congestion",
        "on_ecn",
        "on_rto",
        "on_discarded",
        "on_spurious",
        "on_transmit_start",
        "cwnd",
        "ssthresh",
        "phase",
        "in_flight",
        "pacing_rate",
        "send_quantum",
        "mss",
        "reconfigure",
    ] {
        for mode in ["linux", "rfc"] {
            let name = format!("int32_t congestion_{mode}_{call}(");
            assert!(generated.contains(&name), "header lacks {name}");
        }
    }
}
