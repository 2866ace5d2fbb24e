//! Fuzz body for RFC mode: an `Cubic` (RFC 9438 CUBIC in bytes with standard slow
//! start, Linux HyStart or HyStart++) under any event sequence of the stack model in
//! `classic.rs`, MSS changes included, with CUBIC's own invariants on top.

use super::classic::{self, Step};
use congestion::cubic::RfcCubic;

/// Runs one fuzz input. Panics (with the flight recorder's story) if an invariant breaks.
pub fn run(data: &[u8]) {
    classic::run::<RfcCubic>(data, &mut cubic_checks);
}

/// CUBIC's invariants after every event.
fn cubic_checks(step: &Step<'_, RfcCubic>) -> Option<String> {
    let f = step.after;
    // RFC 9438 §4.2: K is chosen so that the curve starts at the stage's own window.
    let cubic = f.cubic();
    if cubic.epoch_start().is_some() && cubic.w_cubic(&f.params(), 0) < cubic.cwnd_epoch_bytes {
        return Some("W_cubic(0) below cwnd_epoch: the curve starts under the window".into());
    }
    None
}
