//! `ClassicState<_, NoUndo>`: the same flow as with an undo snapshot, less the undo.
//! Driven through seeded event streams beside the default (`KeepUndo`), it must agree
//! after every event with a default flow that never heard the spurious-congestion
//! reports it was given and ignored.

use congestion::cubic::RfcCubic;
use congestion::rfc::{
    ClassicState, CubicConfig, KeepUndo, NewRenoWindow, NoUndo, RfcParams, SlowStartKind,
    UndoStorage, WindowAdjustment,
};
use congestion::{AckEvent, Duration, EcnEvent, Instant, LossEvent, SentEvent};

/// xorshift64*: a small deterministic generator.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

#[path = "fuzz_bodies/observed.rs"]
mod observed;
use observed::observed;

/// One event of the stream, applied to a flow.
#[derive(Clone, Copy, Debug)]
enum Event {
    Send { bytes: u64 },
    Ack { bytes: u64, rtt_us: u64 },
    Loss { bytes: u64 },
    Ecn,
    Timeout,
    Discard { bytes: u64 },
    Spurious,
}

struct Driver<W: WindowAdjustment, U: UndoStorage<W>> {
    flow: ClassicState<W, U>,
    sent_pn: u64,
    acked_pn: u64,
}

impl<W: WindowAdjustment, U: UndoStorage<W>> Driver<W, U> {
    fn apply(&mut self, p: &RfcParams, now: Instant, e: Event) {
        let f = &mut self.flow;
        match e {
            Event::Send { bytes } => {
                self.sent_pn += 1;
                let in_flight = f.in_flight() + bytes;
                f.on_sent(p, now, &SentEvent::new(in_flight, self.sent_pn));
            }
            Event::Ack { bytes, rtt_us } => {
                self.acked_pn = (self.acked_pn + 1).min(self.sent_pn);
                let rtt = Some(Duration::from_micros(rtt_us));
                f.on_ack(p, now, &AckEvent::new(bytes, self.acked_pn, rtt));
            }
            Event::Loss { bytes } => {
                f.on_loss(p, now, &LossEvent::packet(bytes, self.acked_pn + 1));
            }
            Event::Ecn => f.on_ecn(p, now, &EcnEvent::new(1, self.acked_pn)),
            Event::Timeout => f.on_retransmission_timeout(p, now),
            Event::Discard { bytes } => f.on_discarded(now, bytes),
            Event::Spurious => f.on_spurious_congestion(now),
        }
    }
}

fn event(rng: &mut u64, mss: u64) -> Event {
    let r = next(rng);
    match r % 100 {
        0..=39 => Event::Send {
            bytes: mss * (1 + (r >> 8) % 4),
        },
        40..=84 => Event::Ack {
            bytes: mss * (1 + (r >> 8) % 3),
            rtt_us: 20_000 + (r >> 16) % 5_000,
        },
        85..=89 => Event::Loss { bytes: mss },
        90..=91 => Event::Ecn,
        92 => Event::Timeout,
        93..=95 => Event::Discard { bytes: mss },
        _ => Event::Spurious,
    }
}

/// Runs `steps` events through three flows: one without a snapshot fed every event,
/// one with a snapshot fed every event but the spurious-congestion reports (which the
/// first must ignore, so the two agree after every event), and one with a snapshot fed
/// everything (to count the reports that did undo something). Returns that count.
fn twin<W: WindowAdjustment>(slow_start: SlowStartKind, seed: u64, steps: usize) -> usize {
    let mut config = CubicConfig::quic(1200);
    config.slow_start = slow_start;
    let p = RfcParams::new(&config).expect("valid settings");
    let mss = 1200;
    let fresh_keep = || Driver::<W, KeepUndo<W>> {
        flow: ClassicState::new(&p, Instant::ZERO),
        sent_pn: 0,
        acked_pn: 0,
    };
    let mut keep = fresh_keep();
    let mut undoing = fresh_keep();
    let mut lean: Driver<W, NoUndo> = Driver {
        flow: ClassicState::without_undo(&p, Instant::ZERO),
        sent_pn: 0,
        acked_pn: 0,
    };
    let mut rng = seed;
    let mut undone = 0;
    let mut t_us = 0;
    for step in 0..steps {
        t_us += 1 + next(&mut rng) % 3_000;
        let now = Instant::from_micros(t_us);
        let e = event(&mut rng, mss);
        let before = observed(&undoing.flow, &p);
        undoing.apply(&p, now, e);
        if let Event::Spurious = e {
            undone += usize::from(observed(&undoing.flow, &p) != before);
        } else {
            keep.apply(&p, now, e);
        }
        lean.apply(&p, now, e);
        assert_eq!(
            observed(&keep.flow, &p),
            observed(&lean.flow, &p),
            "step {step}: {e:?}"
        );
        assert_eq!(keep.flow.growth(), lean.flow.growth(), "step {step}: {e:?}");
    }
    undone
}

#[test]
fn without_undo_a_cubic_flow_ignores_undo_and_is_otherwise_the_same() {
    let mut undone = 0;
    for (i, kind) in [
        SlowStartKind::Standard,
        SlowStartKind::HystartPlusPlus,
        SlowStartKind::LinuxHystart,
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 1..=20u64 {
            undone += twin::<RfcCubic>(kind, seed * 7919 + i as u64, 3_000);
        }
    }
    // Undo really acts in these streams: what the lean flow ignores is not nothing.
    assert!(undone > 20, "only {undone} undos took effect");
}

#[test]
fn without_undo_a_newreno_flow_ignores_undo_and_is_otherwise_the_same() {
    let undone: usize = (1..=20u64)
        .map(|seed| twin::<NewRenoWindow>(SlowStartKind::HystartPlusPlus, seed, 3_000))
        .sum();
    assert!(undone > 20, "only {undone} undos took effect");
}

#[test]
fn a_table_of_lean_states_binds_like_the_default() {
    use congestion::CongestionController;
    let p = RfcParams::new(&CubicConfig::quic(1200)).expect("valid settings");
    let mut table = [ClassicState::<RfcCubic, NoUndo>::without_undo(&p, Instant::ZERO); 2];
    let mut flow = table[1].bind(&p);
    flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    flow.on_ack(
        Instant::from_micros(20_000),
        &AckEvent::new(2_400, 2, Some(Duration::from_millis(20))),
    );
    // Slow start adds the acknowledged bytes; then a loss reduces to 0.7 · 14400.
    assert_eq!(flow.cwnd(), 14_400);
    flow.on_loss(Instant::from_micros(21_000), &LossEvent::packet(1_200, 3));
    assert_eq!(flow.cwnd(), 10_080);
    flow.on_spurious_congestion(Instant::from_micros(22_000));
    assert_eq!(table[1].cwnd(), 10_080, "no snapshot: the reduction stays");
    assert_eq!(table[0].cwnd(), 12_000);
}
