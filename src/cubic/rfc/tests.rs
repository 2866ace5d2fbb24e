use super::*;
use crate::cubic::RfcCubicConfig;

/// W_est after one ACK of `acked` bytes at 100 kB, from a state below cwnd_prior.
fn w_est_after(cubic: &mut RfcCubic, p: &RfcCubicParams, acked: u64) -> (u64, u64) {
    let cwnd = NonZeroU64::new(100_000).unwrap();
    cubic.w_est_bytes = 70_000;
    cubic.w_est_remainder = 0;
    cubic.cwnd_prior_bytes = 100_000;
    cubic.w_est_grown(At::own(p), cwnd, acked)
}

/// xorshift64*: a tiny deterministic generator for the twin test below.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

#[test]
#[cfg(target_pointer_width = "64")]
fn the_steady_ack_gives_what_the_full_ack_gives() {
    // Two copies driven alike: `fast` takes the steady path whenever it answers,
    // `full` always the full one. Windows and states must stay equal, through
    // losses, pauses, undos, time running backwards, epochs starting at 0 µs, and
    // hostile sizes (windows and ACKs near 2^32 and 2^63, RTTs and times near
    // u64::MAX). A steady path that answered where it should not, or differently,
    // shows here.
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut answered = 0u32;
    for case in 0..400u64 {
        let mut c = RfcCubicConfig::new();
        c.reno_friendly = case % 5 != 4;
        c.beta_permille = [700, 500, 800][(case % 3) as usize];
        let p = c.validate().unwrap();
        let mss = p.mss();
        let (mut fast, mut full) = (RfcCubic::new(), RfcCubic::new());
        let mut now = match case % 4 {
            0 => 0,
            1 => u64::MAX - (1 << 30),
            _ => next(&mut rng) >> 20,
        };
        let huge = case % 7 == 6;
        let mut cwnd = if huge {
            (1u64 << 32) - 3 * mss
        } else {
            40 * mss
        };
        let mut saved: Option<(RfcCubic, u64)> = None;
        for _ in 0..600 {
            let r = next(&mut rng);
            match r % 40 {
                0 => {
                    let ss = fast.on_congestion(&p, cwnd, c.beta_permille);
                    assert_eq!(ss, full.on_congestion(&p, cwnd, c.beta_permille));
                    cwnd = ss.max(2 * mss);
                }
                1 => {
                    fast.pause(Instant::from_micros(now));
                    full.pause(Instant::from_micros(now));
                }
                2 => {
                    fast.resume(Instant::from_micros(now));
                    full.resume(Instant::from_micros(now));
                }
                3 => now = now.saturating_sub(r >> 50),
                4 => saved = Some((full, cwnd)),
                5 => {
                    if let Some((state, w)) = saved {
                        let mut undo = fast.undo_point();
                        state.save_undo_into(&mut undo);
                        fast.restore_undo_from(&undo);
                        full.restore_undo_from(&undo);
                        cwnd = w;
                    }
                }
                6 => {
                    fast.on_timeout(&p, cwnd);
                    full.on_timeout(&p, cwnd);
                }
                _ => {
                    now = now.saturating_add((r >> 8) % 3_000);
                    let acked = match (r >> 4) % 8 {
                        0 => mss / 2,
                        1 => 3 * mss,
                        2 if huge => (1 << 31) + mss,
                        3 if huge => 1 << 62,
                        _ => 2 * mss,
                    };
                    let srtt = match (r >> 12) % 16 {
                        0 => u64::MAX - (r >> 40),
                        1 => 0,
                        _ => 20_000 + (r >> 50),
                    };
                    let t = Instant::from_micros(now);
                    let want = full.on_ack(&p, t, cwnd, acked, srtt);
                    let got = match fast.on_steady_ack(
                        &p,
                        &NonZeroU32::new(mss as u32).unwrap(),
                        t,
                        cwnd,
                        acked,
                        srtt,
                    ) {
                        Some(w) => {
                            answered += 1;
                            w
                        }
                        None => fast.on_ack(&p, t, cwnd, acked, srtt),
                    };
                    assert_eq!(got, want, "case {case}");
                    cwnd = want;
                }
            }
            assert_eq!(fast, full, "case {case}");
        }
    }
    // The steady path must actually have been taken, most of the time.
    assert!(answered > 50_000, "{answered}");
}

#[test]
fn w_est_growth_is_the_same_whether_remembered_or_computed() {
    let p = RfcCubicConfig::new().validate().unwrap();
    let mut warm = RfcCubic::new();
    // α·MSS = 3 · 300 · 1200 / 1700 per byte: 2400 · 1_080_000 / 1700 = 1_524_705.88,
    // over 100 kB: 15 bytes and 24_705 left.
    assert_eq!(w_est_after(&mut warm, &p, 2_400), (70_015, 24_705));
    assert_eq!(w_est_after(&mut warm, &p, 2_400), (70_015, 24_705));
    // Another size is computed, not taken from the last one: 1200 · 1_080_000 / 1700.
    assert_eq!(w_est_after(&mut warm, &p, 1_200), (70_007, 62_352));
    // New β: the remembered growth is forgotten with the curve points.
    let mut c = RfcCubicConfig::new();
    c.beta_permille = 500;
    let p2 = c.validate().unwrap();
    warm.forget_curve_points();
    let mut fresh = RfcCubic::new();
    assert_eq!(
        w_est_after(&mut warm, &p2, 1_200),
        w_est_after(&mut fresh, &p2, 1_200)
    );
    // 1200 · 3 · 500 · 1200 / 1500 = 1_440_000: 14 bytes and 40_000 left.
    assert_eq!(w_est_after(&mut fresh, &p2, 1_200), (70_014, 40_000));
}
