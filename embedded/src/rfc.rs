//! RFC-mode CUBIC + HyStart++ (`Cubic`, bytes) on the fake ACK source, through the
//! `CongestionController` trait a QUIC stack uses.
//!
//! Descriptor bits as in `linux.rs`: 0..8 time step, 8..12 packets acknowledged (for a
//! loss: how far past the last acknowledged packet the lost one is), 12..28 the RTT
//! sample, 28..32 the event: 0..=9 an ACK, 10 the loss of one packet (named by its
//! packet number, so the flow's recovery period decides whether it reduces), 11 a
//! CE-count rise on the last ACK, 12 persistent congestion, 13 a spurious-loss undo,
//! 14 a restart after idle, 15 an application-limited ACK.

use crate::registers::{next_descriptor, report_aux, report_cwnd};
use congestion::cubic::RfcCubic;
use congestion::cubic::div_rem_floor;
use congestion::rfc::{Classic, CubicConfig, RfcParams};
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, SentEvent,
};
use core::num::NonZeroU64;

/// Packet size, bytes.
const MSS: u64 = 1200;
const MSS_NON_ZERO: NonZeroU64 = NonZeroU64::new(MSS).unwrap();

/// Build the flow, then serve descriptors forever.
pub fn run() -> ! {
    // The settings, validated at compile time and kept once in flash: the flow holds
    // only their address.
    static PARAMS: RfcParams = {
        let mut config = CubicConfig::new();
        config.cubic.mss_bytes = MSS;
        match RfcParams::new(&config) {
            Ok(p) => p,
            Err(_) => panic!("invalid RFC-mode settings"),
        }
    };
    let mut built = Classic::<RfcCubic, _>::with_params(&PARAMS, Instant::ZERO);
    let flow = &mut built;
    let mut now_us: u64 = 0;
    let mut in_flight: u64 = 0;
    let mut largest_sent: u64 = 0;
    let mut largest_acked: u64 = 0;
    loop {
        let d = next_descriptor();
        now_us = now_us.wrapping_add(u64::from(40 + (d & 0xff)));
        let now = Instant::from_micros(now_us);
        let packets = u64::from((d >> 8) & 0xf);
        let rtt_field = u64::from((d >> 12) & 0xffff);
        let rtt = (rtt_field != 0).then(|| Duration::from_micros(rtt_field * 1000 / 16));
        match d >> 28 {
            event @ (0..=9 | 15) => {
                let acked = (packets * MSS).min(in_flight);
                in_flight -= acked;
                largest_acked = largest_acked.wrapping_add(packets);
                let ack = AckEvent::new(acked, largest_acked, rtt).with_app_limited(event == 15);
                flow.on_ack(now, &ack);
            }
            10 => {
                let lost = MSS.min(in_flight);
                in_flight -= lost;
                let pn = largest_acked.wrapping_add(packets).wrapping_add(1);
                flow.on_loss(now, &LossEvent::packet(lost, pn));
            }
            11 => flow.on_ecn(now, &EcnEvent::new(1, largest_acked)),
            12 => {
                let lost = LossEvent::episode(in_flight).with_persistent_congestion(true);
                flow.on_loss(now, &lost);
                in_flight = 0;
            }
            13 => flow.on_spurious_congestion(now),
            _ => flow.on_transmit_start(now),
        }
        // Fill the window.
        let cwnd = flow.cwnd();
        if cwnd > in_flight {
            // Packets to send, rounded up. On a 32-bit core `u64::div_ceil` would link the
            // compiler's 64-bit division routine (about 930 bytes here); the library's
            // `div_rem_floor` does the same with the core's 32-bit divide.
            let (whole, part) = div_rem_floor(cwnd - in_flight, MSS_NON_ZERO);
            let packets = whole + u64::from(part != 0);
            largest_sent = largest_sent.wrapping_add(packets);
            in_flight = cwnd;
            flow.on_sent(now, &SentEvent::new(in_flight, largest_sent));
        }
        report_cwnd(flow.cwnd() as u32);
        let ssthresh = flow.ssthresh().unwrap_or(u64::MAX);
        report_aux(ssthresh as u32 ^ flow.phase() as u32);
    }
}
