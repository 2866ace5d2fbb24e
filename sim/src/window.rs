//! Socket buffers and the window they allow.
//!
//! - Fixed (`-w BYTES`, as nuttcp's `setsockopt`): Linux doubles the request, and
//!   `tcp_adv_win_scale = 2` (kernels of 2011) leaves 3/4 of the receive buffer as
//!   window. Seed 004 shows the doubling: "-w5m ... send window size = 10485760".
//! - Autotuning: the receiver's window starts at 3/4 of `tcp_rmem[1]` (87380 B) and,
//!   once per RTT, grows to twice what was delivered in the last RTT (Linux
//!   `tcp_rcv_space_adjust`, roughly doubling per RTT in slow start), up to 3/4 of the
//!   maximum. The receiver's RTT estimate is the sender's smoothed RTT (Linux's
//!   `tcp_rcv_rtt_measure_ts` measures the same round trip from TCP timestamps), or
//!   the path's base RTT before the first sample. The send buffer grows with cwnd
//!   (`tcp_sndbuf_expand`) and so only its maximum can bind.
//! - A 2.6.35 receiver ([`SimConfig::receiver_hz`]) counts the epoch in jiffies: it
//!   ends once `rtt >> 3` ticks have begun since it started, with `rtt` its RTT
//!   estimate in jiffies ×8 (`tcp_rcv_rtt_update` of `tcp_time_stamp - rcv_tsecr`),
//!   modelled as the smoothed RTT in whole ticks. At 18 ms and HZ=250 that is 4 ticks:
//!   an epoch of 12–16 ms, not 18.

use crate::config::{ADV_WIN_SCALE, SKB_OVERHEAD_BYTES, SimConfig, WindowMode};

/// Linux `tcp_rmem[1]`: the initial receive buffer.
const RMEM_DEFAULT_BYTES: u64 = 87_380;

fn usable(buffer_bytes: u64) -> u64 {
    // Linux tcp_win_from_space(): space - space >> tcp_adv_win_scale
    buffer_bytes - (buffer_bytes >> ADV_WIN_SCALE)
}

/// The receive window the receiver advertises, in segments.
#[derive(Clone, Debug)]
pub struct ReceiveWindow {
    mss: u64,
    window_bytes: u64,
    max_bytes: u64,
    autotune: bool,
    rtt_ns: u64,
    epoch_start_ns: u64,
    epoch_segments: u64,
    /// `Some((tick, offset))`: epochs count jiffies of `tick` ns on a clock `offset` ns
    /// ahead of the simulation's.
    jiffies: Option<(u64, u64)>,
}

impl ReceiveWindow {
    /// The receive window of `cfg`'s receiver.
    pub fn new(cfg: &SimConfig) -> Self {
        let (start, max, autotune) = match cfg.window {
            WindowMode::Fixed(req) => (usable(2 * req), usable(2 * req), false),
            WindowMode::Auto { max_bytes } => (
                usable(RMEM_DEFAULT_BYTES).min(usable(max_bytes)),
                usable(max_bytes),
                true,
            ),
        };
        ReceiveWindow {
            mss: u64::from(cfg.mss()),
            window_bytes: start,
            max_bytes: max,
            autotune,
            rtt_ns: cfg.rtt_ns.max(1),
            epoch_start_ns: 0,
            epoch_segments: 0,
            jiffies: cfg
                .receiver_hz
                .map(|hz| (1_000_000_000 / u64::from(hz.max(1)), cfg.uptime_ns)),
        }
    }

    /// `segments` were delivered in order at `now_ns`.
    // Linux net/ipv4/tcp_input.c tcp_rcv_space_adjust(): rcvwin = 2 * copied (per RTT)
    pub fn on_delivered(&mut self, now_ns: u64, segments: u32, rtt_ns: u64) {
        if !self.autotune {
            return;
        }
        self.epoch_segments += u64::from(segments);
        let rtt_ns = if rtt_ns == 0 { self.rtt_ns } else { rtt_ns };
        if self.epoch_over(now_ns, rtt_ns) {
            let want = 2 * self.epoch_segments * self.mss;
            self.window_bytes = self.window_bytes.max(want.min(self.max_bytes));
            self.epoch_start_ns = now_ns;
            self.epoch_segments = 0;
        }
    }

    /// Whether an RTT of `rtt_ns` has passed since the epoch began, on the receiver's
    /// clock.
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_rcv_space_adjust():
    // time = tcp_time_stamp - rcvq_space.time; if (time < rcv_rtt_est.rtt >> 3) return
    fn epoch_over(&self, now_ns: u64, rtt_ns: u64) -> bool {
        match self.jiffies {
            None => now_ns >= self.epoch_start_ns + rtt_ns,
            Some((tick, offset)) => {
                let rtt_jiffies = (rtt_ns / tick).max(1);
                let now = (now_ns + offset) / tick;
                let start = (self.epoch_start_ns + offset) / tick;
                now - start >= rtt_jiffies
            }
        }
    }

    /// The advertised window, whole segments (at least 1).
    pub fn segments(&self) -> u32 {
        (self.window_bytes / self.mss).clamp(1, u64::from(u32::MAX)) as u32
    }
}

/// The most segments the sender's socket buffer can hold (unacked + unsent), charged
/// at truesize: `sndbuf / (mss + overhead)`.
pub fn send_buffer_segments(cfg: &SimConfig) -> u32 {
    let sndbuf = match cfg.window {
        WindowMode::Fixed(req) => 2 * req,
        WindowMode::Auto { max_bytes } => max_bytes,
    };
    let truesize = u64::from(cfg.mss() + SKB_OVERHEAD_BYTES);
    (sndbuf / truesize).clamp(2, u64::from(u32::MAX)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_buffer_is_doubled_and_three_quarters_of_it_is_window() {
        let mut cfg = SimConfig::new();
        cfg.mtu = 9000;
        cfg.window = WindowMode::Fixed(100 << 20);
        // 2 * 100 MiB * 3/4 = 157286400 B / 8948 = 17577 segments.
        assert_eq!(ReceiveWindow::new(&cfg).segments(), 17_577);
        // Send buffer: 2 * 100 MiB / (8948 + 768) = 21584 segments.
        assert_eq!(send_buffer_segments(&cfg), 21_584);
    }

    #[test]
    fn autotuning_grows_to_twice_an_rtt_of_data_up_to_the_maximum() {
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Auto { max_bytes: 1 << 20 };
        cfg.rtt_ns = 10_000_000;
        let mut w = ReceiveWindow::new(&cfg);
        // 87380 * 3/4 = 65535 B: 45 segments of 1448.
        assert_eq!(w.segments(), 45);
        // 100 segments in the first RTT: 2 * 100 * 1448 = 289600 B = 200 segments.
        w.on_delivered(5_000_000, 100, 0);
        w.on_delivered(10_000_000, 0, 0);
        assert_eq!(w.segments(), 200);
        // 1000 segments in the next: capped at 3/4 MiB = 786432 B = 543 segments.
        w.on_delivered(20_000_000, 1000, 10_000_000);
        assert_eq!(w.segments(), 543);
    }

    /// 2.6.35 at HZ=250: an 18 ms RTT is 4 whole ticks, so an epoch ends at the 4th
    /// tick boundary after it began: 16 ms after a start on a tick, 15.5 ms after one
    /// 0.5 ms into a tick; never 18 ms.
    #[test]
    fn a_2635_receiver_counts_its_epochs_in_jiffies() {
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Auto { max_bytes: 1 << 30 };
        cfg.rtt_ns = 18_000_000;
        cfg.receiver_hz = Some(250);
        cfg.uptime_ns = 1_000_000_000_000;
        let mut w = ReceiveWindow::new(&cfg);
        let start = w.segments();
        assert_eq!(start, 45, "87380 * 3/4 B of 1448-byte segments");
        // The first epoch starts at 0 (on a tick); it ends at 16 ms, 4 ticks on.
        w.on_delivered(15_999_999, 100, 18_000_000);
        assert_eq!(w.segments(), start, "3 ticks: not yet");
        w.on_delivered(16_000_000, 0, 18_000_000);
        assert_eq!(w.segments(), 200);
        // The next began at 16 ms; 200 delivered by 31.9 ms: 3 tick boundaries only.
        w.on_delivered(16_500_000, 200, 18_000_000);
        w.on_delivered(31_999_999, 0, 18_000_000);
        assert_eq!(w.segments(), 200);
        w.on_delivered(32_000_000, 0, 18_000_000);
        assert_eq!(w.segments(), 400);
        // In ns (today's receiver) the same epoch would end only at 16 + 18 ms.
        cfg.receiver_hz = None;
        let mut ns = ReceiveWindow::new(&cfg);
        ns.on_delivered(16_000_000, 100, 18_000_000);
        assert_eq!(ns.segments(), start, "16 ms < 18 ms");
        ns.on_delivered(18_000_000, 0, 18_000_000);
        assert_eq!(ns.segments(), 200);
    }
}
