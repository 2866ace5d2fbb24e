//! Replays a trace in the `shared/conformance` event language through the library and
//! prints CSV with the reference traces' header and columns.
//!
//! ```text
//! cargo run --release --example replay -- tests/data/linux-cubic/ss_train_rtt18ms.events
//! ```
//! Reads standard input when the file is `-`.

#[path = "../tests/replay/mod.rs"]
mod replay;

use std::io::{Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path] = args.as_slice() else {
        eprintln!("usage: replay FILE.events   (or - for standard input)");
        return ExitCode::from(2);
    };
    let mut text = String::new();
    let read = if path == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(path).map(|t| text = t)
    };
    if let Err(e) = read {
        eprintln!("replay: cannot read {path}: {e}");
        return ExitCode::from(2);
    }
    match replay::replay(&text) {
        Ok(csv) => {
            let mut stdout = std::io::stdout().lock();
            if stdout
                .write_all(csv.as_bytes())
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("replay: {path}: {e}");
            ExitCode::from(1)
        }
    }
}
