//! `--kernel 6|2.6.35` and `--hz`: every flag works with both kernels, bad values are
//! refused naming the flag, runs stay deterministic, and the 2.6.35 profile shows seed
//! 000's first finding on a short run while today's kernel does not.

mod common;

use clap::Parser;
use common::Everything;
use congestion_sim::cli::Cli;
use congestion_sim::config::{Amount, Kernel, SlowStart, TsoMode, TsqMode, WindowMode};
use congestion_sim::{NoProbe, SimConfig, Summary, run};

fn config_from(args: &[&str]) -> Result<SimConfig, String> {
    let mut argv = vec!["ccsim"];
    argv.extend_from_slice(args);
    let cli = Cli::try_parse_from(argv).map_err(|e| e.to_string())?;
    cli.run.to_config()
}

/// A short run on a small path with extra flags.
fn short(kernel: &str, extra: &[&str]) -> Summary {
    let mut args = vec![
        "--kernel", kernel, "--rate", "50m", "--rtt", "20ms", "--bytes", "1m",
    ];
    args.extend_from_slice(extra);
    let cfg = config_from(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let s = run(&cfg, &mut NoProbe).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    assert!(s.complete, "{args:?}");
    assert_eq!(s.bytes, 1 << 20, "{args:?}: every byte arrives");
    s
}

#[test]
fn every_flag_works_with_both_kernels() {
    let flag_sets: &[&[&str]] = &[
        &[],
        &["--slow-start", "off"],
        &["--pacing", "on"],
        &["--tsq-limit", "64k"],
        &["--tsq-limit", "auto"],
        &["--tso", "off"],
        &["--tso", "3"],
        &["--nic-rate", "1g", "--buffer", "20k"],
        &["-w", "256k"],
        &["--autotune-max", "1m"],
        &["--app-rate", "20m"],
        &["--on-off", "20ms,100ms"],
        &["--loss", "0.01", "--seed", "7"],
        &["--jitter", "1ms"],
        &["--ack-ratio", "4"],
        &["--txqueuelen", "4"],
        &["--tx-completion", "1ms"],
        &["--mtu", "9000"],
        &["--timestamps", "off"],
        &["-i", "0.1s"],
    ];
    for flags in flag_sets {
        short("6", flags);
        short("2.6.35", flags);
        let mut with_hz = flags.to_vec();
        with_hz.extend_from_slice(&["--hz", "100"]);
        short("2.6.35", &with_hz);
    }
}

#[test]
fn the_kernel_picks_the_controller_and_its_host() {
    let era = config_from(&["--kernel", "2.6.35", "--hz", "1000", "--mtu", "9000"]).unwrap();
    assert_eq!((era.kernel, era.hz), (Kernel::Linux2635, 1000));
    // 2.6.35: no TSQ, a whole 64 KiB GSO skb of 8948-byte segments.
    assert_eq!(era.effective_tsq(), TsqMode::Off);
    assert_eq!(era.effective_tso(), TsoMode::Segs(7));
    assert!(era.tso_defer());
    let today = config_from(&["--mtu", "9000"]).unwrap();
    assert_eq!(today.kernel, Kernel::Linux6);
    assert_eq!(today.effective_tsq(), TsqMode::Auto);
    assert!(!today.tso_defer());
    // Explicit host flags win over the kernel's defaults.
    let fixed =
        config_from(&["--kernel", "2.6.35", "--tsq-limit", "128k", "--tso", "off"]).unwrap();
    assert_eq!(fixed.effective_tsq(), TsqMode::Fixed(128 << 10));
    assert_eq!(fixed.effective_tso(), TsoMode::Off);
}

#[test]
fn bad_kernel_and_hz_values_are_refused_naming_the_flag() {
    let e = config_from(&["--kernel", "3.2"]).unwrap_err();
    assert!(e.contains("--kernel") && e.contains("2.6.35"), "{e}");
    let e = config_from(&["--kernel", "2.6.35", "--hz", "300"]).unwrap_err();
    assert!(e.contains("--hz") && e.contains("100, 250, 1000"), "{e}");
    let e = config_from(&["--hz", "250"]).unwrap_err();
    assert!(e.contains("--hz") && e.contains("--kernel 2.6.35"), "{e}");
    let e = config_from(&["--kernel", "2.6.35", "--cc", "cubic-rfc"]).unwrap_err();
    assert!(e.contains("--kernel 2.6.35"), "{e}");
}

#[test]
fn a_2635_run_is_a_pure_function_of_its_flags() {
    let cfg = config_from(&[
        "--kernel",
        "2.6.35",
        "--hz",
        "250",
        "--rate",
        "100m",
        "--nic-rate",
        "1g",
        "--rtt",
        "30ms",
        "--buffer",
        "100k",
        "--bytes",
        "4m",
        "--loss",
        "0.002",
        "--jitter",
        "1ms",
        "--seed",
        "3",
        "-i",
        "50ms",
    ])
    .unwrap();
    let mut a = Everything::default();
    let mut b = Everything::default();
    let sa = run(&cfg, &mut a).unwrap();
    let sb = run(&cfg, &mut b).unwrap();
    assert_eq!(sa, sb);
    assert_eq!(a.rows, b.rows);
    assert_eq!(a.intervals, b.intervals);
    assert!(sa.retrans > 0, "the loss draws cost retransmissions");
}

/// Seed 000's "18 ms" path (its RTT as the preset calibrates it, 18.92 ms), shortened
/// to 2 s: 10 GbE, 9000-byte MTU, `-w40m`.
fn fink_18ms(kernel: Kernel, hystart: bool, uptime_ns: u64) -> Summary {
    let mut c = SimConfig::new();
    // The path's receiver is a 2011 one (fink2011): 1 quick ACK, then an ACK per
    // segment while its window opens from 2 segments.
    c.quickacks = 1;
    c.rcv_ssthresh_growth = Some(2);
    c.uptime_ns = uptime_ns;
    c.rate_bps = 10_000_000_000;
    c.nic_rate_bps = 10_000_000_000;
    c.rtt_ns = congestion_sim::presets::fink2011::calibration().path_rtt_ns(18);
    c.mtu = 9000;
    c.buffer_bytes = c.bdp_bytes();
    c.window = WindowMode::Fixed(40 << 20);
    c.amount = Amount::TimeNs(2_000_000_000);
    c.kernel = kernel;
    c.hz = 250;
    c.slow_start = if hystart {
        SlowStart::Hystart
    } else {
        SlowStart::Off
    };
    run(&c, &mut NoProbe).unwrap()
}

/// Seed 000, HZ=250: the 2.6.35 sender's ACK-train test counts whole 4 ms jiffies, so
/// whether it ends slow start a round early depends on where the ticks fall. With the
/// ticks 2 ms after the first send it does, and the run stays well below line rate;
/// with the first send on a tick it fires a round later, near the BDP, and the run
/// fills the link. Without HyStart the link is full either way, and today's HyStart
/// (µs clock) fills it too.
#[test]
fn hystart_on_2635_at_hz250_is_slower_at_18ms_at_half_the_tick_phases() {
    let off = fink_18ms(Kernel::Linux2635, false, 1_000_000_000_000);
    let early = fink_18ms(Kernel::Linux2635, true, 1_000_002_000_000);
    assert!(
        early.throughput_bps() < 0.85 * off.throughput_bps(),
        "2.6.35: HyStart {:.0} Mbit/s, none {:.0}",
        early.throughput_bps() / 1e6,
        off.throughput_bps() / 1e6
    );
    assert!(early.hystart_exit.is_some());
    let late = fink_18ms(Kernel::Linux2635, true, 1_000_000_000_000);
    assert!(late.hystart_exit.is_some());
    assert!(
        late.throughput_bps() > 0.95 * off.throughput_bps(),
        "2.6.35, first send on a tick: HyStart {:.0} Mbit/s, none {:.0}",
        late.throughput_bps() / 1e6,
        off.throughput_bps() / 1e6
    );
    let today_on = fink_18ms(Kernel::Linux6, true, 0);
    let today_off = fink_18ms(Kernel::Linux6, false, 0);
    assert!(
        today_on.throughput_bps() > 0.95 * today_off.throughput_bps(),
        "today: HyStart {:.0} Mbit/s, none {:.0}",
        today_on.throughput_bps() / 1e6,
        today_off.throughput_bps() / 1e6
    );
}

/// Seed 000's 80 ms path with `-w100m`, shortened to 4 s (the first loss comes after
/// about 3 s): on 2.6.35 at HZ=250, without HyStart the window reaches the 150 MiB
/// socket limit, the standing queue outgrows the 8 MiB buffer and packets are lost;
/// with HyStart, slow start ends on HyStart's signal early enough that nothing is lost,
/// as in the seed.
#[test]
fn without_hystart_the_2635_sender_overflows_the_80ms_path_with_w100m() {
    use congestion_sim::presets::fink2011::{calibration, config};
    use congestion_sim::presets::seeds::FINK_2011_HZ250;
    let cal = calibration();
    let run_of = |hystart: bool| {
        let r = FINK_2011_HZ250
            .runs
            .iter()
            .find(|r| r.rtt_ms == 80 && r.window_mb == 100 && r.hystart == hystart)
            .unwrap();
        let mut c = config(r, &FINK_2011_HZ250, Kernel::Linux2635, &cal);
        c.amount = Amount::TimeNs(4_000_000_000);
        c.interval_ns = None;
        run(&c, &mut NoProbe).unwrap()
    };
    let on = run_of(true);
    let off = run_of(false);
    assert!(on.hystart_exit.is_some(), "HyStart ends slow start");
    assert_eq!(on.retrans, 0, "HyStart: no loss");
    assert!(off.hystart_exit.is_none());
    assert!(off.retrans > 0, "no HyStart: the buffer overflows");
    assert!(off.tail_drops > 0);
}

/// `tcp_incr_quickack` on the first data segment: `rcv_wnd / (2 · mss)` quick ACKs, with
/// `rcv_wnd` the receiver's initial window (2.6.35: its RFC 3390 IW; today: 10 MSS).
#[test]
fn the_receivers_quick_acks_follow_its_initial_window() {
    use congestion_sim::config::quickacks_for;
    // 2.6.35, jumbo frames: 2 segments of window, 2 / 2 = 1.
    assert_eq!(quickacks_for(Kernel::Linux2635, 8948), 1);
    // 2.6.35, 2000 bytes (above 1460): 3 segments, 3 / 2 = 1; 1448 bytes: 4, so 2.
    assert_eq!(quickacks_for(Kernel::Linux2635, 2000), 1);
    assert_eq!(quickacks_for(Kernel::Linux2635, 1448), 2);
    // Today: TCP_DEFAULT_INIT_RCVWND = 10, so 5, whatever the MSS.
    assert_eq!(quickacks_for(Kernel::Linux6, 8948), 5);
    assert_eq!(
        config_from(&["--kernel", "2.6.35", "--mtu", "9000"])
            .unwrap()
            .quickacks,
        1
    );
    assert_eq!(config_from(&[]).unwrap().quickacks, 5);
}

/// A 2.6.35 receiver grows `rcv_ssthresh` from its initial window (2 segments at MSS
/// 8948, `tcp_select_initial_window`) and ACKs every segment while it does
/// (`tcp_grow_window`); today's receiver model does not.
#[test]
fn the_2635_receiver_grows_its_window_from_the_initial_one() {
    let era = config_from(&["--kernel", "2.6.35", "--mtu", "9000"]).unwrap();
    assert_eq!(era.rcv_ssthresh_growth, Some(2));
    let era_1500 = config_from(&["--kernel", "2.6.35"]).unwrap();
    assert_eq!(era_1500.rcv_ssthresh_growth, Some(4));
    assert_eq!(config_from(&[]).unwrap().rcv_ssthresh_growth, None);
}

/// Per-segment ACKs in slow start double cwnd each round trip (+1 per ACK), where
/// delayed ACKs grow it by half: the same 2.6.35 flow without HyStart delivers more
/// in its first second with the growing receiver than with a delayed-ACK one.
#[test]
fn acking_every_segment_while_the_window_grows_speeds_up_slow_start() {
    let first_second = |growth: Option<u32>| {
        let mut c = config_from(&[
            "--kernel", "2.6.35", "--mtu", "9000", "--rtt", "80ms", "-w", "100m",
        ])
        .unwrap();
        c.slow_start = SlowStart::Off;
        c.amount = Amount::TimeNs(1_000_000_000);
        c.rcv_ssthresh_growth = growth;
        run(&c, &mut NoProbe).unwrap().bytes
    };
    let growing = first_second(Some(2));
    let delayed = first_second(None);
    // Doubling from IW 2 over ~11 round trips of 80 ms after the first arrival moves
    // tens of MB; 1.5x per round trip moves a few.
    assert!(growing > 50 << 20, "{growing}");
    assert!(growing > 8 * delayed, "{growing} vs {delayed}");
}

/// nuttcp's interval reports are the receiver's, timed from when it accepted the
/// connection: the first data's arrival, one propagation delay after the sender starts.
#[test]
fn intervals_are_timed_from_the_first_arrival_as_nuttcps_receiver_does() {
    let mut c = config_from(&["--rtt", "80ms", "--rate", "100m", "--time", "1s"]).unwrap();
    c.interval_ns = Some(30_000_000);
    let mut p = Everything::default();
    run(&c, &mut p).unwrap();
    // From the sender's start, [0, 30 ms) would hold nothing: the first segment arrives
    // at 40 ms. The receiver's first interval is [40 ms, 70 ms) and holds the IW.
    assert!(p.intervals[0].bytes > 0, "{:?}", p.intervals[0]);
    // 1 s of run, intervals from 40 ms: (1000 - 40) / 30 = 32 whole intervals.
    assert_eq!(p.intervals.len(), 32);
}

/// `--uptime` sets where the 2.6.35 host's jiffies ticks fall against the first send.
/// At 18 ms and HZ=250 HyStart's ACK train must span two tick boundaries: with the
/// first send on a tick (1000 s) a round of ~5.9 ms of ACKs crosses only one and slow
/// start runs a round longer than with the ticks 2 ms later (1000.002 s).
#[test]
fn uptime_sets_the_jiffies_phase_and_is_refused_without_the_2635_kernel() {
    let e = config_from(&["--uptime", "1000s"]).unwrap_err();
    assert!(
        e.contains("--uptime") && e.contains("--kernel 2.6.35"),
        "{e}"
    );
    let e = config_from(&["--kernel", "2.6.35", "--uptime", "2000000s"]).unwrap_err();
    assert!(e.contains("--uptime") && e.contains("20 days"), "{e}");
    let exit_cwnd = |uptime: &str| {
        let mut c = config_from(&[
            "--kernel", "2.6.35", "--uptime", uptime, "--rtt", "18ms", "--mtu", "9000", "-w",
            "40m", "--time", "400ms",
        ])
        .unwrap();
        c.interval_ns = None;
        let mut p = Everything::default();
        run(&c, &mut p).unwrap();
        p.rows
            .iter()
            .find(|r| r.ssthresh < u32::MAX >> 1)
            .map(|r| r.ssthresh)
    };
    assert_eq!(
        config_from(&["--kernel", "2.6.35"]).unwrap().uptime_ns,
        1_000_000_000_000
    );
    let on_tick = exit_cwnd("1000s").expect("HyStart exits");
    let later = exit_cwnd("1000.002s").expect("HyStart exits");
    assert!(later < on_tick, "{later} vs {on_tick}");
    // The bandwidth-delay product is 2515 segments.
    assert!(on_tick > 2000 && later < 2000, "{later} vs {on_tick}");
}

/// `--timestamps off` (seed 000's HZ=1000 table): 12 more payload bytes per segment,
/// and a single run reproduces the preset's configuration of that table.
#[test]
fn timestamps_off_frees_the_option_and_matches_the_hz1000_preset_run() {
    let on = config_from(&["--mtu", "9000"]).unwrap();
    let off = config_from(&["--mtu", "9000", "--timestamps", "off"]).unwrap();
    assert!(on.timestamps && !off.timestamps);
    assert_eq!((on.mss(), off.mss()), (8948, 8960));
    let err = config_from(&["--timestamps", "maybe"]).unwrap_err();
    assert!(err.contains("--timestamps"), "{err}");
    // The preset's HZ=1000 18 ms -w40m HyStart run, phase 1, as the docs spell it.
    use congestion_sim::presets::fink2011::{calibration, config, phase_uptimes_ns};
    use congestion_sim::presets::seeds::FINK_2011_HZ1000;
    let r = FINK_2011_HZ1000
        .runs
        .iter()
        .find(|r| r.rtt_ms == 18 && r.window_mb == 40 && r.hystart)
        .unwrap();
    let mut preset = config(r, &FINK_2011_HZ1000, Kernel::Linux2635, &calibration());
    preset.uptime_ns = phase_uptimes_ns(1000)[1];
    preset.amount = Amount::TimeNs(300_000_000);
    preset.interval_ns = None;
    let mut cli = config_from(&[
        "--kernel",
        "2.6.35",
        "--hz",
        "1000",
        "--timestamps",
        "off",
        "--mtu",
        "9000",
        "--rtt",
        "18.92ms",
        "--rate",
        "10g",
        "-w",
        "40m",
        "--time",
        "300ms",
        "--uptime",
        "1000.000125s",
    ])
    .unwrap();
    cli.interval_ns = None;
    assert_eq!(
        run(&cli, &mut NoProbe).unwrap(),
        run(&preset, &mut NoProbe).unwrap()
    );
}

/// `--cc` speaks the crate's vocabulary (`cubic`, `cubic-rfc`); the 0.2 words still
/// select the same controllers this release (with a note on stderr).
#[test]
fn cc_words_new_and_deprecated_select_the_same_controller() {
    use congestion_sim::config::CcKind;
    for (word, kind) in [
        ("cubic", CcKind::Linux),
        ("linux", CcKind::Linux),
        ("cubic-rfc", CcKind::Rfc9438),
        ("rfc9438", CcKind::Rfc9438),
    ] {
        let cfg = config_from(&["--cc", word]).unwrap_or_else(|e| panic!("{word}: {e}"));
        assert_eq!(cfg.cc, kind, "--cc {word}");
    }
    assert!(config_from(&["--cc", "newreno"]).is_err());
}
