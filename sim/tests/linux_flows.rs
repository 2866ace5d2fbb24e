//! `--cc bbr|bbr3|dctcp|prague`: the Linux-mode flows a stack drives event by event run
//! on the simulator's paths, move data, and are named by the same words as the replay.

mod common;

use std::process::Command;

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

const FLOWS: [(&str, CcKind); 4] = [
    ("bbr", CcKind::Bbr),
    ("bbr3", CcKind::Bbr3),
    ("dctcp", CcKind::Dctcp),
    ("prague", CcKind::Prague),
];

#[test]
fn each_linux_flow_moves_all_its_data_on_a_short_path() {
    for (word, kind) in FLOWS {
        let cfg = config_from(&["--cc", word]).unwrap();
        assert_eq!(cfg.cc, kind, "--cc {word}");
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
        // The controller decides: cwnd moves away from the initial window, and the
        // flows that pace themselves have a pacing rate.
        assert!(probe.rows.iter().any(|r| r.cwnd != 10), "{word}");
        if kind.paces_itself() {
            assert!(probe.rows.iter().all(|r| r.pacing_rate > 0), "{word}");
        }
    }
}

#[test]
fn bbr_takes_its_bandwidth_samples_from_the_scoreboards_snapshots() {
    // Without per-segment snapshots BBR would stay in STARTUP at its initial rate, with
    // cwnd at about 3 TSO bursts; with them it leaves STARTUP and its pacing rate
    // tracks the 50 Mbit/s bottleneck (6.25 MB/s).
    for kind in [CcKind::Bbr, CcKind::Bbr3] {
        let mut c = small_path(50_000_000, 16 << 20);
        c.cc = kind;
        let mut probe = Everything::default();
        run(&c, &mut probe).unwrap();
        let late = &probe.rows[probe.rows.len() * 3 / 4..];
        let mean = late.iter().map(|r| r.pacing_rate as f64).sum::<f64>() / late.len() as f64;
        assert!(
            (4.0e6..9.0e6).contains(&mean),
            "{kind:?}: pacing rate {mean} B/s"
        );
        assert!(
            late.iter().all(|r| r.phase != congestion::Phase::SlowStart),
            "{kind:?} left STARTUP"
        );
    }
}

#[test]
fn the_linux_flows_recover_from_random_loss() {
    for (word, kind) in FLOWS {
        let mut c = small_path(20_000_000, 2 << 20);
        c.cc = kind;
        c.loss = 0.02;
        c.seed = 7;
        let s = run(&c, &mut congestion_sim::NoProbe).unwrap();
        assert!(s.complete && s.bytes == 2 << 20, "{word}");
        assert!(s.retrans > 0, "{word}: 2 % loss");
    }
}

#[test]
fn runs_are_deterministic_with_the_same_seed() {
    for (_, kind) in FLOWS {
        let mut c = small_path(20_000_000, 1 << 20);
        c.cc = kind;
        c.loss = 0.01;
        c.window = WindowMode::Fixed(1 << 20);
        let a = run(&c, &mut congestion_sim::NoProbe).unwrap();
        let b = run(&c, &mut congestion_sim::NoProbe).unwrap();
        assert_eq!(a, b, "{kind:?}");
    }
}

#[test]
fn dctcp_and_prague_hear_ce_marks_and_keep_the_queue_short() {
    for kind in [CcKind::Dctcp, CcKind::Prague] {
        let mut c = small_path(50_000_000, 16 << 20);
        c.cc = kind;
        c.aqm = AqmKind::Step {
            threshold_ns: 1_000_000,
        };
        c.buffer_bytes = 4 << 20;
        let s = run(&c, &mut congestion_sim::NoProbe).unwrap();
        assert!(s.ce_marks > 0 && s.sender.ce_marked > 0, "{kind:?}");
        assert_eq!(s.retrans, 0, "{kind:?}: marks, no drops");
        assert!(
            s.link.mean_sojourn_ns() < 2e6,
            "{kind:?}: {} ns",
            s.link.mean_sojourn_ns()
        );
    }
}

#[test]
fn a_bad_cc_word_names_the_flag_and_lists_the_replays_words() {
    let out = Command::new(env!("CARGO_BIN_EXE_ccsim"))
        .args(["--cc", "bbr2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--cc"), "{stderr}");
    // The replay's Cc::WORDS, and the RFC-mode controllers.
    for word in [
        "cubic",
        "bbr",
        "bbr3",
        "dctcp",
        "prague",
        "cubic-rfc",
        "newreno-rfc",
    ] {
        assert!(stderr.contains(word), "{word} in {stderr}");
    }
    assert!(config_from(&["--kernel", "2.6.35", "--cc", "bbr"]).is_err());
}

#[test]
fn bad_aqm_and_ecn_values_name_their_flags() {
    for (args, flag) in [
        (&["--aqm", "red"][..], "--aqm"),
        (&["--aqm", "step:5"][..], "--aqm"),
        (&["--ecn", "maybe"][..], "--ecn"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_ccsim"))
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
    }
    let c = config_from(&["--aqm", "step:1ms", "--ecn", "off"]).unwrap();
    assert_eq!(
        c.aqm,
        AqmKind::Step {
            threshold_ns: 1_000_000
        }
    );
    assert!(!c.ecn);
    // DualQ's buffer is dualpi2's limit, 10000 packets, unless --buffer says otherwise.
    let c = config_from(&["--aqm", "dualq"]).unwrap();
    assert_eq!(c.buffer_bytes, 10_000 * 1538);
    let c = config_from(&["--aqm", "dualq", "--buffer", "1m"]).unwrap();
    assert_eq!(c.buffer_bytes, 1 << 20);
}
