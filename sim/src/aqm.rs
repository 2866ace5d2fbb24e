//! The bottleneck's active queue management (`--aqm`): drop tail (none), an L4S step
//! marker, RFC 9332's coupled DualQ with the defaults of Linux's `dualpi2` qdisc
//! (`net/sched/sch_dualpi2.c`), or a classic single-queue AQM (`pi2`): the same PI
//! core marking every ECN-capable packet, ECT(1) as ECT(0), with `p'²` (RFC 9332
//! §2.4's classic marking; an RFC 3168 AQM does not tell ECT(1) apart).
//!
//! The link settles each packet's fate when it is offered (one flow, FIFO): its
//! dequeue time (`start`, when its serialisation begins) is known then, so the AQM
//! decides at dequeue as `dualpi2` does by default (`drop_early` off). The PI
//! controller's updates every `tupdate` before that instant read the queue's head
//! sojourn (`now - head_ts`), which depends only on packets offered already (the head
//! is that packet or one ahead of it), so they are computed lazily, in time order,
//! before each decision. The 2-MTU floor reads the backlog the packet found on
//! arrival, not the one behind it at dequeue (packets arriving while it waits are
//! offered after it).
//!
//! With one flow only one of DualQ's queues holds packets: ECT(1) goes to the L queue,
//! ECT(0) and not-ECT to the classic one; the WRR scheduler between them has nothing
//! to choose. Floating point here is the simulator's (std), not the library's.

use std::collections::VecDeque;

use crate::config::{AqmKind, Ect};
use crate::rng::SplitMix64;

/// `dualpi2` default `target`: the classic queue's delay target, 15 ms.
pub const DUALPI2_TARGET_NS: u64 = 15_000_000;
/// `dualpi2` default `tupdate`: the PI controller runs every 16 ms.
pub const DUALPI2_TUPDATE_NS: u64 = 16_000_000;
/// `dualpi2` default `alpha`, Hz: the integral gain (`41 / 256`, "~0.16 Hz").
pub const DUALPI2_ALPHA_HZ: f64 = 41.0 / 256.0;
/// `dualpi2` default `beta`, Hz: the proportional gain (`819 / 256`, "~3.20 Hz").
pub const DUALPI2_BETA_HZ: f64 = 819.0 / 256.0;
/// `dualpi2` default coupling factor k: `p_CL = k · p'`.
pub const DUALPI2_COUPLING: f64 = 2.0;
/// `dualpi2` default L4S step threshold, 1 ms of sojourn.
pub const DUALPI2_STEP_NS: u64 = 1_000_000;
/// `dualpi2` default `limit`: 10000 packets (the buffer when `--buffer` is absent).
pub const DUALPI2_LIMIT_PACKETS: u64 = 10_000;

/// What the AQM does to a packet at dequeue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Forward it unchanged.
    Pass,
    /// Forward it marked CE.
    Mark,
    /// Drop it (a not-ECT packet where an ECT one would be marked, or overload).
    Drop,
}

/// The PI2 core of RFC 9332 (its Figure 5 and Appendix A), as `dualpi2` runs it.
#[derive(Clone, Debug)]
pub struct Pi2 {
    /// `p'`, the base probability in [0, 1].
    prob: f64,
    /// The queue delay at the previous update, s.
    last_qdelay_s: f64,
    /// When the next update runs, ns.
    next_update_ns: u64,
    /// Packets not yet dequeued: (arrival, dequeue), ns; the front is the head.
    waiting: VecDeque<(u64, u64)>,
}

impl Default for Pi2 {
    fn default() -> Self {
        Self::new()
    }
}

impl Pi2 {
    /// A controller at `p' = 0` whose first update is one `tupdate` after time 0.
    pub fn new() -> Self {
        Pi2 {
            prob: 0.0,
            last_qdelay_s: 0.0,
            next_update_ns: DUALPI2_TUPDATE_NS,
            waiting: VecDeque::with_capacity(1024),
        }
    }

    /// `p'`.
    pub fn base_probability(&self) -> f64 {
        self.prob
    }

    /// The classic queue's drop/mark probability `p_C = p'^2` (two rolls of `p'`).
    // RFC 9332 §2.4, Linux sch_dualpi2.c dualpi2_classic_marking()
    pub fn classic_probability(&self) -> f64 {
        self.prob * self.prob
    }

    /// The L queue's coupled marking probability `p_CL = k · p'` (at most 1).
    // RFC 9332 §2.4, Linux sch_dualpi2.c dualpi2_scalable_marking()
    pub fn l4s_probability(&self) -> f64 {
        (self.prob * DUALPI2_COUPLING).min(1.0)
    }

    /// One PI update with the queue delay `qdelay_s`, s.
    // RFC 9332 Figure 5 dualpi2_update(); Linux sch_dualpi2.c calculate_probability()
    pub fn update(&mut self, qdelay_s: f64) {
        let target_s = DUALPI2_TARGET_NS as f64 * 1e-9;
        let delta = DUALPI2_ALPHA_HZ * (qdelay_s - target_s)
            + DUALPI2_BETA_HZ * (qdelay_s - self.last_qdelay_s);
        self.last_qdelay_s = qdelay_s;
        self.prob = (self.prob + delta).clamp(0.0, 1.0);
    }

    /// Run every update due before `until_ns`, the dequeue of the latest packet
    /// offered, each with the head's sojourn then. Strictly before: up to then the
    /// head is that packet or one ahead of it, all offered already; at its dequeue the
    /// head may be a packet not yet offered.
    fn advance(&mut self, until_ns: u64) {
        while self.next_update_ns < until_ns {
            let now = self.next_update_ns;
            while self.waiting.front().is_some_and(|&(_, start)| start <= now) {
                self.waiting.pop_front();
            }
            // Linux get_queue_delays(): now - the head's enqueue time, 0 when empty.
            let qdelay_ns = match self.waiting.front() {
                Some(&(at, _)) if at <= now => now - at,
                _ => 0,
            };
            self.update(qdelay_ns as f64 * 1e-9);
            self.next_update_ns += DUALPI2_TUPDATE_NS;
        }
    }
}

/// The bottleneck's AQM and its counters.
#[derive(Clone, Debug)]
pub struct Aqm {
    kind: AqmKind,
    pi: Pi2,
    /// `dualpi2`'s "no mark or drop below a standing queue of 2 MTUs", bytes.
    min_backlog_bytes: u64,
    /// CE marks applied.
    pub marks: u64,
    /// Packets dropped by the AQM (not by a full buffer).
    pub drops: u64,
}

fn roll(rng: &mut SplitMix64, p: f64) -> bool {
    p > 0.0 && rng.next_f64() < p
}

impl Aqm {
    /// The AQM `kind` for packets of `wire_bytes` (its 2-MTU floor).
    pub fn new(kind: AqmKind, wire_bytes: u32) -> Self {
        Aqm {
            kind,
            pi: Pi2::new(),
            min_backlog_bytes: 2 * u64::from(wire_bytes),
            marks: 0,
            drops: 0,
        }
    }

    /// Whether it ever marks or drops (drop tail does neither; the link then skips it).
    pub fn is_active(&self) -> bool {
        self.kind != AqmKind::DropTail
    }

    /// The PI2 core (DualQ's state; idle for the other kinds).
    pub fn pi(&self) -> &Pi2 {
        &self.pi
    }

    /// Sets `p'` as the PI controller would (clamped to [0, 1]); it holds until the next
    /// update, `tupdate` after the previous one (16 ms into a fresh AQM). For tests and
    /// what-ifs.
    pub fn set_base_probability(&mut self, p: f64) {
        self.pi.prob = p.clamp(0.0, 1.0);
    }

    /// A packet that reached the queue at `at_ns`, with `backlog_bytes` queued ahead
    /// of it, is dequeued at `start_ns`: pass, mark or drop. Calls come in dequeue
    /// order.
    // Linux sch_dualpi2.c dualpi2_qdisc_dequeue(): must_drop(), then do_step_aqm()
    pub fn dequeue(
        &mut self,
        at_ns: u64,
        start_ns: u64,
        backlog_bytes: u64,
        ect: Ect,
        rng: &mut SplitMix64,
    ) -> Verdict {
        let sojourn = start_ns - at_ns;
        let v = match self.kind {
            AqmKind::DropTail => Verdict::Pass,
            AqmKind::Step { threshold_ns } => step(sojourn, threshold_ns, ect),
            AqmKind::DualQ => {
                self.pi.waiting.push_back((at_ns, start_ns));
                self.pi.advance(start_ns);
                self.dualq(sojourn, backlog_bytes, ect, rng)
            }
            AqmKind::Pi2 => {
                self.pi.waiting.push_back((at_ns, start_ns));
                self.pi.advance(start_ns);
                self.classic(backlog_bytes, ect, rng)
            }
        };
        match v {
            Verdict::Pass => {}
            Verdict::Mark => self.marks += 1,
            Verdict::Drop => self.drops += 1,
        }
        v
    }

    /// The classic single queue: `p'²` for every packet, ECT(1) included (no L queue,
    /// no step); not-ECT dropped instead; nothing below a standing queue of 2 MTUs.
    // RFC 9332 §2.4 (classic marking p_C = p'^2); RFC 3168 §5 (ECT(0) and ECT(1) alike)
    fn classic(&self, backlog_bytes: u64, ect: Ect, rng: &mut SplitMix64) -> Verdict {
        let p = self.pi.prob;
        if backlog_bytes < self.min_backlog_bytes || !(roll(rng, p) && roll(rng, p)) {
            Verdict::Pass
        } else if ect == Ect::NotEct {
            Verdict::Drop
        } else {
            Verdict::Mark
        }
    }

    fn dualq(
        &self,
        sojourn_ns: u64,
        backlog_bytes: u64,
        ect: Ect,
        rng: &mut SplitMix64,
    ) -> Verdict {
        let p = self.pi.prob;
        // Linux must_drop(): nothing below a standing queue of 2 MTUs.
        let coupled = if backlog_bytes < self.min_backlog_bytes {
            Verdict::Pass
        } else {
            let overload = p * DUALPI2_COUPLING > 1.0;
            match ect {
                Ect::NotEct | Ect::Ect0 => {
                    if roll(rng, p) && roll(rng, p) {
                        if overload || ect == Ect::NotEct {
                            Verdict::Drop
                        } else {
                            Verdict::Mark
                        }
                    } else {
                        Verdict::Pass
                    }
                }
                Ect::Ect1 if overload => {
                    // drop_overload (default): classic drops first, then mark.
                    if roll(rng, p) && roll(rng, p) {
                        Verdict::Drop
                    } else {
                        Verdict::Mark
                    }
                }
                Ect::Ect1 => {
                    if roll(rng, p * DUALPI2_COUPLING) {
                        Verdict::Mark
                    } else {
                        Verdict::Pass
                    }
                }
            }
        };
        match (coupled, ect) {
            (Verdict::Drop, _) => Verdict::Drop,
            // Only the L queue has the step.
            (v, Ect::Ect1) => match step(sojourn_ns, DUALPI2_STEP_NS, ect) {
                Verdict::Pass => v,
                s => s,
            },
            (v, _) => v,
        }
    }
}

/// Step marking: CE once the sojourn exceeds the threshold; a not-ECT packet is
/// dropped instead.
// RFC 9332 §2.5.1.2 (native L4S AQM); Linux sch_dualpi2.c do_step_aqm()
fn step(sojourn_ns: u64, threshold_ns: u64, ect: Ect) -> Verdict {
    if sojourn_ns <= threshold_ns {
        Verdict::Pass
    } else if ect == Ect::NotEct {
        Verdict::Drop
    } else {
        Verdict::Mark
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pi_rises_above_target_and_falls_below_it() {
        let mut pi = Pi2::new();
        // 30 ms of queue: the first update adds alpha·0.015 + beta·0.030 (about
        // 0.16·0.015 + 3.2·0.030 = 0.0984).
        pi.update(0.030);
        let first = DUALPI2_ALPHA_HZ * 0.015 + DUALPI2_BETA_HZ * 0.030;
        assert!((pi.base_probability() - first).abs() < 1e-12);
        assert!((first - 0.0984).abs() < 1e-3);
        // Steady at 30 ms: only the integral term, alpha·0.015 (about 0.0024), more.
        pi.update(0.030);
        let second = first + DUALPI2_ALPHA_HZ * 0.015;
        assert!((pi.base_probability() - second).abs() < 1e-12);
        // An empty queue pulls it back and it never goes below 0.
        for _ in 0..100 {
            pi.update(0.0);
        }
        assert_eq!(pi.base_probability(), 0.0);
    }
}
