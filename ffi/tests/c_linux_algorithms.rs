//! The kernel-style algorithms' C calls checked from C (`tests/c/linux_algorithms.c`,
//! built with the system C compiler against the committed header and the static
//! library): a short transfer per algorithm (BBR v1, BBRv3, DCTCP, TCP Prague) with
//! hand-computed values, BBR v1 and v3 reaching PROBE_BW over a modelled bottleneck with
//! the caller's random callback, and the refusals. Not under Miri (it compiles and runs
//! C).

mod common;

use common::compile_c;
use std::process::Command;

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn bbr_bbr3_dctcp_and_prague_work_when_called_from_c() {
    let program = compile_c("c_linux_algorithms", &["tests/c/linux_algorithms.c"]);
    let out = Command::new(program).output().expect("run the C checks");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.starts_with("ok "), "{stdout}");
}
