//! The directions the seeds show, on small runs.

mod common;

use congestion_sim::config::{Amount, SlowStart, TsoMode, TsqMode, WindowMode};
use congestion_sim::{NoProbe, SimConfig, run};

/// Seed 000: without HyStart, slow start on a long path with a shallow buffer
/// overshoots and loses packets; with HyStart it leaves slow start earlier.
#[test]
fn without_hystart_a_shallow_buffer_long_path_loses_more() {
    let mut cfg = SimConfig::new();
    cfg.rate_bps = 100_000_000;
    cfg.nic_rate_bps = 1_000_000_000;
    cfg.rtt_ns = 80_000_000;
    // BDP = 1e8 * 0.08 / 8 = 1 MB; half a BDP of buffer.
    cfg.buffer_bytes = 500_000;
    cfg.window = WindowMode::Fixed(4 << 20);
    cfg.amount = Amount::Bytes(20 << 20);
    cfg.slow_start = SlowStart::Off;
    let off = run(&cfg, &mut NoProbe).unwrap();
    cfg.slow_start = SlowStart::Hystart;
    let on = run(&cfg, &mut NoProbe).unwrap();
    assert!(off.retrans > 0, "no HyStart: slow start overshoots");
    assert!(
        on.retrans < off.retrans,
        "HyStart {} retrans, none {}",
        on.retrans,
        off.retrans
    );
    assert!(on.hystart_exit.is_some());
}

fn tsq_run(rate_bps: u64, limit_bytes: u64) -> congestion_sim::Summary {
    let mut cfg = SimConfig::new();
    cfg.rate_bps = rate_bps;
    cfg.nic_rate_bps = rate_bps;
    cfg.rtt_ns = 100_000;
    cfg.mtu = 1500;
    cfg.amount = Amount::TimeNs(200_000_000);
    cfg.window = WindowMode::Auto { max_bytes: 4 << 20 };
    cfg.tsq = TsqMode::Fixed(limit_bytes);
    cfg.tso = TsoMode::Segs(45);
    run(&cfg, &mut NoProbe).unwrap()
}

/// Seed 002, Gbit link: a tighter TSQ limit keeps less in the host queue, so RTT is lower.
#[test]
fn a_tighter_tsq_limit_on_1_gbe_lowers_the_rtt() {
    let tight = tsq_run(1_000_000_000, 16 << 10);
    let loose = tsq_run(1_000_000_000, 1 << 20);
    assert!(
        tight.final_srtt_ns * 2 < loose.final_srtt_ns,
        "srtt {} ns with 16 KB, {} ns with 1 MB",
        tight.final_srtt_ns,
        loose.final_srtt_ns
    );
}

/// Seed 002, 10 Gbit links: a limit of a few KB cannot keep the link busy.
#[test]
fn a_tsq_limit_of_a_few_kb_on_10_gbe_stays_below_line_rate() {
    let s = tsq_run(10_000_000_000, 4 << 10);
    assert!(
        s.throughput_bps() < 0.5e10,
        "{} bit/s with a 4 KB limit",
        s.throughput_bps()
    );
    assert!(s.throughput_bps() > 0.0);
}

/// The same direction in RFC mode, for both slow-start exits it offers.
#[test]
fn rfc_mode_slow_start_exits_also_lose_less_than_plain_slow_start() {
    use congestion_sim::config::CcKind;
    let mut cfg = SimConfig::new();
    cfg.cc = CcKind::Rfc9438;
    cfg.rate_bps = 100_000_000;
    cfg.nic_rate_bps = 1_000_000_000;
    cfg.rtt_ns = 80_000_000;
    cfg.buffer_bytes = 500_000;
    cfg.window = WindowMode::Fixed(4 << 20);
    cfg.amount = Amount::Bytes(20 << 20);
    cfg.slow_start = SlowStart::Off;
    let off = run(&cfg, &mut NoProbe).unwrap();
    assert!(off.retrans > 0);
    for ss in [SlowStart::Hystart, SlowStart::HystartPp] {
        cfg.slow_start = ss;
        let s = run(&cfg, &mut NoProbe).unwrap();
        assert_eq!(s.bytes, 20 << 20);
        assert!(
            s.retrans < off.retrans,
            "{ss:?}: {} retrans, standard slow start {}",
            s.retrans,
            off.retrans
        );
    }
}

/// Linux mode has no HyStart++: asking for it is refused, not silently replaced.
#[test]
fn hystartpp_in_linux_mode_is_refused() {
    let mut cfg = SimConfig::new();
    cfg.slow_start = SlowStart::HystartPp;
    let e = run(&cfg, &mut NoProbe).unwrap_err();
    assert!(e.contains("cubic-rfc"), "{e}");
}
