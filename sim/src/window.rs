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
//! - A 2.6.35 receiver times the same epochs in jiffies against its own RTT estimate
//!   ([`crate::rcv_rtt`]): an epoch ends once `rcv_rtt_est.rtt >> 3` jiffies have
//!   passed since it began, and never while the estimate is still 0 (no sample yet);
//!   data read meanwhile all counts towards the next growth
//!   ([`on_delivered_jiffies`](ReceiveWindow::on_delivered_jiffies)). Its clamp starts
//!   one segment below the buffer's window (`tcp_init_buffer_space`) and moves only when
//!   twice the read needs a bigger buffer (`space > sk_rcvbuf`).

use crate::config::{ADV_WIN_SCALE, DEFAULT_RMEM_BYTES, SKB_OVERHEAD_BYTES, SimConfig, WindowMode};

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
    /// Jiffies the epoch began (`rcvq_space.time`), 2.6.35 receiver; `None`: the first
    /// read starts it.
    epoch_start_jiffies: Option<u32>,
    /// The window scale the receiver offers in its SYN-ACK (`rx_opt.rcv_wscale`).
    wscale: u32,
    /// The window of the buffer an autotuned receiver starts with (3/4 of
    /// `tcp_rmem[1]`), which a 2.6.35 receiver's buffer must outgrow before its clamp
    /// moves.
    start_buffer_window: u64,
}

/// The window scale Linux offers for a receive buffer that may grow to `space` bytes.
// Linux 2.6.35 net/ipv4/tcp_output.c tcp_select_initial_window(): halve
// max(tcp_rmem[2], rmem_max) until it fits in 16 bits, at most 14 times
pub fn window_scale_for(space: u64) -> u32 {
    let mut space = space.min(65_535 << 14);
    let mut wscale = 0;
    while space > 65_535 && wscale < 14 {
        space >>= 1;
        wscale += 1;
    }
    wscale
}

impl ReceiveWindow {
    /// The receive window of `cfg`'s receiver.
    pub fn new(cfg: &SimConfig) -> Self {
        let rmem = cfg.rmem_default_bytes.unwrap_or(DEFAULT_RMEM_BYTES);
        let (mut start, mut max, autotune) = match cfg.window {
            WindowMode::Fixed(req) => (usable(2 * req), usable(2 * req), false),
            WindowMode::Auto { max_bytes } => {
                (usable(rmem).min(usable(max_bytes)), usable(max_bytes), true)
            }
        };
        let mss = u64::from(cfg.mss());
        if cfg.receiver_hz.is_some() && start > 2 * mss {
            // A 2.6.35 receiver reserves one segment of the buffer's window.
            // Linux 2.6.35 net/ipv4/tcp_input.c tcp_init_buffer_space() (tcp_app_win
            // = 31): window_clamp = max(2 * advmss, maxwin - advmss)
            start -= mss;
            if !autotune {
                max = start;
            }
        }
        ReceiveWindow {
            mss,
            window_bytes: start,
            max_bytes: max,
            autotune,
            rtt_ns: cfg.rtt_ns.max(1),
            epoch_start_ns: 0,
            epoch_segments: 0,
            epoch_start_jiffies: None,
            // The largest buffer the host allows: tcp_rmem[2] when autotuning; with
            // -w, rmem_max, taken as the request (the least that lets setsockopt
            // give nuttcp the whole buffer).
            wscale: window_scale_for(match cfg.window {
                WindowMode::Fixed(req) => req,
                WindowMode::Auto { max_bytes } => max_bytes,
            }),
            start_buffer_window: usable(rmem),
        }
    }

    /// The window scale offered in the SYN-ACK (`rcv_wscale`).
    pub fn wscale(&self) -> u32 {
        self.wscale
    }

    /// The receiver's MSS, bytes.
    pub fn mss(&self) -> u64 {
        self.mss
    }

    /// The window the buffer allows, bytes (`window_clamp` when autotuning).
    pub fn bytes(&self) -> u64 {
        self.window_bytes
    }

    /// `segments` were delivered in order at `now_ns`.
    // Linux net/ipv4/tcp_input.c tcp_rcv_space_adjust(): rcvwin = 2 * copied (per RTT)
    pub fn on_delivered(&mut self, now_ns: u64, segments: u32, rtt_ns: u64) {
        if !self.autotune {
            return;
        }
        self.epoch_segments += u64::from(segments);
        let rtt_ns = if rtt_ns == 0 { self.rtt_ns } else { rtt_ns };
        if now_ns >= self.epoch_start_ns + rtt_ns {
            let want = 2 * self.epoch_segments * self.mss;
            self.window_bytes = self.window_bytes.max(want.min(self.max_bytes));
            self.epoch_start_ns = now_ns;
            self.epoch_segments = 0;
        }
    }

    /// `segments` were read in order at jiffies `now` of a 2.6.35 receiver whose RTT
    /// estimate is `rtt8` (×8 jiffies, 0: none yet).
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_rcv_space_adjust(): no growth before
    // time >= rcv_rtt_est.rtt >> 3 and while rcv_rtt_est.rtt == 0; then
    // rcvq_space.space = max(space, 2 * copied), window_clamp follows it
    pub fn on_delivered_jiffies(&mut self, now: u32, segments: u32, rtt8: u32) {
        if !self.autotune {
            return;
        }
        let Some(start) = self.epoch_start_jiffies else {
            // rcvq_space.time == 0: the first read only starts the epoch.
            self.epoch_start_jiffies = Some(now);
            return;
        };
        self.epoch_segments += u64::from(segments);
        let elapsed = now.wrapping_sub(start) as i32;
        if elapsed < (rtt8 >> 3) as i32 || rtt8 == 0 {
            return;
        }
        // The buffer, and with it the clamp, grows only when twice the read needs more
        // than the current buffer holds: sk_rcvbuf starts at tcp_rmem[1] and becomes
        // (2 * read / advmss) skbs of rcvmem, the least charge whose 3/4 holds an MSS,
        // so (to within rcvmem's 128-byte steps) the test is 2 * read against the
        // window of the current buffer: at first 3/4 of tcp_rmem[1], then the clamp.
        // Linux 2.6.35 net/ipv4/tcp_input.c tcp_rcv_space_adjust(): if (space >
        // sk->sk_rcvbuf) { sk_rcvbuf = space; window_clamp = new_clamp; }
        let want = 2 * self.epoch_segments * self.mss;
        if want > self.window_bytes.max(self.start_buffer_window) {
            self.window_bytes = want.min(self.max_bytes);
        }
        self.epoch_start_jiffies = Some(now);
        self.epoch_segments = 0;
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

    /// Today's receiver autotuning up to `max_bytes`, MTU 2052 (MSS 2000: round numbers).
    fn autotuned_mss_2000(max_bytes: u64) -> SimConfig {
        let mut cfg = SimConfig::new();
        cfg.mtu = 2052;
        cfg.window = WindowMode::Auto { max_bytes };
        cfg
    }

    #[test]
    fn the_first_window_is_three_quarters_of_tcp_rmem_1_and_the_buffer_must_outgrow_it() {
        // MSS 2000, tcp_rmem[1] = 4 x 87380 = 349520 B: a first window of 262140 B, 131
        // segments today; a 2.6.35 receiver reserves one, 260140 B (130 segments).
        let mut cfg = autotuned_mss_2000(4 << 20);
        cfg.rmem_default_bytes = Some(349_520);
        assert_eq!(ReceiveWindow::new(&cfg).segments(), 131);
        cfg.receiver_hz = Some(250);
        let mut w = ReceiveWindow::new(&cfg);
        assert_eq!(w.bytes(), 260_140);
        // 2 x 65 x 2000 = 260000 B fits in that buffer's window: no growth; 66 segments,
        // 264000 B, do not, and the clamp follows.
        w.on_delivered_jiffies(1000, 1, 0);
        w.on_delivered_jiffies(1005, 65, 40);
        assert_eq!(w.bytes(), 260_140);
        w.on_delivered_jiffies(1010, 66, 40);
        assert_eq!(w.bytes(), 264_000);
        // The default tcp_rmem[1] above a smaller maximum starts at the maximum's window.
        cfg.window = WindowMode::Auto { max_bytes: 80_000 };
        cfg.receiver_hz = None;
        cfg.rmem_default_bytes = None;
        assert_eq!(ReceiveWindow::new(&cfg).bytes(), 60_000);
    }

    #[test]
    fn a_2635_receiver_reserves_a_segment_and_grows_only_past_its_buffers_window() {
        // MSS 2000, autotuning: tcp_rmem[1] = 87380 B holds a window of 65535 B (32
        // segments, today's start); 2.6.35 reserves one segment of it.
        let mut cfg = autotuned_mss_2000(1 << 20);
        assert_eq!(ReceiveWindow::new(&cfg).segments(), 32);
        cfg.receiver_hz = Some(250);
        let mut w = ReceiveWindow::new(&cfg);
        assert_eq!(w.bytes(), 63_535, "65535 - 2000");
        assert_eq!(w.segments(), 31);
        // First read starts the epoch; one of 16 segments ends 5 jiffies later:
        // 2 x 16 x 2000 = 64000 B is more than the clamp but within the window of the
        // 87380-B buffer, which (32 skbs of about 2667 B) does not grow: no change.
        w.on_delivered_jiffies(1000, 1, 0);
        w.on_delivered_jiffies(1005, 16, 40);
        assert_eq!(w.bytes(), 63_535);
        // 17 segments: 68000 B needs a bigger buffer; the clamp follows to 68000 B.
        w.on_delivered_jiffies(1010, 17, 40);
        assert_eq!(w.bytes(), 68_000);
        assert_eq!(w.segments(), 34);
        // A fixed buffer's window is reserved the same way, and stays so.
        cfg.window = WindowMode::Fixed(1 << 20);
        // 2 MiB x 3/4 = 1572864 B, less 2000.
        assert_eq!(ReceiveWindow::new(&cfg).bytes(), 1_570_864);
    }

    #[test]
    fn the_window_scale_fits_the_largest_buffer_in_16_bits() {
        // 65535 needs no scale; 65536 one halving.
        assert_eq!(window_scale_for(65_535), 0);
        assert_eq!(window_scale_for(65_536), 1);
        // The seed's autotuning maximum, 97768499 B: >> 11 = 47738.
        assert_eq!(window_scale_for(97_768_499), 11);
        // -w40m: 41943040 >> 10 = 40960; -w100m: 104857600 >> 11 = 51200.
        assert_eq!(window_scale_for(40 << 20), 10);
        assert_eq!(window_scale_for(100 << 20), 11);
        // Never more than 14.
        assert_eq!(window_scale_for(u64::MAX), 14);
    }

    #[test]
    fn a_2635_receiver_grows_only_after_its_first_rtt_sample_and_a_whole_epoch() {
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Auto { max_bytes: 1 << 20 };
        let mut w = ReceiveWindow::new(&cfg);
        // The first read starts the epoch (rcvq_space.time == 0) and is not counted.
        w.on_delivered_jiffies(1000, 50, 0);
        // No RTT sample yet: nothing grows, however long.
        w.on_delivered_jiffies(1100, 100, 0);
        assert_eq!(w.segments(), 45);
        // The first sample (5 jiffies, x8 = 40): the epoch that began at 1000 ends,
        // counting everything read since (the early returns did not restart it).
        w.on_delivered_jiffies(1101, 100, 40);
        assert_eq!(w.segments(), 400, "2 x 200 segments of 1448");
        w.on_delivered_jiffies(1104, 300, 40);
        assert_eq!(w.segments(), 400, "3 jiffies < 5: epoch not over");
        w.on_delivered_jiffies(1106, 0, 40);
        assert_eq!(w.segments(), 543, "2 x 300, capped at 3/4 MiB");
    }
}
