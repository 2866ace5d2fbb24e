//! Fuzz body for Linux mode: a `LinuxFlow` (CUBIC + HyStart + socket glue) under any
//! event sequence.

use super::bytes::Bytes;
use super::phase::{Kind, legal};
use congestion::cubic::{HystartDetect, LinuxCubicConfig};
use congestion::hystart::PacingStatus;
use congestion::linux::{LinuxFlow, LinuxFlowConfig, LinuxSocketConfig};
use congestion::recorder::FlightRecorder;
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, SentEvent,
};

/// Builds a configuration from the first bytes; `None` when it is (rightly) refused.
fn flow_from(b: &mut Bytes<'_>, now: Instant) -> Option<(LinuxFlow, u32)> {
    let mut c = LinuxCubicConfig::new();
    c.beta = u32::from(b.u16()) % 1100; // includes refused values >= 1024 and 0
    c.bic_scale = u32::from(b.u16());
    let flags = b.u8();
    c.fast_convergence = flags & 1 != 0;
    c.tcp_friendliness = flags & 2 != 0;
    c.hystart = flags & 4 != 0;
    c.hystart_detect = HystartDetect::from_bits((flags >> 3) & 3).ok()?;
    c.hystart_low_window = u32::from(b.u8());
    c.initial_ssthresh = u32::from(b.u8());
    let mut s = LinuxSocketConfig::new();
    s.cwnd_clamp = match b.u8() % 4 {
        0 => u32::MAX,
        1 => b.u32(),
        _ => u32::from(b.u16()),
    };
    s.init_cwnd = u32::from(b.u8());
    s.initial_srtt_us = u32::from(b.u16()) * 8;
    s.pacing_status =
        [PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq][usize::from(b.u8() % 3)];
    s.mss = u32::from(b.u16());
    let flow = LinuxFlow::new(LinuxFlowConfig::from_parts(c, s), now).ok()?;
    Some((flow, s.cwnd_clamp))
}

/// Runs one fuzz input. Panics (with the flight recorder's story) if an invariant breaks.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mut now_us: u64 = 1 << 40;
    let Some((flow, clamp)) = flow_from(&mut b, Instant::from_micros(now_us)) else {
        return;
    };
    let mut rec: FlightRecorder<LinuxFlow, 32> = FlightRecorder::new(flow);
    let mut in_flight = 0u64;
    while !b.is_empty() {
        now_us = now_us.saturating_add_signed(b.time_step_us());
        let now = Instant::from_micros(now_us);
        let before = rec.phase();
        let kind = match b.u8() % 10 {
            0..=3 => {
                let acked = b.amount(1);
                let rtt = b.rtt_us().map(Duration::from_micros);
                rec.on_ack(
                    now,
                    &AckEvent {
                        acked,
                        rtt,
                        ..AckEvent::default()
                    },
                );
                in_flight = in_flight.saturating_sub(acked);
                Kind::Ack
            }
            4 | 5 => {
                in_flight = b.amount(1);
                rec.on_sent(now, &SentEvent::new(in_flight, 0));
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
                rec.on_transmit_start(now);
                Kind::TransmitStart
            }
        };
        check(&rec, clamp, kind, before);
    }
}

fn congestion(rec: &mut FlightRecorder<LinuxFlow, 32>, now: Instant, e: CongestionEvent) -> Kind {
    rec.on_congestion_event(now, e);
    Kind::Congestion(e)
}

/// The invariants of Linux mode after every event.
fn check(rec: &FlightRecorder<LinuxFlow, 32>, clamp: u32, kind: Kind, before: congestion::Phase) {
    let f = rec.inner();
    let s = f.state();
    let fail = |what: &str| -> ! { panic!("invariant broken: {what}\n{rec:?}") };
    if s.cwnd < 1 || s.cwnd > clamp {
        fail("cwnd within [1, clamp]");
    }
    if s.ssthresh < 1 {
        fail("ssthresh at least 1");
    }
    if s.cubic.cnt == 1 {
        fail("CUBIC cnt is 0 (not computed) or at least 2");
    }
    if !legal(kind, before, rec.phase()) {
        fail(&format!(
            "phase {before:?} -> {:?} on {kind:?}",
            rec.phase()
        ));
    }
    if f.socket_view().srtt_us_x8 == 0 && f.socket_config().initial_srtt_us != 0 {
        fail("srtt never returns to zero");
    }
}
