//! Building C programs against the static library this test run built.

#![allow(dead_code, reason = "each test file uses a different part")]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The ffi crate's directory.
pub fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `target/<profile>/`: the test binary lives in its `deps/`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>")
        .to_path_buf()
}

/// The `libcongestion_ffi*.a` files directly in `dir`.
fn static_libraries(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libcongestion_ffi") && n.ends_with(".a"))
        })
        .collect()
}

/// The static library cargo built for this test run. Cargo leaves it in deps/, named
/// with a hash (`libcongestion_ffi-<hash>.a`); a top-level build also puts one beside
/// it. The newest wins, so a stale one from another build never does.
pub fn static_library() -> PathBuf {
    let dir = profile_dir();
    static_libraries(&dir.join("deps"))
        .into_iter()
        .chain(static_libraries(&dir))
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .unwrap_or_else(|| panic!("static library not built in {}", dir.display()))
}

/// Compiles `sources` (relative to the ffi crate) with the system C compiler against
/// the committed header and the static library into `name`; returns its path.
pub fn compile_c(name: &str, sources: &[&str]) -> PathBuf {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir().join("include"))
        .args(sources.iter().map(|s| crate_dir().join(s)))
        .arg(static_library())
        // Drop unused sections: with the library's `defmt` feature on (as `--all-features`
        // does), its unused `Format` impls would otherwise need a defmt logger.
        .args(["-Wl,--gc-sections", "-lpthread", "-ldl", "-lm", "-o"])
        .arg(&out)
        .status()
        .expect("run the C compiler (cc)");
    assert!(status.success(), "cc failed for {name}: {status}");
    out
}
