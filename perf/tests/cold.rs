//! Smoke test of the cold-state benchmark at a tiny N: every controller's stream stays
//! in congestion avoidance, every flow's window moves, the stream derived from the
//! round number gives what explicit counting gives, the batched mode runs the same
//! ACKs, and the warm-up ends where the project's own stream (`benches/common`) does.

use congestion_perf::OursLinux;
use congestion_perf::cold::flows::{
    Dummy, DummyStores, DummyWork, Linux, LinuxSendPath, Null, Quinn, Rfc, RfcNoUndo, RfcSendPath,
    S2n,
};
use congestion_perf::cold::{ColdFlow, Driver, Mode, PHASES, Template, permutation, run, step};
use congestion_perf::common::{OursRfc, Regime, Stream, StreamController};
use congestion_perf::quinn::QuinnCubic;
use congestion_perf::s2n::S2nCubic;

const N: usize = 2 * PHASES;
const ROUNDS: u64 = 2_500; // 100 ms of each flow's stream

fn check<F: ColdFlow>() -> Template<F> {
    let sh = F::shared();
    let t = Template::<F>::new(&sh);
    for (p, f) in t.phases.iter().enumerate() {
        assert!(
            f.in_congestion_avoidance(&sh),
            "{} template {p}: not in CA",
            F::NAME
        );
    }

    // The derived stream against explicit counting, ACK by ACK, from the last template.
    let mut d: Driver<F> = t.driver.clone();
    let mut derived = d.flow.clone();
    for _ in 0..2_000 {
        let v = d.v + 1;
        assert!(
            step(&mut derived, &sh, &t.consts, v),
            "{}: derived step refused",
            F::NAME
        );
        assert!(d.ack(&sh), "{}: explicit send refused", F::NAME);
        assert_eq!(
            derived.cwnd_packets(&sh),
            d.flow.cwnd_packets(&sh),
            "{}",
            F::NAME
        );
        assert_eq!(
            d.in_flight,
            d.flow.cwnd_packets(&sh),
            "{}: not window-limited",
            F::NAME
        );
    }

    // N flows in random order, plain and batched: same ACKs, same end states.
    let perm = permutation(N, 27);
    let start: Vec<F> = (0..N).map(|i| t.phases[i % PHASES].clone()).collect();
    let mut plain = start.clone();
    let mut batched = start.clone();
    let acks = ROUNDS * N as u64;
    let (_, bad) = run(&mut plain, &sh, &t.consts, &perm, acks, Mode::Plain);
    assert_eq!(
        bad,
        0,
        "{}: steps that did not behave as the stream assumes",
        F::NAME
    );
    let (_, bad) = run(
        &mut batched,
        &sh,
        &t.consts,
        &perm,
        acks,
        Mode::Batched { burst: 8 },
    );
    assert_eq!(bad, 0, "{} batched", F::NAME);
    for i in 0..N {
        let (c0, c1) = (start[i].cwnd_packets(&sh), plain[i].cwnd_packets(&sh));
        assert!(
            plain[i].in_congestion_avoidance(&sh),
            "{} flow {i}: left CA",
            F::NAME
        );
        assert!(
            c1 > c0,
            "{} flow {i}: cwnd did not move ({c0} -> {c1})",
            F::NAME
        );
        // Slow start would add 2 packets per ACK; CUBIC here adds well under 0.1.
        assert!(
            u64::from(c1 - c0) < ROUNDS / 10,
            "{} flow {i}: grew like slow start ({c0} -> {c1})",
            F::NAME
        );
        assert_eq!(
            c1,
            batched[i].cwnd_packets(&sh),
            "{} flow {i}: batched differs",
            F::NAME
        );
    }
    t
}

fn warm_cwnd<C: StreamController>(c: C) -> u32 {
    Stream::new(c, Regime::CongestionAvoidance)
        .live()
        .cwnd_packets()
}

#[test]
fn linux() {
    let t = check::<Linux>();
    let sh = Linux::shared();
    assert_eq!(t.phases[0].cwnd_packets(&sh), warm_cwnd(OursLinux::new()));
}

#[test]
fn linux_send_path() {
    let t = check::<LinuxSendPath>();
    let sh = LinuxSendPath::shared();
    assert_eq!(t.phases[0].cwnd_packets(&sh), warm_cwnd(OursLinux::new()));
}

#[test]
fn rfc() {
    let t = check::<Rfc>();
    let sh = <Rfc>::shared();
    assert_eq!(t.phases[0].cwnd_packets(&sh), warm_cwnd(OursRfc::new()));
}

#[test]
fn rfc_without_undo() {
    let t = check::<RfcNoUndo>();
    let sh = RfcNoUndo::shared();
    assert_eq!(t.phases[0].cwnd_packets(&sh), warm_cwnd(OursRfc::new()));
}

#[test]
fn rfc_send_path() {
    let t = check::<RfcSendPath>();
    let sh = RfcSendPath::shared();
    assert_eq!(t.phases[0].cwnd_packets(&sh), warm_cwnd(OursRfc::new()));
}

#[test]
fn quinn() {
    let t = check::<Quinn>();
    let sh = Quinn::shared();
    assert_eq!(t.phases[0].cwnd_packets(&sh), warm_cwnd(QuinnCubic::new()));
}

#[test]
fn s2n() {
    let t = check::<S2n<false>>();
    let sh = S2n::<false>::shared();
    assert_eq!(
        t.phases[0].cwnd_packets(&sh),
        warm_cwnd(S2nCubic::without_pacer())
    );
    let t = check::<S2n<true>>();
    let sh = S2n::<true>::shared();
    assert_eq!(t.phases[0].cwnd_packets(&sh), warm_cwnd(S2nCubic::new()));
}

#[test]
fn floor_and_stream_run() {
    for mode in [Mode::Plain, Mode::Batched { burst: 8 }] {
        let perm = permutation(N, 1);
        let t = Template::<Dummy<2>>::new(&());
        let mut flows: Vec<_> = (0..N).map(|i| t.phases[i % PHASES]).collect();
        let (_, bad) = run(&mut flows, &(), &t.consts, &perm, 10 * N as u64, mode);
        assert_eq!(bad, 0);
        // Every flow had its 10 ACKs, each line written.
        assert!(flows.iter().all(|f| f.0.iter().all(|l| l[0] != 0)));
        // The store dummy writes every word of its line on each ACK (16 stores: twice).
        let t = Template::<DummyStores<16>>::new(&());
        let mut flows: Vec<_> = (0..N).map(|i| t.phases[i % PHASES]).collect();
        let (_, bad) = run(&mut flows, &(), &t.consts, &perm, 10 * N as u64, mode);
        assert_eq!(bad, 0);
        assert!(flows.iter().all(|f| f.0.iter().all(|&w| w != 0)));
        // The work dummy rewrites its first word on each ACK.
        let t = Template::<DummyWork<16>>::new(&());
        let mut flows: Vec<_> = (0..N).map(|i| t.phases[i % PHASES]).collect();
        let before: Vec<u64> = flows.iter().map(|f| f.0[0]).collect();
        let (_, bad) = run(&mut flows, &(), &t.consts, &perm, 10 * N as u64, mode);
        assert_eq!(bad, 0);
        assert!(flows.iter().zip(&before).all(|(f, &b)| f.0[0] != b));
        let t = Template::<Null>::new(&());
        let mut flows = vec![Null; N];
        assert_eq!(
            run(&mut flows, &(), &t.consts, &perm, 10 * N as u64, mode).1,
            0
        );
    }
}

#[test]
fn permutation_is_one() {
    let mut p = permutation(10_000, 5);
    assert_ne!(p[..10], (0..10).collect::<Vec<u32>>()[..]);
    p.sort_unstable();
    assert!(p.iter().enumerate().all(|(i, &v)| v as usize == i));
    assert_eq!(permutation(1000, 9), permutation(1000, 9));
}
