//! The HyStart half of the 2.6.35 `tcp_cubic.c`: the original jiffies-based HyStart.
//!
//! A separate copy from today's [`crate::hystart::LinuxHystart`], because nearly every
//! number differs: time is `jiffies`, delays are whole jiffies << 3, the ACK-train gap
//! is `msecs_to_jiffies(2)` (one tick at HZ=250), the train must span `delay_min >> 4`
//! jiffies (half the minimum RTT) with *unsigned* comparisons, the delay margin is
//! `clamp(delay_min >> 4, 2 << 3, 16 << 3)`, `curr_rtt` 0 means "none", and the round
//! is reset from `cong_avoid` (see [`super::Cubic`]), not here.

use super::config::CubicConfig;
use super::jiffies::msecs_to_jiffies;
use super::state::Bictcp2635;

/// `HYSTART_ACK_TRAIN`: the ACK-train detector's bit in `found`.
// Linux 2.6.35 tcp_cubic.c HYSTART_ACK_TRAIN
pub const HYSTART_ACK_TRAIN: u8 = 0x1;

/// `HYSTART_DELAY`: the delay-increase detector's bit in `found`.
// Linux 2.6.35 tcp_cubic.c HYSTART_DELAY
pub const HYSTART_DELAY: u8 = 0x2;

/// `HYSTART_MIN_SAMPLES`: delay samples per round before the delay test may fire.
// Linux 2.6.35 tcp_cubic.c HYSTART_MIN_SAMPLES
pub const HYSTART_MIN_SAMPLES_2635: u8 = 8;

/// `HYSTART_DELAY_MIN` of 2.6.35: 2 jiffies, in jiffies << 3 (6.x: 4 ms).
// Linux 2.6.35 tcp_cubic.c HYSTART_DELAY_MIN
pub const HYSTART_DELAY_MIN_2635: u32 = 2 << 3;

/// `HYSTART_DELAY_MAX` of 2.6.35: 16 jiffies, in jiffies << 3 (6.x: 16 ms).
// Linux 2.6.35 tcp_cubic.c HYSTART_DELAY_MAX
pub const HYSTART_DELAY_MAX_2635: u32 = 16 << 3;

/// The longest gap between ACKs of one train, ms (`msecs_to_jiffies(2)` in the code).
// Linux 2.6.35 tcp_cubic.c hystart_update()
pub const HYSTART_ACK_GAP_MS: u32 = 2;

/// Why HyStart ended slow start: the detector bits of `found & hystart_detect` on the
/// ACK where it set ssthresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum HystartExit2635 {
    /// The round's ACK train lasted half the minimum RTT.
    AckTrain,
    /// The round's minimum delay rose above `delay_min` plus the margin.
    DelayIncrease,
    /// Both detectors fired on the same ACK.
    Both,
}

impl HystartExit2635 {
    /// From `found & hystart_detect`; `None` for 0.
    pub const fn from_bits(bits: u8) -> Option<Self> {
        match bits & 3 {
            1 => Some(HystartExit2635::AckTrain),
            2 => Some(HystartExit2635::DelayIncrease),
            3 => Some(HystartExit2635::Both),
            _ => None,
        }
    }

    /// The kernel's bits: 1 ACK train, 2 delay, 3 both.
    pub const fn bits(self) -> u8 {
        match self {
            HystartExit2635::AckTrain => HYSTART_ACK_TRAIN,
            HystartExit2635::DelayIncrease => HYSTART_DELAY,
            HystartExit2635::Both => HYSTART_ACK_TRAIN | HYSTART_DELAY,
        }
    }
}

impl Bictcp2635 {
    /// `bictcp_hystart_reset`: a new round starts at `jiffies` and ends when an ACK
    /// passes `snd_nxt`; the round's delay samples are forgotten (`found` is kept).
    // Linux 2.6.35 tcp_cubic.c bictcp_hystart_reset()
    pub fn hystart_reset(&mut self, jiffies: u32, snd_nxt: u32) {
        self.round_start = jiffies;
        self.last_jiffies = jiffies;
        self.end_seq = snd_nxt;
        self.curr_rtt = 0;
        self.sample_cnt = 0;
    }

    /// `hystart_update` with one `delay` (jiffies << 3): run both detectors and return
    /// the exit if one of the enabled ones fired on this sample (the caller then sets
    /// ssthresh to cwnd). Does nothing once an enabled detector has fired.
    ///
    /// The ACK-train test always runs, so `found` may gain the train bit while only the
    /// delay detector is enabled; it then does not end slow start.
    // Linux 2.6.35 tcp_cubic.c hystart_update()
    pub fn hystart_update(
        &mut self,
        cfg: &CubicConfig,
        jiffies: u32,
        delay: u32,
    ) -> Option<HystartExit2635> {
        let detect = cfg.hystart_detect.bits();
        if self.found & detect != 0 {
            return None;
        }
        // ACK train: ACKs no more than 2 ms apart (in whole jiffies, unsigned) extend it;
        // it fires once it spans delay_min >> 4 jiffies, half the minimum RTT.
        if jiffies.wrapping_sub(self.last_jiffies) <= msecs_to_jiffies(HYSTART_ACK_GAP_MS, cfg.hz) {
            self.last_jiffies = jiffies;
            if jiffies.wrapping_sub(self.round_start) >= self.delay_min >> 4 {
                self.found |= HYSTART_ACK_TRAIN;
            }
        }
        // Delay increase: the minimum of the round's first 8 samples against delay_min
        // plus RTT/16 clamped to 2..16 jiffies (u32 sum, as in C).
        if self.sample_cnt < HYSTART_MIN_SAMPLES_2635 {
            if self.curr_rtt == 0 || self.curr_rtt > delay {
                self.curr_rtt = delay;
            }
            self.sample_cnt += 1;
        } else {
            let margin =
                (self.delay_min >> 4).clamp(HYSTART_DELAY_MIN_2635, HYSTART_DELAY_MAX_2635);
            if self.curr_rtt > self.delay_min.wrapping_add(margin) {
                self.found |= HYSTART_DELAY;
            }
        }
        HystartExit2635::from_bits(self.found & detect)
    }
}

#[cfg(test)]
mod tests;
