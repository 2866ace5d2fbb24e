use super::*;

/// The kernel's loop, literally, for comparison.
fn kernel_slow_start(cwnd: u32, cnt: u32, clamp: u32) -> (u32, u32) {
    let (mut cwnd, mut cnt) = (cwnd, cnt.wrapping_add(cwnd));
    while cnt >= cwnd {
        cnt -= cwnd;
        if cwnd < clamp {
            cwnd += 1;
        }
    }
    (cwnd, cnt)
}

fn state(cwnd: u32, cwnd_cnt: u32) -> Linux2635State {
    Linux2635State {
        cwnd,
        cwnd_cnt,
        ..Default::default()
    }
}

#[test]
fn slow_start_adds_one_per_ack_and_keeps_the_count() {
    let mut s = state(2, 0);
    s.slow_start(u32::MAX);
    assert_eq!((s.cwnd, s.cwnd_cnt), (3, 0));
    // cnt 5 + 10 = 15 >= 10: 5 left, cwnd 11; 5 < 11 stops.
    let mut s = state(10, 5);
    s.slow_start(u32::MAX);
    assert_eq!((s.cwnd, s.cwnd_cnt), (11, 5));
    // At the clamp: no growth, the count stays below cwnd.
    let mut s = state(10, 3);
    s.slow_start(10);
    assert_eq!((s.cwnd, s.cwnd_cnt), (10, 3));
}

#[test]
fn a_large_leftover_count_takes_the_loops_many_steps_in_closed_form() {
    // cwnd 10, cnt 100 + 10 = 110: steps 10, 11, 12, 13, 14 use 60 (5 steps), then
    // 15 + ... : 60 + 15 = 75, + 16 = 91, + 17 = 108 <= 110: 8 steps, 2 left, cwnd 18.
    let mut s = state(10, 100);
    s.slow_start(u32::MAX);
    assert_eq!((s.cwnd, s.cwnd_cnt), (18, 2));
    assert_eq!(kernel_slow_start(10, 100, u32::MAX), (18, 2));
}

#[test]
fn closed_form_slow_start_equals_the_kernel_loop() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..3000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let cwnd = (x as u32 % 5000).max(1);
        let cnt = match (x >> 40) % 3 {
            0 => (x >> 20) as u32 % cwnd,
            1 => (x >> 20) as u32 % 2_000_000,
            _ => (x >> 12) as u32,
        };
        let clamp = match (x >> 50) % 3 {
            0 => u32::MAX,
            1 => cwnd,
            _ => cwnd + (x >> 33) as u32 % 50,
        };
        let mut s = state(cwnd, cnt);
        s.slow_start(clamp);
        assert_eq!(
            (s.cwnd, s.cwnd_cnt),
            kernel_slow_start(cwnd, cnt, clamp),
            "{cwnd} {cnt} {clamp}"
        );
    }
}

#[test]
fn additive_increase_takes_one_step_per_ack() {
    let mut s = state(100, 29);
    s.cong_avoid_ai(30, u32::MAX);
    assert_eq!((s.cwnd, s.cwnd_cnt), (100, 30));
    s.cong_avoid_ai(30, u32::MAX);
    assert_eq!((s.cwnd, s.cwnd_cnt), (101, 0));
    let mut s = state(100, 30);
    s.cong_avoid_ai(30, 100);
    assert_eq!((s.cwnd, s.cwnd_cnt), (100, 0));
}

#[test]
fn cwnd_limited_by_flight_tso_deferral_or_burst() {
    let base = CwndUse {
        cwnd: 100,
        in_flight: 100,
        gso: true,
        tso_win_divisor: 3,
        mss: 8948,
        gso_max_size: 65536,
        max_burst: 3,
    };
    assert!(is_cwnd_limited(&base));
    // left 7: 21 < 100 and 7 * 8948 = 62636 < 65536: TSO would defer.
    assert!(is_cwnd_limited(&CwndUse {
        in_flight: 93,
        ..base
    }));
    // left 8: 8 * 8948 = 71584 >= 65536, and 8 > 3.
    assert!(!is_cwnd_limited(&CwndUse {
        in_flight: 92,
        ..base
    }));
    // Without GSO only the burst rule: left 3 yes, 4 no.
    assert!(is_cwnd_limited(&CwndUse {
        in_flight: 97,
        gso: false,
        ..base
    }));
    assert!(!is_cwnd_limited(&CwndUse {
        in_flight: 96,
        gso: false,
        ..base
    }));
}
