//! The 2.6.35 host sends the skbs its bulk writer built (`--size-goal`): whole GSO
//! skbs by default, or skbs bounded to half the largest window the receiver has
//! advertised. The qdisc counts skbs, so the bound decides how much of a slow-start
//! burst the 1000-skb qdisc holds.

use clap::Parser;
use congestion_sim::cli::Cli;
use congestion_sim::config::SizeGoal;
use congestion_sim::{NoProbe, SimConfig, Summary, run};

fn config_from(args: &[&str]) -> Result<SimConfig, String> {
    let mut argv = vec!["ccsim"];
    argv.extend_from_slice(args);
    let cli = Cli::try_parse_from(argv).map_err(|e| e.to_string())?;
    cli.run.to_config()
}

/// One second of seed 000's 18 ms `-w40m` path without HyStart, on the 2.6.35 host.
fn w40m_18ms(extra: &[&str]) -> Summary {
    let mut args = vec![
        "--kernel",
        "2.6.35",
        "--mtu",
        "9000",
        "--rtt",
        "18ms",
        "-w",
        "40m",
        "--slow-start",
        "off",
        "--time",
        "1s",
    ];
    args.extend_from_slice(extra);
    run(&config_from(&args).unwrap(), &mut NoProbe).unwrap()
}

#[test]
fn whole_gso_skbs_keep_a_slow_start_burst_inside_the_qdisc() {
    let s = w40m_18ms(&[]);
    assert_eq!(s.sender.local_congestion, 0);
    // Slow start reaches line rate within the second (the seed's first second: 970 MB).
    assert!(s.bytes > 900 << 20, "{} bytes", s.bytes);
}

#[test]
fn one_segment_skbs_overflow_a_1000_skb_qdisc_in_slow_start() {
    // The SYN-ACK offers 2 segments, so the 80 MiB written before the first ACK goes
    // into one-segment skbs: a slow-start round of more than 1000 segments fills the
    // qdisc, and the host enters CWR.
    let s = w40m_18ms(&["--size-goal", "half-window"]);
    assert!(s.sender.local_congestion >= 1);
    assert!(s.bytes < 700 << 20, "{} bytes", s.bytes);
    // A qdisc that holds the round does not.
    let big = w40m_18ms(&["--size-goal", "half-window", "--txqueuelen", "10000"]);
    assert_eq!(big.sender.local_congestion, 0);
    assert!(big.bytes > 900 << 20, "{} bytes", big.bytes);
}

#[test]
fn the_size_goal_flag_is_parsed_and_refused_where_it_means_nothing() {
    let c = config_from(&["--kernel", "2.6.35", "--size-goal", "half-window"]).unwrap();
    assert_eq!(c.size_goal, SizeGoal::HalfWindow);
    assert_eq!(
        config_from(&["--kernel", "2.6.35"]).unwrap().size_goal,
        SizeGoal::Gso
    );
    let e = config_from(&["--size-goal", "half-window"]).unwrap_err();
    assert!(
        e.contains("--size-goal") && e.contains("--kernel 2.6.35"),
        "{e}"
    );
    let e = config_from(&[
        "--kernel",
        "2.6.35",
        "--tso",
        "off",
        "--size-goal",
        "half-window",
    ])
    .unwrap_err();
    assert!(e.contains("--size-goal"), "{e}");
    let e = config_from(&["--kernel", "2.6.35", "--size-goal", "half"]).unwrap_err();
    assert!(e.contains("gso") && e.contains("half-window"), "{e}");
}

#[test]
fn the_preset_host_flags_reach_the_2635_runs_and_only_they_get_the_size_goal() {
    use congestion_sim::cli::PresetArgs;
    use congestion_sim::config::Kernel;
    use congestion_sim::presets::fink2011::{calibration, config};
    use congestion_sim::presets::seeds::FINK_2011_HZ250;
    let args = PresetArgs {
        out: "ccsim-out".into(),
        stats: false,
        cc: "cubic".into(),
        size_goal: "half-window".into(),
        txqueuelen: Some(10_000),
        rmem_default: Some(349_520),
    };
    let r = &FINK_2011_HZ250.runs[0];
    let era = args.apply_host(config(
        r,
        &FINK_2011_HZ250,
        Kernel::Linux2635,
        &calibration(),
    ));
    assert_eq!(
        (era.size_goal, era.txqueuelen),
        (SizeGoal::HalfWindow, 10_000)
    );
    let today = args.apply(config(r, &FINK_2011_HZ250, Kernel::Linux6, &calibration()));
    assert_eq!((today.size_goal, today.txqueuelen), (SizeGoal::Gso, 10_000));
    today.validate().unwrap();
    // --rmem-default reaches every autotuned run, of either kernel, and no -w run.
    assert_eq!(r.window_mb, 0, "the first run autotunes");
    assert_eq!(
        (era.rmem_default_bytes, today.rmem_default_bytes),
        (Some(349_520), Some(349_520))
    );
    let fixed = FINK_2011_HZ250
        .runs
        .iter()
        .find(|r| r.window_mb > 0)
        .unwrap();
    let fixed = args.apply_host(config(
        fixed,
        &FINK_2011_HZ250,
        Kernel::Linux2635,
        &calibration(),
    ));
    assert_eq!(fixed.rmem_default_bytes, None);
    fixed.validate().unwrap();
}
