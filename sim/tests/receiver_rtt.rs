//! The 2.6.35 receiver times autotuning with its own RTT estimate in jiffies
//! (`rcv_rtt_est`), not the sender's smoothed RTT in ns. On seed 000's 18 ms path
//! (HZ=250, timestamps on) that is what lets HyStart leave slow start early in the
//! autotuned run: the whole-jiffy epochs keep the window, and so the rounds, growing
//! at the pace the ACK train test needs.

use congestion_sim::config::{Amount, Kernel};
use congestion_sim::presets::fink2011::{calibration, config, phase_uptimes_ns};
use congestion_sim::presets::seeds::{FINK_2011_HZ250, FinkRun};
use congestion_sim::{NoProbe, run};

/// cwnd at HyStart's exit in the first 400 ms of the autotuned 18 ms HyStart run at
/// tick phase `phase`, with the 2.6.35 receiver's clock or (`jiffies_receiver` false)
/// the ns one.
fn exit_cwnd(phase: usize, jiffies_receiver: bool) -> Option<u32> {
    let r: &FinkRun = FINK_2011_HZ250
        .runs
        .iter()
        .find(|r| r.rtt_ms == 18 && r.window_mb == 0 && r.hystart)
        .unwrap();
    let mut c = config(r, &FINK_2011_HZ250, Kernel::Linux2635, &calibration());
    assert_eq!(c.receiver_hz, Some(250), "the preset's 2.6.35 receiver");
    if !jiffies_receiver {
        c.receiver_hz = None;
    }
    c.uptime_ns = phase_uptimes_ns(250)[phase];
    c.amount = Amount::TimeNs(400_000_000);
    c.interval_ns = None;
    run(&c, &mut NoProbe)
        .unwrap()
        .hystart_exit_at
        .map(|(_, cwnd)| cwnd)
}

#[test]
fn the_jiffies_receiver_lets_autotuned_hystart_exit_below_the_bdp() {
    // BDP: 10 Gbit/s x 18.92 ms (the preset's path RTT) / 9038 wire bytes = 2616
    // segments. Phases 0 and 7 (first send on a tick, 3.5 ms after one): the jiffies
    // receiver's window holds the flight and the exit comes in that round.
    let bdp = 2_616;
    for phase in [0, 7] {
        let with = exit_cwnd(phase, true).expect("exits within 400 ms");
        assert!(
            with < bdp,
            "phase {phase}: jiffies receiver, exit at {with}"
        );
    }
    // The same sender with the ns-timed receiver runs on past the BDP at phase 0.
    let without = exit_cwnd(0, false).expect("exits within 400 ms");
    assert!(without > bdp, "ns receiver: exit at {without}");
}

#[test]
fn todays_kernel_keeps_todays_receiver_in_the_preset() {
    for r in &FINK_2011_HZ250.runs {
        let c = config(r, &FINK_2011_HZ250, Kernel::Linux6, &calibration());
        assert_eq!(c.receiver_hz, None);
    }
}

/// Bytes the autotuned 80 ms no-HyStart run (HZ=250) delivers in its first second when
/// its receiver starts from a `rmem`-byte buffer (`tcp_rmem[1]`).
fn first_second_at_80_ms(rmem: u64) -> u64 {
    let r: &FinkRun = FINK_2011_HZ250
        .runs
        .iter()
        .find(|r| r.rtt_ms == 80 && r.window_mb == 0 && !r.hystart)
        .unwrap();
    let mut c = config(r, &FINK_2011_HZ250, Kernel::Linux2635, &calibration());
    c.rmem_default_bytes = Some(rmem);
    c.amount = Amount::TimeNs(1_000_000_000);
    c.interval_ns = None;
    run(&c, &mut NoProbe).unwrap().bytes
}

#[test]
fn a_larger_first_receive_buffer_starts_the_80_ms_ramp_sooner() {
    // 87380 B (the default) is a first window of 65535 B less one reserved segment:
    // 6 segments of 8948 B. Four times that buffer starts the window, and so the
    // doubling that autotuning allows every second epoch, about two round trips on: in
    // the first second from the first send 2.8 MB becomes 6.4 (nuttcp's first
    // interval, timed from the first data's arrival: 3.5 and 8.6 MB; docs/simulator.md
    // has the sweep).
    let default = first_second_at_80_ms(87_380);
    let four_times = first_second_at_80_ms(4 * 87_380);
    assert!((2_500_000..3_200_000).contains(&default), "{default} B");
    assert!(four_times > 2 * default, "{four_times} against {default} B");
}
