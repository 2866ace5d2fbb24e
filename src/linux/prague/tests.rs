//! Hand-computed checks of the Prague paths the reference traces do not reach (the
//! conformance README's "paths these traces do not pin down").

use super::pacing::prague_frac_cwnd_to_snd_cwnd;
use super::window::{prague_cwnd_undo, prague_update_alpha};
use super::*;

/// A socket with MSS 1448 and 52 bytes of headers (MTU 1500), srtt `srtt_us` (µs).
fn sock(cwnd: u32, ssthresh: u32, srtt_us: u32) -> TcpSock {
    TcpSock {
        snd_cwnd: cwnd,
        snd_ssthresh: ssthresh,
        snd_cwnd_clamp: u32::MAX,
        mss_cache: 1448,
        header_len: 52,
        srtt_us: srtt_us << 3,
        sk_max_pacing_rate: u64::MAX,
        ..TcpSock::default()
    }
}

#[test]
fn the_mtu_shrinks_and_ssthresh_is_rescaled_with_it() {
    let p = PragueParams::new();
    // RTT-independent (round 4 >= 4, cwnd 3 >= ssthresh 3), window mode, CE seen,
    // a round just ended with d = 4 delivered, c = 1 CE.
    let mut sk = sock(3, 3, 25_000);
    sk.delivered = 4;
    sk.delivered_ce = 1;
    let mut ca = PragueCa {
        round: 4,
        saw_ce: true,
        mtu_cache: 1500,
        hsrtt_us: 200_000 << 7,
        frac_cwnd: 1_572_864, // 1.5 segments
        ..PragueCa::default()
    };
    prague_update_alpha(&mut ca, &mut sk, &p);
    // alpha: 0 - 0 + (1 << 24) / 4 = 4,194,304.
    assert_eq!(ca.upscaled_alpha, 4_194_304);
    // srtt (200,000) is not below the target (200,000): no scaling. Two packets per
    // RTT: ceil((1,572,864 * 1500 >> 20) / 2) = ceil(2250 / 2) = 1125 bytes, within
    // [150 + 52, 1500]. frac = 1,572,864 * 1500 / 1125 = 2,097,152 (2.0 segments),
    // MSS 1125 - 52 = 1073, cwnd 3 -> 2, ssthresh 3 * 1500 / 1125 = 4.
    assert_eq!(ca.frac_cwnd, 2_097_152);
    assert_eq!(sk.mss_cache, 1073);
    assert!(sk.mss_cache_set_by_cca);
    assert_eq!((sk.snd_cwnd, sk.snd_ssthresh), (2, 4));
    // Now in slow start (2 < 4): the new round does not count.
    assert_eq!(ca.round, 4);
    // hsrtt += 200,000 - (200,000 << 7 >> 7): unchanged.
    assert_eq!(ca.hsrtt_us, 200_000 << 7);
}

#[test]
fn no_rescale_of_ssthresh_when_cwnd_stays() {
    let p = PragueParams::new();
    // As above but the new window rounds to the same cwnd 2: ssthresh is left.
    let mut sk = sock(2, 2, 25_000);
    sk.delivered = 4;
    sk.delivered_ce = 1;
    let mut ca = PragueCa {
        round: 4,
        saw_ce: true,
        mtu_cache: 1500,
        hsrtt_us: 200_000 << 7,
        frac_cwnd: 1_572_864,
        ..PragueCa::default()
    };
    prague_update_alpha(&mut ca, &mut sk, &p);
    assert_eq!(sk.mss_cache, 1073);
    assert_eq!((sk.snd_cwnd, sk.snd_ssthresh), (2, 2));
}

#[test]
fn init_paces_in_window_mode_before_reading_the_cwnd_mode_parameter() {
    let mut p = PragueParams::new();
    p.config.prague_cwnd_mode = 1;
    p.config.prague_rtt_transition = 0;
    // ssthresh 5 <= cwnd 10 and round 0 >= 0: RTT-independent already at init.
    let mut sk = sock(10, 5, 10_000);
    let mut ca = PragueCa::default();
    prague_init(&mut ca, &mut sk, &p);
    // Window mode: 8e6 * 1500 / 80,000 = 150,000 per segment, times 10 = 1,500,000.
    // (Rate mode would have added 3 %: 1,500,000 + 4 * 1,500,000 / 128 = 1,546,875.)
    assert_eq!(sk.sk_pacing_rate, 1_500_000);
    assert!(ca.cwnd_mode);
    assert_eq!(sk.sk_pacing_status, 1);
}

#[test]
fn the_clamp_binds_the_window_from_frac_cwnd() {
    let mut sk = sock(10, 5, 10_000);
    let mut ca = PragueCa {
        frac_cwnd: 10 * ONE_CWND + ONE_CWND / 2,
        ..PragueCa::default()
    };
    // ceil(10.5) = 11, clamped to 8.
    sk.snd_cwnd_clamp = 8;
    assert_eq!(prague_frac_cwnd_to_snd_cwnd(&ca, &sk), 8);
    // Below 2 segments the floor is 2.
    ca.frac_cwnd = ONE_CWND / 3;
    sk.snd_cwnd_clamp = u32::MAX;
    assert_eq!(prague_frac_cwnd_to_snd_cwnd(&ca, &sk), 2);
}

#[test]
fn undo_resumes_growth_restores_the_rate_and_rebuilds_the_window() {
    let sk = sock(6, 6, 10_000);
    let mut ca = PragueCa {
        in_loss: true,
        rate_bytes: 1_000_000,
        loss_rate_bytes: 1_200_000,
        loss_cwnd: 9,
        hsrtt_us: 80_000 << 7,
        ..PragueCa::default()
    };
    // frac = ceil((1.2e6 * 80,000 >> 3) / 1500) = 1.2e10 / 1500 = 8,000,000.
    assert_eq!(prague_cwnd_undo(&mut ca, &sk), 9);
    assert!(!ca.in_loss);
    assert_eq!((ca.rate_bytes, ca.frac_cwnd), (1_200_000, 8_000_000));
}

#[test]
fn a_burst_shift_above_63_is_refused() {
    let mut c = PragueConfig::new();
    c.prague_burst_shift = 64;
    assert_eq!(
        c.validate(),
        Err(ConfigError::ParamOutOfRange {
            field: "prague_burst_shift",
            min: 0,
            max: 63
        })
    );
    c.prague_burst_shift = 63;
    assert_eq!(c.validate().map(|p| p.config().prague_burst_shift), Ok(63));
}

#[test]
fn the_fast_wide_product_is_the_exact_one() {
    use super::div::mul_shr;
    use crate::cubic::mul_u64_u64_shr;
    // Products inside 64 bits (the fast path), across it, and the shifts Prague uses.
    let values = [
        0,
        1,
        3,
        1 << 20,
        50_080,
        39_663_360,
        1 << 32,
        (1 << 32) + 7,
        u64::MAX / 3,
        u64::MAX,
    ];
    for a in values {
        for b in values {
            for shift in [0, 1, 7, 20, 23, 25, 63, 64, 100, 127] {
                assert_eq!(
                    mul_shr(a, b, shift),
                    mul_u64_u64_shr(a, b, shift),
                    "{a} {b} {shift}"
                );
            }
        }
    }
}
