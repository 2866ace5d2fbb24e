//! The Linux-mode BBR, BBRv3, DCTCP and Prague controllers under hostile trait input:
//! random events in random order, amounts up to `u64::MAX`, time going backwards,
//! snapshots handed back twice, never, or made up. Nothing may panic (the tests build
//! with overflow checks), and the flight never exceeds what was reported sent.

use congestion::linux::dctcp::DctcpConfig;
use congestion::linux::prague::PragueConfig;
use congestion::linux::tcp::TcpSysctl;
use congestion::linux::{
    Bbr3Config, Bbr3Controller, BbrConfig, BbrController, DctcpController, PragueController,
    RandomFn, TcpSocketConfig,
};
use congestion::{
    AckEvent, AckedPacket, AnyController, CongestionController, Duration, EcnEvent, Instant,
    LossEvent, SentEvent, TxSnapshot,
};

/// A test's xorshift generator: the events' source, not the flows'.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn amount(&mut self) -> u64 {
        match self.below(8) {
            0 => 0,
            1 => u64::MAX - self.below(3),
            2 => u64::from(u32::MAX) + self.below(3),
            _ => self.below(40),
        }
    }
}

fn host_random(ceil: u32) -> u32 {
    ceil / 2
}

fn controllers() -> Vec<AnyController> {
    let t0 = Instant::from_micros(1_000_000);
    let rand = RandomFn(host_random);
    let mut bbr = BbrConfig::new();
    bbr.initial_rtt_us = 10_000;
    let mut bbr3 = Bbr3Config::new();
    bbr3.initial_rtt_us = 10_000;
    bbr3.ecn = true;
    let socket = TcpSocketConfig::new();
    let sysctl = TcpSysctl::new();
    vec![
        AnyController::LinuxBbr(BbrController::new(bbr, t0, rand).unwrap()),
        AnyController::LinuxBbr3(Bbr3Controller::new(bbr3, t0, rand).unwrap()),
        AnyController::LinuxDctcp(
            DctcpController::new(
                DctcpConfig::new().validate().unwrap(),
                sysctl,
                &socket,
                t0,
                rand,
            )
            .unwrap(),
        ),
        AnyController::LinuxPrague(
            PragueController::new(
                PragueConfig::new().validate().unwrap(),
                sysctl,
                &socket,
                t0,
                rand,
            )
            .unwrap(),
        ),
    ]
}

#[test]
fn random_trait_events_never_panic() {
    for seed in 1..=40u64 {
        for mut flow in controllers() {
            let mut g = Xorshift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let mut now_us: u64 = 1_000_000;
            let mut kept: Vec<(Instant, TxSnapshot)> = Vec::new();
            let mut seq = 0u64;
            let mut max_flight = 0;
            for _ in 0..600 {
                // Time mostly advances, sometimes jumps hours, sometimes runs backwards.
                now_us = match g.below(20) {
                    0 => now_us.saturating_sub(g.below(50_000)),
                    1 => now_us.saturating_add(3_600_000_000),
                    _ => now_us.saturating_add(g.below(2_000)),
                };
                let now = Instant::from_micros(now_us);
                let rtt = (g.below(4) > 0).then(|| Duration::from_micros(g.below(100_000)));
                match g.below(11) {
                    0..=2 => {
                        seq = seq.wrapping_add(g.below(3));
                        let after = flow.in_flight().saturating_add(g.amount().min(64));
                        let snap = flow.on_packet_sent(now, &SentEvent::new(after, seq));
                        kept.push((now, snap));
                    }
                    3..=4 => {
                        // The newest packet, an old one again, or a made-up snapshot.
                        let packet = match kept.get(g.below(kept.len() as u64 + 1) as usize) {
                            Some(&(t, s)) => AckedPacket::new(t, s),
                            None => AckedPacket::default(),
                        };
                        let ack = AckEvent::new(g.amount(), g.next() >> g.below(64), rtt)
                            .with_ce(g.amount())
                            .with_app_limited(g.below(5) == 0);
                        flow.on_ack_sampled(now, &ack, &packet);
                    }
                    5 => flow.on_ack(now, &AckEvent::new(g.amount(), seq, rtt)),
                    6 => {
                        let snap = kept.last().map_or(TxSnapshot::default(), |k| k.1);
                        let loss = LossEvent::packet(g.amount(), seq)
                            .with_persistent_congestion(g.below(10) == 0);
                        flow.on_packet_lost(now, &loss, &snap);
                    }
                    7 => flow.on_ecn(now, &EcnEvent::new(g.amount(), seq)),
                    8 => flow.on_retransmission_timeout(now),
                    9 => flow.on_spurious_congestion(now),
                    _ => flow.on_discarded(now, g.amount()),
                }
                let _ = (
                    flow.cwnd(),
                    flow.ssthresh(),
                    flow.phase(),
                    flow.pacing_rate(),
                );
                let _ = (flow.send_quantum_bytes(), flow.min_tso_segs());
                assert!(flow.cwnd() >= 1, "cwnd fell to 0");
                max_flight = max_flight.max(flow.in_flight());
            }
            // The events did drive the flow: something was in flight at some point.
            assert!(max_flight > 0);
        }
    }
}
