//! Property tests: what the tools print, the parsers read back; sizes and rates keep
//! their scales apart; nothing negative, unitless or out of range gets through.

use congestion_units::limits::{MTU_MAX, MTU_MIN, RTT_MAX, mtu, rtt};
use congestion_units::{duration, probability, rate_bps, size_bytes};
use proptest::prelude::*;
use std::time::Duration;

proptest! {
    #[test]
    fn plain_integers_read_back_exactly(n in 0u64..=u64::MAX) {
        prop_assert_eq!(size_bytes(&n.to_string()), Ok(n));
        prop_assert_eq!(duration(&format!("{n}ns")), Ok(Duration::from_nanos(n)));
        if n > 0 {
            prop_assert_eq!(rate_bps(&n.to_string()), Ok(n));
        }
    }

    #[test]
    fn prefixes_multiply_exactly(n in 0u64..1_000_000, frac in 0u64..1000) {
        // n.frac with three fraction digits, k/m/g on both scales.
        let text = |suffix: &str| format!("{n}.{frac:03}{suffix}");
        let thousandths = n * 1000 + frac;
        let round = |scale: u64| (u128::from(thousandths) * u128::from(scale) + 500) / 1000;
        for (suffix, binary, decimal) in [("k", 1u64 << 10, 1_000u64), ("m", 1 << 20, 1_000_000), ("g", 1 << 30, 1_000_000_000)] {
            prop_assert_eq!(u128::from(size_bytes(&text(suffix)).unwrap()), round(binary));
            let upper = suffix.to_uppercase();
            prop_assert_eq!(u128::from(size_bytes(&text(&format!("{upper}iB"))).unwrap()), round(binary));
            prop_assert_eq!(u128::from(size_bytes(&text(&format!("{}B", if suffix == "k" { "k".to_string() } else { upper.clone() }))).unwrap()), round(decimal));
            if round(decimal) > 0 {
                prop_assert_eq!(u128::from(rate_bps(&text(suffix)).unwrap()), round(decimal));
                prop_assert_eq!(u128::from(rate_bps(&text(&format!("{suffix}bit/s"))).unwrap()), round(decimal));
            }
        }
    }

    #[test]
    fn durations_in_each_unit_agree(us in 0u64..10_000_000_000) {
        let d = Duration::from_micros(us);
        prop_assert_eq!(duration(&format!("{us}us")), Ok(d));
        prop_assert_eq!(duration(&format!("{}.{:06}s", us / 1_000_000, us % 1_000_000)), Ok(d));
        prop_assert_eq!(duration(&format!("{}.{:03}ms", us / 1000, us % 1000)), Ok(d));
        // Without a unit, never.
        prop_assert!(duration(&us.to_string()).is_err());
    }

    #[test]
    fn nothing_negative_is_accepted(text in "-[0-9]{1,6}(\\.[0-9]{1,3})?(k|m|g|ms|s|us|%)?") {
        prop_assert!(size_bytes(&text).is_err());
        prop_assert!(rate_bps(&text).is_err());
        prop_assert!(duration(&text).is_err());
        prop_assert!(probability(&text).is_err());
    }

    #[test]
    fn mtu_accepts_exactly_its_range(m in 0u32..200_000) {
        let accepted = mtu(&m.to_string());
        prop_assert_eq!(accepted.is_ok(), (MTU_MIN..=MTU_MAX).contains(&m));
        if let Err(e) = accepted {
            prop_assert!(e.0.contains("68 to 65535"), "{}", e);
        }
    }

    #[test]
    fn rtt_accepts_exactly_its_range(ms in 0u64..10_000_000) {
        let d = Duration::from_millis(ms);
        prop_assert_eq!(rtt(&format!("{ms}ms")).is_ok(), !d.is_zero() && d <= RTT_MAX);
    }

    #[test]
    fn probabilities_stay_in_zero_to_one(ppm in 0u64..2_000_000) {
        let text = format!("{}.{:06}", ppm / 1_000_000, ppm % 1_000_000);
        match probability(&text) {
            Ok(p) => {
                prop_assert!(ppm < 1_000_000);
                prop_assert!((0.0..1.0).contains(&p));
                prop_assert_eq!(p, ppm as f64 / 1e6);
            }
            Err(_) => prop_assert!(ppm >= 1_000_000),
        }
    }

    #[test]
    fn garbage_never_panics(text in "\\PC{0,24}") {
        let _ = (size_bytes(&text), rate_bps(&text), duration(&text), probability(&text), mtu(&text), rtt(&text));
    }
}
