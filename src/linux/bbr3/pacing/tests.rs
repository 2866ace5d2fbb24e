use super::*;
use crate::linux::tcp::TcpSock;

/// The kernel's `bbr_set_pacing_rate`, nothing kept.
fn as_the_kernel(bbr: &mut Bbr, sk: &mut TcpSock, bw: u32, gain: u32) {
    let rate = bbr_bw_to_pacing_rate(sk, bw, gain);
    if !bbr.has_seen_rtt() && sk.srtt_us() != 0 {
        bbr_init_pacing_rate_from_rtt(bbr, sk);
    }
    if bbr.full_bw_reached() || rate > sk.sk_pacing_rate() {
        sk.set_sk_pacing_rate(rate);
    }
}

#[test]
fn a_kept_rate_changes_nothing_the_kernels_steps_do() {
    let bws = [0, 1, 3355, 1 << 20, u32::MAX];
    // Gains above 0, as every caller's (`PacedAt::is`).
    let gains = [1, 88, 232, 256, 320, 710, (1 << 16) - 1, 1 << 16];
    let mut checked = 0u32;
    for mss in [1, 1200, 1448] {
        for max_rate in [u64::MAX, 1_000_000] {
            for full in [false, true] {
                for seen in [false, true] {
                    for srtt_us in [0, 8000] {
                        for start_rate in [0, 1, 5_000_000, u64::MAX] {
                            let bbr0 = {
                                let mut b = Bbr::default();
                                b.set_full_bw_reached(full);
                                b.set_has_seen_rtt(seen);
                                b
                            };
                            let sk0 = TcpSock {
                                mss_cache: mss,
                                sk_max_pacing_rate: max_rate,
                                sk_pacing_rate: start_rate,
                                srtt_us,
                                snd_cwnd: 10,
                                ..TcpSock::default()
                            };
                            // Two ACKs in a row, at every pair of inputs: the second
                            // with what the first kept.
                            for (&bw1, &g1) in bws.iter().zip(gains.iter().cycle()) {
                                for &bw2 in &bws {
                                    for &g2 in &gains {
                                        let (mut b, mut s) = (bbr0, sk0);
                                        let (mut kb, mut ks) = (bbr0, sk0);
                                        let mut kept = PacedAt::NONE;
                                        as_the_kernel(&mut kb, &mut ks, bw1, g1);
                                        bbr_set_pacing_rate(&mut b, &mut s, bw1, g1, &mut kept);
                                        as_the_kernel(&mut kb, &mut ks, bw2, g2);
                                        bbr_set_pacing_rate(&mut b, &mut s, bw2, g2, &mut kept);
                                        assert_eq!(
                                            (b, s),
                                            (kb, ks),
                                            "bw {bw1}/{bw2} gain {g1}/{g2}"
                                        );
                                        checked += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn nothing_is_kept_for_a_gain_of_0_or_above_16_bits() {
    assert!(!PacedAt::NONE.is(0, 1));
    assert!(!PacedAt::NONE.is(0, 256));
    assert_eq!(PacedAt::new(7, 1 << 16), PacedAt::NONE);
    assert!(PacedAt::new(7, 256).is(7, 256));
    assert!(!PacedAt::new(7, 256).is(7 | 1 << 16, 256));
    assert!(!PacedAt::new(7, 256).is(7, 256 | 1 << 16));
}

#[test]
fn nothing_is_kept_before_an_rtt_was_seen() {
    // A kept rate implies `has_seen_rtt`, which lets the re-seeding test go second.
    let (mut b, mut s) = (Bbr::default(), TcpSock::default());
    s.mss_cache = 1200;
    s.sk_max_pacing_rate = u64::MAX;
    let mut kept = PacedAt::NONE;
    bbr_set_pacing_rate(&mut b, &mut s, 1 << 20, 256, &mut kept);
    assert_eq!(kept, PacedAt::NONE);
    s.srtt_us = 8000;
    bbr_set_pacing_rate(&mut b, &mut s, 1 << 20, 256, &mut kept);
    assert!(b.has_seen_rtt());
    assert!(kept.is(1 << 20, 256));
}
