//! The README's C quick start is `examples/c/quickstart.c`, whole: this test checks that
//! the README shows that file as it is, compiles and runs it against the static library
//! and the committed header, and compares what it prints with the output the README
//! shows (a window that grows, then one reduction). Not under Miri (it compiles C).

mod common;

use common::{compile_c, crate_dir};
use std::process::Command;

/// The body of the first fenced block tagged `tag` after `heading` in `text`.
fn block_after<'a>(text: &'a str, heading: &str, tag: &str) -> &'a str {
    let from = text
        .find(heading)
        .unwrap_or_else(|| panic!("README has {heading}"));
    let fence = format!("```{tag}\n");
    let start = text[from..].find(&fence).expect("a fenced block") + from + fence.len();
    let len = text[start..].find("```\n").expect("the block's end");
    &text[start..start + len]
}

#[test]
#[cfg_attr(miri, ignore = "compiles and runs C")]
fn the_readme_c_quick_start_is_the_example_and_prints_what_the_readme_says() {
    let root = crate_dir().join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let program =
        std::fs::read_to_string(root.join("examples/c/quickstart.c")).expect("quickstart.c");
    let heading = "## C and firmware quick start";
    assert_eq!(
        block_after(&readme, heading, "c"),
        program,
        "README's C quick start and examples/c/quickstart.c differ"
    );

    let exe = compile_c("c_quickstart", &["../examples/c/quickstart.c"]);
    let out = Command::new(exe).output().expect("run the quick start");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout, block_after(&readme, heading, "text"));

    // What the README promises, read from the output itself: the window grows round
    // after round, and the loss reduces it.
    let cwnds: Vec<u64> = stdout
        .lines()
        .filter_map(|l| l.split("cwnd ").nth(1)?.split(' ').next()?.parse().ok())
        .collect();
    assert_eq!(cwnds.len(), 4, "{stdout}");
    assert!(
        cwnds[0] > 10 && cwnds[0] < cwnds[1] && cwnds[1] < cwnds[2],
        "{cwnds:?}"
    );
    assert!(cwnds[3] < cwnds[2], "{cwnds:?}");
}
