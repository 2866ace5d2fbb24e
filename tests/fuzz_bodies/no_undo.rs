//! Fuzz body for RFC mode without an undo snapshot (`ClassicState<W, NoUndo>`, CUBIC or
//! NewReno by the input's first byte) under any event sequence, hostile values
//! included, beside a default state (with its snapshot) on the same shared parameters
//! that is fed every event but the spurious-congestion reports: the lean state ignores
//! those, so the two must agree on everything a stack reads after every event, and
//! neither may panic. Both go through `bind`, as a stack with a table of states drives
//! them. (`tests/rfc_no_undo.rs` checks that undo reports do act on a default state in
//! such streams.)

use super::bytes::Bytes;
use super::classic::config_from;
use super::observed::observed;
use congestion::cubic::RfcCubic;
use congestion::rfc::{
    ClassicState, KeepUndo, NewRenoWindow, NoUndo, RfcParams, UndoStorage, WindowAdjustment,
};
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, SentEvent,
};

/// Runs one fuzz input. Panics, naming the event, if the lean state and the default one
/// that heard no undo reports disagree.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    if b.u8() & 1 == 0 {
        run_with::<RfcCubic>(&mut b);
    } else {
        run_with::<NewRenoWindow>(&mut b);
    }
}

/// One event, read from the input with the hostile values `Bytes` gives.
#[derive(Clone, Copy, Debug)]
enum Event {
    Sent {
        in_flight_after: u64,
        largest_sent: u64,
    },
    SentCounted {
        bytes: u64,
        largest_sent: u64,
    },
    Ack {
        acked: u64,
        largest_acked: u64,
        rtt_us: Option<u64>,
        app_limited: bool,
    },
    Loss {
        lost: u64,
        newest: u64,
        persistent: bool,
    },
    LossSentAt {
        lost: u64,
        sent_at_us: u64,
    },
    LossEpisode {
        lost: u64,
    },
    Ecn {
        ce: u64,
        largest_acked: u64,
    },
    Timeout,
    Discard {
        amount: u64,
    },
    TransmitStart,
    Spurious,
    Mss {
        bytes: u64,
    },
}

/// A packet number: mostly near the last one, sometimes out of nowhere.
fn packet_number(b: &mut Bytes<'_>, near: u64) -> u64 {
    match b.u8() % 8 {
        0 => u64::from(b.u32()),
        1 => u64::MAX - u64::from(b.u8()),
        2 => 0,
        _ => near.saturating_add(u64::from(b.u8() % 8)),
    }
}

fn event(b: &mut Bytes<'_>, mss: u64, pn: u64, now_us: u64) -> Event {
    match b.u8() % 16 {
        0..=2 => Event::Sent {
            in_flight_after: b.amount(mss),
            largest_sent: packet_number(b, pn),
        },
        3 => Event::SentCounted {
            bytes: b.amount(mss),
            largest_sent: packet_number(b, pn),
        },
        4..=7 => Event::Ack {
            acked: b.amount(mss),
            largest_acked: packet_number(b, pn),
            rtt_us: b.rtt_us(),
            app_limited: b.u8() % 4 == 0,
        },
        8 => Event::Loss {
            lost: b.amount(mss),
            newest: packet_number(b, pn),
            persistent: b.u8() % 8 == 0,
        },
        9 => Event::LossSentAt {
            lost: b.amount(mss),
            sent_at_us: now_us.saturating_sub(u64::from(b.u16()) * 16),
        },
        10 => Event::LossEpisode {
            lost: b.amount(mss),
        },
        11 => Event::Ecn {
            ce: u64::from(b.u8() % 4),
            largest_acked: packet_number(b, pn),
        },
        12 => Event::Timeout,
        13 => Event::Discard {
            amount: b.amount(mss),
        },
        14 => match b.u8() % 4 {
            0 => Event::TransmitStart,
            // Refused values included (0, above 65535): the state must refuse them alike.
            1 => Event::Mss {
                bytes: u64::from(b.u16()) + u64::from(b.u8() % 2) * 70_000,
            },
            _ => Event::Spurious,
        },
        _ => Event::Spurious,
    }
}

/// Applies `e` to `s` on the parameters `p` at `now`.
fn apply<W: WindowAdjustment, U: UndoStorage<W>>(
    s: &mut ClassicState<W, U>,
    p: &RfcParams,
    now: Instant,
    e: Event,
) -> bool {
    if let Event::Mss { bytes } = e {
        return s.set_mss(bytes).is_ok();
    }
    let mut f = s.bind(p);
    match e {
        Event::Sent {
            in_flight_after,
            largest_sent,
        } => f.on_sent(now, &SentEvent::new(in_flight_after, largest_sent)),
        Event::SentCounted {
            bytes,
            largest_sent,
        } => f.on_sent_counted(now, bytes, largest_sent),
        Event::Ack {
            acked,
            largest_acked,
            rtt_us,
            app_limited,
        } => f.on_ack(
            now,
            &AckEvent::new(acked, largest_acked, rtt_us.map(Duration::from_micros))
                .with_app_limited(app_limited),
        ),
        Event::Loss {
            lost,
            newest,
            persistent,
        } => f.on_loss(
            now,
            &LossEvent::packet(lost, newest).with_persistent_congestion(persistent),
        ),
        Event::LossSentAt { lost, sent_at_us } => f.on_loss(
            now,
            &LossEvent::sent_at(lost, Instant::from_micros(sent_at_us)),
        ),
        Event::LossEpisode { lost } => f.on_loss(now, &LossEvent::episode(lost)),
        Event::Ecn { ce, largest_acked } => f.on_ecn(now, &EcnEvent::new(ce, largest_acked)),
        Event::Timeout => f.on_retransmission_timeout(now),
        Event::Discard { amount } => f.on_discarded(now, amount),
        Event::TransmitStart => f.on_transmit_start(now),
        Event::Spurious => f.on_spurious_congestion(now),
        Event::Mss { .. } => {}
    }
    true
}

fn run_with<W: WindowAdjustment>(b: &mut Bytes<'_>) {
    let config = config_from(b);
    let Ok(p) = RfcParams::new(&config) else {
        return;
    };
    let start = 1u64 << 40;
    let t0 = Instant::from_micros(start);
    let mut lean = ClassicState::<W, NoUndo>::without_undo(&p, t0);
    let mut keep = ClassicState::<W, KeepUndo<W>>::new(&p, t0);
    let mut now_us = start;
    let mut pn = 0u64;
    let mut step = 0usize;
    while !b.is_empty() {
        now_us = now_us.saturating_add_signed(b.time_step_us());
        let now = Instant::from_micros(now_us);
        let e = event(b, lean.mss_bytes(), pn, now_us);
        if let Event::Sent { largest_sent, .. } | Event::SentCounted { largest_sent, .. } = e {
            pn = pn.max(largest_sent);
        }
        let lean_took = apply(&mut lean, &p, now, e);
        if !matches!(e, Event::Spurious) {
            let keep_took = apply(&mut keep, &p, now, e);
            assert_eq!(
                lean_took, keep_took,
                "step {step}: {e:?}: refused by one only"
            );
        }
        assert_eq!(
            observed(&lean, &p),
            observed(&keep, &p),
            "step {step}: {e:?}: the lean state differs from one that never heard an undo"
        );
        assert_eq!(lean.growth(), keep.growth(), "step {step}: {e:?}");
        step += 1;
    }
}
