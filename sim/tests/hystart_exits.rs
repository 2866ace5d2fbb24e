//! Why the 2.6.35 HyStart leaves slow start where it does on seed 000's 18 ms path
//! (HZ=250): the summary's exit detail records the round the exit came in, the
//! ACK-train test's inputs and the window the receiver allowed. Two different causes
//! show in the preset's runs, and these tests pin each one down.

use congestion::hystart::HystartExit;
use congestion_sim::config::{Amount, Kernel};
use congestion_sim::presets::fink2011::{calibration, config, phase_uptimes_ns};
use congestion_sim::presets::seeds::{FINK_2011_HZ250, FinkRun};
use congestion_sim::{NoProbe, Summary, run};

/// The first 400 ms of the 18 ms HyStart run with `window_mb` (0: autotuned) at tick
/// phase `phase`.
fn hystart_18ms(window_mb: u32, phase: usize) -> Summary {
    let r: &FinkRun = FINK_2011_HZ250
        .runs
        .iter()
        .find(|r| r.rtt_ms == 18 && r.window_mb == window_mb && r.hystart)
        .unwrap();
    let mut c = config(r, &FINK_2011_HZ250, Kernel::Linux2635, &calibration());
    c.uptime_ns = phase_uptimes_ns(250)[phase];
    c.amount = Amount::TimeNs(400_000_000);
    c.interval_ns = None;
    run(&c, &mut NoProbe).unwrap()
}

/// `-w40m`, phase 4 (first send 2 ms after a tick): the receiver never limits, and the
/// ACK train of a cwnd-limited round fires once it has run `delay_min >> 4` = 2 jiffies
/// from the round's first ACK: 18 ms reads as 4 jiffies (`delay_min` 32).
#[test]
fn a_cwnd_limited_round_ends_after_two_ticks_of_acks() {
    let s = hystart_18ms(40, 4);
    assert_eq!(s.hystart_exit, Some(HystartExit::AckTrain));
    let (at_ns, cwnd) = s.hystart_exit_at.unwrap();
    let d = s.hystart_exit_detail.unwrap();
    let x = d.linux_2635.expect("a 2.6.35 run records its round");
    assert_eq!(x.delay_min, 32, "4 jiffies << 3");
    assert_eq!(x.jiffies.wrapping_sub(x.round.start_jiffies), 2);
    assert!(
        d.send_window >= cwnd,
        "the receiver did not hold the flight"
    );
    // Per-segment ACKs (the receiver's window still opening): one segment of cwnd per
    // 7.23 us ACK, so the exit is the round's start plus the train's length.
    let train_ns = at_ns - x.round.start_ns;
    assert!((4_000_000..=8_000_000).contains(&train_ns), "{train_ns} ns");
    let grown = u64::from(cwnd - x.round.cwnd);
    let per_ack_ns = train_ns / grown;
    assert!(
        (7_000..=7_500).contains(&per_ack_ns),
        "{per_ack_ns} ns per ACK"
    );
}

/// Autotuned, phase 0: the exit comes in a round whose flight autotuning's window
/// held below cwnd, so slow start had stopped growing cwnd (not cwnd-limited), while
/// the window-limited flight's ACKs still ran as one train past two ticks.
#[test]
fn an_autotuned_exit_can_come_in_a_receive_window_limited_round() {
    let s = hystart_18ms(0, 0);
    let (_, cwnd) = s.hystart_exit_at.unwrap();
    let d = s.hystart_exit_detail.unwrap();
    let x = d.linux_2635.unwrap();
    assert_eq!(x.jiffies.wrapping_sub(x.round.start_jiffies), 2);
    assert!(
        d.send_window < cwnd,
        "window {} against cwnd {cwnd}",
        d.send_window
    );
    assert!(d.in_flight <= d.send_window);
    // Below the BDP (2616 segments of 9038 wire bytes at 18.92 ms): slow start ended
    // early.
    assert!(cwnd < 2_616, "exit at {cwnd}");
}

/// HZ=100 (the worry seed 000's thread opens with): 18.92 ms is one or two 10 ms
/// jiffies, so `delay_min` is one jiffy (8, ×8) and the train's span `delay_min >> 4`
/// is 0 jiffies: the first ACKs of a round that follow each other within a jiffy end
/// slow start as soon as cwnd reaches `hystart_low_window` (16), at every tick phase.
#[test]
fn at_hz_100_an_18_ms_rtt_ends_slow_start_just_above_the_low_window() {
    let r: &FinkRun = FINK_2011_HZ250
        .runs
        .iter()
        .find(|r| r.rtt_ms == 18 && r.window_mb == 0 && r.hystart)
        .unwrap();
    for phase in [0, 4] {
        let mut c = config(r, &FINK_2011_HZ250, Kernel::Linux2635, &calibration());
        c.hz = 100;
        c.receiver_hz = Some(100);
        // First send `phase` eighths of a 10 ms tick after one.
        c.uptime_ns = 1_000_000_000_000 + phase * 1_250_000;
        c.amount = Amount::TimeNs(400_000_000);
        c.interval_ns = None;
        let s = run(&c, &mut NoProbe).unwrap();
        assert_eq!(s.hystart_exit, Some(HystartExit::AckTrain), "phase {phase}");
        let (_, cwnd) = s.hystart_exit_at.unwrap();
        let x = s.hystart_exit_detail.unwrap().linux_2635.unwrap();
        assert_eq!(x.delay_min, 8, "one jiffy << 3");
        assert!(
            (16..=32).contains(&cwnd),
            "phase {phase}: exit at cwnd {cwnd}"
        );
    }
}
