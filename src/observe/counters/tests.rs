use super::*;
use crate::observe::BbrMode;

#[test]
fn counts_saturate_instead_of_wrapping() {
    let mut c = Counters {
        undos: u32::MAX,
        loss_reductions: u32::MAX,
        ..Counters::new()
    };
    let undo = Decision::Undo {
        cwnd_before: 1,
        cwnd_after: 2,
        ssthresh: 2,
        phase: crate::Phase::CongestionAvoidance,
    };
    c.on_decision(Instant::ZERO, &undo);
    assert_eq!(c.undos, u32::MAX);
    c.timeouts = 1;
    assert_eq!(c.reductions(), u32::MAX);
    let mode = Decision::ModeChange {
        from: BbrMode::Startup,
        to: BbrMode::Drain,
    };
    c.on_decision(Instant::ZERO, &mode);
    assert_eq!(c.mode_changes, 1);
}
