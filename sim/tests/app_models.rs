//! The application models: a rate-limited writer gets its rate, not the link's; an
//! on/off writer leaves the link idle in its off periods and the flow restarts.

use congestion_sim::config::{Amount, AppModel, SimConfig};
use congestion_sim::{NoProbe, run};

fn mbps(bytes: u64, ns: u64) -> f64 {
    bytes as f64 * 8.0 / ns as f64 * 1000.0
}

#[test]
fn a_rate_limited_application_is_served_at_its_own_rate() {
    let mut cfg = SimConfig::new();
    cfg.rate_bps = 1_000_000_000;
    cfg.rtt_ns = 20_000_000;
    cfg.amount = Amount::TimeNs(2_000_000_000);
    cfg.app = AppModel::RateLimited { bps: 50_000_000 };
    let s = run(&cfg, &mut NoProbe).unwrap();
    let got = mbps(s.bytes, s.duration_ns);
    // 50 Mbit/s of application data, within 5 % (the last RTT's data is in flight).
    assert!((47.5..=50.5).contains(&got), "{got} Mbit/s");
    assert_eq!(s.retrans, 0);
}

#[test]
fn an_on_off_application_uses_the_link_about_half_the_time() {
    let mut cfg = SimConfig::new();
    cfg.rate_bps = 100_000_000;
    cfg.rtt_ns = 20_000_000;
    cfg.amount = Amount::TimeNs(4_000_000_000);
    let bulk = run(&cfg, &mut NoProbe).unwrap();
    cfg.app = AppModel::OnOff {
        on_ns: 200_000_000,
        off_ns: 200_000_000,
    };
    let s = run(&cfg, &mut NoProbe).unwrap();
    let got = mbps(s.bytes, s.duration_ns);
    let full = mbps(bulk.bytes, bulk.duration_ns);
    // Data only half the time; what was queued at the bottleneck when an off period
    // starts still drains into it, so somewhat more than half of the bulk rate.
    assert!(
        got > 0.3 * full && got < 0.75 * full,
        "{got} of {full} Mbit/s"
    );
}

#[test]
fn app_settings_that_mean_nothing_are_refused() {
    let mut cfg = SimConfig::new();
    cfg.app = AppModel::RateLimited { bps: 0 };
    assert!(run(&cfg, &mut NoProbe).is_err());
    cfg.app = AppModel::OnOff {
        on_ns: 0,
        off_ns: 5,
    };
    assert!(run(&cfg, &mut NoProbe).is_err());
}
