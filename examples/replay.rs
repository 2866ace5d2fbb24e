//! Replays a trace in the `shared/conformance` event language through the library and
//! prints CSV with the reference traces' header and columns.
//!
//! ```text
//! cargo run --release --example replay -- tests/data/linux-cubic/ss_train_rtt18ms.events
//! cargo run --release --example replay -- --kernel 2.6.35 tests/data/linux-2.6.35/gbe_18ms_hz1000.events
//! ```
//! `--kernel 6` (the default) is today's kernel, `--kernel 2.6.35` the 2010 profile
//! (`congestion::v2_6_35`). Reads standard input when the file is `-`.

use congestion_replay as replay;
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: replay [--kernel 6|2.6.35] FILE.events   (or - for standard input)";

/// The `--kernel` value, or the error naming the flag and its valid values.
fn kernel_flag(name: &str) -> Result<replay::Kernel, String> {
    replay::Kernel::parse(name).map_err(|e| e.to_string())
}

/// The kernel and the file named on the command line.
fn parse_args(args: &[String]) -> Result<(replay::Kernel, &str), String> {
    match args {
        [path] => Ok((replay::Kernel::Today, path)),
        [flag, kernel, path] if flag == "--kernel" => Ok((kernel_flag(kernel)?, path)),
        [flag, path] if flag.starts_with("--kernel=") => {
            Ok((kernel_flag(&flag["--kernel=".len()..])?, path))
        }
        _ => Err(USAGE.to_owned()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (kernel, path) = match parse_args(&args) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("replay: {e}");
            return ExitCode::from(2);
        }
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
    let mut csv = String::new();
    match replay::replay(&text, kernel, &mut csv) {
        Ok(()) => {
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
