//! Linux-mode CUBIC + HyStart (`Cubic`) and the send path (EDT pacer, TSQ, TSO
//! autosizing) on the fake ACK source.
//!
//! Descriptor bits: 0..8 time since the previous descriptor (µs, plus 40), 8..12 segments
//! acknowledged (for a loss: how far past `snd_una` the lost segment is), 12..28 the RTT
//! sample (ms·16, 0 = none), 28..32 the event: 0..=9 an ACK, 10 the loss of one segment
//! (named by its sequence: the flow's recovery period decides whether it reduces), 11 a
//! CE-count rise on the last ACK, 12 a timeout, 13 an undo, 14 a restart after idle,
//! 15 a re-initialisation.

use crate::registers::{next_descriptor, report_aux, report_cwnd};
use congestion::hystart::PacingStatus;
use congestion::linux::{Cubic, KernelDefaults};
use congestion::pacing::{Rate, SendContext, SendPath, SendPathConfig, SendVerdict};
use congestion::{CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase};

/// Build the flow, then serve descriptors forever.
pub fn run() -> ! {
    // The kernel's defaults, validated at compile time and kept once in flash: the flow
    // holds no copy of them (`KernelDefaults` is a zero-sized handle to that static).
    let mut flow = Cubic::with_params(KernelDefaults, Instant::ZERO);
    let mut send_config = SendPathConfig::new();
    send_config.pacing_status = PacingStatus::Needed;
    let Ok(send_params) = send_config.validate() else {
        crate::halt()
    };
    let mut path = SendPath::new(send_params);
    let mss = flow.socket_config().mss;
    let mut now_us: u64 = 0;
    let mut in_flight: u32 = 0;
    // snd_una as the flow counts it (the initial sequence is 0): for naming a lost segment.
    let mut snd_una: u32 = 0;
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
                snd_una = snd_una.wrapping_add(acked);
                flow.ack(now, acked, rtt_us);
                if let Some(rtt) = rtt_us {
                    path.on_rtt_sample(now, Duration::from_micros(u64::from(rtt)));
                }
                // The NIC reports the acknowledged segments' buffers as sent.
                path.on_tx_completion(acked.wrapping_mul(mss));
            }
            10 => {
                in_flight = in_flight.saturating_sub(1);
                let seq = snd_una.wrapping_add(acked);
                flow.on_loss(now, &LossEvent::packet(1, u64::from(seq)));
            }
            11 => flow.on_ecn(now, &EcnEvent::new(1, u64::from(snd_una))),
            12 => {
                in_flight = 1;
                flow.rto(now, 1);
            }
            13 => flow.undo(now),
            14 => flow.transmit_start(now),
            _ => {
                snd_una = 0;
                flow.init(now);
            }
        }
        // Send what the window, the pacer, TSQ and TSO allow: one burst per descriptor.
        let rate = Rate::from_bytes_per_second(flow.sk_pacing_rate());
        let ctx = SendContext {
            now,
            in_flight: u64::from(in_flight),
            mss,
            pacing_rate: rate,
            retransmit: false,
            rtx_queue_at_most_one: in_flight <= 1,
        };
        let verdict = path.poll(&flow, &ctx);
        if let SendVerdict::Send { segments } = verdict {
            let departure_ns = path.on_send(now, segments.wrapping_mul(mss), segments, rate);
            report_aux(departure_ns as u32);
            in_flight = in_flight.saturating_add(segments);
            flow.transmit(now, in_flight);
        } else if let Some(at) = verdict.retry_at() {
            report_aux(at.as_micros() as u32);
        }
        report_cwnd(flow.state().cwnd);
        let phase = match flow.phase() {
            Phase::SlowStart => 0,
            Phase::ConservativeSlowStart => 1,
            Phase::CongestionAvoidance => 2,
            Phase::Recovery => 3,
        };
        report_aux(flow.sk_pacing_rate() as u32 ^ phase);
    }
}
