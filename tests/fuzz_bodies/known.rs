//! Library bugs these bodies found and the library has not fixed yet. Each is tolerated
//! as narrowly as its trigger allows, so that the fuzz targets keep hunting for others;
//! `tests/fuzz_twins.rs` holds a regression test for each (ignored while the switch is
//! on). Turn a switch off once the library is fixed, and un-ignore its test.

/// F1, Linux mode (today's kernel): a CE rise reported during an RTO's recovery (state
/// `Loss`) for a segment at or after `high_seq` goes to `Cubic::ecn`, which leaves
/// state `Loss` alone but still runs `end_cwnd_reduction`: with `undo_marker` set by the
/// RTO, cwnd jumps from the RTO's 1 segment (plus slow start) to ssthresh. The kernel's
/// `tcp_enter_cwr` does nothing in `Loss` but zero `prior_ssthresh`, and
/// `tcp_end_cwnd_reduction` only runs when CWR or Recovery ends. Fixed: the trait's
/// `on_ecn` does nothing in state `Loss`. While on, the Linux body sends no such report.
pub const F1_ECN_IN_LOSS_RAISES_CWND: bool = false;

/// F2, both Linux modes: `loss_recovery` is never cleared when `snd_una` reaches
/// `high_seq`, and `recovery_start` / `high_seq` are consulted forever after, in 32-bit
/// wrap-around. Once `snd_una` is 2^31 segments or more past `high_seq` (a long flow:
/// 2^31 segments, 3.1 TB at 1448 bytes, e.g. the reference traces as fuzz inputs; or one
/// ACK of more than is outstanding), `phase()` says `Recovery` again after an ACK, and
/// `on_loss` / `on_ecn` judge segments sent long after the period "before `high_seq`"
/// and ignore them. While on, the Linux bodies stop judging reports by sequence once
/// `snd_una` is that far past the period's mark (until an RTO or persistent congestion
/// starts a fresh period) and accept an ACK's entry into `Recovery` then. Fixed: the
/// period ends once `high_seq` is acknowledged, and a stale one judges nothing.
pub const F2_STALE_HIGH_SEQ: bool = false;

/// F3, the 2.6.35 profile: the ACK that ends an RTO's state `Loss` (`snd_una` reaching
/// `high_seq`) goes through `try_keep_open`, which, with undo still armed, enters
/// Disorder and moves `high_seq` to the current `snd_nxt` without any reduction. The
/// recovery period began at the RTO, but from then on `on_loss` / `on_ecn` judge every
/// segment sent between the RTO and that ACK "before `high_seq`" and ignore its loss.
/// While on, the 2.6.35 body takes the moved `high_seq` as its period's mark. Fixed: the
/// period keeps a mark of its own.
pub const F3_2635_LOSS_EXIT_MOVES_HIGH_SEQ: bool = false;
