//! Fuzz body for the send path: pacer, TSQ and TSO driven by arbitrary polls, sends,
//! enqueues, completions, RTT samples and rates from 1 bit/s to 1 Tbit/s.

use super::bytes::Bytes;
use congestion::hystart::PacingStatus;
use congestion::linux::{LinuxFlow, LinuxFlowConfig};
use congestion::pacing::{Enqueue, Rate, SendContext, SendPath, SendPathConfig, SendVerdict};
use congestion::{Duration, Instant};

fn path_from(b: &mut Bytes<'_>) -> Option<SendPath> {
    let mut c = SendPathConfig::new();
    c.pacing_status =
        [PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq][usize::from(b.u8() % 3)];
    c.pacing_shift = b.u8() % 40; // includes refused shifts (>= 32)
    c.limit_output_bytes = b.u32();
    c.truesize_overhead_bytes = u32::from(b.u16());
    c.gso_max_size = b.u32();
    c.gso_max_segs = u32::from(b.u16());
    c.min_tso_segs = u32::from(b.u8());
    c.tso_rtt_log = b.u8() % 40;
    c.min_rtt_window_ms = b.u32();
    c.validate().ok().map(SendPath::new)
}

fn rate(b: &mut Bytes<'_>) -> Rate {
    match b.u8() % 6 {
        0 => Rate::from_bits_per_second(1),
        1 => Rate::from_bits_per_second(1_000_000_000_000), // 1 Tbit/s
        2 => Rate::from_bits_per_second(0),
        3 => Rate::from_bits_per_second(u64::MAX),
        _ => Rate::from_bits_per_second(u64::from(b.u32()) * 1000),
    }
}

/// Runs one fuzz input. Panics if an invariant breaks, naming it and the step.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let Some(mut path) = path_from(&mut b) else {
        return;
    };
    let gso_max_segs = path.params().config().gso_max_segs;
    let Ok(mut flow) = LinuxFlow::new(LinuxFlowConfig::new(), Instant::ZERO) else {
        return;
    };
    let mut now_us = 1u64 << 30;
    let mut last_departure = 0u64;
    let mut queued: Vec<u32> = Vec::new(); // lengths in the host queues, oldest first
    let (mut enqueued, mut completed) = (0u64, 0u64);
    let overhead = u64::from(path.params().config().truesize_overhead_bytes);
    let mut step = 0;
    while !b.is_empty() {
        step += 1;
        now_us = now_us.saturating_add_signed(b.time_step_us());
        let now = Instant::from_micros(now_us);
        let fail =
            |what: &str| -> ! { panic!("send path invariant broken at step {step}: {what}") };
        match b.u8() % 6 {
            0 | 1 => {
                let ctx = SendContext {
                    now,
                    in_flight: b.amount(1),
                    mss: u32::from(b.u16()),
                    pacing_rate: rate(&mut b),
                    retransmit: b.u8() & 1 != 0,
                    rtx_queue_at_most_one: b.u8() & 1 != 0,
                };
                if let SendVerdict::Send { segments } = path.poll(&flow, &ctx) {
                    if segments == 0 || segments > gso_max_segs.max(1) {
                        fail(&format!("{segments} segments outside 1..={gso_max_segs}"));
                    }
                    let len = segments.saturating_mul(ctx.mss.max(1)).min(1 << 24);
                    let departure = path.on_send(now, len, segments, ctx.pacing_rate);
                    queued.push(len);
                    enqueued += u64::from(len) + overhead;
                    if departure < last_departure {
                        fail("departure went backwards");
                    }
                    last_departure = departure;
                }
            }
            2 => {
                let len = u32::from(b.u16());
                let r = rate(&mut b);
                if let Enqueue::Departs { departure_ns } =
                    path.try_enqueue(now, len, 1, r, b.u8() & 1 != 0, b.u8() & 1 != 0)
                {
                    queued.push(len);
                    enqueued += u64::from(len) + overhead;
                    if departure_ns < last_departure {
                        fail("departure went backwards");
                    }
                    last_departure = departure_ns;
                }
            }
            3 => {
                // Completions arrive for packets actually queued, oldest first, except
                // for a hostile completion of something never queued now and then.
                let len = if queued.is_empty() || b.u8() % 8 == 0 {
                    u32::from(b.u16())
                } else {
                    queued.remove(0)
                };
                path.on_tx_completion(len);
                completed += u64::from(len) + overhead;
            }
            4 => path.on_rtt_sample(now, Duration::from_micros(b.rtt_us().unwrap_or(0))),
            _ => {
                flow.transmit(now, u32::from(b.u16()));
                flow.ack(
                    now,
                    u32::from(b.u8()),
                    b.rtt_us().map(|r| u32::try_from(r).unwrap_or(u32::MAX)),
                );
            }
        }
        let q = path.tsq().queued_bytes();
        if q > enqueued {
            fail(&format!(
                "{q} bytes queued but only {enqueued} ever enqueued"
            ));
        }
        if q < enqueued.saturating_sub(completed) {
            fail(&format!("{q} bytes queued, below enqueued - completed"));
        }
    }
}
