//! The committed header `include/congestion.h` is what cbindgen generates from this
//! crate. Regenerate with `UPDATE_HEADER=1 cargo test -p congestion-ffi --test header`.

use std::path::Path;

#[test]
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
    for name in [
        "CONGESTION_STATE_SIZE 384",
        "CONGESTION_STATE_ALIGN 8",
        "congestion_init",
        "congestion_send_enqueue",
        "CONGESTION_RFC_STATE_SIZE 640",
        "CONGESTION_RFC_STATE_ALIGN 8",
        "congestion_rfc_init",
        "congestion_rfc_on_ack",
        "congestion_send_poll",
    ] {
        assert!(generated.contains(name), "header lacks {name}");
    }
}
