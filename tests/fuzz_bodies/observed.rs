//! What a stack reads back from an RFC-mode state after an event: the one tuple the
//! `NoUndo` twin checks compare (`no_undo.rs` here, and `tests/rfc_no_undo.rs`, which
//! includes this file by path). Needs nothing but the library.

use congestion::Phase;
use congestion::rfc::{ClassicState, RfcParams, UndoStorage, WindowAdjustment};

/// Everything a stack reads back from a state.
pub type Observed = (
    u64,
    Option<u64>,
    Phase,
    u64,
    u64,
    u64,
    u64,
    u64,
    Option<u64>,
    Option<u64>,
);

pub fn observed<W: WindowAdjustment, U: UndoStorage<W>>(
    s: &ClassicState<W, U>,
    p: &RfcParams,
) -> Observed {
    (
        s.cwnd(),
        s.ssthresh(),
        s.phase(),
        s.in_flight(),
        s.pacing_rate(p).as_bytes_per_second(),
        s.send_quantum_bytes(p),
        s.srtt_us(),
        s.min_rtt_us(),
        s.largest_acked(),
        s.recovery_end(),
    )
}
