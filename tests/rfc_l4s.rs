//! DCTCP and Prague in bytes (`rfc::Dctcp`, `rfc::Prague`): hand-worked scenarios with
//! the arithmetic in the comments, and a property test that a few marks per round hold
//! the window at any rate. The rows of `docs/compliance.md` ("RFC 9331 §4.3 and RFC
//! 8257") point here.
//!
//! The stack model: 1200-byte packets, each acknowledged by its own ACK frame, CE
//! reported first (`on_ecn` with the rise of the frame's CE count and its largest
//! packet number, RFC 9002 Appendix A.7's `ProcessECN` before `OnPacketsAcked`), then
//! `on_ack`; after the ACK of packet `i` the stack sends packet `i + 10` (a window of
//! ten packets), so that each observation window is ten packets: the first is packets
//! 0–9 (the flight at the first ACK), then 10–19, 20–29, ...

use congestion::rfc::{
    self, ALPHA_ONE, ClassicConfig, Dctcp, NewReno, Prague, ScalableConfig, SlowStartKind,
};
use congestion::{
    AckEvent, ConfigError, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase,
    SentEvent,
};

const MSS: u64 = 1_200;

/// QUIC defaults at an MSS of 1200, standard slow start, starting in congestion
/// avoidance at `window_packets` packets (ssthresh = the initial window).
fn config(window_packets: u64) -> ClassicConfig {
    let mut c = ClassicConfig::quic(MSS);
    c.slow_start = SlowStartKind::Standard;
    c.initial_window_bytes = Some(window_packets * MSS);
    c.initial_ssthresh_bytes = Some(window_packets * MSS);
    c
}

/// The ACK-clocked stack of the module docs, `rtt_us` apart from send to ACK, ACKs of
/// consecutive packets `rtt_us / 10` apart.
struct Clocked<C> {
    flow: C,
    rtt_us: u64,
    /// Report CE on the ACK itself (`AckEvent::ce_delta`) rather than by `on_ecn`.
    ce_on_ack: bool,
}

impl<C: CongestionController> Clocked<C> {
    /// Packets 0–9 sent at time 0.
    fn new(mut flow: C, rtt_us: u64) -> Self {
        flow.on_sent(Instant::ZERO, &SentEvent::new(10 * MSS, 9));
        Clocked {
            flow,
            rtt_us,
            ce_on_ack: false,
        }
    }

    /// The ACK of packet `pn`, CE-marked if `ce`, then the send of packet `pn + 10`
    /// with the window full.
    fn ack(&mut self, pn: u64, ce: bool) {
        let now = Instant::from_micros(self.rtt_us + pn * self.rtt_us / 10);
        let rtt = Some(Duration::from_micros(self.rtt_us));
        let ack = AckEvent::new(MSS, pn, rtt);
        if self.ce_on_ack {
            self.flow.on_ack(now, &ack.with_ce(u64::from(ce)));
        } else {
            if ce {
                self.flow.on_ecn(now, &EcnEvent::new(1, pn));
            }
            self.flow.on_ack(now, &ack);
        }
        let full = self.flow.cwnd().max(10 * MSS);
        self.flow.on_sent(now, &SentEvent::new(full, pn + 10));
    }

    /// The ten ACKs of observation window `w` (packets `10w..10w+10`), the last `k`
    /// CE-marked.
    fn window(&mut self, w: u64, k: u64) {
        for i in 0..10 {
            self.ack(10 * w + i, i >= 10 - k);
        }
    }
}

#[test]
fn alpha_is_the_ewma_of_the_marked_fraction_per_round() {
    let mut s = Clocked::new(Dctcp::new(config(10), Instant::ZERO).unwrap(), 20_000);
    // alpha starts at 1 = 2^20 = 1048576 (Linux dctcp_alpha_on_init).
    assert_eq!(s.flow.growth().alpha(), ALPHA_ONE);
    // Window 0: 2 of 10 packets marked. F = 2400 / 12000 = 0.2 → floor(0.2 · 2^20) =
    // 209715. alpha = alpha − alpha/16 + F/16 = 1048576 − 65536 + 13107 = 996147.
    s.window(0, 2);
    assert_eq!(s.flow.growth().alpha(), 996_147);
    // Window 1: 5 of 10. F = 0.5 → 524288. 996147 − 62259 + 32768 = 966656.
    s.window(1, 5);
    assert_eq!(s.flow.growth().alpha(), 966_656);
    // Window 2: none. 966656 − 60416 + 0 = 906240.
    s.window(2, 0);
    assert_eq!(s.flow.growth().alpha(), 906_240);
    // Between windows nothing changes: nine ACKs of window 3, all marked, and alpha
    // waits for the tenth.
    for i in 0..9 {
        s.ack(30 + i, true);
    }
    assert_eq!(s.flow.growth().alpha(), 906_240);
    assert_eq!(
        s.flow.growth().estimator().round_counts(),
        (9 * MSS, 9 * MSS)
    );
}

#[test]
fn the_gain_is_configurable_and_bad_settings_are_refused() {
    let mut c = config(10);
    c.scalable.g_shift = 1; // g = 1/2
    let mut s = Clocked::new(Dctcp::new(c, Instant::ZERO).unwrap(), 20_000);
    // 2 of 10 marked: 1048576 − 1048576/2 + 209715/2 = 524288 + 104857 = 629145.
    s.window(0, 2);
    assert_eq!(s.flow.growth().alpha(), 629_145);

    let refused = |f: fn(&mut ScalableConfig)| {
        let mut c = config(10);
        f(&mut c.scalable);
        (
            Dctcp::new(c, Instant::ZERO).err(),
            Prague::new(c, Instant::ZERO).err(),
        )
    };
    let g = ConfigError::ParamOutOfRange {
        field: "g_shift",
        min: 0,
        max: 10,
    };
    assert_eq!(refused(|s| s.g_shift = 11), (Some(g), Some(g)));
    let rtt = ConfigError::ParamOutOfRange {
        field: "reference_rtt_us",
        min: 1_000,
        max: 1_000_000,
    };
    assert_eq!(
        refused(|s| s.reference_rtt_us = 999),
        (Some(rtt), Some(rtt))
    );
    assert_eq!(
        refused(|s| s.reference_rtt_us = 1_000_001),
        (Some(rtt), Some(rtt))
    );
    let a = ConfigError::ParamOutOfRange {
        field: "initial_alpha_1024",
        min: 0,
        max: 1024,
    };
    assert_eq!(refused(|s| s.initial_alpha_1024 = 1025), (Some(a), Some(a)));
    // The bounds themselves are accepted.
    assert_eq!(refused(|s| s.g_shift = 0), (None, None));
    assert_eq!(refused(|s| s.reference_rtt_us = 1_000), (None, None));
}

#[test]
fn ce_reduces_to_cwnd_times_one_minus_alpha_over_two() {
    let mut s = Clocked::new(Dctcp::new(config(10), Instant::ZERO).unwrap(), 20_000);
    // Window 0, packets 8 and 9 marked. The CE on 8 comes with alpha still 1:
    // 12000 · (1 − 1/2) = 6000, and the recovery period covers packets up to 17 (the
    // largest sent then: 17 went out after the ACK of 7).
    for i in 0..8 {
        s.ack(i, false);
    }
    assert_eq!(s.flow.cwnd(), 12_000);
    s.ack(8, true);
    assert_eq!((s.flow.cwnd(), s.flow.ssthresh()), (6_000, Some(6_000)));
    assert_eq!(s.flow.recovery_end(), Some(17));
    // The CE on 9 was sent before the reduction: counted for alpha, no reduction.
    s.ack(9, true);
    assert_eq!(s.flow.cwnd(), 6_000);
    // Window 0 ended with 2 of 10 marked: alpha = 996147 (as in the EWMA test).
    assert_eq!(s.flow.growth().alpha(), 996_147);
    // Window 1: packets 10..=18 unmarked; the ACK of 18 ends the recovery period.
    for i in 10..19 {
        s.ack(i, false);
    }
    assert_eq!(s.flow.phase(), Phase::CongestionAvoidance);
    assert_eq!(s.flow.cwnd(), 6_000);
    // CE on 19, before window 1 ends: alpha is still 996147. The reduction is
    // floor(6000 · 996147 / 2^21) = floor(2849.99...) = 2849: cwnd = 6000 − 2849 = 3151.
    s.ack(19, true);
    assert_eq!((s.flow.cwnd(), s.flow.ssthresh()), (3_151, Some(3_151)));
}

#[test]
fn one_reduction_per_round_however_many_ce_acks() {
    let mut s = Clocked::new(Dctcp::new(config(10), Instant::ZERO).unwrap(), 20_000);
    let mut windows = [0u64; 3];
    let mut reductions = 0;
    // Every one of 30 packets CE-marked: 30 CE reports, 3 reductions, one per window.
    // F = 1 in every window, so alpha stays 1: 2^20 − 2^16 + 2^16.
    for pn in 0..30 {
        let before = s.flow.cwnd();
        s.ack(pn, true);
        if s.flow.cwnd() < before {
            windows[reductions] = s.flow.cwnd();
            reductions += 1;
            // Each reduction comes with the first CE on a packet sent after the last.
            assert_eq!(pn % 10, 0, "reduction at packet {pn}");
        }
        assert_eq!(s.flow.growth().alpha(), ALPHA_ONE);
    }
    // 12000 → 6000 (packet 0) → 3000 (packet 10) → 1500, floored at DCTCP's 2·MSS =
    // 2400 (packet 20; Linux dctcp_ssthresh keeps 2 segments).
    assert_eq!((reductions, windows), (3, [6_000, 3_000, 2_400]));
}

#[test]
fn the_ce_count_on_the_ack_is_the_same_as_on_ecn_before_it() {
    use congestion::observe::{Counters, Observed};
    // The one-reduction scenario (30 ACKs, all CE, then 20 with every third marked),
    // reported three ways: on_ecn before each ACK, the ACK's own ce_delta, and the
    // ce_delta through an observer. The flows agree after every ACK; the observer
    // counts the ECN reductions the ACKs made.
    let mut by_ecn = Clocked::new(Dctcp::new(config(10), Instant::ZERO).unwrap(), 20_000);
    let mut on_ack = Clocked::new(Prague::new(config(10), Instant::ZERO).unwrap(), 20_000);
    let mut by_ecn_prague = Clocked::new(Prague::new(config(10), Instant::ZERO).unwrap(), 20_000);
    let mut on_ack_dctcp = Clocked::new(Dctcp::new(config(10), Instant::ZERO).unwrap(), 20_000);
    on_ack.ce_on_ack = true;
    on_ack_dctcp.ce_on_ack = true;
    let observed = Observed::new(
        Dctcp::new(config(10), Instant::ZERO).unwrap(),
        Counters::new(),
    );
    let mut observed = Clocked::new(observed, 20_000);
    observed.ce_on_ack = true;
    for pn in 0..50 {
        let ce = pn < 30 || pn % 3 == 0;
        by_ecn.ack(pn, ce);
        on_ack_dctcp.ack(pn, ce);
        by_ecn_prague.ack(pn, ce);
        on_ack.ack(pn, ce);
        observed.ack(pn, ce);
        assert_eq!(
            by_ecn.flow.state(),
            on_ack_dctcp.flow.state(),
            "DCTCP, ACK {pn}"
        );
        assert_eq!(
            by_ecn_prague.flow.state(),
            on_ack.flow.state(),
            "Prague, ACK {pn}"
        );
        assert_eq!(
            observed.flow.controller().state(),
            by_ecn.flow.state(),
            "observed, ACK {pn}"
        );
    }
    // A reduction at the CE of packet n (acknowledged before n + 10 is sent: the largest
    // sent is n + 9) covers packets up to n + 9. Marked: 0..=29, then 30, 33, 36, 39,
    // 42, 45, 48. Reductions at 0, 10, 20, 30 and 42 (the first marked above 39): five,
    // all ECN.
    let counters = observed.flow.observer();
    assert_eq!((counters.ecn_reductions, counters.loss_reductions), (5, 0));
}

#[test]
fn a_loss_halves_whatever_alpha_and_once_per_recovery_period() {
    // alpha = 0 (initial_alpha_1024 = 0): a CE changes nothing, a loss halves.
    let mut c = config(10);
    c.scalable.initial_alpha_1024 = 0;
    let mut dctcp = Dctcp::new(c, Instant::ZERO).unwrap();
    let mut prague = Prague::new(c, Instant::ZERO).unwrap();
    let t = Instant::from_micros(20_000);
    for f in [
        &mut dctcp as &mut dyn CongestionController,
        &mut prague as &mut dyn CongestionController,
    ] {
        f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 9));
        f.on_ecn(t, &EcnEvent::new(1, 0));
        // 12000 − floor(12000 · 0 / 2^21) = 12000 (the recovery period still begins).
        assert_eq!(f.cwnd(), 12_000);
        // A loss of packet 9, sent before that period began: nothing.
        f.on_loss(t, &LossEvent::packet(MSS, 9));
        assert_eq!(f.cwnd(), 12_000);
        f.on_sent(t, &SentEvent::new(12_000, 10));
        // Packet 10, sent after: 12000 / 2 = 6000 (RFC 8257 §3.5, RFC 9331 §4.3).
        f.on_loss(t, &LossEvent::packet(MSS, 10));
        assert_eq!((f.cwnd(), f.ssthresh()), (6_000, Some(6_000)));
        // Packet 10 again, and 8: the same recovery period, one reduction.
        f.on_loss(t, &LossEvent::packet(MSS, 10));
        f.on_loss(t, &LossEvent::packet(MSS, 8));
        assert_eq!(f.cwnd(), 6_000);
    }
    // Below 2 MSS a loss still halves Prague's window (floor one MSS), while DCTCP keeps
    // the classic 2·MSS.
    let mut c = config(2);
    c.scalable.initial_alpha_1024 = 0;
    let mut prague = Prague::new(c, Instant::ZERO).unwrap();
    let mut dctcp = Dctcp::new(c, Instant::ZERO).unwrap();
    prague.on_sent(Instant::ZERO, &SentEvent::new(2_400, 1));
    dctcp.on_sent(Instant::ZERO, &SentEvent::new(2_400, 1));
    prague.on_loss(t, &LossEvent::packet(MSS, 1));
    dctcp.on_loss(t, &LossEvent::packet(MSS, 1));
    assert_eq!((prague.cwnd(), prague.ssthresh()), (1_200, Some(1_200)));
    assert_eq!((dctcp.cwnd(), dctcp.ssthresh()), (2_400, Some(2_400)));
}

#[test]
fn below_one_packet_per_rtt_the_pacer_carries_the_window() {
    // Prague at 2 packets, RTT 20 ms, every packet CE-marked (alpha stays 1: every
    // reduction halves). The stack sends only within cwnd, one packet per ACK.
    let mut flow = Prague::new(config(2), Instant::ZERO).unwrap();
    flow.on_sent(Instant::ZERO, &SentEvent::new(2_400, 1));
    let rtt = Some(Duration::from_millis(20));
    let mut next_pn = 2;
    let mut seen = [(0u64, 0u64, 0u64); 6];
    for (pn, row) in (0u64..).zip(seen.iter_mut()) {
        let now = Instant::from_micros(20_000 * (pn + 1));
        flow.on_ecn(now, &EcnEvent::new(1, pn));
        flow.on_ack(now, &AckEvent::new(MSS, pn, rtt));
        *row = (
            flow.cwnd(),
            flow.growth().sub_mss_window(),
            flow.pacing_rate().as_bytes_per_second(),
        );
        // The window always lets one packet out once nothing is in flight: cwnd is
        // at least one MSS.
        if flow.in_flight() + MSS <= flow.cwnd() {
            flow.on_sent(now, &SentEvent::new(flow.in_flight() + MSS, next_pn));
            next_pn += 1;
        }
    }
    assert_eq!(next_pn, 7);
    // Packet 0: 2400 → 1200 (below 2 MSS: no classic floor); packet 1 was sent before
    // that reduction; then each packet (2, 3, 4, 5, each sent after the last
    // reduction) halves the window the pacer carries: 600, 300,
    // 150, and 150 stays (the floor, MSS/8). cwnd stays 1200 throughout. Pacing (RFC
    // 9002 §7.7): 1.25 · window / 20 ms: 1.25 · 1200 / 0.02 = 75000, 1.25 · 600 / 0.02
    // = 37500, 18750, 9375.
    assert_eq!(
        seen,
        [
            (1_200, 0, 75_000),
            (1_200, 0, 75_000),
            (1_200, 600, 37_500),
            (1_200, 300, 18_750),
            (1_200, 150, 9_375),
            (1_200, 150, 9_375),
        ]
    );
    // At 37500 B/s one 1200-byte packet leaves every 32 ms: 0.625 packets per 20 ms
    // RTT, and at the floor one every 128 ms (0.16 per RTT); the window never stops a
    // packet (cwnd − in flight ≥ MSS once the last is acknowledged).
    assert_eq!(MSS * 1_000_000 / 37_500, 32_000);
    assert_eq!(MSS * 1_000_000 / 9_375, 128_000);
    // An unmarked ACK: one MSS of additive increase on the 150-byte window (the factor
    // is at least 150/1200 of one, so one ACK earns a window): 150 + 1200 = 1350,
    // carried by cwnd again; pacing 1.25 · 1350 / 0.02 = 84375.
    let now = Instant::from_micros(20_000 * 7);
    flow.on_ack(now, &AckEvent::new(MSS, 6, rtt));
    assert_eq!(
        (
            flow.cwnd(),
            flow.growth().sub_mss_window(),
            flow.pacing_rate().as_bytes_per_second()
        ),
        (1_350, 0, 84_375)
    );
}

#[test]
fn prague_scales_its_increase_to_the_reference_rtt() {
    // (srtt / 25 ms)² × 2^16, rounded: 12.5 ms → 1/4 → 16384; 5 ms → 1/25 → 2621.44 →
    // 2621; at or above 25 ms, and without a sample, 65536 (unscaled); 1 µs → 0.0001 →
    // 1 (the smallest factor).
    assert_eq!(rfc::ai_factor(12_500, 25_000), 16_384);
    assert_eq!(rfc::ai_factor(5_000, 25_000), 2_621);
    assert_eq!(rfc::ai_factor(25_000, 25_000), 65_536);
    assert_eq!(rfc::ai_factor(80_000, 25_000), 65_536);
    assert_eq!(rfc::ai_factor(0, 25_000), 65_536);
    assert_eq!(rfc::ai_factor(1, 25_000), 1);

    // A Prague flow at 12 ms with a 24 ms reference RTT (multiples of 8 µs: the
    // smoothed RTT stays exactly 12000), no marks, ACKs 1.2 ms apart. Window 0 ends
    // with the ACK of 9 at 12 + 9 · 1.2 = 22.8 ms, before a reference RTT since the
    // start: alpha waits, and the window goes on to the ACK of 10 at 24 ms, which
    // updates alpha and sets the factor to (12/24)² · 2^16 = 16384.
    let mut c = config(10);
    c.scalable.reference_rtt_us = 24_000;
    let mut s = Clocked::new(Prague::new(c, Instant::ZERO).unwrap(), 12_000);
    let mut dctcp = Clocked::new(Dctcp::new(c, Instant::ZERO).unwrap(), 12_000);
    for pn in 0..10 {
        s.ack(pn, false);
        dctcp.ack(pn, false);
    }
    assert_eq!(s.flow.growth().ai_factor(), 65_536);
    // Ten unscaled ACKs: 10 · 1200 = 12000 = one window: +1200 for both.
    assert_eq!((s.flow.cwnd(), dctcp.flow.cwnd()), (13_200, 13_200));
    s.ack(10, false);
    assert_eq!(s.flow.growth().ai_factor(), 16_384);
    // From the ACK of 10 on, each ACK earns 1200 · 16384 of the 13200 · 65536 a window
    // needs: 44 ACKs (10..=53) per MSS, where DCTCP needs 11 (13200 / 1200).
    for pn in 11..53 {
        s.ack(pn, false);
    }
    assert_eq!(s.flow.cwnd(), 13_200);
    s.ack(53, false);
    assert_eq!(s.flow.cwnd(), 14_400);
    for pn in 10..21 {
        dctcp.ack(pn, false);
    }
    assert_eq!(dctcp.flow.cwnd(), 14_400);
    // Per unit of time: Prague at 12 ms adds 1200 / 4 = 300 bytes per 12 ms round, a
    // rate increase of 300 / 0.012 = 25000 B/s every 12 ms, 2.083 MB/s²; a flow at the
    // 24 ms reference adds 1200 per 24 ms round, 1200 / 0.024 = 50000 B/s every 24 ms:
    // the same 2.083 MB/s². DCTCP at 12 ms adds four times as much.
    assert_eq!(300u64 * 1_000_000 / 12_000 * 1_000_000 / 12_000, 2_083_333);
    assert_eq!(
        1_200u64 * 1_000_000 / 24_000 * 1_000_000 / 24_000,
        2_083_333
    );
}

#[test]
fn sizes() {
    use core::mem::size_of;
    use rfc::{ClassicState, DctcpWindow, NewRenoWindow, PragueWindow};
    println!(
        "DctcpWindow {}, PragueWindow {}; ClassicState<Dctcp> {}, <Prague> {}, <NewReno> {}",
        size_of::<DctcpWindow>(),
        size_of::<PragueWindow>(),
        size_of::<ClassicState<DctcpWindow>>(),
        size_of::<ClassicState<PragueWindow>>(),
        size_of::<ClassicState<NewRenoWindow>>(),
    );
    assert_eq!(size_of::<DctcpWindow>(), 48);
    assert_eq!(size_of::<PragueWindow>(), 72);
    #[cfg(target_pointer_width = "64")]
    {
        assert!(size_of::<ClassicState<DctcpWindow>>() <= 256);
        assert!(size_of::<ClassicState<PragueWindow>>() <= 256);
    }
}

/// A path that marks each packet CE with probability `1/inv_p` (a deterministic
/// xorshift draw), a fixed RTT of 25 ms and no queue: the flow sends up to its window
/// at each ACK frame (frames of at most `frame` packets). Returns the mean CE marks per
/// RTT in thousandths and the mean window in packets over `measure` RTTs after `warmup`
/// RTTs.
fn marks_per_round<C: CongestionController>(
    mut flow: C,
    inv_p: u64,
    seed: u64,
    frame: u64,
    warmup: u64,
    measure: u64,
) -> (u64, u64) {
    const RTT: u64 = 25_000;
    let mut rng = seed | 1;
    let mut queue = std::collections::VecDeque::<(u64, u64, bool)>::new();
    let (mut pn, mut in_flight) = (0u64, 0u64);
    let (mut marks, mut window_sum, mut samples) = (0u64, 0u64, 0u64);
    let mut send = |flow: &mut C,
                    queue: &mut std::collections::VecDeque<(u64, u64, bool)>,
                    in_flight: &mut u64,
                    now: u64| {
        let mut sent = false;
        while *in_flight + MSS <= flow.cwnd().max(MSS) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            queue.push_back((pn, now, rng % inv_p == 0));
            pn += 1;
            *in_flight += MSS;
            sent = true;
        }
        if sent {
            flow.on_sent(
                Instant::from_micros(now),
                &SentEvent::new(*in_flight, pn - 1),
            );
        }
    };
    send(&mut flow, &mut queue, &mut in_flight, 0);
    let end = (warmup + measure) * RTT;
    while let Some(&(_, sent_at, _)) = queue.front() {
        let now = sent_at + RTT;
        if now >= end {
            break;
        }
        // One ACK frame: up to `frame` packets sent at the same time.
        let (mut n, mut ce, mut largest) = (0, 0, 0);
        while let Some(&(p, s, m)) = queue.front() {
            if s != sent_at || n == frame {
                break;
            }
            queue.pop_front();
            n += 1;
            ce += u64::from(m);
            largest = p;
        }
        let t = Instant::from_micros(now);
        if ce > 0 {
            flow.on_ecn(t, &EcnEvent::new(ce, largest));
        }
        in_flight -= n * MSS;
        flow.on_ack(
            t,
            &AckEvent::new(n * MSS, largest, Some(Duration::from_micros(RTT))),
        );
        if now >= warmup * RTT {
            marks += ce;
            window_sum += flow.cwnd();
            samples += 1;
        }
        send(&mut flow, &mut queue, &mut in_flight, now);
    }
    (
        marks * 1_000 / measure.max(1),
        window_sum / samples.max(1) / MSS,
    )
}

/// The settings of a flow starting near its equilibrium for marking probability
/// 1/inv_p, and the ACK frame size (a sixteenth of the window).
fn scalable_config(inv_p: u64) -> (ClassicConfig, u64) {
    // DCTCP's equilibrium: about 2 marks per round, W ≈ 2/p packets; alpha ≈ p.
    let w = 2 * inv_p;
    let mut c = config(w);
    c.scalable.initial_alpha_1024 = (1024 / inv_p).max(1) as u32;
    (c, (w / 16).max(1))
}

#[test]
fn a_classic_flow_needs_ever_fewer_marks_per_round_as_its_rate_grows() {
    // The contrast: NewReno halves per mark, so it holds its window with one mark per
    // sawtooth of W/2 rounds, and its marks per round fall as the rate grows (W ∝
    // 1/√p); a scalable flow's stay a few per round.
    // Started near Reno's equilibrium, W ≈ 1.22/√p packets (RFC 3448's simple model).
    let mut marks = [0; 3];
    // 1.22 · √20 ≈ 5, 1.22 · √2000 ≈ 54, 1.22 · √20000 ≈ 172.
    let paths = [(20u64, 5u64), (2_000, 54), (20_000, 172)];
    for (m, (inv_p, w)) in marks.iter_mut().zip(paths) {
        let reno = NewReno::new(config(w), Instant::ZERO).unwrap();
        *m = marks_per_round(reno, inv_p, 7, (w / 16).max(1), 100, 300).0;
    }
    // About 0.2, 0.03 and 0.01 marks per round (in thousandths here): ever fewer as the
    // window grows, where DCTCP and Prague need about 2 at every rate.
    assert!(
        marks[0] > 5 * marks[1] && marks[1] > 2 * marks[2],
        "{marks:?}"
    );
    assert!(marks[2] < 50, "{marks:?}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(10))]

    /// RFC 9331 §4.3 / RFC 8257: a scalable response holds its window with a few marks
    /// per round whatever the rate. Marking probability p from 1/5 to 1/20000 (windows
    /// of about 10 to 40000 packets, 4000 times apart in rate): the marks per round
    /// that hold the window steady stay between 0.5 and 3 (they approach 2, p·W = 2),
    /// for DCTCP and for Prague (at a 25 ms RTT, its reference), while the window
    /// follows 1/p.
    #[test]
    fn a_few_marks_per_round_hold_the_window_at_any_rate(
        inv_p in 5u64..=20_000,
        seed in proptest::prelude::any::<u64>(),
        prague in proptest::prelude::any::<bool>(),
    ) {
        let (c, frame) = scalable_config(inv_p);
        let (m, w) = if prague {
            marks_per_round(Prague::new(c, Instant::ZERO).unwrap(), inv_p, seed, frame, 100, 300)
        } else {
            marks_per_round(Dctcp::new(c, Instant::ZERO).unwrap(), inv_p, seed, frame, 100, 300)
        };
        proptest::prop_assert!((500..=3_000).contains(&m), "p = 1/{}: {}/1000 marks per round, W = {}", inv_p, m, w);
        // The window is the rate: p · W stays near the marks per round (0.5 to 3).
        proptest::prop_assert!((inv_p / 2..=3 * inv_p).contains(&w), "p = 1/{}: W = {}", inv_p, w);
    }
}

/// Drives `flow` with `steps` random events, odd ones included (CE counts far above the
/// packets acknowledged, zero-byte ACKs, time running backwards, amounts near
/// `u64::MAX`, MSS changes, undo without an event), checking after each what must hold
/// for a scalable flow; returns how many reductions it saw.
fn hostile<W: rfc::WindowAdjustment>(
    mut flow: rfc::Classic<W>,
    seed: u64,
    steps: u32,
    check: impl Fn(&rfc::Classic<W>),
) -> u32 {
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut now, mut pn, mut acked, mut reductions) = (0u64, 0u64, 0u64, 0);
    for _ in 0..steps {
        let r = next();
        // Mostly forwards, sometimes backwards.
        now = if r % 17 == 0 {
            now.saturating_sub(r % 50_000)
        } else {
            now + r % 30_000
        };
        let t = Instant::from_micros(now);
        let amount = match (r >> 8) % 8 {
            0 => 0,
            1 => u64::MAX - (r >> 16) % 3,
            2 => (r >> 16) % (1 << 40),
            _ => MSS * ((r >> 16) % 12),
        };
        let before = flow.cwnd();
        match (r >> 4) % 11 {
            0..=2 => {
                pn += (r >> 20) % 4;
                flow.on_sent(t, &SentEvent::new(amount, pn));
            }
            3..=5 => {
                acked = (acked + (r >> 20) % 5).min(pn);
                let rtt = Duration::from_micros((r >> 24) % 400_000);
                flow.on_ack(t, &AckEvent::new(amount, acked, Some(rtt)));
            }
            6 | 7 => flow.on_ecn(t, &EcnEvent::new(amount % 1_000_000_007, acked)),
            8 => flow.on_loss(t, &LossEvent::packet(amount, acked + (r >> 20) % 3)),
            9 => match (r >> 20) % 4 {
                0 => flow.on_retransmission_timeout(t),
                1 => flow.on_spurious_congestion(t),
                2 => flow.on_ecn(t, &EcnEvent::episode(1 + (r >> 24) % 5)),
                _ => {
                    let _ = flow.set_mss(600 + (r >> 24) % 1_400);
                }
            },
            _ => flow.on_ack(t, &AckEvent::default()),
        }
        if flow.cwnd() < before {
            reductions += 1;
        }
        let _ = (flow.pacing_rate(), flow.send_quantum_bytes());
        check(&flow);
    }
    reductions
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// No panic (tests build with overflow checks) and the invariants hold on any event
    /// stream: alpha within [0, 1], cwnd and ssthresh at least one MSS, Prague's
    /// sub-MSS window either off or below one MSS and at least its floor.
    #[test]
    fn odd_event_streams_keep_alpha_and_the_windows_in_range(seed in proptest::prelude::any::<u64>()) {
        let n = hostile(Dctcp::new(config(10), Instant::ZERO).unwrap(), seed, 3_000, |f| {
            assert!(f.growth().alpha() <= ALPHA_ONE);
            assert!(f.cwnd() >= f.mss_bytes() && f.ssthresh().unwrap_or(u64::MAX) >= f.mss_bytes());
        });
        let m = hostile(Prague::new(config(10), Instant::ZERO).unwrap(), seed, 3_000, |f| {
            let g = f.growth();
            assert!(g.alpha() <= ALPHA_ONE);
            assert!(f.cwnd() >= f.mss_bytes() && f.ssthresh().unwrap_or(u64::MAX) >= f.mss_bytes());
            let sub = g.sub_mss_window();
            assert!(sub == 0 || (sub < f.mss_bytes() && sub >= f.mss_bytes() / 8), "sub-MSS window {sub}");
        });
        proptest::prop_assert!(n > 0 && m > 0, "the streams reduced ({n}, {m})");
    }
}

#[test]
fn any_controller_runs_both_in_bytes() {
    use congestion::AnyController;
    let mut any = [
        AnyController::RfcDctcp(Dctcp::new(config(10), Instant::ZERO).unwrap()),
        AnyController::RfcPrague(Prague::new(config(10), Instant::ZERO).unwrap()),
    ];
    for flow in any.iter_mut() {
        assert_eq!(flow.unit(), congestion::WindowUnit::Bytes);
        flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 9));
        // One CE on the ACK of packet 0, alpha 1: 12000 → 6000 in both.
        let ack = AckEvent::new(MSS, 0, Some(Duration::from_millis(20))).with_ce(1);
        flow.on_ack(Instant::from_micros(20_000), &ack);
        assert_eq!((flow.cwnd(), flow.phase()), (6_000, Phase::Recovery));
    }
    // Held inline: the enum is no larger for them (a flow owning its parameters, 384).
    assert!(core::mem::size_of::<Prague>() <= core::mem::size_of::<rfc::Cubic>());
    assert!(core::mem::size_of::<Dctcp>() <= core::mem::size_of::<rfc::Cubic>());
}
