//! The per-flow state Linux keeps for CUBIC: `struct bictcp` plus the three window
//! fields of `tcp_sock` that CUBIC reads and writes.

use crate::cubic::LinuxCubic;
use crate::hystart::LinuxHystart;

/// `TCP_INFINITE_SSTHRESH`: "no slow-start threshold yet", segments.
// Linux include/net/tcp.h TCP_INFINITE_SSTHRESH
pub const TCP_INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

/// CUBIC + HyStart + cwnd, ssthresh and cwnd_cnt: 72 bytes, the kernel's 60-byte
/// `struct bictcp` plus three `u32` of `tcp_sock`.
///
/// `#[repr(C)]`: fields in declaration order, so the layout (and the BTF a BPF build
/// emits for it, which the kernel requires in ascending offset order) is fixed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct LinuxCubicState {
    /// Window growth state.
    pub cubic: LinuxCubic,
    /// Slow-start exit state.
    pub hystart: LinuxHystart,
    /// `snd_cwnd`, segments.
    pub cwnd: u32,
    /// `snd_ssthresh`, segments.
    pub ssthresh: u32,
    /// `snd_cwnd_cnt`: ACKed segments not yet turned into window growth.
    pub cwnd_cnt: u32,
}

impl LinuxCubicState {
    /// `tcp_in_slow_start`.
    // Linux include/net/tcp.h tcp_in_slow_start()
    #[inline(always)]
    pub const fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// `tcp_slow_start`: grow by `acked` up to ssthresh; returns the ACKed segments left
    /// over for congestion avoidance.
    ///
    /// Deviation: the kernel's `cwnd + acked` is a wrapping `u32` sum; it cannot wrap
    /// there (acked never exceeds what is in flight) but could here with a hostile
    /// `acked`, and would shrink the window, so it saturates instead.
    // Linux net/ipv4/tcp_cong.c tcp_slow_start()
    pub fn slow_start(&mut self, acked: u32, clamp: u32) -> u32 {
        let (grown, left) = slow_start_growth(self.cwnd, self.ssthresh, acked);
        self.cwnd = grown.min(clamp);
        left
    }

    /// `tcp_cong_avoid_ai`: one segment of growth per `w` segments ACKed.
    ///
    /// `w` of 0 is treated as 1 (the kernel never passes 0: CUBIC's `cnt` is at least 2
    /// once computed, and cwnd is never 0 here). As in [`slow_start`](Self::slow_start),
    /// the sums saturate where the kernel's would wrap only on impossible input.
    // Linux net/ipv4/tcp_cong.c tcp_cong_avoid_ai()
    #[inline(always)]
    pub fn congestion_avoidance_ai(&mut self, w: u32, acked: u32, clamp: u32) {
        // Most ACKs only add credit: not a whole segment yet. (`credit < w` implies
        // `cwnd_cnt < w`, so there is no old credit to apply, and `w > 0`.)
        if let Some(credit) = self.cwnd_cnt.checked_add(acked) {
            if credit < w {
                self.cwnd_cnt = credit;
                self.cwnd = self.cwnd.min(clamp);
                return;
            }
        }
        self.congestion_avoidance_ai_grow(w, acked, clamp);
    }

    /// The rest of `tcp_cong_avoid_ai`, when the window grows by at least a segment.
    ///
    /// Out of line on CPUs; inline in the BPF build, where Rust emits no BTF function
    /// info for a BPF-to-BPF call and the kernel refuses such a subprogram.
    // Linux net/ipv4/tcp_cong.c tcp_cong_avoid_ai()
    #[cfg_attr(not(target_arch = "bpf"), inline(never))]
    #[cfg_attr(target_arch = "bpf", inline(always))]
    fn congestion_avoidance_ai_grow(&mut self, w: u32, acked: u32, clamp: u32) {
        additive_increase(&mut self.cwnd, &mut self.cwnd_cnt, w, acked);
        self.cwnd = self.cwnd.min(clamp);
    }
}

/// `tcp_slow_start` before the clamp: cwnd grown by `acked` up to ssthresh, and the
/// ACKed segments left over for congestion avoidance.
// Linux net/ipv4/tcp_cong.c tcp_slow_start(): cwnd = min(cwnd + acked, ssthresh)
#[inline(always)]
pub(crate) const fn slow_start_growth(cwnd: u32, ssthresh: u32, acked: u32) -> (u32, u32) {
    let sum = cwnd.saturating_add(acked);
    let grown = if sum < ssthresh { sum } else { ssthresh };
    (grown, acked.wrapping_sub(grown.wrapping_sub(cwnd)))
}

/// `tcp_cong_avoid_ai` before the clamp, once at least a segment of growth is due: one
/// segment per `w` ACKed (`w` of 0 taken as 1), old credit applied first.
// Linux net/ipv4/tcp_cong.c tcp_cong_avoid_ai(): cwnd += cwnd_cnt / w
#[inline(always)]
pub(crate) fn additive_increase(cwnd: &mut u32, cwnd_cnt: &mut u32, w: u32, acked: u32) {
    let w = if w == 0 { 1 } else { w };
    // Credits accumulated at a larger w are applied gently now.
    if *cwnd_cnt >= w {
        *cwnd_cnt = 0;
        *cwnd = cwnd.saturating_add(1);
    }
    *cwnd_cnt = cwnd_cnt.saturating_add(acked);
    if *cwnd_cnt >= w {
        let grow = *cwnd_cnt / w;
        *cwnd_cnt -= grow * w;
        *cwnd = cwnd.saturating_add(grow);
    }
}

#[cfg(test)]
mod tests;
