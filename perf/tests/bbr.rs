//! Each BBR stream reaches the state it claims, for every controller it measures
//! (`perf/src/bbr`): the steady stream keeps every BBR in PROBE_BW for whole cycles
//! without loss; the PROBE_RTT stream enters PROBE_RTT exactly once per cycle, leaves
//! it again, and delivers every one of its 10 losses to the controller.

use congestion_perf::bbr::{
    BbrController, BbrRegime, BbrStream, LOSS_EVERY_ACKS, OursBbr, OursBbr3, PROBE_RTT_CYCLE_ACKS,
    Phase, QuinnBbr, S2nBbr, STEADY_CYCLE_ACKS,
};

/// Per cycle: ACKs spent in each phase, PROBE_RTT entries, losses delivered.
#[derive(Debug, Default, PartialEq)]
struct Cycle {
    probe_bw_acks: u32,
    probe_rtt_acks: u32,
    other_acks: u32,
    probe_rtt_entries: u32,
    /// Time in PROBE_RTT, µs.
    probe_rtt_us: u64,
    losses: u32,
    min_cwnd: u32,
    max_cwnd: u32,
}

fn cycles<C: BbrController>(fresh: C, regime: BbrRegime, cycles: u32) -> Vec<Cycle> {
    let mut stream = BbrStream::new(fresh, regime);
    let mut out = Vec::new();
    for _ in 0..cycles {
        assert_eq!(stream.acks_in_cycle(), 0);
        let mut c = Cycle {
            min_cwnd: u32::MAX,
            ..Cycle::default()
        };
        let losses_before = stream.live().losses();
        let mut last = stream.live().phase();
        let mut entered_us = 0;
        for _ in 0..stream.cycle_acks() {
            let losses = stream.live().losses();
            stream.step();
            if stream.acks_in_cycle() == 0 {
                // The restore: the last ACK's phase was read before it; count the
                // losses the cycle delivered (the restore puts the counter back).
                c.losses += stream.live().losses().max(losses) - losses_before;
                break;
            }
            let phase = stream.live().phase();
            match phase {
                Phase::ProbeBw => c.probe_bw_acks += 1,
                Phase::ProbeRtt => c.probe_rtt_acks += 1,
                _ => c.other_acks += 1,
            }
            if phase == Phase::ProbeRtt && last != Phase::ProbeRtt {
                c.probe_rtt_entries += 1;
                entered_us = stream.now_us();
            }
            if phase != Phase::ProbeRtt && last == Phase::ProbeRtt {
                c.probe_rtt_us += stream.now_us() - entered_us;
            }
            last = phase;
            let cwnd = stream.live().cwnd_packets();
            c.min_cwnd = c.min_cwnd.min(cwnd);
            c.max_cwnd = c.max_cwnd.max(cwnd);
        }
        out.push(c);
    }
    out
}

fn check_steady<C: BbrController>(fresh: C) {
    let name = fresh.name();
    for c in cycles(fresh, BbrRegime::Steady, 2) {
        eprintln!("{name} steady: {c:?}");
        assert_eq!(c.probe_bw_acks, STEADY_CYCLE_ACKS - 1, "{name}: {c:?}");
        assert_eq!(c.probe_rtt_entries, 0, "{name}");
        assert_eq!(c.losses, 0, "{name}");
    }
}

fn check_probe_rtt<C: BbrController>(fresh: C) {
    let name = fresh.name();
    for c in cycles(fresh, BbrRegime::ProbeRttLoss, 2) {
        eprintln!("{name} PROBE_RTT + loss: {c:?}");
        assert_eq!(c.probe_rtt_entries, 1, "{name}: {c:?}");
        assert!(
            c.probe_rtt_us >= 200_000,
            "{name}: 200 ms in PROBE_RTT: {c:?}"
        );
        assert!(
            c.probe_bw_acks > c.probe_rtt_acks,
            "{name}: back in PROBE_BW: {c:?}"
        );
        assert_eq!(
            c.losses,
            PROBE_RTT_CYCLE_ACKS / LOSS_EVERY_ACKS,
            "{name}: every loss delivered: {c:?}"
        );
    }
}

#[test]
fn bbr_v1_streams_reach_their_states() {
    check_steady(OursBbr::new());
    check_probe_rtt(OursBbr::new());
}

#[test]
fn bbr3_streams_reach_their_states() {
    check_steady(OursBbr3::new());
    check_probe_rtt(OursBbr3::new());
}

#[test]
fn quinn_bbr_streams_reach_their_states() {
    check_steady(QuinnBbr::new());
    check_probe_rtt(QuinnBbr::new());
}

#[test]
fn s2n_bbr_streams_reach_their_states() {
    check_steady(S2nBbr::new());
    check_probe_rtt(S2nBbr::new());
}
