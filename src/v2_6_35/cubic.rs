//! The window-growth half of the 2.6.35 `tcp_cubic.c` (CUBIC v2.3 as of 2010).
//!
//! A separate copy of [`crate::cubic::LinuxCubic`] because the numbers differ (see
//! [`crate::v2_6_35`]). Every product is computed in the kernel's width with explicit
//! wrapping operations, matching it where it wraps (`100 * cwnd`, `410 * offs^3`,
//! `t << 10` after 2^22 jiffies of epoch).

use super::config::CubicConfig;
use super::jiffies::usecs_to_jiffies;
use super::state::{ACK_RATIO_SHIFT, Bictcp2635};
use crate::cubic::{BICTCP_BETA_SCALE, BICTCP_HZ, linux_cubic_root};

impl Bictcp2635 {
    /// `bictcp_reset`: every CUBIC field to 0, `delayed_ack` to 2 packets per ACK, and
    /// `found` cleared. The HyStart round fields are left for `bictcp_hystart_reset`.
    // Linux 2.6.35 tcp_cubic.c bictcp_reset()
    pub fn reset(&mut self) {
        *self = Bictcp2635 {
            delayed_ack: 2 << ACK_RATIO_SHIFT,
            round_start: self.round_start,
            end_seq: self.end_seq,
            last_jiffies: self.last_jiffies,
            curr_rtt: self.curr_rtt,
            sample_cnt: self.sample_cnt,
            ..Bictcp2635::default()
        };
    }

    /// The `delayed_ack` half of `bictcp_acked`, run only in state Open: the running
    /// estimate of packets per ACK, `cnt -= delayed_ack >> 4; delayed_ack += cnt`, with
    /// `cnt` a `u32` and `delayed_ack` a `u16` (both wrap, as in the kernel; an ACK of one
    /// packet at the initial 32 gives 32 + (u16)(1 - 2) = 31).
    // Linux 2.6.35 tcp_cubic.c bictcp_acked()
    pub fn update_delayed_ack(&mut self, acked: u32) {
        let cnt = acked.wrapping_sub(u32::from(self.delayed_ack >> ACK_RATIO_SHIFT));
        self.delayed_ack = self.delayed_ack.wrapping_add(cnt as u16);
    }

    /// Whether RTT samples are dropped: while `(s32)(jiffies - epoch_start) < HZ`. Unlike
    /// 6.x this applies with `epoch_start == 0` too, so a flow is blind in the first
    /// second after jiffies 0 and for all jiffies in `[2^31, 2^32)` until its first epoch.
    // Linux 2.6.35 tcp_cubic.c bictcp_acked()
    pub const fn in_sample_blackout(&self, jiffies: u32, hz: u32) -> bool {
        (jiffies.wrapping_sub(self.epoch_start) as i32) < hz as i32
    }

    /// The delay of an `rtt_us` sample, in jiffies << 3 (at least 1), folded into
    /// `delay_min`; returns it for HyStart.
    // Linux 2.6.35 tcp_cubic.c bictcp_acked(): delay = usecs_to_jiffies(rtt_us) << 3
    pub fn delay_sample(&mut self, rtt_us: u32, hz: u32) -> u32 {
        let delay = (usecs_to_jiffies(rtt_us, hz) << 3) as u32;
        let delay = if delay == 0 { 1 } else { delay };
        if self.delay_min == 0 || self.delay_min > delay {
            self.delay_min = delay;
        }
        delay
    }

    /// `bictcp_update`: count one ACK and recompute `cnt` for `cwnd` at `jiffies`.
    ///
    /// Odd input: `delayed_ack` tracks 16 × packets per ACK in a `u16`, so ACKs that
    /// each cover about 4096 segments wrap it, possibly to 0, where the kernel would
    /// divide by zero (later kernels capped the ratio); this divides by 1 instead.
    // Linux 2.6.35 tcp_cubic.c bictcp_update()
    pub fn update(&mut self, cfg: &CubicConfig, cwnd: u32, jiffies: u32) {
        self.ack_cnt = self.ack_cnt.wrapping_add(1);

        // At most one recompute per HZ/32 while cwnd stands still (signed, as in C).
        let since = jiffies.wrapping_sub(self.last_time) as i32;
        if self.last_cwnd == cwnd && since <= (cfg.hz / 32) as i32 {
            return;
        }
        self.last_cwnd = cwnd;
        self.last_time = jiffies;

        if self.epoch_start == 0 {
            self.start_epoch(cfg, cwnd, jiffies);
        }
        self.cnt = self.cubic_cnt(cfg, cwnd, jiffies);
        if cfg.tcp_friendliness {
            self.reno_friendly(cfg, cwnd);
        }
        // Linux 2.6.35 bictcp_update(): cnt = (cnt << ACK_RATIO_SHIFT) / delayed_ack, u32
        let per_ack = if self.delayed_ack == 0 {
            1
        } else {
            u32::from(self.delayed_ack)
        };
        self.cnt = (self.cnt << ACK_RATIO_SHIFT) / per_ack;
        if self.cnt == 0 {
            self.cnt = 1;
        }
    }

    /// A new epoch: start counting ACKs, sync the Reno estimate, and place the curve's
    /// plateau at Wmax, K seconds ahead (or at cwnd now, when cwnd is at or above Wmax).
    // Linux 2.6.35 tcp_cubic.c bictcp_update()
    fn start_epoch(&mut self, cfg: &CubicConfig, cwnd: u32, jiffies: u32) {
        self.epoch_start = jiffies;
        self.ack_cnt = 1;
        self.tcp_cwnd = cwnd;
        if self.last_max_cwnd <= cwnd {
            self.bic_k = 0;
            self.origin_point = cwnd;
        } else {
            // Linux 2.6.35 bictcp_update(): K = cubic_root(cube_factor * (Wmax - cwnd)), u64 wrap
            let gap = u64::from(self.last_max_cwnd - cwnd);
            self.bic_k = linux_cubic_root(cfg.cube_factor().wrapping_mul(gap));
            self.origin_point = self.last_max_cwnd;
        }
    }

    /// `cnt` from the cubic curve one `delay_min` ahead: `cwnd / (target - cwnd)`, or
    /// `100 * cwnd` (u32 wrap) when the target is not above cwnd.
    // Linux 2.6.35 tcp_cubic.c bictcp_update()
    fn cubic_cnt(&self, cfg: &CubicConfig, cwnd: u32, jiffies: u32) -> u32 {
        // Linux 2.6.35 bictcp_update(): t = ((jiffies + delay_min>>3 - epoch) << 10) / HZ, all u32
        let ticks = jiffies
            .wrapping_add(self.delay_min >> 3)
            .wrapping_sub(self.epoch_start);
        let t = (ticks << BICTCP_HZ) / if cfg.hz == 0 { 1 } else { cfg.hz };
        let below_origin = t < self.bic_k;
        let offs = u64::from(if below_origin {
            self.bic_k - t
        } else {
            t - self.bic_k
        });
        // Linux 2.6.35 bictcp_update(): delta = (cube_rtt_scale * offs^3) >> 40, u64 wrap, to u32
        let cube = u64::from(cfg.cube_rtt_scale())
            .wrapping_mul(offs)
            .wrapping_mul(offs)
            .wrapping_mul(offs);
        let delta = (cube >> (10 + 3 * BICTCP_HZ)) as u32;
        let target = if below_origin {
            self.origin_point.wrapping_sub(delta)
        } else {
            self.origin_point.wrapping_add(delta)
        };
        if target > cwnd {
            cwnd / (target - cwnd)
        } else {
            cwnd.wrapping_mul(100)
        }
    }

    /// The Reno-friendly part of `bictcp_update`: grow `tcp_cwnd` by one per
    /// `cwnd * beta_scale / 8` ACKs and never let `cnt` be slower than that estimate.
    // Linux 2.6.35 tcp_cubic.c bictcp_update()
    fn reno_friendly(&mut self, cfg: &CubicConfig, cwnd: u32) {
        // Linux 2.6.35 bictcp_update(): delta = (cwnd * beta_scale) >> 3, u32 wrap
        let per_segment = cwnd.wrapping_mul(cfg.beta_scale()) >> 3;
        // The kernel loops `while (ack_cnt > delta) { ack_cnt -= delta; tcp_cwnd++; }`;
        // (ack_cnt - 1) / delta is its iteration count, so no loop is needed. Deviation:
        // with delta == 0 (cwnd * beta_scale < 8) the kernel spins forever; we skip.
        if per_segment != 0 && self.ack_cnt > per_segment {
            let steps = (self.ack_cnt - 1) / per_segment;
            self.ack_cnt -= steps * per_segment;
            self.tcp_cwnd = self.tcp_cwnd.wrapping_add(steps);
        }
        if self.tcp_cwnd > cwnd {
            let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
            if self.cnt > max_cnt {
                self.cnt = max_cnt;
            }
        }
    }

    /// `bictcp_recalc_ssthresh`: end the epoch, record Wmax (fast convergence: below the
    /// previous Wmax, remember only `cwnd * (1 + β) / 2`) and `loss_cwnd`, and return
    /// `max(cwnd * β, 2)`. Products wrap in `u32` as the kernel's do.
    // Linux 2.6.35 tcp_cubic.c bictcp_recalc_ssthresh()
    pub fn recalc_ssthresh(&mut self, cfg: &CubicConfig, cwnd: u32) -> u32 {
        self.epoch_start = 0;
        self.last_max_cwnd = if cwnd < self.last_max_cwnd && cfg.fast_convergence {
            cwnd.wrapping_mul(BICTCP_BETA_SCALE + cfg.beta) / (2 * BICTCP_BETA_SCALE)
        } else {
            cwnd
        };
        self.loss_cwnd = cwnd;
        let ssthresh = cwnd.wrapping_mul(cfg.beta) / BICTCP_BETA_SCALE;
        if ssthresh < 2 { 2 } else { ssthresh }
    }

    /// `bictcp_undo_cwnd`: the window to restore on undo, `max(cwnd, last_max_cwnd)`.
    /// After an RTO `last_max_cwnd` is 0 (the Loss state reset it), so nothing returns.
    // Linux 2.6.35 tcp_cubic.c bictcp_undo_cwnd()
    pub const fn undo_cwnd(&self, cwnd: u32) -> u32 {
        if cwnd > self.last_max_cwnd {
            cwnd
        } else {
            self.last_max_cwnd
        }
    }
}

#[cfg(test)]
mod tests;
