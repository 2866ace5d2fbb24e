//! The DCTCP stream (`perf/src/dctcp.rs`) is what its table says: on the project's
//! congestion-avoidance stream with 2 % of ACKs CE-marked, the hooks' alpha is well
//! inside (0, 1.0): at the snapshot it is still converging from its initial 1.0 towards
//! the marking rate (2 % = 20/1024), so it stays between 8 and 64 through every cycle;
//! and the window stays in congestion avoidance near the stream's 1000-1100 packets.

use congestion_perf::dctcp::{OursDctcpHooks, alpha_of};
use congestion_perf::{Regime, Stream, StreamController};

#[test]
fn dctcp_hooks_track_the_marking_rate_in_congestion_avoidance() {
    let mut s = Stream::new(OursDctcpHooks::new(), Regime::CongestionAvoidance);
    let (mut lo, mut hi) = (u32::MAX, 0);
    for _ in 0..9_999 {
        s.step();
        let alpha = alpha_of(s.live());
        (lo, hi) = (lo.min(alpha), hi.max(alpha));
        let cwnd = s.live().cwnd_packets();
        assert!((900..=1500).contains(&cwnd), "cwnd {cwnd}");
    }
    eprintln!("alpha over a cycle: {lo}..={hi} (of 1024)");
    assert!(lo >= 8 && hi <= 64, "alpha {lo}..={hi}");
}
