//! `Cubic::pacing_rate` is computed when asked for (issue 13), so these tests pin
//! what the kernel's eager `tcp_update_pacing_rate` gives: the rate the last event
//! left, which neither the transmit step nor a setter moves.

use congestion::Instant;
use congestion::cubic::LinuxCubicConfig;
use congestion::linux::{Cubic, CubicConfig, LinuxSocketConfig};

fn flow(hystart: bool) -> Cubic {
    let mut cubic = LinuxCubicConfig::new();
    cubic.hystart = hystart;
    let config = CubicConfig::from_parts(cubic, LinuxSocketConfig::new());
    let mut f = Cubic::new(config, Instant::ZERO).unwrap();
    f.transmit(Instant::ZERO, 10);
    f
}

fn check_rate_stays_where_the_last_event_left_it(hystart: bool) {
    let mut f = flow(hystart);
    let t = Instant::from_micros(20_000);
    f.ack(t, 2, Some(20_000));
    // Slow start: cwnd 10 + 2 = 12, 8 in flight, srtt = 8 * 20 ms.
    // 1448 B * 80,000 * 200 % * max(12, 8) / 160,000 = 1,737,600 B/s.
    assert_eq!(f.state().cwnd, 12);
    assert_eq!(f.sk_pacing_rate(), 1_737_600);
    // More in flight than cwnd after the send: the kernel's rate is still the ACK's.
    f.transmit(t, 20);
    assert_eq!(f.sk_pacing_rate(), 1_737_600);
    // A setter writes the window, not sk_pacing_rate.
    f.set_cwnd(100);
    f.set_ssthresh(150);
    assert_eq!(f.sk_pacing_rate(), 1_737_600);
    // The next ACK recomputes: 19 in flight, cwnd 100 + 1 = 101 >= 150 / 2 so the
    // CA ratio: 1448 * 80,000 * 120 * 101 / (160,000 + 20,000 - 20,000) = 8,774,880.
    f.ack(Instant::from_micros(20_040), 1, Some(20_000));
    assert_eq!(f.state().cwnd, 101);
    assert_eq!(f.sk_pacing_rate(), 8_774_880);
}

#[test]
fn the_pacing_rate_is_the_last_events_with_hystart_reading_it() {
    check_rate_stays_where_the_last_event_left_it(true);
}

#[test]
fn the_pacing_rate_is_the_last_events_when_computed_on_demand() {
    check_rate_stays_where_the_last_event_left_it(false);
}

#[test]
fn turning_pacing_off_keeps_the_last_rate() {
    let mut f = flow(false);
    f.ack(Instant::from_micros(20_000), 2, Some(20_000));
    let mut socket = *f.socket_config();
    socket.model_pacing = false;
    f.set_socket_config(socket).unwrap();
    f.ack(Instant::from_micros(20_040), 2, Some(20_000));
    assert_eq!(f.sk_pacing_rate(), 1_737_600);
}

mod against_the_eager_kernel_rule {
    //! Random event sequences, the rate checked after every step against a model that
    //! does what the kernel does: `tcp_update_pacing_rate` at the end of every event
    //! (ACK, loss, ECN, RTO, an armed undo), nothing on a send or a direct write of a
    //! field.

    use congestion::Instant;
    use congestion::cubic::LinuxCubicConfig;
    use congestion::hystart::PacingStatus;
    use congestion::linux::{Cubic, CubicConfig, LinuxSocketConfig};
    use congestion::pacing::{LinuxPacingInput, linux_pacing_rate};
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Step {
        Ack {
            gap_us: u64,
            acked: u32,
            rtt_us: Option<u32>,
        },
        Send {
            more: u32,
        },
        Loss,
        Ecn,
        Rto,
        Undo,
        SetCwnd(u32),
        SetSsthresh(u32),
        ToggleHystart,
        SetMss(u32),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            10 => (0u64..30_000, 0u32..8, prop::option::of(1u32..200_000))
                .prop_map(|(gap_us, acked, rtt_us)| Step::Ack { gap_us, acked, rtt_us }),
            6 => (0u32..12).prop_map(|more| Step::Send { more }),
            1 => Just(Step::Loss),
            1 => Just(Step::Ecn),
            1 => Just(Step::Rto),
            1 => Just(Step::Undo),
            1 => (1u32..400).prop_map(Step::SetCwnd),
            1 => (1u32..400).prop_map(Step::SetSsthresh),
            1 => Just(Step::ToggleHystart),
            1 => (500u32..9000).prop_map(Step::SetMss),
        ]
    }

    /// The kernel's rate for the flow as an event leaves it.
    fn eager(f: &Cubic) -> u64 {
        let s = f.socket_config();
        let v = f.socket_view();
        linux_pacing_rate(&LinuxPacingInput {
            mss: s.mss,
            cwnd: f.state().cwnd,
            ssthresh: f.state().ssthresh,
            packets_out: v.packets_out,
            srtt_us_x8: v.srtt_us_x8,
            ss_ratio_percent: s.pacing_ss_ratio,
            ca_ratio_percent: s.pacing_ca_ratio,
            max_rate: s.max_pacing_rate,
        })
    }

    proptest! {
        #[test]
        fn the_rate_is_always_what_the_last_event_left(
            pacing_status in prop_oneof![Just(PacingStatus::None), Just(PacingStatus::Fq)],
            steps in prop::collection::vec(step(), 1..200),
        ) {
            let mut socket = LinuxSocketConfig::new();
            socket.pacing_status = pacing_status;
            let config = CubicConfig::from_parts(LinuxCubicConfig::new(), socket);
            let mut now = 1_000_000u64;
            let mut f = Cubic::new(config, Instant::from_micros(now)).unwrap();
            let mut model = eager(&f);
            prop_assert_eq!(f.sk_pacing_rate(), model);
            for s in steps {
                let t = Instant::from_micros(now);
                match s {
                    Step::Ack { gap_us, acked, rtt_us } => {
                        now += gap_us;
                        let out = f.socket_view().packets_out;
                        f.ack(Instant::from_micros(now), acked.min(out), rtt_us);
                        model = eager(&f);
                    }
                    Step::Send { more } => {
                        let out = f.socket_view().packets_out;
                        f.transmit(t, out + more);
                    }
                    Step::Loss => { f.loss(t); model = eager(&f); }
                    Step::Ecn => { f.ecn(t); model = eager(&f); }
                    Step::Rto => { f.rto(t, 1); model = eager(&f); }
                    Step::Undo => {
                        // An undo nothing armed is ignored: no event, no new rate.
                        let before = f;
                        f.undo(t);
                        if f != before {
                            model = eager(&f);
                        }
                    }
                    Step::SetCwnd(c) => f.set_cwnd(c),
                    Step::SetSsthresh(c) => f.set_ssthresh(c),
                    Step::ToggleHystart => {
                        let mut c = *f.params().config();
                        c.hystart = !c.hystart;
                        f.set_params(c.validate().unwrap());
                    }
                    Step::SetMss(mss) => {
                        let mut s = *f.socket_config();
                        s.mss = mss;
                        f.set_socket_config(s).unwrap();
                    }
                }
                prop_assert_eq!(f.sk_pacing_rate(), model, "after {:?}", s);
            }
        }
    }
}
