//! Linux-mode CUBIC + HyStart (`LinuxFlow`) on the fake ACK source.
//!
//! Descriptor bits: 0..8 time since the previous descriptor (µs, plus 40), 8..12 segments
//! acknowledged, 12..28 the RTT sample (ms·16, 0 = none), 28..32 the event: 0..=9 an
//! ACK, 10 a loss, 11 an ECN mark, 12 a timeout, 13 an undo, 14 a restart after idle,
//! 15 a re-initialisation.

use crate::registers::{next_descriptor, report_aux, report_cwnd};
use congestion::cubic::LinuxCubicConfig;
use congestion::linux::{LinuxFlow, LinuxSocketConfig};
use congestion::{Instant, Phase};

/// Build the flow, then serve descriptors forever.
pub fn run() -> ! {
    let Ok(params) = LinuxCubicConfig::new().validate() else {
        halt()
    };
    let Ok(mut flow) = LinuxFlow::new(params, LinuxSocketConfig::new(), Instant::ZERO) else {
        halt()
    };
    let mut now_us: u64 = 0;
    let mut in_flight: u32 = 0;
    loop {
        let d = next_descriptor();
        now_us = now_us.wrapping_add(u64::from(40 + (d & 0xff)));
        let now = Instant::from_micros(now_us);
        let acked = (d >> 8) & 0xf;
        let rtt_field = (d >> 12) & 0xffff;
        let rtt_us = (rtt_field != 0).then(|| rtt_field.wrapping_mul(1000) >> 4);
        match d >> 28 {
            0..=9 => {
                in_flight = in_flight.saturating_sub(acked);
                flow.ack(now, acked, rtt_us);
            }
            10 => flow.loss(now),
            11 => flow.ecn(now),
            12 => {
                in_flight = 1;
                flow.rto(now, 1);
            }
            13 => flow.undo(now),
            14 => flow.transmit_start(now),
            _ => flow.init(now),
        }
        // Send what the window allows.
        in_flight = in_flight.max(flow.state().cwnd);
        flow.transmit(now, in_flight);
        report_cwnd(flow.state().cwnd);
        let phase = match congestion::CongestionController::phase(&flow) {
            Phase::SlowStart => 0,
            Phase::ConservativeSlowStart => 1,
            Phase::CongestionAvoidance => 2,
            Phase::Recovery => 3,
        };
        report_aux(flow.pacing_rate() as u32 ^ phase);
    }
}

/// Stop here (a configuration the library refused; cannot happen with the defaults).
fn halt() -> ! {
    report_aux(u32::MAX);
    loop {
        core::hint::spin_loop();
    }
}
