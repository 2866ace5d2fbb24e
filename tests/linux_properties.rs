//! Property tests of Linux mode over random event sequences, hostile values included.
//! Run in debug (overflow checks on): any accidental overflow panics and fails.

use congestion::cubic::{BICTCP_BETA_SCALE, HystartDetect, LinuxCubicConfig};
use congestion::hystart::PacingStatus;
use congestion::linux::{CaState, Cubic, CubicConfig, LinuxSocketConfig, TCP_INFINITE_SSTHRESH};
use congestion::{CongestionController, Instant, Phase};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Ev {
    Ack {
        dt_us: u64,
        acked: u32,
        rtt: Option<u32>,
        in_flight: u32,
    },
    Loss,
    Ecn,
    Rto {
        resent: u32,
    },
    Undo,
    Idle,
    Send {
        n: u32,
    },
    /// Time jumps backwards by this much.
    Back {
        us: u64,
    },
}

fn rtt() -> impl Strategy<Value = Option<u32>> {
    prop_oneof![
        1 => Just(None),
        1 => Just(Some(0)),
        1 => Just(Some(1)),
        1 => Just(Some(u32::MAX)),
        6 => (1_000u32..200_000).prop_map(Some),
    ]
}

fn event() -> impl Strategy<Value = Ev> {
    prop_oneof![
        12 => (prop_oneof![0u64..50_000, Just(3_600_000_000u64), Just(u64::from(u32::MAX) * 1000)],
               prop_oneof![0u32..64, Just(u32::MAX)], rtt(), prop_oneof![0u32..4096, Just(u32::MAX)])
            .prop_map(|(dt_us, acked, rtt, in_flight)| Ev::Ack { dt_us, acked, rtt, in_flight }),
        2 => Just(Ev::Loss),
        1 => Just(Ev::Ecn),
        1 => (0u32..3).prop_map(|resent| Ev::Rto { resent }),
        1 => Just(Ev::Undo),
        1 => Just(Ev::Idle),
        1 => (0u32..100).prop_map(|n| Ev::Send { n }),
        1 => (0u64..10_000_000).prop_map(|us| Ev::Back { us }),
    ]
}

fn config() -> impl Strategy<Value = (LinuxCubicConfig, LinuxSocketConfig)> {
    (
        1u32..1024,
        1u32..400,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0u8..4,
        2u32..u32::MAX,
        2u32..64,
        0u8..3,
    )
        .prop_map(
            |(beta, bic_scale, fc, friendly, hystart, detect, clamp, iw, pacing)| {
                let mut c = LinuxCubicConfig::new();
                c.beta = beta;
                c.bic_scale = bic_scale;
                c.fast_convergence = fc;
                c.tcp_friendliness = friendly;
                c.hystart = hystart;
                c.hystart_detect = HystartDetect::from_bits(detect).unwrap();
                let mut s = LinuxSocketConfig::new();
                s.cwnd_clamp = clamp;
                s.init_cwnd = iw.min(clamp);
                s.initial_srtt_us = 20_000;
                s.pacing_status = [PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq]
                    [usize::from(pacing)];
                (c, s)
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// cwnd stays within [2, clamp] (1 only in the kernel's post-RTO window), ssthresh
    /// after a loss from Open equals max(cwnd * beta / 1024, 2), and nothing panics.
    #[test]
    fn window_stays_in_bounds_and_loss_follows_the_kernel_formula(
        (cubic, socket) in config(),
        events in prop::collection::vec(event(), 1..300),
    ) {
        let mut now = 1_000_000u64;
        let config = CubicConfig::from_parts(cubic, socket);
        let mut f = Cubic::new(config, Instant::from_micros(now)).unwrap();
        f.transmit(Instant::from_micros(now), socket.init_cwnd);
        let mut rto_seen = false;
        for ev in events {
            let t = Instant::from_micros(now);
            match ev {
                Ev::Ack { dt_us, acked, rtt, in_flight } => {
                    now = now.saturating_add(dt_us);
                    let t = Instant::from_micros(now);
                    f.ack(t, acked, rtt);
                    f.transmit(t, in_flight);
                }
                Ev::Loss => {
                    let cwnd = f.state().cwnd;
                    let from_open = f.ca_state() == CaState::Open;
                    f.loss(t);
                    if from_open {
                        // Linux cubictcp_recalc_ssthresh(): max(cwnd * beta / 1024, 2), u32 product.
                        let want = (cwnd.wrapping_mul(cubic.beta) / BICTCP_BETA_SCALE).max(2);
                        prop_assert_eq!(f.state().ssthresh, want);
                        prop_assert_eq!(f.state().cwnd, want);
                    }
                }
                Ev::Ecn => f.ecn(t),
                Ev::Rto { resent } => { f.rto(t, resent); rto_seen = true; }
                Ev::Undo => f.undo(t),
                Ev::Idle => f.transmit_start(t),
                Ev::Send { n } => f.transmit(t, f.socket_view().packets_out.saturating_add(n)),
                Ev::Back { us } => now = now.saturating_sub(us),
            }
            let cwnd = f.state().cwnd;
            prop_assert!(cwnd <= socket.cwnd_clamp, "cwnd {} above clamp {}", cwnd, socket.cwnd_clamp);
            prop_assert!(cwnd >= 1);
            if !rto_seen && socket.init_cwnd >= 2 {
                prop_assert!(cwnd >= 2, "cwnd {} below 2 without an RTO", cwnd);
            }
            prop_assert!(f.state().ssthresh >= 2 || f.state().ssthresh == socket.init_ssthresh);
            prop_assert!(f.state().ssthresh <= TCP_INFINITE_SSTHRESH.max(socket.cwnd_clamp));
            prop_assert!(f.state().cubic.cnt >= 2 || f.state().cubic.cnt == 0);
            // v0.2: Recovery is the loss/ECN recovery period (something sent before the
            // reduction still unacknowledged); after an RTO (state Loss) the flow reports
            // slow start or congestion avoidance by its window.
            let v = f.socket_view();
            let phase_ok = match f.phase() {
                Phase::SlowStart => f.state().cwnd < f.state().ssthresh,
                Phase::CongestionAvoidance => f.state().cwnd >= f.state().ssthresh,
                Phase::Recovery => f.ca_state() != CaState::Loss && v.snd_una != v.snd_nxt,
                Phase::ConservativeSlowStart => false,
            };
            prop_assert!(phase_ok, "phase {:?} with cwnd {} ssthresh {}", f.phase(), cwnd, f.state().ssthresh);
        }
    }

    /// The kernel's cube root stays within its documented error of the true root.
    #[test]
    fn kernel_cube_root_is_close_to_the_true_root(a in 64u64..=u64::MAX) {
        let got = u64::from(congestion::cubic::linux_cubic_root(a));
        // Integer cube root by bisection, as the reference.
        let (mut lo, mut hi) = (0u64, 2_642_246u64);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if mid.checked_mul(mid).and_then(|m| m.checked_mul(mid)).is_some_and(|c| c <= a) { lo = mid } else { hi = mid - 1 }
        }
        // Within 2 % (+2 for rounding at the small end).
        prop_assert!(got.abs_diff(lo) * 50 <= lo + 100, "cbrt({}) = {} vs {}", a, got, lo);
    }
}
