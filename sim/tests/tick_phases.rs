//! `fink2011` sweeps every 2.6.35 run over jiffy phases, because where the seed host's
//! ticks fell against each transfer's first send is unknown: the phases are evenly
//! spaced across one tick and the same on every call, the 2.6.35 HyStart exit moves
//! with them, and today's kernel (HyStart on a µs clock) does not.

use congestion_sim::config::{Amount, DEFAULT_UPTIME_NS, Kernel};
use congestion_sim::presets::fink2011::{TICK_PHASES, calibration, config, phase_uptimes_ns};
use congestion_sim::presets::seeds::{FINK_2011_HZ250, FinkRun};
use congestion_sim::{NoProbe, Summary, run};

#[test]
fn the_phases_are_evenly_spaced_across_one_tick_and_deterministic() {
    for hz in [100u32, 250, 1000] {
        let tick_ns = 1_000_000_000 / u64::from(hz);
        let phases = phase_uptimes_ns(hz);
        assert_eq!(phases.len() as u64, TICK_PHASES, "HZ={hz}");
        assert_eq!(
            phases,
            phase_uptimes_ns(hz),
            "HZ={hz}: same phases every call"
        );
        // The first on a tick (the default uptime is a whole number of ticks).
        assert_eq!(phases[0], DEFAULT_UPTIME_NS);
        assert_eq!(DEFAULT_UPTIME_NS % tick_ns, 0);
        let step = tick_ns / TICK_PHASES;
        for (k, p) in phases.iter().enumerate() {
            assert_eq!(*p, DEFAULT_UPTIME_NS + k as u64 * step, "HZ={hz} phase {k}");
        }
        // All inside one tick: no phase repeats another a tick later.
        assert!(phases[phases.len() - 1] - phases[0] < tick_ns);
    }
    // HZ=250: 0, 0.5, ..., 3.5 ms after a tick.
    assert_eq!(phase_uptimes_ns(250)[1] - DEFAULT_UPTIME_NS, 500_000);
}

fn run_18ms_w40m(kernel: Kernel, hystart: bool, uptime_ns: u64) -> Summary {
    let r: &FinkRun = FINK_2011_HZ250
        .runs
        .iter()
        .find(|r| r.rtt_ms == 18 && r.window_mb == 40 && r.hystart == hystart)
        .unwrap();
    let mut c = config(r, &FINK_2011_HZ250, kernel, &calibration());
    c.uptime_ns = uptime_ns;
    c.amount = Amount::TimeNs(400_000_000);
    c.interval_ns = None;
    run(&c, &mut NoProbe).unwrap()
}

/// HZ=250, 18 ms: the ACK train must span two 4 ms ticks. With the first send on a
/// tick the round of ~820 segments crosses one boundary and HyStart exits a round
/// later, near the BDP (2515 segments); half a tick later it crosses two.
#[test]
fn the_2635_hystart_exit_moves_with_the_tick_phase() {
    let phases = phase_uptimes_ns(250);
    let exit = |k: usize| {
        run_18ms_w40m(Kernel::Linux2635, true, phases[k])
            .hystart_exit_at
            .map(|(_, cwnd)| cwnd)
            .expect("HyStart exits within 400 ms")
    };
    let on_tick = exit(0);
    let half_tick = exit(TICK_PHASES as usize / 2);
    assert!(on_tick > 2200, "phase 0 exits near the BDP: {on_tick}");
    assert!(
        half_tick < 1800,
        "half a tick on, a round earlier: {half_tick}"
    );
}

/// Today's kernel times HyStart in microseconds (and its host has no jiffies TSO
/// deferral in the model): the uptime does not enter its run, so one run stands for
/// every phase.
#[test]
fn todays_kernel_does_not_depend_on_the_tick_phase() {
    let phases = phase_uptimes_ns(250);
    let a = run_18ms_w40m(Kernel::Linux6, true, phases[0]);
    let b = run_18ms_w40m(Kernel::Linux6, true, phases[TICK_PHASES as usize / 2]);
    assert_eq!(a.bytes, b.bytes);
    assert_eq!(a.events, b.events);
    assert_eq!(a.hystart_exit_at, b.hystart_exit_at);
    assert!(a.hystart_exit_at.is_some());
}
