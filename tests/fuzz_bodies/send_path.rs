//! Fuzz body for the send path, two ways (the first byte chooses):
//!
//! - the bare [`SendPath`]: pacer, TSQ and TSO driven by arbitrary polls, sends,
//!   enqueues, completions, RTT samples and rates from 1 bit/s to 1 Tbit/s;
//! - a [`PacedFlow`] around a `linux::Cubic` or an `rfc::Cubic`, driven through the trait by
//!   a stack that polls, sends (as told, or not), and reports ACKs, losses, CE marks,
//!   RTOs, discards, undos and restarts. Its checks: the controller inside sees exactly
//!   what a bare twin fed the same calls sees (one call feeds both, nothing twice);
//!   the pacer moves only on `on_sent`, and only when the send added to the flight;
//!   departure times never go backwards; `next_departure` never names a time already
//!   past; the TSQ charge moves only on sends and completions.

use super::bytes::Bytes;
use super::send::Send;
use congestion::hystart::PacingStatus;
use congestion::linux;
use congestion::pacing::{
    Enqueue, NextPacket, PacedFlow, Rate, SendContext, SendPath, SendPathConfig, SendPathParams,
    SendVerdict,
};
use congestion::rfc;
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, SentEvent, WindowUnit,
};

fn path_from(b: &mut Bytes<'_>) -> Option<SendPath> {
    params_from(b).map(SendPath::new)
}

fn params_from(b: &mut Bytes<'_>) -> Option<SendPathParams> {
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
    c.validate().ok()
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

/// Runs one fuzz input: the bare send path, or a paced Linux or RFC flow. Panics if an
/// invariant breaks, naming it and the step.
pub fn run(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    match choice % 4 {
        0 | 1 => run_path(rest),
        2 => {
            let mut b = Bytes::new(rest);
            let Some(path) = params_from(&mut b) else {
                return;
            };
            let mut c = linux::CubicConfig::new();
            c.socket.mss = u32::from(b.u16());
            c.socket.pacing_status = path.config().pacing_status;
            if let Ok(cc) = linux::Cubic::new(c, Instant::ZERO) {
                run_paced(&mut b, cc, path);
            }
        }
        _ => {
            let mut b = Bytes::new(rest);
            let Some(path) = params_from(&mut b) else {
                return;
            };
            let mut c = rfc::CubicConfig::quic(u64::from(b.u16()));
            c.paced = b.u8() & 1 != 0;
            if let Ok(cc) = rfc::Cubic::new(c, Instant::ZERO) {
                run_paced(&mut b, cc, path);
            }
        }
    }
}

/// A `PacedFlow` around `cc`, with a bare twin of `cc` fed the same calls.
fn run_paced<C>(b: &mut Bytes<'_>, cc: C, path: SendPathParams)
where
    C: CongestionController + Copy + PartialEq + core::fmt::Debug,
{
    let mut flow = PacedFlow::new(cc, path);
    let mut twin = cc;
    let mut now_us = 1u64 << 30;
    let mut pn = 0u64;
    let mut last_departure = 0u64;
    let mut queued: Vec<u32> = Vec::new();
    let mut step = 0;
    while !b.is_empty() {
        step += 1;
        now_us = now_us.saturating_add_signed(b.time_step_us());
        let now = Instant::from_micros(now_us);
        let pacer = *flow.send_path().pacer();
        let queued_bytes = flow.send_path().tsq().queued_bytes();
        let departure = flow.last_departure_ns();
        let mss = flow.mss_bytes().max(1);
        let fail = |what: &str, flow: &PacedFlow<C>| -> ! {
            panic!("paced flow invariant broken at step {step}: {what}\n{flow:?}")
        };
        let mut sent_now = false;
        match b.u8() % 12 {
            0..=2 => {
                let next = NextPacket {
                    retransmit: b.u8() & 1 != 0,
                    rtx_queue_at_most_one: b.u8() & 1 != 0,
                };
                let verdict = flow.poll(now, &next);
                if *flow.send_path().pacer() != pacer {
                    fail("poll moved the pacer", &flow);
                }
                let obey = b.u8() % 4 != 0;
                let segments = match verdict {
                    SendVerdict::Send { segments } if obey => u64::from(segments),
                    // A stack that sends anyway, or holds back.
                    _ if !obey => u64::from(b.u8() % 4),
                    _ => 0,
                };
                if segments > 0 {
                    pn = pn.saturating_add(segments);
                    let amount = match flow.unit() {
                        WindowUnit::Segments => segments,
                        WindowUnit::Bytes => segments * mss,
                    };
                    let sent = if b.u8() % 2 == 0 {
                        Send::Stack(SentEvent::new(flow.in_flight().saturating_add(amount), pn))
                    } else {
                        Send::Counted {
                            sent: amount,
                            largest_sent: pn,
                        }
                    };
                    let adds = sent.in_flight_after(flow.in_flight()) > flow.in_flight();
                    sent.apply(&mut flow, now);
                    sent.apply(&mut twin, now);
                    sent_now = true;
                    if adds {
                        if flow.last_departure_ns() < last_departure {
                            fail("departure went backwards", &flow);
                        }
                        if flow.last_departure_ns() < now.as_nanos() {
                            fail("a departure before the send", &flow);
                        }
                        if flow.send_path().pacer().segments_sent() <= pacer.segments_sent()
                            && pacer.segments_sent() != u32::MAX
                        {
                            fail(
                                "a send that added to the flight did not reach the pacer",
                                &flow,
                            );
                        }
                        last_departure = flow.last_departure_ns();
                        queued.push(u32::try_from(segments * mss).unwrap_or(u32::MAX));
                    } else if *flow.send_path().pacer() != pacer
                        || flow.last_departure_ns() != departure
                    {
                        fail("a send that added nothing moved the pacer", &flow);
                    }
                }
            }
            3..=5 => {
                let ack = AckEvent::new(
                    b.amount(if flow.unit() == WindowUnit::Bytes {
                        mss
                    } else {
                        1
                    }),
                    pn.saturating_sub(u64::from(b.u8() % 8)),
                    b.rtt_us().map(Duration::from_micros),
                );
                flow.on_ack(now, &ack);
                twin.on_ack(now, &ack);
                if let Some(rtt) = ack.rtt {
                    let us = u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX);
                    if flow.send_path().min_rtt_us() > us.max(1) && us > 0 {
                        fail("the RTT sample did not reach the min-RTT filter", &flow);
                    }
                }
            }
            6 => {
                let unit = if flow.unit() == WindowUnit::Bytes {
                    mss
                } else {
                    1
                };
                let lost = b.amount(unit);
                let loss = match b.u8() % 4 {
                    0 => LossEvent::episode(lost),
                    1 => LossEvent::packet(lost, pn.saturating_sub(u64::from(b.u8()))),
                    2 => LossEvent::sent_at(lost, now),
                    _ => LossEvent::packet(lost, pn).with_persistent_congestion(true),
                };
                flow.on_loss(now, &loss);
                twin.on_loss(now, &loss);
            }
            7 => {
                let ecn = EcnEvent::new(u64::from(b.u8() % 4), pn);
                flow.on_ecn(now, &ecn);
                twin.on_ecn(now, &ecn);
            }
            8 => {
                let amount = b.amount(1);
                match b.u8() % 4 {
                    0 => {
                        flow.on_retransmission_timeout(now);
                        twin.on_retransmission_timeout(now);
                    }
                    1 => {
                        flow.on_discarded(now, amount);
                        twin.on_discarded(now, amount);
                    }
                    2 => {
                        flow.on_spurious_congestion(now);
                        twin.on_spurious_congestion(now);
                    }
                    _ => {
                        flow.on_transmit_start(now);
                        twin.on_transmit_start(now);
                    }
                }
            }
            9 | 10 => {
                let len = if queued.is_empty() || b.u8() % 8 == 0 {
                    u32::from(b.u16())
                } else {
                    queued.remove(0)
                };
                flow.on_tx_completion(len);
                if flow.send_path().tsq().queued_bytes() > queued_bytes {
                    fail("a completion raised the TSQ charge", &flow);
                }
            }
            _ => {
                if let Some(at) = flow.next_departure(now) {
                    if at <= now {
                        fail("next_departure names a time already past", &flow);
                    }
                    if at.as_nanos() < flow.send_path().pacer().next_departure_ns() {
                        fail("next_departure is before the pacer's", &flow);
                    }
                }
            }
        }
        if *flow.controller() != twin {
            fail(
                "the controller inside differs from a bare twin fed the same calls",
                &flow,
            );
        }
        if !sent_now && *flow.send_path().pacer() != pacer {
            fail("the pacer moved on something else than on_sent", &flow);
        }
        if !sent_now && flow.last_departure_ns() != departure {
            fail(
                "the last departure moved on something else than on_sent",
                &flow,
            );
        }
        let q = flow.send_path().tsq().queued_bytes();
        if q > queued_bytes && !sent_now {
            fail("the TSQ charge grew without a send", &flow);
        }
        if flow.send_quantum_bytes() == 0 && mss > 0 {
            fail("a send quantum of zero", &flow);
        }
    }
}

/// The bare send path.
fn run_path(data: &[u8]) {
    let mut b = Bytes::new(data);
    let Some(mut path) = path_from(&mut b) else {
        return;
    };
    let gso_max_segs = path.params().config().gso_max_segs;
    let Ok(mut flow) = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO) else {
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
