//! Property tests of the send path: invariants that must hold for every input, across
//! rates from 1 bit/s to 1 Tbit/s and RTTs from 1 µs to an hour. Tests run with
//! overflow checks on, so any unintended overflow fails them.

use congestion::hystart::PacingStatus;
use congestion::pacing::{
    BytesPacingInput, EdtPacer, MinRttFilter, PacingRateConfig, Rate, SendContext, SendPath,
    SendPathConfig, SendVerdict, TsoInput, TsqBudget, TsqLimitInput, pacing_rate_bytes,
    tso_autosize_bytes, tso_segs, tsq_limit_bytes,
};
use congestion::{
    AckEvent, CongestionController, EcnEvent, Instant, LossEvent, Phase, SentEvent, WindowUnit,
};
use proptest::prelude::*;

const TBIT: u64 = 1_000_000_000_000;
const HOUR_US: u32 = 3_600_000_000;

fn any_rate() -> impl Strategy<Value = Rate> {
    (1..=TBIT).prop_map(Rate::from_bits_per_second)
}

proptest! {
    #[test]
    fn departure_times_never_go_backwards_and_never_precede_now(
        sends in prop::collection::vec(
            (0u64..5_000_000, 1u64..200_000, 1u32..64, any_rate(), any::<bool>()),
            1..60,
        )
    ) {
        let mut pacer = EdtPacer::new();
        let mut now_ns = 0u64;
        let mut last = 0u64;
        for (dt, len, segs, rate, paced) in sends {
            now_ns += dt;
            let d = pacer.on_send(now_ns, len, segs, rate, paced);
            prop_assert!(d >= last, "departure went back: {d} < {last}");
            prop_assert!(d >= now_ns);
            prop_assert!(pacer.next_departure_ns() >= d);
            last = d;
        }
    }

    #[test]
    fn pacing_spacing_is_len_over_rate_minus_at_most_half(
        rate in any_rate(), len in 1u64..(1 << 31), late in 0u64..u64::MAX / 4,
    ) {
        let mut pacer = EdtPacer::new();
        pacer.on_send(0, 15_000, 10, Rate::UNLIMITED, true);
        let d = pacer.on_send(late, len, 1, rate, true);
        let gap = pacer.next_departure_ns() - d;
        // Reference in u128 (tests only): len * 8e9 / bits.
        let full = (len as u128 * 8_000_000_000 / rate.as_bits_per_second() as u128) as u64;
        prop_assert!(gap <= full && gap >= full - full / 2, "gap {gap}, full {full}");
    }

    #[test]
    fn queued_bytes_stay_between_zero_and_what_was_enqueued(
        ops in prop::collection::vec((any::<bool>(), 0u64..200_000, 0u64..300_000), 1..80)
    ) {
        let mut b = TsqBudget::new();
        let (mut enqueued, mut completed) = (0u64, 0u64);
        for (is_enqueue, bytes, limit) in ops {
            if is_enqueue {
                if b.check(limit, false) {
                    b.on_enqueue(bytes);
                    enqueued += bytes;
                } else {
                    prop_assert!(b.queued_bytes() > limit);
                    prop_assert!(b.is_throttled());
                }
            } else {
                let reopened = b.on_tx_completion(bytes);
                completed += bytes;
                prop_assert!(!reopened || !b.is_throttled());
            }
            // Never above what was enqueued; never below enqueued - completed (an
            // over-completion saturates at zero instead of going negative).
            prop_assert!(b.queued_bytes() <= enqueued);
            prop_assert!(b.queued_bytes() >= enqueued.saturating_sub(completed));
        }
    }

    #[test]
    fn tso_segments_stay_within_their_bounds(
        rate in any_rate(), min_rtt in 1u32..=HOUR_US, gso_max_size in 1u32..=(1 << 20),
        gso_max_segs in 1u32..=65_535, min_tso in 1u32..=64, mss in 1u32..=9_000,
    ) {
        let i = TsoInput {
            pacing_rate: rate, pacing_shift: 10, min_rtt_us: min_rtt, tso_rtt_log: 9,
            gso_max_size, gso_max_segs, min_tso_segs: min_tso, mss,
        };
        let bytes = tso_autosize_bytes(&i);
        let segs = tso_segs(&i);
        prop_assert!(bytes <= gso_max_size);
        prop_assert!(segs <= gso_max_segs);
        prop_assert!(segs >= min_tso.min(gso_max_segs));
        if segs > min_tso {
            prop_assert!(u64::from(segs) * u64::from(mss) <= u64::from(gso_max_size));
        }
    }

    #[test]
    fn tsq_limits_never_overflow_and_respect_the_cap(
        rate in any_rate(), truesize in any::<u32>(), cap in 1u32.., paced in any::<bool>(),
        retransmit in any::<bool>(),
    ) {
        let i = TsqLimitInput {
            pacing_rate: rate, pacing_shift: 10, truesize_bytes: truesize, paced,
            limit_output_bytes: cap, retransmit,
        };
        let l = tsq_limit_bytes(&i);
        let base = (2 * u64::from(truesize)).max(rate.as_bytes_per_second() >> 10);
        let base = if paced { base } else { base.min(u64::from(cap)) };
        prop_assert_eq!(l, if retransmit { base * 2 } else { base });
    }

    #[test]
    fn the_bytes_mode_rate_matches_a_wide_reference_or_saturates(
        cwnd in any::<u64>(), flight in any::<u64>(), ssthresh in any::<u64>(),
        srtt in 1u64..=u64::from(HOUR_US),
    ) {
        let Ok(p) = PacingRateConfig::new().validate() else { unreachable!() };
        let got = pacing_rate_bytes(&p, &BytesPacingInput {
            cwnd_bytes: cwnd, ssthresh_bytes: ssthresh, in_flight_bytes: flight, srtt_us: srtt,
        });
        let ratio: u128 = if cwnd < ssthresh / 2 { 200 } else { 120 };
        let want = u128::from(cwnd.max(flight)) * ratio * 10_000 / u128::from(srtt);
        let want = Rate::from_bytes_per_second(u64::try_from(want).unwrap_or(u64::MAX));
        prop_assert_eq!(got, want);
    }

    #[test]
    fn the_min_rtt_filter_lies_between_the_overall_minimum_and_the_last_sample(
        samples in prop::collection::vec((0u64..400_000_000_000, 0u32..=HOUR_US), 1..50)
    ) {
        let mut f = MinRttFilter::new();
        let mut now_us = 0u64;
        let mut overall = u32::MAX;
        for (dt, rtt) in samples {
            now_us += dt;
            let m = f.update(Instant::from_micros(now_us), rtt, 300_000);
            overall = overall.min(rtt.max(1));
            prop_assert!(m <= rtt.max(1));
            prop_assert!(m >= overall);
        }
    }

    #[test]
    fn the_send_path_bursts_fit_window_tso_and_gso_limits(
        cwnd in 0u64..1_000_000, in_flight in 0u64..1_000_000, rate in any_rate(),
        mss in 0u32..9_000, status in 0u8..3, bytes_mode in any::<bool>(),
        rtt_us in 1u32..=HOUR_US, queued in prop::collection::vec(0u32..100_000, 0..8),
    ) {
        let mut c = SendPathConfig::new();
        c.pacing_status = [PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq][status as usize];
        let Ok(params) = c.validate() else { unreachable!() };
        let mut path = SendPath::new(params);
        let now = Instant::from_micros(1_000);
        path.on_rtt_sample(now, congestion::Duration::from_micros(u64::from(rtt_us)));
        for q in queued {
            path.on_send(now, q, 1, rate);
        }
        let unit = if bytes_mode { WindowUnit::Bytes } else { WindowUnit::Segments };
        let cc = Fixed(unit, cwnd);
        let ctx = SendContext {
            now, in_flight, mss, pacing_rate: rate, retransmit: false,
            rtx_queue_at_most_one: false,
        };
        match path.poll(&cc, &ctx) {
            SendVerdict::Send { segments } => {
                prop_assert!(segments >= 1);
                prop_assert!(segments <= path.tso_segs(rate, mss));
                prop_assert!(in_flight < cwnd);
                if !bytes_mode {
                    prop_assert!(u64::from(segments) <= cwnd - in_flight);
                }
            }
            SendVerdict::WaitForAck => prop_assert!(in_flight >= cwnd),
            SendVerdict::WaitUntil { departure_ns } => {
                prop_assert!(departure_ns > now.as_nanos());
                prop_assert_eq!(status, 1);
            }
            SendVerdict::WaitForTxCompletion => prop_assert!(path.tsq().is_throttled()),
        }
    }
}

/// A fixed window.
struct Fixed(WindowUnit, u64);

impl CongestionController for Fixed {
    fn unit(&self) -> WindowUnit {
        self.0
    }
    fn on_sent(&mut self, _: Instant, _: &SentEvent) {}
    fn on_ack(&mut self, _: Instant, _: &AckEvent) {}
    fn on_loss(&mut self, _: Instant, _: &LossEvent) {}
    fn on_ecn(&mut self, _: Instant, _: &EcnEvent) {}
    fn on_retransmission_timeout(&mut self, _: Instant) {}
    fn on_discarded(&mut self, _: Instant, _: u64) {}
    fn on_spurious_congestion(&mut self, _: Instant) {}
    fn on_transmit_start(&mut self, _: Instant) {}
    fn cwnd(&self) -> u64 {
        self.1
    }
    fn ssthresh(&self) -> Option<u64> {
        None
    }
    fn phase(&self) -> Phase {
        Phase::CongestionAvoidance
    }
    fn in_flight(&self) -> u64 {
        0
    }
    fn pacing_rate(&self) -> Rate {
        Rate::UNLIMITED
    }
    fn mss_bytes(&self) -> u64 {
        1
    }
    fn send_quantum_bytes(&self) -> u64 {
        1
    }
}
