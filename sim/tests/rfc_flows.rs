//! `--cc bbr3-rfc|dctcp-rfc|prague-rfc`: the RFC-mode flows in bytes (`rfc::Bbr3`,
//! `rfc::Dctcp`, `rfc::Prague`) run on the simulator's paths, move all their data, are
//! deterministic for a seed, and hear CE marks where their codepoint asks for them.

mod common;

use clap::Parser;
use common::{Everything, small_path};
use congestion_sim::cli::Cli;
use congestion_sim::config::{AqmKind, CcKind, WindowMode};
use congestion_sim::{SimConfig, run};

fn config_from(args: &[&str]) -> Result<SimConfig, String> {
    let mut argv = vec!["ccsim"];
    argv.extend_from_slice(args);
    let cli = Cli::try_parse_from(argv).map_err(|e| e.to_string())?;
    cli.run.to_config()
}

const FLOWS: [(&str, CcKind); 3] = [
    ("bbr3-rfc", CcKind::RfcBbr3),
    ("dctcp-rfc", CcKind::RfcDctcp),
    ("prague-rfc", CcKind::RfcPrague),
];

#[test]
fn each_rfc_flow_moves_all_its_data_on_a_short_path() {
    for (word, kind) in FLOWS {
        let cfg = config_from(&["--cc", word]).unwrap();
        assert_eq!(cfg.cc, kind, "--cc {word}");
        assert_eq!(kind.word(), word);
        let mut c = small_path(50_000_000, 4 << 20);
        c.cc = kind;
        let mut probe = Everything::default();
        let s = run(&c, &mut probe).unwrap_or_else(|e| panic!("{word}: {e}"));
        assert!(s.complete, "{word}");
        assert_eq!(s.bytes, 4 << 20, "{word}: every byte arrives");
        // 4 MiB at 50 Mbit/s take at least 0.67 s; with a 20 ms path, well under 3 s.
        assert!(
            s.duration_ns < 3_000_000_000,
            "{word}: {} ns",
            s.duration_ns
        );
        assert!(probe.rows.iter().any(|r| r.cwnd != 10), "{word}");
        if kind.paces_itself() {
            assert!(probe.rows.iter().all(|r| r.pacing_rate > 0), "{word}");
        }
    }
}

#[test]
fn bbr3_rfc_takes_its_bandwidth_samples_from_the_scoreboards_snapshots() {
    // Without a snapshot per packet the draft's sampler has no delivery rate and BBR
    // stays in Startup at its initial rate; with them it leaves Startup and its pacing
    // rate tracks the 50 Mbit/s bottleneck (6.25 MB/s).
    let mut c = small_path(50_000_000, 16 << 20);
    c.cc = CcKind::RfcBbr3;
    let mut probe = Everything::default();
    run(&c, &mut probe).unwrap();
    let late = &probe.rows[probe.rows.len() * 3 / 4..];
    let mean = late.iter().map(|r| r.pacing_rate as f64).sum::<f64>() / late.len() as f64;
    assert!((4.0e6..9.0e6).contains(&mean), "pacing rate {mean} B/s");
    assert!(late.iter().all(|r| r.phase != congestion::Phase::SlowStart));
}

#[test]
fn the_rfc_flows_recover_from_random_loss_and_timeouts() {
    for (word, kind) in FLOWS {
        let mut c = small_path(20_000_000, 2 << 20);
        c.cc = kind;
        c.loss = 0.02;
        c.seed = 7;
        let s = run(&c, &mut congestion_sim::NoProbe).unwrap();
        assert!(s.complete && s.bytes == 2 << 20, "{word}");
        assert!(s.retrans > 0, "{word}: 2 % loss");
        // 20 % loss: retransmissions are lost too and only the RTO finds them.
        c.loss = 0.2;
        c.amount = congestion_sim::config::Amount::Bytes(256 << 10);
        let s = run(&c, &mut congestion_sim::NoProbe).unwrap();
        assert!(s.complete && s.bytes == 256 << 10, "{word} at 20 % loss");
        assert!(s.sender.rtos > 0, "{word}: RTOs at 20 % loss");
    }
}

#[test]
fn rfc_runs_are_deterministic_and_depend_on_the_seed() {
    for (word, kind) in FLOWS {
        let mut c = small_path(20_000_000, 1 << 20);
        c.cc = kind;
        c.loss = 0.01;
        c.window = WindowMode::Fixed(1 << 20);
        let a = run(&c, &mut congestion_sim::NoProbe).unwrap();
        let b = run(&c, &mut congestion_sim::NoProbe).unwrap();
        assert_eq!(a, b, "{word}");
        c.seed ^= 1;
        let other = run(&c, &mut congestion_sim::NoProbe).unwrap();
        assert_ne!(a, other, "{word}: another seed, other losses");
    }
}

#[test]
fn dctcp_rfc_and_prague_rfc_hear_ce_marks_and_keep_the_queue_short() {
    for kind in [CcKind::RfcDctcp, CcKind::RfcPrague] {
        let mut c = small_path(50_000_000, 16 << 20);
        c.cc = kind;
        c.aqm = AqmKind::Step {
            threshold_ns: 1_000_000,
        };
        c.buffer_bytes = 4 << 20;
        let s = run(&c, &mut congestion_sim::NoProbe).unwrap();
        assert!(s.ce_marks > 0 && s.sender.ce_marked > 0, "{kind:?}");
        // The marks reach the controller with each ACK: no classic once-per-window cut.
        assert_eq!(s.sender.ecn_reductions, 0, "{kind:?}");
        assert_eq!(s.retrans, 0, "{kind:?}: marks, no drops");
        assert!(
            s.link.mean_sojourn_ns() < 2e6,
            "{kind:?}: {} ns",
            s.link.mean_sojourn_ns()
        );
        // Without ECN the same AQM drops instead.
        c.ecn = false;
        let s = run(&c, &mut congestion_sim::NoProbe).unwrap();
        assert_eq!(s.ce_marks, 0, "{kind:?} not-ECT");
        assert!(s.retrans > 0, "{kind:?} not-ECT: drops");
    }
}

#[test]
fn bbr3_rfc_sends_not_ect_like_linux_bbr3() {
    let mut c = small_path(50_000_000, 4 << 20);
    c.cc = CcKind::RfcBbr3;
    c.aqm = AqmKind::Step {
        threshold_ns: 1_000_000,
    };
    let s = run(&c, &mut congestion_sim::NoProbe).unwrap();
    assert!(s.complete);
    assert_eq!((s.ce_marks, s.sender.ce_marked), (0, 0));
}

#[test]
fn bbr2011_runs_bbr3_rfc_beside_bbr_and_bbr3_as_a_prediction() {
    use congestion_sim::presets::bbr2011::{FINK_CCS, TSQ_CCS, tsq_config};
    for labels in [
        FINK_CCS.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>(),
        TSQ_CCS.to_vec(),
    ] {
        let kinds: Vec<CcKind> = labels.iter().map(|c| c.1).collect();
        let at = |k| kinds.iter().position(|&x| x == k).unwrap();
        // Beside BBR and BBRv3, after them, and labelled a prediction as they are.
        assert!(at(CcKind::Bbr) < at(CcKind::RfcBbr3) && at(CcKind::Bbr3) < at(CcKind::RfcBbr3));
        assert_eq!(labels[at(CcKind::RfcBbr3)].0, "bbr3-rfc (prediction)");
    }
    // One seed-002 run (1 GbE, 64 KiB limit) on today's paced host: it moves data at
    // close to the line's goodput (941 Mbit/s) in bytes mode.
    let c = tsq_config(1_000_000_000, 64 << 10, CcKind::RfcBbr3);
    assert!(c.paces());
    let s = run(&c, &mut congestion_sim::NoProbe).unwrap();
    let mbps = s.bytes as f64 * 8.0 / s.duration_ns as f64 * 1e3;
    assert!(mbps > 800.0, "{mbps} Mbit/s");
}

#[test]
fn prague_rfc_falls_back_on_a_classic_ecn_queue() {
    // One prague-rfc flow alone on a classic single-queue AQM (`--aqm pi2`, ECT(1)
    // marked as ECT(0) with p'², 15 ms target). With the classic-ECN detector (the
    // default) it turns classic and halves per CE, so the PI needs only a handful of
    // marks and the queue sits below the target as CUBIC's does; without it the flow
    // answers each mark by alpha/2 only, and the PI has to mark it tens of times more
    // and holds the queue at its target.
    let run_with = |fallback: &str| {
        let c = config_from(&[
            "--cc",
            "prague-rfc",
            "--aqm",
            "pi2",
            "--rate",
            "100m",
            "--nic-rate",
            "1g",
            "--rtt",
            "20ms",
            "-T",
            "10s",
            "--classic-ecn-fallback",
            fallback,
        ])
        .unwrap();
        run(&c, &mut congestion_sim::NoProbe).unwrap()
    };
    let on = run_with("on");
    let off = run_with("off");
    assert!(
        on.ce_marks > 0 && off.ce_marks > 10 * on.ce_marks,
        "{} vs {}",
        on.ce_marks,
        off.ce_marks
    );
    assert!(off.link.mean_sojourn_ns() > on.link.mean_sojourn_ns() + 3e6);
    assert!(off.link.mean_sojourn_ns() > 12e6 && off.link.mean_sojourn_ns() < 16e6);
}
