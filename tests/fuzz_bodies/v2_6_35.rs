//! Fuzz body for the Linux 2.6.35 profile: a `Linux2635Flow` under any event sequence
//! and any configuration the first bytes describe.

use super::bytes::Bytes;
use super::phase::{Kind, legal};
use congestion::cubic::HystartDetect;
use congestion::linux::CaState;
use congestion::recorder::FlightRecorder;
use congestion::v2_6_35::{Linux2635Config, Linux2635Flow};
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase, SentEvent,
};

/// Builds a configuration from the first bytes; `None` when it is (rightly) refused.
fn flow_from(b: &mut Bytes<'_>, now: Instant) -> Option<Linux2635Flow> {
    let mut c = Linux2635Config::new();
    c.beta = u32::from(b.u16()) % 1100; // includes refused values >= 1024 and 0
    c.bic_scale = u32::from(b.u16());
    let flags = b.u8();
    c.fast_convergence = flags & 1 != 0;
    c.tcp_friendliness = flags & 2 != 0;
    c.hystart = flags & 4 != 0;
    c.hystart_detect = HystartDetect::from_bits((flags >> 3) & 3).ok()?;
    c.gso = flags & 0x20 != 0;
    c.hz = [100, 250, 1000, 300][usize::from(flags >> 6)]; // 300 is refused
    c.hystart_low_window = u32::from(b.u8());
    c.initial_ssthresh = u32::from(b.u8());
    c.cwnd_clamp = match b.u8() % 4 {
        0 => u32::MAX,
        1 => b.u32(),
        _ => u32::from(b.u16()),
    };
    c.init_cwnd = u32::from(b.u8());
    c.mss = u32::from(b.u16());
    c.reordering = u32::from(b.u8() % 8);
    c.iss = b.u32();
    Linux2635Flow::new(c, now).ok()
}

/// Runs one fuzz input. Panics (with the flight recorder's story) if an invariant breaks.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    // Start near the u32 jiffies wrap at HZ=1000 half the time: the era's HyStart is
    // blind in the upper half of jiffies.
    let mut now_us: u64 = if data.first().is_some_and(|x| x & 1 == 1) {
        ((1u64 << 32) - 6000) * 1000
    } else {
        1 << 40
    };
    let Some(flow) = flow_from(&mut b, Instant::from_micros(now_us)) else {
        return;
    };
    let mut rec: FlightRecorder<Linux2635Flow, 32> = FlightRecorder::new(flow);
    while !b.is_empty() {
        now_us = now_us.saturating_add_signed(b.time_step_us());
        let now = Instant::from_micros(now_us);
        let before = (rec.phase(), rec.inner().ca_state());
        let kind = match b.u8() % 10 {
            0..=3 => {
                let acked = b.amount(1);
                let rtt = b.rtt_us().map(Duration::from_micros);
                let ack = AckEvent {
                    acked,
                    rtt,
                    ..AckEvent::default()
                };
                rec.on_ack(now, &ack);
                Kind::Ack
            }
            4 | 5 => {
                let sent = SentEvent::new(b.amount(1), 0);
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
            _ => {
                let unchanged = *rec.inner();
                rec.on_transmit_start(now);
                if *rec.inner() != unchanged {
                    panic!("on_transmit_start changed a 2.6.35 flow\n{rec:?}");
                }
                Kind::TransmitStart
            }
        };
        check(&rec, kind, before);
    }
}

fn congestion(
    rec: &mut FlightRecorder<Linux2635Flow, 32>,
    now: Instant,
    e: CongestionEvent,
) -> Kind {
    rec.on_congestion_event(now, e);
    Kind::Congestion(e)
}

/// The invariants of the 2.6.35 profile after every event.
fn check(rec: &FlightRecorder<Linux2635Flow, 32>, kind: Kind, before: (Phase, CaState)) {
    let f = rec.inner();
    let s = f.state();
    let v = f.socket_view();
    let fail = |what: &str| -> ! { panic!("invariant broken: {what}\n{rec:?}") };
    if s.cwnd < 1 || s.cwnd > f.clamp() {
        fail("cwnd within [1, clamp]");
    }
    if s.ssthresh < 1 {
        fail("ssthresh at least 1");
    }
    if s.bictcp.sample_cnt > 8 {
        fail("at most 8 HyStart samples per round");
    }
    if f.ca_state() == CaState::Loss && f.phase() != Phase::Recovery {
        fail("Loss is reported as recovery");
    }
    if kind == Kind::Undo && v.undo_marker {
        fail("an undo is used up");
    }
    if kind == Kind::Congestion(CongestionEvent::Loss) && !v.undo_marker {
        fail("a loss arms undo");
    }
    if !matches!(
        f.ca_state(),
        CaState::Open | CaState::Disorder | CaState::Loss
    ) {
        fail("recovery and CWR are left within the event");
    }
    let after = rec.phase();
    // The era's extra edge: a window cut to the flight plus `reordering` (moderation,
    // after a loss or in Disorder) or plus one (CWR) may land below ssthresh.
    let moderated = after == Phase::SlowStart
        && matches!(
            kind,
            Kind::Ack | Kind::Congestion(CongestionEvent::Loss | CongestionEvent::Ecn)
        )
        && s.cwnd <= v.packets_out.saturating_add(f.config().reordering.max(1))
        && (before.1 != CaState::Open || kind != Kind::Ack);
    if !legal(kind, before.0, after) && !moderated {
        fail(&format!("phase {:?} -> {after:?} on {kind:?}", before.0));
    }
}
