//! Odd but legal settings finish, and a hopeless transfer gives up instead of running
//! for ever.

use congestion_sim::config::{Amount, SimConfig};
use congestion_sim::{NoProbe, run};

#[test]
fn a_path_that_loses_everything_gives_up_after_the_limit() {
    let mut cfg = SimConfig::new();
    cfg.rate_bps = 10_000_000;
    cfg.loss = 1.0;
    cfg.amount = Amount::Bytes(1 << 20);
    let s = run(&cfg, &mut NoProbe).unwrap();
    assert!(!s.complete);
    assert_eq!(s.bytes, 0);
    assert!(s.sender.rtos > 10, "the RTO backs off and keeps trying");
}

#[test]
fn zero_rtt_stretch_acks_and_jitter_still_deliver_everything() {
    for (rtt_ns, ack_ratio, jitter_ns) in
        [(0, 2, 0), (20_000_000, 64, 0), (10_000_000, 2, 50_000_000)]
    {
        let mut cfg = SimConfig::new();
        cfg.rate_bps = 100_000_000;
        cfg.rtt_ns = rtt_ns;
        cfg.ack_ratio = ack_ratio;
        cfg.jitter_ns = jitter_ns;
        cfg.buffer_bytes = 1 << 20;
        cfg.amount = Amount::Bytes(5 << 20);
        let s = run(&cfg, &mut NoProbe).unwrap();
        assert!(s.complete);
        assert_eq!(
            s.bytes,
            5 << 20,
            "rtt {rtt_ns} ratio {ack_ratio} jitter {jitter_ns}"
        );
    }
}
