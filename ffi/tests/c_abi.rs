//! The v0.2 event model checked from C (`tests/c/recovery.c`, built with the system C
//! compiler against the committed header and the static library): the same behaviours
//! as `tests/recovery.rs`, in both modes, with the same calls. Not under Miri (it
//! compiles and runs C).

mod common;

use common::compile_c;
use std::process::Command;

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_event_model_holds_when_called_from_c() {
    let program = compile_c("c_recovery", &["tests/c/recovery.c"]);
    let out = Command::new(program).output().expect("run the C checks");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.starts_with("ok "), "{stdout}");
}
