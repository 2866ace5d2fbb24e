//! The cold BBR benchmark's scripts (`perf/src/cold/bbr/`) put every flow where the
//! table says: each starting phase in PROBE_BW (steady) or in a recovery period
//! (recovery), and a flow replaying the script from phase 0 follows the recorded flow
//! exactly (ours compared whole, the peers by window and phase).

use congestion_perf::bbr::Phase;
use congestion_perf::cold::bbr::{
    ColdBbr, ColdBbr3, ColdQuinnBbr, ColdS2nBbr, PHASES, Part, QuinnStack, S2nStack, Script,
    ScriptFlow, Stack, TcpStack,
};

const STEPS: usize = PHASES + 8;

fn check<F: ScriptFlow, K: Stack<F>>(part: Part, exact: impl Fn(&F, &F) -> bool) {
    let s = Script::<F>::record::<K>(part, STEPS);
    assert_eq!(s.phases.len(), PHASES, "{}", F::NAME);
    assert_eq!(s.acks.len(), STEPS, "{}", F::NAME);
    let mut f = s.phases[0].clone();
    for v in 0..PHASES - 1 {
        s.step(&mut f, v);
        assert!(
            exact(&f, &s.phases[v + 1]),
            "{} {part:?}: replay diverged at {v}",
            F::NAME
        );
    }
    let recovering = s.phases.iter().filter(|f| f.in_recovery()).count();
    eprintln!(
        "{} {part:?}: {recovering} of {PHASES} phases in a recovery period",
        F::NAME
    );
    let want = if part == Part::Recovery { PHASES } else { 0 };
    assert_eq!(recovering, want, "{} {part:?}", F::NAME);
    for (p, f) in s.phases.iter().enumerate() {
        assert_eq!(f.phase(), Phase::ProbeBw, "{} {part:?} phase {p}", F::NAME);
    }
}

fn same_window<F: ScriptFlow>(a: &F, b: &F) -> bool {
    let sh = F::shared();
    a.cwnd_packets(&sh) == b.cwnd_packets(&sh) && a.phase() == b.phase()
}

#[test]
fn ours_follow_their_scripts_in_probe_bw_and_in_recovery() {
    for part in [Part::Steady, Part::Recovery] {
        check::<ColdBbr, TcpStack>(part, |a, b| a.flow() == b.flow());
        check::<ColdBbr3, TcpStack>(part, |a, b| a.flow() == b.flow());
    }
}

#[test]
fn peers_follow_their_scripts() {
    for part in [Part::Steady, Part::Recovery] {
        check::<ColdQuinnBbr, QuinnStack>(part, same_window);
        check::<ColdS2nBbr, S2nStack>(part, same_window);
    }
}
