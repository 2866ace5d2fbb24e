//! `ccsim l4s`: the point of L4S on one path. TCP Prague and CUBIC, one flow at a time,
//! cross the same RFC 9332 DualQ bottleneck with Linux `dualpi2`'s defaults (no
//! parameter set per run): Prague's ECT(1) packets take the L queue with its 1 ms step,
//! CUBIC's ECT(0) ones the classic queue under PI2 (target 15 ms); a third run sends
//! CUBIC without ECN, so the classic queue drops instead of marking.
//!
//! The path: 100 Mbit/s, 20 ms base RTT, 1500-byte MTU, a 1 Gbit/s sender NIC (so the
//! queue builds at the bottleneck, not in the host), dualpi2's limit of 10000 packets,
//! today's Linux host and autotuning. 10 s of bulk data; the queueing delay (each
//! packet's sojourn before dequeue) and utilisation (the share of time the bottleneck
//! is busy) are measured from 2 s on, after slow start.

use crate::aqm::DUALPI2_LIMIT_PACKETS;
use crate::cli::PresetArgs;
use crate::config::{Amount, AqmKind, CcKind, SimConfig};
use crate::presets::{Case, Outcome, plot, print_stats, run_all};
use crate::report::mbps;

/// The bottleneck, bit/s.
pub const RATE_BPS: u64 = 100_000_000;
/// The base RTT, ns.
pub const RTT_NS: u64 = 20_000_000;
/// Run length, ns.
pub const RUN_NS: u64 = 10_000_000_000;
/// Statistics count packets reaching the bottleneck from here on, ns.
pub const MEASURE_FROM_NS: u64 = 2_000_000_000;
/// Done-when of the L4S issue: Prague's mean queueing delay at most this, ms.
pub const PRAGUE_MAX_DELAY_MS: f64 = 2.0;
/// Done-when of the L4S issue: Prague uses at least this share of the bottleneck.
pub const PRAGUE_MIN_UTILISATION: f64 = 0.90;

/// One run of the preset: `cc` with ECN `ecn` on the DualQ path.
pub fn config(cc: CcKind, ecn: bool) -> SimConfig {
    let mut c = SimConfig::new();
    c.rate_bps = RATE_BPS;
    c.nic_rate_bps = 1_000_000_000;
    c.rtt_ns = RTT_NS;
    c.mtu = 1500;
    c.buffer_bytes = DUALPI2_LIMIT_PACKETS * u64::from(c.wire_bytes());
    c.amount = Amount::TimeNs(RUN_NS);
    c.cc = cc;
    c.ecn = ecn;
    c.aqm = AqmKind::DualQ;
    c.measure_from_ns = MEASURE_FROM_NS;
    c.interval_ns = Some(1_000_000_000);
    c
}

/// What one run showed from [`MEASURE_FROM_NS`] on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figures {
    /// Mean queueing delay at the bottleneck, ms.
    pub delay_ms: f64,
    /// Share of the measured time the bottleneck was busy.
    pub utilisation: f64,
    /// Goodput over the whole run, Mbit/s.
    pub goodput_mbps: f64,
}

/// The figures of one outcome.
pub fn figures(o: &Outcome) -> Figures {
    let s = &o.summary;
    let measured_ns = s.duration_ns.saturating_sub(MEASURE_FROM_NS).max(1);
    Figures {
        delay_ms: s.link.mean_sojourn_ns() / 1e6,
        utilisation: s.link.busy_ns as f64 / measured_ns as f64,
        goodput_mbps: mbps(s.bytes, s.duration_ns),
    }
}

/// The preset's verdict lines, from the Prague and CUBIC (ECN) runs.
pub fn verdicts(prague: Figures, cubic: Figures) -> Vec<String> {
    let holds = |ok: bool| if ok { "holds" } else { "DOES NOT HOLD" };
    vec![
        format!(
            "l4s verdict, Prague: mean queueing delay {:.3} ms (at most {PRAGUE_MAX_DELAY_MS} ms: \
             {}), utilisation {:.1} % (at least {:.0} %: {})",
            prague.delay_ms,
            holds(prague.delay_ms <= PRAGUE_MAX_DELAY_MS),
            prague.utilisation * 100.0,
            PRAGUE_MIN_UTILISATION * 100.0,
            holds(prague.utilisation >= PRAGUE_MIN_UTILISATION),
        ),
        format!(
            "l4s verdict, CUBIC in the classic queue: mean queueing delay {:.3} ms ({:.0}x \
             Prague's), utilisation {:.1} %",
            cubic.delay_ms,
            cubic.delay_ms / prague.delay_ms.max(1e-9),
            cubic.utilisation * 100.0,
        ),
    ]
}

/// Run the preset and print the comparison.
pub fn run(args: &PresetArgs) -> Result<(), String> {
    let runs = [
        ("prague, ECT(1): L queue", CcKind::Prague, true),
        ("cubic, ECT(0): classic queue", CcKind::Linux, true),
        ("cubic, not-ECT: classic queue", CcKind::Linux, false),
    ];
    let cases = runs
        .iter()
        .map(|&(label, cc, ecn)| Case {
            label: label.into(),
            cfg: args.apply_host(config(cc, ecn)),
        })
        .collect();
    let outcomes = run_all(args, cases)?;
    crate::say!(
        "l4s: one flow at a time, 100 Mbit/s, 20 ms, 1500-byte MTU, 1 Gbit/s NIC; RFC 9332 \
         DualQ with Linux dualpi2's defaults (target 15 ms, tupdate 16 ms, alpha 0.16, beta \
         3.2, k 2, L4S step 1 ms, limit 10000 packets); 10 s runs, delay and utilisation \
         from 2 s on"
    );
    for o in &outcomes {
        let f = figures(o);
        let s = &o.summary;
        crate::say!(
            "{:<30} {:>7.2} Mbps goodput, utilisation {:>5.1} %, mean queueing delay {:>7.3} ms, \
             {} CE marks, {} AQM drops, {} retrans",
            o.label,
            f.goodput_mbps,
            f.utilisation * 100.0,
            f.delay_ms,
            s.ce_marks,
            s.aqm_drops,
            s.retrans
        );
    }
    for line in verdicts(figures(&outcomes[0]), figures(&outcomes[1])) {
        crate::say!("{line}");
    }
    plot(
        &args.out,
        "l4s-dualq.svg",
        "l4s: Prague (L queue) and CUBIC (classic queue) alone on one DualQ path, \
         100 Mbit/s, 20 ms",
        &outcomes.iter().collect::<Vec<_>>(),
        &[],
    )?;
    if args.stats {
        print_stats(&outcomes);
    }
    Ok(())
}
