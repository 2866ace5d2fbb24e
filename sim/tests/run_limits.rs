//! A plain run says what held the sender back: the path, the receive window, the send
//! buffer or the application, from the time its transmit loop spent stopped for each.

use std::process::Command;

use congestion_sim::config::{Amount, WindowMode};
use congestion_sim::limits::Limit;
use congestion_sim::{NoProbe, SimConfig, run};

/// The `limited by:` line of a `ccsim` run with `args`.
fn limited_by(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ccsim"))
        .args(args)
        .output()
        .expect("ccsim runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    stdout
        .lines()
        .find(|l| l.starts_with("limited by: "))
        .unwrap_or_else(|| panic!("no limited-by line in {stdout}"))
        .to_string()
}

#[test]
fn the_default_run_is_held_by_its_send_buffer_not_the_path() {
    // Autotuning up to 6 MiB: the send buffer holds 6 MiB / (1448 + 768) B = 2839
    // segments, the receive window 3/4 of 6 MiB = 3258: the send buffer binds, at
    // about 1.6 Gbit/s on a 10 Gbit/s, 20 ms path.
    let line = limited_by(&["-T", "2s"]);
    assert!(line.starts_with("limited by: send buffer "), "{line}");
}

#[test]
fn jumbo_frames_make_the_receive_window_the_smaller() {
    // MSS 8948: 3/4 of 6 MiB is 527 segments, the send buffer 6 MiB / 9716 B = 647.
    let line = limited_by(&["-T", "2s", "--mtu", "9000"]);
    assert!(line.starts_with("limited by: receive window "), "{line}");
}

#[test]
fn a_rate_limited_application_is_named() {
    let line = limited_by(&["-T", "2s", "--app-rate", "50m"]);
    assert!(line.starts_with("limited by: application "), "{line}");
}

#[test]
fn a_window_larger_than_the_path_leaves_the_path_in_charge() {
    // -w 100m: 150 MiB of window against a 25 MB bandwidth-delay product.
    let line = limited_by(&["-T", "2s", "-w", "100m"]);
    assert!(line.starts_with("limited by: the path "), "{line}");
    assert!(line.contains("congestion window"), "{line}");
    assert!(
        !line.contains("receive window") && !line.contains("send buffer"),
        "{line}"
    );
}

#[test]
fn the_reasons_add_up_to_the_whole_of_a_timed_bulk_run() {
    // A timed run with a bulk writer always has data to send: every nanosecond is
    // held by some reason, none by "nothing left to send".
    let mut cfg = SimConfig::new();
    cfg.amount = Amount::TimeNs(1_000_000_000);
    let s = run(&cfg, &mut NoProbe).expect("runs");
    let counted: u64 = Limit::COUNTED.iter().map(|&l| s.limits.ns(l)).sum();
    assert_eq!(counted, s.duration_ns);
    assert!(s.limits.ns(Limit::SendBuffer) > s.duration_ns / 2);
    // A transfer by size stops counting once everything is sent: the last flight's
    // wait for its ACKs is not a limit.
    cfg.amount = Amount::Bytes(4 << 20);
    cfg.window = WindowMode::Fixed(100 << 20);
    let s = run(&cfg, &mut NoProbe).expect("runs");
    let counted: u64 = Limit::COUNTED.iter().map(|&l| s.limits.ns(l)).sum();
    assert!(
        counted + cfg.rtt_ns / 2 < s.duration_ns,
        "{counted} of {}",
        s.duration_ns
    );
}
