//! The per-flow state of the 2.6.35 profile: the era's `struct bictcp` (64 bytes, the
//! whole `icsk_ca_priv` of that kernel) plus the three window fields of `tcp_sock`.

/// `ACK_RATIO_SHIFT`: `delayed_ack` holds packets per ACK scaled by 2^4.
// Linux 2.6.35 tcp_cubic.c ACK_RATIO_SHIFT
pub const ACK_RATIO_SHIFT: u32 = 4;

/// Linux 2.6.35 `struct bictcp`, field for field in the kernel's order and widths.
///
/// `#[repr(C)]`: 11 `u32`, then `delayed_ack` (`u16`), `sample_cnt` and `found` (`u8`),
/// then 4 `u32` = 64 bytes, exactly the kernel's layout. The window-growth half is
/// driven by `cubic.rs`, the HyStart half by `hystart.rs`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Bictcp2635 {
    /// ACKs needed for cwnd to grow by one segment (`cnt`).
    pub cnt: u32,
    /// Wmax: cwnd before the last reduction, after fast convergence (`last_max_cwnd`).
    pub last_max_cwnd: u32,
    /// cwnd at the last reduction (`loss_cwnd`); 2.6.35 records it and never reads it.
    pub loss_cwnd: u32,
    /// cwnd when `cnt` was last computed (`last_cwnd`).
    pub last_cwnd: u32,
    /// jiffies when `cnt` was last computed (`last_time`).
    pub last_time: u32,
    /// The window the cubic curve plateaus at (`bic_origin_point`), segments.
    pub origin_point: u32,
    /// K, time from epoch start to the plateau, in 2^-10 s (`bic_K`).
    pub bic_k: u32,
    /// Minimum delay, jiffies << 3; 0 = none yet (`delay_min`).
    pub delay_min: u32,
    /// jiffies when the current epoch began; 0 = no epoch (`epoch_start`).
    pub epoch_start: u32,
    /// ACKs since the Reno estimate last grew (`ack_cnt`).
    pub ack_cnt: u32,
    /// Reno-friendly window estimate, segments (`tcp_cwnd`).
    pub tcp_cwnd: u32,
    /// Packets per ACK << 4, a running estimate that wraps in `u16` (`delayed_ack`).
    pub delayed_ack: u16,
    /// Delay samples counted this round, up to 8 (`sample_cnt`).
    pub sample_cnt: u8,
    /// HyStart detector bits that fired: 1 ACK train, 2 delay (`found`).
    pub found: u8,
    /// jiffies when the current HyStart round started (`round_start`).
    pub round_start: u32,
    /// `snd_nxt` at the round's start; the round ends when an ACK passes it (`end_seq`).
    pub end_seq: u32,
    /// jiffies of the last ACK that continued the train (`last_jiffies`).
    pub last_jiffies: u32,
    /// Minimum delay of this round's first 8 samples, jiffies << 3; 0 = none (`curr_rtt`).
    pub curr_rtt: u32,
}

/// CUBIC + HyStart + `snd_cwnd`, `snd_ssthresh`, `snd_cwnd_cnt`: 76 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Linux2635State {
    /// The era's `struct bictcp`.
    pub bictcp: Bictcp2635,
    /// `snd_cwnd`, segments; never below 1.
    pub cwnd: u32,
    /// `snd_ssthresh`, segments.
    pub ssthresh: u32,
    /// `snd_cwnd_cnt`: the growth counter of slow start and additive increase.
    pub cwnd_cnt: u32,
}

impl Linux2635State {
    /// The era's slow-start test, `snd_cwnd <= snd_ssthresh` (6.x uses `<`): it lets
    /// one more slow-start step happen when cwnd equals ssthresh.
    // Linux 2.6.35 tcp_cubic.c bictcp_cong_avoid(), bictcp_acked()
    pub const fn in_slow_start(&self) -> bool {
        self.cwnd <= self.ssthresh
    }
}

#[cfg(test)]
mod tests;
