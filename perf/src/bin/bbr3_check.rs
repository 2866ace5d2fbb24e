//! Prints, for `linux::Bbr3` on one BBR stream (perf/src/bbr), the check line that
//! perf/kernel/bbr3_stream.c prints for Google's C under `BBR_STREAM_CHECK` (same
//! format): ACKs per phase, PROBE_RTT entries, losses in whole cycles, and cwnd and
//! pacing rate summed after every ACK. `COMPARE=1 scripts/kernel-bbr3.sh` runs both and
//! requires equal lines: then the C and ours took the same path. A binary of its own so
//! that `count` (measured under callgrind) keeps its code layout.
//!
//! ```text
//! bbr3_check <bbr-steady|bbr-probertt> <n>
//! ```

use congestion::linux::bbr3::Mode;
use congestion_perf::bbr::{BbrController, BbrRegime, BbrStream, OursBbr3};
use std::process::ExitCode;

const NAMES: [&str; 7] = [
    "STARTUP",
    "DRAIN",
    "UP",
    "DOWN",
    "CRUISE",
    "REFILL",
    "PROBE_RTT",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, scenario, n] = args.as_slice() else {
        eprintln!("usage: bbr3_check <bbr-steady|bbr-probertt> <n>");
        return ExitCode::from(2);
    };
    let regime = match scenario.as_str() {
        "bbr-steady" => BbrRegime::Steady,
        "bbr-probertt" => BbrRegime::ProbeRttLoss,
        other => {
            eprintln!("unknown BBR scenario {other}");
            return ExitCode::from(2);
        }
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("n must be a number");
        return ExitCode::from(2);
    };
    let mut stream = BbrStream::new(OursBbr3::new(), regime);
    let (mut acks, mut entries, mut was) = ([0u32; 7], 0u32, false);
    let (mut cwnd_sum, mut rate_sum) = (0u64, 0u64);
    let (mut losses, mut cycle_start, mut last) = (0, stream.live().losses(), 0);
    for _ in 0..n {
        stream.step();
        if stream.acks_in_cycle() == 0 {
            // The restore: the cycle's losses, counted before it put the counter back.
            losses += last - cycle_start;
            cycle_start = stream.live().losses();
        }
        last = stream.live().losses();
        let flow = stream.live().flow();
        let phase = match flow.mode() {
            Mode::Startup => 0,
            Mode::Drain => 1,
            Mode::ProbeBw => 2 + flow.bbr().cycle_idx as usize,
            Mode::ProbeRtt => 6,
        };
        acks[phase] += 1;
        entries += u32::from(phase == 6 && !was);
        was = phase == 6;
        cwnd_sum = cwnd_sum.wrapping_add(u64::from(flow.cwnd()));
        rate_sum = rate_sum.wrapping_add(flow.pacing_rate());
    }
    let by_phase: String = NAMES
        .iter()
        .zip(acks)
        .map(|(name, a)| format!(" {name} {a}"))
        .collect();
    println!(
        "ours {scenario} {n}: final cwnd {}, losses in whole cycles {losses}, PROBE_RTT entries {entries}, ACKs by phase:{by_phase}; sums after each ACK: cwnd {cwnd_sum}, pacing rate {rate_sum}",
        stream.live().flow().cwnd()
    );
    ExitCode::SUCCESS
}
