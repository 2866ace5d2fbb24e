//! Writes the cargo-fuzz seed corpus from the Linux reference traces:
//! `cargo run --example fuzz_corpus --features flight-recorder -- fuzz/corpus/linux_flow`

#[path = "../tests/fuzz_bodies/mod.rs"]
mod fuzz_bodies;

fn main() -> std::io::Result<()> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/corpus/linux_flow".into());
    std::fs::create_dir_all(&out)?;
    let traces = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/linux-cubic");
    for entry in std::fs::read_dir(traces)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "events") {
            let input = fuzz_bodies::corpus::from_trace(&std::fs::read_to_string(&path)?);
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            std::fs::write(std::path::Path::new(&out).join(name), input)?;
        }
    }
    Ok(())
}
