//! The bottleneck's AQM: step marking marks only above its threshold, DualQ couples its
//! queues (the L queue marks with twice the classic base probability, the classic queue
//! with its square), not-ECT packets are dropped where ECT ones would be marked, and the
//! `l4s` preset prints its verdicts.

use std::process::Command;

use congestion_sim::aqm::{Aqm, DUALPI2_COUPLING, DUALPI2_STEP_NS, Pi2, Verdict};
use congestion_sim::config::{AqmKind, Ect};
use congestion_sim::rng::SplitMix64;

const MTU_WIRE: u32 = 1538;

#[test]
fn step_marks_only_sojourns_above_its_threshold() {
    let mut aqm = Aqm::new(
        AqmKind::Step {
            threshold_ns: 1_000_000,
        },
        MTU_WIRE,
    );
    let mut rng = SplitMix64::new(1);
    let at = 5_000_000;
    for (sojourn, ect, want) in [
        (0, Ect::Ect1, Verdict::Pass),
        (999_999, Ect::Ect1, Verdict::Pass),
        (1_000_000, Ect::Ect0, Verdict::Pass),
        (1_000_001, Ect::Ect1, Verdict::Mark),
        (1_000_001, Ect::Ect0, Verdict::Mark),
        (7_000_000, Ect::NotEct, Verdict::Drop),
        (500_000, Ect::NotEct, Verdict::Pass),
    ] {
        let got = aqm.dequeue(at, at + sojourn, 1 << 20, ect, &mut rng);
        assert_eq!(got, want, "sojourn {sojourn} ns, {ect:?}");
    }
    assert_eq!((aqm.marks, aqm.drops), (2, 1));
}

#[test]
fn dualq_marks_l4s_at_twice_the_base_probability_and_classic_at_its_square() {
    let mut pi = Pi2::new();
    pi.update(0.040);
    let p = pi.base_probability();
    assert!(p > 0.0);
    assert_eq!(pi.l4s_probability(), DUALPI2_COUPLING * p);
    assert_eq!(DUALPI2_COUPLING, 2.0);
    assert_eq!(pi.classic_probability(), p * p);

    // The same with real rolls: p' = 0.1 held (no update before 16 ms), no sojourn (no
    // step), a standing queue above 2 MTUs.
    let n = 200_000;
    let count = |ect: Ect| {
        let mut aqm = Aqm::new(AqmKind::DualQ, MTU_WIRE);
        aqm.set_base_probability(0.1);
        let mut rng = SplitMix64::new(11);
        let mut marks = 0;
        let mut drops = 0;
        for i in 0..n {
            let t = 1_000_000 + i;
            match aqm.dequeue(t, t, 10 * u64::from(MTU_WIRE), ect, &mut rng) {
                Verdict::Mark => marks += 1,
                Verdict::Drop => drops += 1,
                Verdict::Pass => {}
            }
        }
        (f64::from(marks) / n as f64, f64::from(drops) / n as f64)
    };
    let (l4s, l4s_drops) = count(Ect::Ect1);
    let (classic, classic_drops) = count(Ect::Ect0);
    let (_, not_ect_drops) = count(Ect::NotEct);
    assert!((l4s - 0.2).abs() < 0.005, "p_CL = 2 x 0.1: {l4s}");
    assert!((classic - 0.01).abs() < 0.001, "p_C = 0.1^2: {classic}");
    assert_eq!((l4s_drops, classic_drops), (0.0, 0.0));
    assert!(
        (not_ect_drops - 0.01).abs() < 0.001,
        "not-ECT dropped: {not_ect_drops}"
    );
}

#[test]
fn dualq_neither_marks_nor_drops_below_a_standing_queue_of_two_mtus() {
    let mut aqm = Aqm::new(AqmKind::DualQ, MTU_WIRE);
    aqm.set_base_probability(1.0);
    let mut rng = SplitMix64::new(3);
    for i in 0..1000 {
        let t = 1_000_000 + i;
        let v = aqm.dequeue(t, t, 2 * u64::from(MTU_WIRE) - 1, Ect::Ect0, &mut rng);
        assert_eq!(v, Verdict::Pass);
    }
}

#[test]
fn dualqs_l_queue_steps_at_one_millisecond_and_its_classic_queue_does_not() {
    let mut aqm = Aqm::new(AqmKind::DualQ, MTU_WIRE);
    let mut rng = SplitMix64::new(5);
    let at = 1_000_000;
    let late = at + DUALPI2_STEP_NS + 1;
    // p' is 0 before the first update: only the step acts.
    assert_eq!(aqm.dequeue(at, late, 0, Ect::Ect1, &mut rng), Verdict::Mark);
    assert_eq!(aqm.dequeue(at, late, 0, Ect::Ect0, &mut rng), Verdict::Pass);
    assert_eq!(
        aqm.dequeue(at, at + DUALPI2_STEP_NS, 0, Ect::Ect1, &mut rng),
        Verdict::Pass
    );
}

#[test]
fn the_pi_controller_reads_the_heads_sojourn_every_16_ms() {
    // A classic queue held 30 ms deep: each packet arrives and leaves 30 ms later, one
    // per ms. By 100 ms six updates (16, 32, ... 96 ms) have raised p' well above 0.
    let mut aqm = Aqm::new(AqmKind::DualQ, MTU_WIRE);
    let mut rng = SplitMix64::new(9);
    for ms in 0..100u64 {
        let at = ms * 1_000_000;
        aqm.dequeue(at, at + 30_000_000, 1 << 20, Ect::Ect0, &mut rng);
    }
    let p = aqm.pi().base_probability();
    assert!(p > 0.05, "p' = {p}");
}

#[test]
fn the_l4s_preset_prints_its_verdicts() {
    let out_dir = std::env::temp_dir().join(format!("ccsim-l4s-test-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_ccsim"))
        .args(["l4s", "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let prague = stdout
        .lines()
        .find(|l| l.starts_with("l4s verdict, Prague: "))
        .expect("a Prague verdict line");
    // The L4S issue's done-when, with dualpi2's defaults: both hold.
    assert_eq!(prague.matches(": holds").count(), 2, "{prague}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("l4s verdict, CUBIC in the classic queue: ")),
        "{stdout}"
    );
    // RFC-mode Prague beside it, in the L queue: its run line with CE marks and no
    // drops, and its verdict against the same done-when.
    let run = stdout
        .lines()
        .find(|l| l.starts_with("prague-rfc, ECT(1): L queue "))
        .expect("a prague-rfc run line");
    assert!(
        !run.contains(" 0 CE marks") && run.contains(" 0 AQM drops"),
        "{run}"
    );
    let prague_rfc = stdout
        .lines()
        .find(|l| l.starts_with("l4s verdict, Prague in RFC mode (prague-rfc): "))
        .expect("a prague-rfc verdict line");
    assert_eq!(prague_rfc.matches(": holds").count(), 2, "{prague_rfc}");
    let svg = std::fs::read_to_string(out_dir.join("l4s-dualq.svg")).unwrap();
    assert!(svg.contains("prague-rfc"), "the plot has a prague-rfc line");
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn the_classic_pi2_marks_ect1_as_ect0_with_the_square() {
    // p' = 0.3 held, a standing queue above 2 MTUs: ECT(0) and ECT(1) alike are marked
    // with p'² = 0.09 (an RFC 3168 AQM does not tell them apart), not-ECT dropped.
    let n = 100_000;
    let count = |ect: Ect| {
        let mut aqm = Aqm::new(AqmKind::Pi2, MTU_WIRE);
        aqm.set_base_probability(0.3);
        let mut rng = SplitMix64::new(5);
        for i in 0..n {
            let t = 1_000_000 + i;
            aqm.dequeue(t, t + 5_000_000, 10 * u64::from(MTU_WIRE), ect, &mut rng);
        }
        (aqm.marks, aqm.drops)
    };
    for ect in [Ect::Ect0, Ect::Ect1] {
        let (marks, drops) = count(ect);
        assert_eq!(drops, 0, "{ect:?}");
        let share = marks as f64 / n as f64;
        assert!((share - 0.09).abs() < 0.005, "{ect:?}: {share}");
    }
    let (marks, drops) = count(Ect::NotEct);
    assert_eq!(marks, 0);
    assert!((drops as f64 / n as f64 - 0.09).abs() < 0.005);
}
