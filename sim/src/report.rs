//! Output in nuttcp's words (seed 000): MB = 2^20 bytes, Mbps = 10^6 bit/s.

use crate::probe::IntervalReport;
use crate::sim::Summary;

const MB: f64 = (1u64 << 20) as f64;

/// `%.4f MB / %.2f sec = %.4f Mbps %d retrans`
pub fn interval_line(r: &IntervalReport) -> String {
    let secs = r.duration_ns as f64 / 1e9;
    format!(
        "{:.4} MB / {:.2} sec = {:.4} Mbps {} retrans",
        r.bytes as f64 / MB,
        secs,
        mbps(r.bytes, r.duration_ns),
        r.retrans
    )
}

/// `%.4f MB / %.2f sec = %.4f Mbps %d retrans %.2f msRTT`, msRTT as nuttcp measures it:
/// the handshake on the idle path, not the transfer's RTT samples.
pub fn summary_line(s: &Summary) -> String {
    format!(
        "{:.4} MB / {:.2} sec = {:.4} Mbps {} retrans {:.2} msRTT",
        s.bytes as f64 / MB,
        s.duration_ns as f64 / 1e9,
        mbps(s.bytes, s.duration_ns),
        s.retrans,
        s.handshake_rtt_ns as f64 / 1e6
    )
}

/// `limited by: WHAT P % of the time, WHAT P %, ...`: what held the sender back (see
/// [`crate::limits`]), longest first, as shares of the time it had data to send: the
/// receive window, the send buffer, the application, or the path, whose own reasons
/// (congestion window, pacing, TSQ, qdisc, TSO deferral) follow in parentheses.
/// Shares under 0.05 % are left out.
pub fn limits_line(s: &Summary) -> String {
    let ranked = s.limits.ranked();
    let total: u64 = ranked.iter().map(|&(_, ns)| ns).sum();
    if total == 0 {
        return "limited by: nothing (no time with data to send)".into();
    }
    let pct = |ns: u64| ns as f64 * 100.0 / total as f64;
    let path: Vec<_> = ranked.iter().filter(|(l, _)| l.is_path()).collect();
    let path_ns: u64 = path.iter().map(|&&(_, ns)| ns).sum();
    let mut parts: Vec<(u64, &str, String)> = ranked
        .iter()
        .filter(|(l, _)| !l.is_path())
        .map(|&(l, ns)| (ns, l.describe(), String::new()))
        .collect();
    if path_ns > 0 {
        let inner: Vec<String> = path
            .iter()
            .filter(|&&&(_, ns)| pct(ns) >= 0.05)
            .map(|&&(l, ns)| format!("{} {:.1} %", l.describe(), pct(ns)))
            .collect();
        parts.push((path_ns, "the path", format!(" ({})", inner.join(", "))));
    }
    // Stable: equal times keep the order above.
    parts.sort_by_key(|p| std::cmp::Reverse(p.0));
    let shown: Vec<String> = parts
        .iter()
        .filter(|(ns, _, _)| pct(*ns) >= 0.05)
        .enumerate()
        .map(|(i, (ns, name, detail))| {
            let of_the_time = if i == 0 { " of the time" } else { "" };
            format!("{name} {:.1} %{of_the_time}{detail}", pct(*ns))
        })
        .collect();
    format!("limited by: {}", shown.join(", "))
}

/// Megabits per second.
pub fn mbps(bytes: u64, duration_ns: u64) -> f64 {
    if duration_ns == 0 {
        0.0
    } else {
        bytes as f64 * 8e3 / duration_ns as f64
    }
}

/// The `--stats` line: events, wall time, events per second, packets, and the mean of
/// the sender's RTT samples (queueing included, unlike msRTT).
pub fn stats_line(s: &Summary, wall: std::time::Duration) -> String {
    let secs = wall.as_secs_f64().max(1e-9);
    format!(
        "stats: {} events in {:.3} s = {:.2} M events/s; {} packets sent, {} tail drops, {} random drops, {} loss events, {} RTOs, {} CWR (qdisc full); mean RTT sample {:.2} ms",
        s.events,
        secs,
        s.events as f64 / secs / 1e6,
        s.segments_sent,
        s.tail_drops,
        s.random_drops,
        s.sender.loss_events,
        s.sender.rtos,
        s.sender.local_congestion,
        s.mean_rtt_ns / 1e6
    ) + &aqm_part(s)
}

/// The AQM's share of the `--stats` line: its marks and drops and the bottleneck's
/// mean queueing delay (empty with drop tail and nothing marked).
fn aqm_part(s: &Summary) -> String {
    if s.ce_marks == 0 && s.aqm_drops == 0 && s.sender.ce_marked == 0 {
        return String::new();
    }
    format!(
        "; AQM: {} CE marks, {} drops; {} CE-marked segments echoed, {} classic ECN reductions; mean bottleneck queueing delay {:.3} ms",
        s.ce_marks,
        s.aqm_drops,
        s.sender.ce_marked,
        s.sender.ecn_reductions,
        s.link.mean_sojourn_ns() / 1e6
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_match_nuttcps_format() {
        let r = IntervalReport {
            bytes: 1181 << 20,
            duration_ns: 1_000_000_000,
            retrans: 0,
        };
        // 1181 * 2^20 * 8 / 1e6 = 1181 * 8.388608 = 9906.946048 Mbps
        assert_eq!(
            interval_line(&r),
            "1181.0000 MB / 1.00 sec = 9906.9460 Mbps 0 retrans"
        );
    }
}
