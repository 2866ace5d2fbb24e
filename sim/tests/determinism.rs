//! Same flags and seed, same output: a run is a pure function of its configuration.

mod common;

use common::{Everything, small_path};
use congestion_sim::report::summary_line;
use congestion_sim::run;

#[test]
fn the_same_config_and_seed_give_identical_runs() {
    let mut cfg = small_path(50_000_000, 2 << 20);
    cfg.loss = 0.005;
    cfg.jitter_ns = 2_000_000;
    cfg.seed = 42;
    cfg.interval_ns = Some(50_000_000);
    let mut a = Everything::default();
    let mut b = Everything::default();
    let sa = run(&cfg, &mut a).unwrap();
    let sb = run(&cfg, &mut b).unwrap();
    assert_eq!(sa, sb);
    assert_eq!(summary_line(&sa), summary_line(&sb));
    assert_eq!(a.rows, b.rows);
    assert_eq!(a.intervals, b.intervals);
    assert!(!a.rows.is_empty());
}

#[test]
fn a_different_seed_draws_different_losses() {
    let mut cfg = small_path(50_000_000, 2 << 20);
    cfg.loss = 0.01;
    cfg.seed = 1;
    let s1 = run(&cfg, &mut congestion_sim::NoProbe).unwrap();
    cfg.seed = 2;
    let s2 = run(&cfg, &mut congestion_sim::NoProbe).unwrap();
    assert_eq!(s1.bytes, s2.bytes);
    assert_ne!(
        (s1.random_drops, s1.duration_ns),
        (s2.random_drops, s2.duration_ns)
    );
}

#[test]
fn rfc_mode_runs_are_deterministic_too() {
    let mut cfg = small_path(50_000_000, 2 << 20);
    cfg.cc = congestion_sim::config::CcKind::Rfc9438;
    cfg.slow_start = congestion_sim::config::SlowStart::HystartPp;
    cfg.loss = 0.005;
    cfg.seed = 9;
    let mut a = Everything::default();
    let mut b = Everything::default();
    assert_eq!(run(&cfg, &mut a).unwrap(), run(&cfg, &mut b).unwrap());
    assert_eq!(a.rows, b.rows);
}
