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
