//! Property tests of the Linux 2.6.35 profile: the era's rules hold for any
//! configuration, HZ and event stream. Run in debug (overflow checks on): any accidental
//! overflow panics and fails.

use congestion::cubic::BICTCP_BETA_SCALE;
use congestion::linux::CaState;
use congestion::v2_6_35::{Cubic, CubicConfig, Linux2635Params};
use congestion::{CongestionController, Duration, Instant};
use core::borrow::Borrow;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Ev {
    Ack {
        dt_us: u64,
        acked: u32,
        rtt_us: Option<u64>,
        in_flight: u32,
    },
    Loss,
    Ecn,
    Rto {
        resent: u32,
    },
    Undo,
    Send {
        n: u32,
    },
}

fn event() -> impl Strategy<Value = Ev> {
    let rtt = prop_oneof![
        1 => Just(None),
        1 => Just(Some(0u64)),
        1 => Just(Some(u64::MAX)),
        6 => (1u64..400_000).prop_map(Some),
    ];
    prop_oneof![
        8 => (0u64..100_000, 0u32..70, rtt, 0u32..5000)
            .prop_map(|(dt_us, acked, rtt_us, in_flight)| Ev::Ack { dt_us, acked, rtt_us, in_flight }),
        1 => Just(Ev::Loss),
        1 => Just(Ev::Ecn),
        1 => (0u32..4).prop_map(|resent| Ev::Rto { resent }),
        1 => Just(Ev::Undo),
        1 => (0u32..100).prop_map(|n| Ev::Send { n }),
    ]
}

fn config() -> impl Strategy<Value = CubicConfig> {
    (
        prop_oneof![Just(100u32), Just(250), Just(1000)],
        1u32..1024,
        any::<bool>(),
        any::<bool>(),
        2u32..100_000,
        1u32..8,
    )
        .prop_map(|(hz, beta, hystart, gso, clamp, reordering)| {
            let mut c = CubicConfig::new();
            c.hz = hz;
            c.beta = beta;
            c.hystart = hystart;
            c.gso = gso;
            c.cwnd_clamp = clamp;
            c.init_cwnd = clamp.min(3);
            c.reordering = reordering;
            c
        })
}

/// Start times: the traces' 1000 s, the first second after jiffies 0, near the wrap.
fn start_us() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(1_000_000_000u64),
        0u64..1_000_000,
        Just(((1u64 << 32) - 6000) * 1000),
    ]
}

fn apply<P: Borrow<Linux2635Params>>(f: &mut Cubic<P>, now: &mut u64, ev: &Ev) {
    let at = Instant::from_micros(*now);
    match *ev {
        Ev::Ack {
            dt_us,
            acked,
            rtt_us,
            in_flight,
        } => {
            *now += dt_us;
            let at = Instant::from_micros(*now);
            f.ack(at, acked, rtt_us.map(Duration::from_micros));
            f.transmit(at, in_flight);
        }
        Ev::Loss => f.loss(at),
        Ev::Ecn => f.ecn(at),
        Ev::Rto { resent } => f.rto(at, resent),
        Ev::Undo => f.undo(at),
        Ev::Send { n } => {
            let out = f.socket_view().packets_out;
            f.transmit(at, out + n);
        }
    }
}

proptest! {
    #[test]
    fn a_flow_reading_shared_settings_matches_one_that_owns_them(
        cfg in config(), start in start_us(), evs in prop::collection::vec(event(), 0..300),
    ) {
        let shared = Linux2635Params::new(cfg).unwrap();
        let (mut now_owned, mut now_shared) = (start, start);
        let mut owned = Cubic::new(cfg, Instant::from_micros(start)).unwrap();
        let mut reading = Cubic::with_params(&shared, Instant::from_micros(start));
        owned.transmit(Instant::from_micros(start), 3);
        reading.transmit(Instant::from_micros(start), 3);
        for ev in &evs {
            apply(&mut owned, &mut now_owned, ev);
            apply(&mut reading, &mut now_shared, ev);
            prop_assert_eq!(owned.state(), reading.state(), "after {:?}", ev);
            prop_assert_eq!(owned.socket_view(), reading.socket_view());
            prop_assert_eq!(owned.ca_state(), reading.ca_state());
        }
    }

    #[test]
    fn the_window_stays_within_one_and_the_clamp(
        cfg in config(), start in start_us(), evs in prop::collection::vec(event(), 0..300),
    ) {
        let mut now = start;
        let mut f = Cubic::new(cfg, Instant::from_micros(now)).unwrap();
        f.transmit(Instant::from_micros(now), 3);
        for ev in &evs {
            apply(&mut f, &mut now, ev);
            let s = f.state();
            prop_assert!(s.cwnd >= 1 && s.cwnd <= cfg.cwnd_clamp, "cwnd {} after {ev:?}", s.cwnd);
            prop_assert!(s.ssthresh >= 1);
            prop_assert!(s.bictcp.sample_cnt <= 8);
            // RTTs reach CUBIC only as whole jiffies (below 35 minutes, where the
            // kernel's u32/s32 conversions do not wrap yet).
            let per_jiffy = (1_000_000 / cfg.hz) as i32;
            let r = f.rtt_us_passed();
            if let Ev::Ack { rtt_us: Some(rtt), .. } = ev {
                if *rtt < 2_000_000_000 {
                    prop_assert!(r == -1 || (r > 0 && r % per_jiffy == 0), "rtt_us_passed {r}");
                }
            }
        }
    }

    #[test]
    fn slow_start_grows_by_exactly_one_per_ack_however_much_it_covers(
        cfg in config(), acks in prop::collection::vec(1u32..64, 1..40),
    ) {
        let mut c = cfg;
        c.hystart = false;
        c.cwnd_clamp = u32::MAX;
        let mut now = 1_000_000_000u64;
        let mut f = Cubic::new(c, Instant::from_micros(now)).unwrap();
        let mut flight = 10_000u32;
        f.transmit(Instant::from_micros(now), flight);
        for acked in acks {
            // The flight stays above cwnd, so every ACK is cwnd-limited.
            let before = f.state().cwnd;
            now += 1000;
            f.ack(Instant::from_micros(now), acked, Some(Duration::from_millis(20)));
            flight = flight - acked + 2 * acked;
            f.transmit(Instant::from_micros(now), flight);
            prop_assert_eq!(f.state().cwnd, before + 1);
        }
    }

    #[test]
    fn a_loss_from_open_sets_ssthresh_to_beta_cwnd_and_enters_disorder(
        cfg in config(), cwnd in 2u32..50_000,
    ) {
        let mut c = cfg;
        c.cwnd_clamp = u32::MAX;
        c.init_cwnd = cwnd;
        let now = Instant::from_micros(1_000_000_000);
        let mut f = Cubic::new(c, now).unwrap();
        f.transmit(now, cwnd);
        f.loss(now);
        // max(cwnd * beta / 1024, 2); the flight (cwnd) plus reordering does not cut it.
        let want = (u64::from(cwnd) * u64::from(c.beta) / u64::from(BICTCP_BETA_SCALE)).max(2) as u32;
        prop_assert_eq!(f.state().ssthresh, want);
        prop_assert_eq!(f.state().cwnd, want.min(cwnd));
        prop_assert_eq!(f.ca_state(), CaState::Disorder);
        prop_assert_eq!(f.bictcp().last_max_cwnd, cwnd);
        prop_assert_eq!(f.bictcp().loss_cwnd, cwnd);
    }

    #[test]
    fn idle_restart_changes_nothing(cfg in config(), evs in prop::collection::vec(event(), 0..50)) {
        let mut now = 1_000_000_000u64;
        let mut f = Cubic::new(cfg, Instant::from_micros(now)).unwrap();
        for ev in &evs {
            apply(&mut f, &mut now, ev);
        }
        let before = f;
        f.on_transmit_start(Instant::from_micros(now + 10_000_000));
        prop_assert_eq!(f, before);
    }
}
