//! The per-packet BBR calls checked from C (`tests/c/packet_bbr.c`, built with the
//! system C compiler against the committed header and the static library): a QUIC-like
//! transfer over a modelled bottleneck per algorithm (RFC-mode BBRv3 in bytes, the
//! Linux-mode BBR v1 and BBRv3 controllers in segments), each leaving Startup with a
//! sane window and pacing rate, and the refusals (NULL, garbage, future and foreign
//! snapshots, bad config fields, another algorithm's state). Not under Miri (it compiles
//! and runs C).

mod common;

use common::compile_c;
use std::process::Command;

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn per_packet_bbr_works_when_called_from_c() {
    let program = compile_c("c_packet_bbr", &["tests/c/packet_bbr.c"]);
    let out = Command::new(program).output().expect("run the C checks");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    println!("{stdout}");
    assert!(stdout.contains("\nok "), "{stdout}");
}
