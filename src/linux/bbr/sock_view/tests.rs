use super::*;

/// The kernel's form over a socket whose `tcp_clock_cache` is `now_us · 1000`
/// saturated, as `TcpSock::set_clock()` and the view derive it.
fn reference(wstamp_ns: u64, now_us: u64) -> u64 {
    let now_ns = now_us.saturating_mul(1000);
    (wstamp_ns.max(now_ns) - now_ns) / 1000
}

#[test]
fn edt_ahead_us_matches_the_kernels_form_on_a_grid() {
    let last = u64::MAX / 1000;
    let nows = [
        0,
        1,
        999,
        1000,
        1001,
        20_000_123,
        1 << 32,
        (1 << 44) + 7,
        last - 2,
        last - 1,
        last,
        last + 1,
        last + 2,
        u64::MAX - 1,
        u64::MAX,
    ];
    let mut checked = 0u32;
    for &now_us in &nows {
        let now_ns = now_us.saturating_mul(1000);
        let fixed = [0u64, 1, 999, 1000, u64::MAX - 1, u64::MAX];
        let deltas = [0u64, 1, 2, 998, 999, 1000, 1001, 1999, 2000, 123_456_789];
        let near = deltas
            .iter()
            .flat_map(|&d| [now_ns.saturating_add(d), now_ns.saturating_sub(d)]);
        for w in fixed.iter().copied().chain(near) {
            assert_eq!(
                edt_ahead_us(w, now_us),
                reference(w, now_us),
                "wstamp {w} ns, now {now_us} µs"
            );
            checked += 1;
        }
    }
    assert!(checked > 300);
}

#[test]
fn the_view_and_a_whole_socket_agree_on_edt_ahead_us() {
    for (now_us, wstamp_ns) in [(5_000, 1_000), (5_000, 5_003_999), (7, u64::MAX)] {
        let mut sk = TcpSock::default();
        sk.set_clock(now_us);
        sk.tcp_wstamp_ns = wstamp_ns;
        assert_eq!(BbrSock::edt_ahead_us(&sk), edt_ahead_us(wstamp_ns, now_us));
    }
}
