//! The classic driver's slow start: standard, Linux HyStart in bytes or HyStart++ (RFC
//! 9406), growing cwnd until ssthresh or a detector's exit.

use super::{ClassicState, Detector};
use crate::controller::{AckEvent, Phase};
use crate::cubic::{LinuxCubicParams, div_floor};
use crate::hystart::{HystartExit, HystartInput, HystartPpVerdict, PacingStatus};
use crate::observe::ExitDetector;
use crate::rfc::adjustment::WindowAdjustment;
use crate::rfc::config::RfcParams;
use crate::rfc::undo::UndoStorage;
use crate::time::{Duration, Instant};
use core::num::NonZeroU64;

// `sk_gso_max_size` assumed for Linux HyStart in bytes mode (unused without a rate).
use crate::pacing::GSO_MAX_SIZE;

impl<W: WindowAdjustment, U: UndoStorage<W>> ClassicState<W, U> {
    /// Grows cwnd by `bytes` in slow start, stopping at ssthresh.
    pub(super) fn slow_start_grow(&mut self, bytes: u64) {
        // RFC 5681 §3.1: slow start while cwnd < ssthresh; the excess is not carried over
        self.cwnd = self
            .cwnd
            .saturating_add(bytes)
            .min(self.ssthresh.max(self.cwnd));
        if self.cwnd >= self.ssthresh {
            self.phase = Phase::CongestionAvoidance;
            self.detector_active = false;
        }
    }

    /// `detector` ended slow start: ssthresh = cwnd, congestion avoidance.
    pub(super) fn exit_slow_start(&mut self, detector: ExitDetector) {
        self.slow_start_detector = Some(detector);
        // RFC 9406 §4.2: enter congestion avoidance by setting ssthresh = cwnd
        self.ssthresh = self.cwnd;
        self.growth.on_slow_start_exit(self.cwnd);
        self.phase = Phase::CongestionAvoidance;
        self.detector_active = false;
    }

    // 64-bit, the fields in registers: Linux HyStart takes slow_start_ack (out of
    // line), so that the others save no registers.
    #[cfg(target_pointer_width = "64")]
    #[inline(never)]
    pub(super) fn slow_start_fields(&mut self, p: &RfcParams, acked: u64, rtt: Option<Duration>) {
        if self.detector_active {
            let Detector::PlusPlus(h) = &mut self.detector else {
                let (now, limited) = (self.last_activity, self.last_ack_cwnd_limited);
                return self.slow_start_ack(p, now, &AckEvent::new(acked, 0, rtt), limited);
            };
            let acked_pn = self.acked_below.saturating_sub(1);
            if h.on_round_check(acked_pn, self.largest_sent)
                == HystartPpVerdict::ExitToCongestionAvoidance
            {
                return self.exit_slow_start(ExitDetector::HystartPlusPlus);
            }
            if self.last_ack_cwnd_limited {
                let grow = h.growth_bytes(acked, u64::from(self.mss.get()), p.paced());
                self.slow_start_grow(grow);
            }
            self.hystart_pp_sample(rtt);
        } else if self.last_ack_cwnd_limited {
            self.slow_start_grow(acked);
        }
    }

    /// One ACK in slow start or CSS: the detector's test (HyStart++'s round, Linux
    /// HyStart's delay), the growth (one for every kind: 32-bit flash), HyStart++'s RTT.
    #[cfg_attr(target_pointer_width = "64", inline(never))]
    pub(super) fn slow_start_ack(
        &mut self,
        p: &RfcParams,
        now: Instant,
        ack: &AckEvent,
        cwnd_limited: bool,
    ) {
        let paced = p.paced();
        let active = self.detector_active;
        if active {
            let exit = match &mut self.detector {
                Detector::PlusPlus(h) => {
                    // 0 while no packet number was acknowledged, as before any round ends.
                    let acked_pn = self.acked_below.saturating_sub(1);
                    match h.on_round_check(acked_pn, self.largest_sent) {
                        HystartPpVerdict::ExitToCongestionAvoidance => {
                            Some(ExitDetector::HystartPlusPlus)
                        }
                        _ => None,
                    }
                }
                Detector::Linux(h) => match ack.rtt {
                    Some(rtt) => {
                        let input = HystartInput {
                            now_us: now.micros32(),
                            delay_us: u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX),
                            delay_min_us: self.min_rtt_us,
                            // Truncation to the kernel's 32-bit sequence space, on purpose.
                            snd_una: self.acked_below.saturating_sub(1) as u32,
                            snd_nxt: self.largest_sent as u32,
                            cwnd: u32::try_from(div_floor(self.cwnd, NonZeroU64::from(self.mss)))
                                .unwrap_or(u32::MAX),
                            pacing_rate: 0,
                            pacing_status: if paced {
                                PacingStatus::Fq
                            } else {
                                PacingStatus::None
                            },
                            gso_max_size: GSO_MAX_SIZE,
                        };
                        // Linux hystart_update(): ssthresh = cwnd when HyStart fires
                        h.on_delay_sample(&LinuxCubicParams::DEFAULT, &input)
                            .map(|exit| match exit {
                                HystartExit::AckTrain => ExitDetector::HystartAckTrain,
                                HystartExit::DelayIncrease => ExitDetector::HystartDelay,
                            })
                    }
                    None => None,
                },
                Detector::Standard => None,
            };
            if let Some(detector) = exit {
                self.exit_slow_start(detector);
                return;
            }
        }
        if cwnd_limited {
            let grow = match (&self.detector, active) {
                (Detector::PlusPlus(h), true) => {
                    h.growth_bytes(ack.acked, self.mss64().get(), paced)
                }
                // RFC 9002 §7.3.1: cwnd increases by the number of bytes acknowledged
                _ => ack.acked,
            };
            self.slow_start_grow(grow);
        }
        self.hystart_pp_sample(ack.rtt);
    }

    /// HyStart++'s RTT sample, while slow start goes on (the growth may have ended it).
    #[inline(always)]
    fn hystart_pp_sample(&mut self, rtt: Option<Duration>) {
        if let (Some(rtt), true, Detector::PlusPlus(h)) =
            (rtt, self.detector_active, &mut self.detector)
        {
            match h.on_rtt_sample(rtt) {
                HystartPpVerdict::EnterCss => self.phase = Phase::ConservativeSlowStart,
                HystartPpVerdict::ResumeSlowStart => self.phase = Phase::SlowStart,
                HystartPpVerdict::ExitToCongestionAvoidance => {
                    self.exit_slow_start(ExitDetector::HystartPlusPlus)
                }
                HystartPpVerdict::Continue => {}
            }
        }
    }
}
