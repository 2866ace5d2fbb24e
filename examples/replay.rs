//! Replays a trace in the `shared/conformance` event language through the library and
//! prints CSV with the reference traces' header and columns.
//!
//! ```text
//! cargo run --release --example replay -- tests/data/linux-cubic/ss_train_rtt18ms.events
//! cargo run --release --example replay -- --kernel 2.6.35 tests/data/linux-2.6.35/gbe_18ms_hz1000.events
//! cargo run --release --example replay -- --cc bbr tests/data/linux-bbr/startup_10mbps_40ms.events
//! cargo run --release --example replay -- --cc bbr3 tests/data/linux-bbr3/startup_plateau_10mbps_40ms.events
//! ```
//! `--cc` names the algorithm (`cubic`, the default, `bbr` or `bbr3`); `--kernel 6` (the default) is today's
//! kernel, `--kernel 2.6.35` CUBIC's 2010 profile (`congestion::v2_6_35`). Reads standard
//! input when the file is `-`.

use congestion_replay as replay;
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str =
    "usage: replay [--cc WORD] [--kernel 6|2.6.35] FILE.events   (or - for standard input)";

/// What the command line asks for.
struct Args<'a> {
    cc: replay::Cc,
    kernel: replay::Kernel,
    path: &'a str,
}

/// The flags (`--cc W`, `--kernel K`, or `--flag=value`) and the file, or the error
/// naming the flag and its valid values.
fn parse_args(args: &[String]) -> Result<Args<'_>, String> {
    let mut parsed = Args {
        cc: replay::Cc::Cubic,
        kernel: replay::Kernel::Today,
        path: "",
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .or_else(|| rest.next().map(String::as_str))
                .ok_or_else(|| format!("{flag} needs a value; {USAGE}"))
        };
        match flag {
            "--cc" => parsed.cc = replay::Cc::parse(value()?).map_err(|e| e.to_string())?,
            "--kernel" => {
                parsed.kernel = replay::Kernel::parse(value()?).map_err(|e| e.to_string())?
            }
            path if parsed.path.is_empty() && (path == "-" || !path.starts_with('-')) => {
                parsed.path = path
            }
            _ => return Err(USAGE.to_owned()),
        }
    }
    if parsed.path.is_empty() {
        return Err(USAGE.to_owned());
    }
    Ok(parsed)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Args { cc, kernel, path } = match parse_args(&args) {
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
    match replay::replay_cc(&text, cc, kernel, &mut csv) {
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
