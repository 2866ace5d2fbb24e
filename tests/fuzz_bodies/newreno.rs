//! Fuzz body for NewReno (RFC 9002 §7, Appendix B): a `NewReno` under any event
//! sequence of the stack model in `classic.rs`, with NewReno's own invariants:
//!
//! - a loss reduction halves: ssthresh = cwnd = max(cwnd before / 2, 2 MSS); an ECN-CE
//!   one: ssthresh the same, cwnd = max(cwnd before / 2, 1 MSS); an RTO or persistent
//!   congestion: ssthresh = max(cwnd before / 2, 2 MSS) (RFC 9002 B.6, §7.6.2);
//! - in congestion avoidance the window grows by at most one MSS per window of
//!   acknowledged bytes. Checked over each stretch of consecutive events that stay in
//!   congestion avoidance (no reduction, undo or MSS change): with `cwnd_0` the window
//!   at its start and `A` the bytes acknowledged in it, the growth is at most
//!   `MSS · (A / cwnd_0 + 1)`. Sound: every MSS added consumes a whole current window
//!   (at least `cwnd_0`) of counted bytes, and the count carried into the stretch is
//!   below one window (it is reset by every reduction and slow-start exit and kept
//!   below the window by every increase), so `k` increases need
//!   `k · cwnd_0 < cwnd_0 + A`.

use super::classic::{self, Step};
use super::phase::Kind;
use congestion::rfc::NewRenoWindow;
use congestion::{CongestionController, Phase};

/// A stretch in congestion avoidance: its first window and the bytes acked since.
struct Stretch {
    cwnd_0: u64,
    /// Exact (u128): a saturated sum would make the bound unsound.
    acked: u128,
}

/// Runs one fuzz input. Panics (with the flight recorder's story) if an invariant breaks.
pub fn run(data: &[u8]) {
    let mut stretch: Option<Stretch> = None;
    classic::run::<NewRenoWindow>(data, &mut |step| checks(step, &mut stretch));
}

fn checks(step: &Step<'_, NewRenoWindow>, stretch: &mut Option<Stretch>) -> Option<String> {
    let (f, before) = (step.after, step.before);
    let mss = f.params().mss();
    let half = (before.cwnd() / 2).max(2 * mss);
    match step.kind {
        Kind::Loss if step.new_reduction && (f.cwnd(), f.ssthresh()) != (half, Some(half)) => {
            return Some(format!(
                "a loss halves: cwnd = ssthresh = max({} / 2, 2 MSS) = {half}",
                before.cwnd()
            ));
        }
        Kind::Ecn if step.new_reduction => {
            let cwnd = (before.cwnd() / 2).max(mss);
            if (f.cwnd(), f.ssthresh()) != (cwnd, Some(half)) {
                return Some(format!(
                    "an ECN-CE mark halves: cwnd {cwnd}, ssthresh {half} from {}",
                    before.cwnd()
                ));
            }
        }
        Kind::RetransmissionTimeout | Kind::PersistentCongestion if f.ssthresh() != Some(half) => {
            return Some(format!(
                "an RTO or persistent congestion sets ssthresh = max({} / 2, 2 MSS) = {half}",
                before.cwnd()
            ));
        }
        _ => {}
    }
    // Growth in congestion avoidance, summed over the stretch.
    let in_ca = before.phase() == Phase::CongestionAvoidance
        && f.phase() == Phase::CongestionAvoidance
        && f.params().mss() == before.params().mss()
        && !matches!(step.kind, Kind::Undo | Kind::MssChange)
        && !step.new_reduction;
    // The ACK that ends a recovery at or above ssthresh is already congestion
    // avoidance's (below it, slow start's: bounded in classic.rs).
    let entering = step.kind == Kind::Ack
        && before.phase() == Phase::Recovery
        && before.cwnd() >= before.ssthresh().unwrap_or(u64::MAX)
        && f.phase() == Phase::CongestionAvoidance;
    if !(in_ca || entering) {
        *stretch = None;
        return None;
    }
    let s = stretch.get_or_insert(Stretch {
        cwnd_0: before.cwnd(),
        acked: 0,
    });
    s.acked += u128::from(step.acked);
    let grown = u128::from(f.cwnd().saturating_sub(s.cwnd_0));
    let bound = u128::from(mss) * (s.acked / u128::from(s.cwnd_0.max(1)) + 1);
    if grown > bound {
        return Some(format!(
            "congestion avoidance grew {grown} bytes from {} on {} acked bytes: more than \
             one MSS per window",
            s.cwnd_0, s.acked
        ));
    }
    None
}
