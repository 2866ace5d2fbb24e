use super::*;
use crate::controller::{AckEvent, SentEvent};
use core::mem::size_of;

/// A parameter handle of no size: its flows are their state alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shared;

static SHARED_PARAMS: RfcParams = match RfcParams::new(&CubicConfig::quic(1200)) {
    Ok(p) => p,
    Err(_) => panic!("the QUIC defaults are valid"),
};

impl Borrow<RfcParams> for Shared {
    fn borrow(&self) -> &RfcParams {
        &SHARED_PARAMS
    }
}

/// [`ClassicState::HOT_BYTES`] for CUBIC, where the tests name it.
#[cfg(target_pointer_width = "64")]
const CUBIC_HOT_BYTES: usize = ClassicState::<RfcCubic>::HOT_BYTES;
/// The same for NewReno.
#[cfg(target_pointer_width = "64")]
const NEWRENO_HOT_BYTES: usize = ClassicState::<NewRenoWindow>::HOT_BYTES;

/// Drives a flow through slow start, a loss, recovery and congestion avoidance,
/// returning (cwnd, ssthresh, pacing rate, send quantum) after every ACK.
fn run<C: CongestionController>(f: &mut C) -> [(u64, Option<u64>, u64, u64); 64] {
    let mut out = [(0, None, 0, 0); 64];
    let mut pn = 0;
    let mut acked = 0;
    for (i, row) in out.iter_mut().enumerate() {
        let now = Instant::from_micros(1_000 * i as u64);
        let room = f.cwnd().saturating_sub(f.in_flight());
        pn += room / 1200 + 1;
        f.on_sent(now, &SentEvent::new(f.in_flight() + room, pn));
        if i == 20 {
            f.on_loss(now, &LossEvent::packet(1_200, acked + 1));
        }
        acked += 2;
        let rtt = Some(Duration::from_micros(20_000 + 100 * i as u64));
        f.on_ack(now, &AckEvent::new(2_400, acked, rtt));
        *row = (
            f.cwnd(),
            f.ssthresh(),
            f.pacing_rate().as_bytes_per_second(),
            f.send_quantum_bytes(),
        );
    }
    out
}

#[test]
#[cfg(target_pointer_width = "64")]
fn sizes() {
    extern crate std;
    std::println!(
        "hot: CUBIC {CUBIC_HOT_BYTES}, NewRenoWindow {NEWRENO_HOT_BYTES}; whole: CUBIC {}, NewRenoWindow {}; RfcParams {}; Cubic {}, NewReno {}",
        size_of::<ClassicState<RfcCubic>>(),
        size_of::<ClassicState<NewRenoWindow>>(),
        size_of::<RfcParams>(),
        size_of::<Cubic>(),
        size_of::<NewReno>(),
    );
    // The hot part starts the state, the window first.
    assert_eq!(core::mem::offset_of!(ClassicState<RfcCubic>, cwnd), 0);
    assert!(core::mem::offset_of!(ClassicState<RfcCubic>, undo) >= CUBIC_HOT_BYTES);
}

#[test]
fn every_way_of_reaching_the_parameters_gives_the_same_flow() {
    let config = CubicConfig::quic(1200);
    let mut owned = Cubic::new(config, Instant::ZERO).unwrap();
    let mut by_ref: Classic<RfcCubic, &RfcParams> =
        Classic::with_params(&SHARED_PARAMS, Instant::ZERO);
    let mut zst: Classic<RfcCubic, Shared> = Classic::with_params(Shared, Instant::ZERO);
    let mut state = ClassicState::<RfcCubic>::new(&SHARED_PARAMS, Instant::ZERO);
    let want = run(&mut owned);
    // The loss reduced and congestion avoidance grew the window afterwards.
    assert!(want[20].0 < want[19].0 && want[63].0 > want[21].0);
    assert_eq!(run(&mut by_ref), want);
    assert_eq!(run(&mut zst), want);
    // The bare state, the parameters passed with each call.
    let mut pn = 0;
    let mut acked = 0;
    let p = &SHARED_PARAMS;
    for (i, row) in want.iter().enumerate() {
        let now = Instant::from_micros(1_000 * i as u64);
        let room = state.cwnd().saturating_sub(state.in_flight());
        pn += room / 1200 + 1;
        state.on_sent(p, now, &SentEvent::new(state.in_flight() + room, pn));
        if i == 20 {
            state.on_loss(p, now, &LossEvent::packet(1_200, acked + 1));
        }
        acked += 2;
        let rtt = Some(Duration::from_micros(20_000 + 100 * i as u64));
        state.on_ack(p, now, &AckEvent::new(2_400, acked, rtt));
        let got = (
            state.cwnd(),
            state.ssthresh(),
            state.pacing_rate(p).as_bytes_per_second(),
            state.send_quantum_bytes(p),
        );
        assert_eq!(got, *row, "ACK {i}");
    }
    assert_eq!(owned.state(), zst.state());
    assert_eq!(*owned.state(), state);
}

#[test]
fn the_window_use_round_is_the_one_a_stored_mark_gives() {
    // The rule with the mark always stored (Linux tcp_cwnd_validate() in bytes), beside
    // the flow's, which stores it only when a send leaves it behind: random sends
    // (some filling the window, some not) and ACKs; the round's verdict must agree
    // after every send.
    let p = &SHARED_PARAMS;
    let mut f = ClassicState::<RfcCubic>::new(p, Instant::ZERO);
    let (mut mark, mut limited, mut sent, mut acked) = (0u64, false, 0u64, 0u64);
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut both = [0u32; 2];
    for i in 0..20_000u64 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let now = Instant::from_micros(i);
        if rng % 3 == 0 {
            acked = if rng & 64 == 0 {
                sent
            } else {
                (acked + rng % 4).min(sent)
            };
            f.on_ack(p, now, &AckEvent::new(0, acked, None));
            continue;
        }
        sent += (rng >> 8) % 3;
        let cwnd = f.cwnd();
        let after = if rng & 48 == 0 { cwnd } else { cwnd / 2 };
        f.on_sent(p, now, &SentEvent::new(after, sent));
        if after + 1200 >= cwnd {
            (mark, limited) = (sent, true);
        } else if acked >= mark || acked == 0 {
            (mark, limited) = (sent, false);
        }
        assert_eq!(f.round_cwnd_limited, limited, "send {i}");
        both[limited as usize] += 1;
    }
    assert!(both[0] > 1_000 && both[1] > 1_000, "{both:?}");
}

#[test]
fn rtt_samples_beyond_32_bits_are_clamped_and_nothing_wraps() {
    let p = &SHARED_PARAMS;
    let mut f = ClassicState::<RfcCubic>::new(p, Instant::ZERO);
    assert_eq!((f.srtt_us(), f.min_rtt_us()), (0, u64::MAX));
    f.on_ack(
        p,
        Instant::ZERO,
        &AckEvent::new(0, 0, Some(Duration::from_micros(u64::MAX))),
    );
    assert_eq!(
        (f.srtt_us(), f.min_rtt_us()),
        (u64::from(u32::MAX), u64::MAX)
    );
    // 7/8 of the clamped estimate and 1/8 of the clamped sample: still u32::MAX - 7.
    f.on_ack(
        p,
        Instant::ZERO,
        &AckEvent::new(0, 0, Some(Duration::from_micros(1 << 40))),
    );
    assert_eq!(f.srtt_us(), u64::from(u32::MAX / 8 * 7 + u32::MAX / 8));
    f.on_ack(
        p,
        Instant::ZERO,
        &AckEvent::new(0, 0, Some(Duration::from_micros(20_000))),
    );
    assert_eq!(f.min_rtt_us(), 20_000);
    assert_eq!(
        f.srtt_us(),
        u64::from((u32::MAX / 8 * 7 + u32::MAX / 8) / 8 * 7 + 2_500)
    );
    let _ = (f.pacing_rate(p), f.send_quantum_bytes(p));
}

#[test]
fn an_mss_is_the_flows_own_and_the_shared_parameters_do_not_move() {
    let mut a: Classic<RfcCubic, &RfcParams> = Classic::with_params(&SHARED_PARAMS, Instant::ZERO);
    let b: Classic<RfcCubic, &RfcParams> = Classic::with_params(&SHARED_PARAMS, Instant::ZERO);
    a.set_mss(1_500).unwrap();
    assert_eq!((a.mss_bytes(), a.params().mss()), (1_500, 1_500));
    // C·MSS and α·MSS follow the flow's MSS: 400 · 1500, 3 · 300 · 1500.
    assert_eq!(a.params().c_mss(), 600_000);
    assert_eq!(a.params().alpha_mss(), (1_350_000, 1_700));
    assert_eq!((b.mss_bytes(), b.params().c_mss()), (1_200, 480_000));
    assert_eq!(SHARED_PARAMS.mss_bytes(), 1_200);
    assert!(a.set_mss(0).is_err() && a.set_mss(65_536).is_err());
    assert_eq!(a.mss_bytes(), 1_500);
}

#[test]
fn a_shared_block_takes_new_cubic_settings_or_refuses_them_whole() {
    let mut block = SHARED_PARAMS;
    let mut c = *block.cubic().config();
    c.c_permille = 800;
    c.mss_bytes = 1_400;
    assert_eq!(block.set_cubic_config(&c), Ok(()));
    assert_eq!(
        (block.cubic().config().c_permille, block.mss_bytes()),
        (800, 1_400)
    );
    // A flow built from it starts at its MSS, with C·MSS = 800 · 1400.
    let f: Classic<RfcCubic, &RfcParams> = Classic::with_params(&block, Instant::ZERO);
    assert_eq!((f.mss_bytes(), f.params().c_mss()), (1_400, 1_120_000));
    c.mss_bytes = 0;
    assert_eq!(block.set_cubic_config(&c), Err(ConfigError::ZeroMss));
    assert_eq!(block.mss_bytes(), 1_400);
}

#[test]
fn new_cubic_settings_change_the_owned_parameters_and_the_mss() {
    let mut f = Cubic::new(CubicConfig::quic(1200), Instant::ZERO).unwrap();
    let mut c = *f.rfc_params().cubic().config();
    c.beta_permille = 500;
    c.mss_bytes = 1_000;
    f.set_cubic_config(c).unwrap();
    assert_eq!(f.rfc_params().cubic().config().beta_permille, 500);
    assert_eq!((f.mss_bytes(), f.rfc_params().mss_bytes()), (1_000, 1_000));
    c.beta_permille = 0;
    assert_eq!(f.set_cubic_config(c), Err(ConfigError::BetaOutOfRange));
    assert_eq!(f.rfc_params().cubic().config().beta_permille, 500);
}
