//! Fuzz body for RFC mode: an `RfcFlow` (RFC 9438 CUBIC in bytes with standard slow
//! start, Linux HyStart or HyStart++) under any event sequence, MSS changes included.

use super::bytes::Bytes;
use super::phase::{Kind, legal};
use congestion::recorder::FlightRecorder;
use congestion::rfc::{RfcFlow, RfcFlowConfig, SlowStartKind};
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, SentEvent,
};

/// Builds a configuration from the first bytes; `None` when it is (rightly) refused.
fn flow_from(b: &mut Bytes<'_>, now: Instant) -> Option<RfcFlow> {
    let mut c = RfcFlowConfig::new();
    c.cubic.mss_bytes = u64::from(b.u16());
    c.cubic.beta_permille = u32::from(b.u16()) % 1100;
    c.cubic.ecn_beta_permille = u32::from(b.u16()) % 1100;
    c.cubic.c_permille = b.u32() % 200_000;
    let flags = b.u8();
    c.cubic.fast_convergence = flags & 1 != 0;
    c.cubic.reno_friendly = flags & 2 != 0;
    c.paced = flags & 4 != 0;
    c.slow_start = [
        SlowStartKind::Standard,
        SlowStartKind::LinuxHystart,
        SlowStartKind::HystartPlusPlus,
    ][usize::from((flags >> 3) % 3)];
    if flags & 0x40 != 0 {
        c.initial_window_bytes = Some(u64::from(b.u32()));
    }
    RfcFlow::new(c, now).ok()
}

/// Runs one fuzz input. Panics (with the flight recorder's story) if an invariant breaks.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mut now_us: u64 = 1 << 40;
    let Some(flow) = flow_from(&mut b, Instant::from_micros(now_us)) else {
        return;
    };
    let mut rec: FlightRecorder<RfcFlow, 32> = FlightRecorder::new(flow);
    let (mut largest_sent, mut largest_acked) = (0u64, 0u64);
    while !b.is_empty() {
        now_us = now_us.saturating_add_signed(b.time_step_us());
        let now = Instant::from_micros(now_us);
        let mss = rec.inner().params().mss();
        let before = rec.phase();
        let kind = match b.u8() % 11 {
            0..=3 => {
                largest_acked = largest_acked.saturating_add(u64::from(b.u8() % 8));
                let ack = AckEvent {
                    acked: b.amount(mss),
                    rtt: b.rtt_us().map(Duration::from_micros),
                    largest_acked,
                    app_limited: b.u8() % 4 == 0,
                };
                rec.on_ack(now, &ack);
                Kind::Ack
            }
            4 | 5 => {
                largest_sent = largest_sent.saturating_add(u64::from(b.u8() % 16));
                let sent = SentEvent {
                    in_flight_after: b.amount(mss),
                    largest_sent,
                };
                rec.on_sent(now, &sent);
                Kind::Sent
            }
            6 => congestion(&mut rec, now, CongestionEvent::Loss),
            7 => {
                let e = [
                    CongestionEvent::Ecn,
                    CongestionEvent::RetransmissionTimeout,
                    CongestionEvent::PersistentCongestion,
                ];
                congestion(&mut rec, now, e[usize::from(b.u8() % 3)])
            }
            8 => {
                rec.on_spurious_congestion(now);
                Kind::Undo
            }
            9 => {
                // A new MSS (PMTU change): invalid ones are refused and change nothing.
                let old = *rec.inner();
                if rec.inner_mut().set_mss(u64::from(b.u16())).is_err() && *rec.inner() != old {
                    panic!("a refused MSS changed the flow\n{rec:?}");
                }
                Kind::Sent
            }
            _ => {
                rec.on_transmit_start(now);
                Kind::TransmitStart
            }
        };
        check(&rec, kind, before);
    }
}

fn congestion(rec: &mut FlightRecorder<RfcFlow, 32>, now: Instant, e: CongestionEvent) -> Kind {
    rec.on_congestion_event(now, e);
    Kind::Congestion(e)
}

/// The invariants of RFC mode after every event.
fn check(rec: &FlightRecorder<RfcFlow, 32>, kind: Kind, before: congestion::Phase) {
    let f = rec.inner();
    let mss = f.params().mss();
    let fail = |what: &str| -> ! { panic!("invariant broken: {what}\n{rec:?}") };
    // RFC 9438 §4.6/§4.8: cwnd never below 1 MSS (ECN and RTO floors), ssthresh never
    // below 2 MSS (RFC 9002 kMinimumWindow).
    if f.cwnd() < mss {
        fail("cwnd at least 1 MSS");
    }
    if f.ssthresh().unwrap_or(u64::MAX) < 2 * mss {
        fail("ssthresh at least 2 MSS");
    }
    // The steady-ACK path of RfcFlow relies on it: congestion avoidance only at or above
    // ssthresh (RFC 5681 §3.1: slow start while cwnd < ssthresh).
    if f.phase() == congestion::Phase::CongestionAvoidance
        && f.cwnd() < f.ssthresh().unwrap_or(u64::MAX)
    {
        fail("congestion avoidance below ssthresh");
    }
    // RFC 9438 §4.2: K is chosen so that the curve starts at the stage's own window.
    let cubic = f.cubic();
    if cubic.epoch_start.is_some() && cubic.w_cubic(f.params(), 0) < cubic.cwnd_epoch_bytes {
        fail("W_cubic(0) below cwnd_epoch: the curve starts under the window");
    }
    let past_recovery_end = f.recovery_end().is_some_and(|end| f.largest_acked() > end);
    if kind == Kind::Ack && past_recovery_end {
        fail("still in recovery after an ACK beyond the recovery's end");
    }
    if kind == Kind::Undo && before != congestion::Phase::Recovery && past_recovery_end {
        fail("an undo re-entered a recovery that had already ended");
    }
    let legal_phase = legal(kind, before, f.phase());
    if !legal_phase {
        fail(&format!("phase {before:?} -> {:?} on {kind:?}", f.phase()));
    }
}
