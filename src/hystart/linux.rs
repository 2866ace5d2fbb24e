//! Linux HyStart: leave slow start when ACK trains grow long or delay rises.
//!
//! The HyStart half of the kernel's `struct bictcp` (20 bytes) and `hystart_update`,
//! as of Linux 6.x with the 2021 fix that resets the round inside the update and the
//! 2025 fix that checks `hystart_low_window` after that reset. Rounds are tracked by
//! sequence number: a round ends when `snd_una` passes the `snd_nxt` recorded at its
//! start. Timestamps are the kernel's 32-bit microsecond clock (`bictcp_clock_us`),
//! wrap-around included.

use crate::cubic::{LinuxCubicParams, linux_after};

/// `HYSTART_MIN_SAMPLES`: delay samples per round before the delay test may fire.
// Linux net/ipv4/tcp_cubic.c HYSTART_MIN_SAMPLES
pub const HYSTART_MIN_SAMPLES: u8 = 8;

/// `HYSTART_DELAY_MIN`: smallest delay-increase margin, µs.
// Linux net/ipv4/tcp_cubic.c HYSTART_DELAY_MIN
pub const HYSTART_DELAY_MIN_US: u32 = 4000;

/// `HYSTART_DELAY_MAX`: largest delay-increase margin, µs.
// Linux net/ipv4/tcp_cubic.c HYSTART_DELAY_MAX
pub const HYSTART_DELAY_MAX_US: u32 = 16000;

/// Longest ACK-delay cushion added to the ACK-train threshold, µs (`USEC_PER_MSEC`).
// Linux net/ipv4/tcp_cubic.c hystart_ack_delay()
pub const HYSTART_MAX_ACK_DELAY_US: u64 = 1000;

/// How the kernel paces this socket (`sk_pacing_status`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PacingStatus {
    /// `SK_PACING_NONE`: bursts leave at line rate; ACK trains are compressed, so the
    /// ACK-train threshold is halved.
    #[default]
    None,
    /// `SK_PACING_NEEDED`: TCP's internal pacing.
    Needed,
    /// `SK_PACING_FQ`: the fq qdisc paces.
    Fq,
}

impl PacingStatus {
    /// The kernel's `sk_pacing_status` value: 0 none, 1 needed, 2 fq.
    // Linux include/net/sock.h enum sk_pacing
    pub const fn code(self) -> u8 {
        match self {
            PacingStatus::None => 0,
            PacingStatus::Needed => 1,
            PacingStatus::Fq => 2,
        }
    }

    /// From the kernel's `sk_pacing_status` value; anything above 1 counts as fq.
    pub const fn from_code(code: u8) -> Self {
        match code {
            0 => PacingStatus::None,
            1 => PacingStatus::Needed,
            _ => PacingStatus::Fq,
        }
    }
}

/// Which detector ended slow start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum HystartExit {
    /// The ACK train of one round lasted longer than the threshold.
    AckTrain,
    /// The round's minimum delay rose above `delay_min` plus the margin.
    DelayIncrease,
}

/// What HyStart needs from the socket on each RTT sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HystartInput {
    /// `bictcp_clock_us`: the 32-bit microsecond clock.
    pub now_us: u32,
    /// The delay sample, µs, at least 1.
    pub delay_us: u32,
    /// CUBIC's `delay_min` after this sample, µs.
    pub delay_min_us: u32,
    /// `snd_una`, segments.
    pub snd_una: u32,
    /// `snd_nxt`, segments.
    pub snd_nxt: u32,
    /// `snd_cwnd`, segments.
    pub cwnd: u32,
    /// `sk_pacing_rate` as of the previous event, bytes/s.
    pub pacing_rate: u64,
    /// `sk_pacing_status`.
    pub pacing_status: PacingStatus,
    /// `sk_gso_max_size`, bytes.
    pub gso_max_size: u32,
}

/// The HyStart half of `struct bictcp`.
///
/// `#[repr(C)]` so the layout is fixed (it is part of [`crate::linux::LinuxCubicState`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct LinuxHystart {
    /// µs timestamp of the current round's start (`round_start`).
    pub round_start: u32,
    /// `snd_nxt` when the round started; the round ends when `snd_una` passes it (`end_seq`).
    pub end_seq: u32,
    /// µs timestamp of the last ACK that continued the train (`last_ack`).
    pub last_ack: u32,
    /// Minimum delay seen this round, µs; `u32::MAX` = none (`curr_rtt`).
    pub curr_rtt: u32,
    /// Delay samples counted this round, up to [`HYSTART_MIN_SAMPLES`] (`sample_cnt`).
    pub sample_cnt: u8,
    /// Slow-start exit found (`found`).
    pub found: bool,
}

/// `hystart_ack_delay`: cushion for ACKs delayed by GSO batching at the pacing rate.
// Linux net/ipv4/tcp_cubic.c hystart_ack_delay(): min(1 ms, gso_max_size*4*10^6 / rate)
pub const fn hystart_ack_delay_us(pacing_rate: u64, gso_max_size: u32) -> u32 {
    if pacing_rate == 0 {
        return 0;
    }
    let cushion = (gso_max_size as u64 * 4 * 1_000_000) / pacing_rate;
    if cushion < HYSTART_MAX_ACK_DELAY_US {
        cushion as u32
    } else {
        HYSTART_MAX_ACK_DELAY_US as u32
    }
}

impl LinuxHystart {
    /// `bictcp_hystart_reset`: start a new round now, ending when `snd_nxt` is acked.
    // Linux net/ipv4/tcp_cubic.c bictcp_hystart_reset()
    pub fn start_round(&mut self, now_us: u32, snd_nxt: u32) {
        self.round_start = now_us;
        self.last_ack = now_us;
        self.end_seq = snd_nxt;
        self.curr_rtt = u32::MAX;
        self.sample_cnt = 0;
    }

    /// `hystart_update`: feed one delay sample. Returns the detector that fired, if any;
    /// the caller then sets ssthresh to cwnd, as the kernel does.
    // Linux net/ipv4/tcp_cubic.c hystart_update()
    pub fn on_delay_sample(
        &mut self,
        p: &LinuxCubicParams,
        input: &HystartInput,
    ) -> Option<HystartExit> {
        let cfg = p.config();
        if linux_after(input.snd_una, self.end_seq) {
            self.start_round(input.now_us, input.snd_nxt);
        }
        if input.cwnd < cfg.hystart_low_window {
            return None;
        }
        let mut exit = None;
        if cfg.hystart_detect.ack_train() && self.ack_train_is_long(cfg.hystart_ack_delta_us, input)
        {
            self.found = true;
            exit = Some(HystartExit::AckTrain);
        }
        if cfg.hystart_detect.delay() && self.delay_has_increased(input) {
            self.found = true;
            exit = exit.or(Some(HystartExit::DelayIncrease));
        }
        exit
    }

    /// The ACK-train test: ACKs closer than `ack_delta_us` continue the train; a train
    /// longer than half the minimum delay (plus the GSO cushion) means the pipe is full.
    fn ack_train_is_long(&mut self, ack_delta_us: u32, input: &HystartInput) -> bool {
        let now = input.now_us;
        // The kernel compares an s32 gap with an int parameter: a signed comparison.
        if (now.wrapping_sub(self.last_ack) as i32 as i64) > ack_delta_us as i64 {
            return false;
        }
        self.last_ack = now;
        // Linux hystart_update(): threshold = delay_min + ack_delay, halved when unpaced
        let mut threshold = input
            .delay_min_us
            .wrapping_add(hystart_ack_delay_us(input.pacing_rate, input.gso_max_size));
        if input.pacing_status == PacingStatus::None {
            threshold >>= 1;
        }
        // The kernel's `(s32)(now - round_start) > threshold` is an unsigned comparison.
        now.wrapping_sub(self.round_start) > threshold
    }

    /// The delay test: after 8 samples in a round, a round minimum above
    /// `delay_min + clamp(delay_min / 8, 4 ms, 16 ms)` means the queue is building.
    fn delay_has_increased(&mut self, input: &HystartInput) -> bool {
        if self.curr_rtt > input.delay_us {
            self.curr_rtt = input.delay_us;
        }
        if self.sample_cnt < HYSTART_MIN_SAMPLES {
            self.sample_cnt += 1;
            return false;
        }
        // Linux HYSTART_DELAY_THRESH(): clamp(delay_min >> 3, 4000, 16000) us
        let margin = (input.delay_min_us >> 3).clamp(HYSTART_DELAY_MIN_US, HYSTART_DELAY_MAX_US);
        self.curr_rtt > input.delay_min_us.wrapping_add(margin)
    }
}

#[cfg(test)]
mod tests;
