//! Printing to stdout that ends the program quietly when the reader has gone away
//! (`ccsim tsq2012 | head`), instead of panicking on the broken pipe as `println!` does.

use std::io::Write;

/// Write one line to stdout; exit with status 0 if stdout is closed.
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if out
        .write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .is_err()
    {
        std::process::exit(0);
    }
}

/// `println!` for results: see [`line()`].
#[macro_export]
macro_rules! say {
    () => {
        $crate::say::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::say::line(format_args!($($arg)*))
    };
}
