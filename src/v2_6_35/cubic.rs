//! The window-growth half of the 2.6.35 `tcp_cubic.c` (CUBIC v2.3 as of 2010).
//!
//! Differs from today's [`crate::cubic::LinuxCubic`] in ways that change numbers, so it
//! is a separate copy rather than a switch inside it (see `DIFFERENCES-FROM-6.x.md`):
//! one `ack_cnt` per ACK (no `acked`), CUBIC time `t` computed in `u32` from jiffies with
//! `delay_min` already in jiffies << 3, no 5 %-per-RTT clamp before the first loss, no
//! `cnt >= 2` floor, and `cnt` scaled by the era's `delayed_ack` estimate. Every
//! product is computed in the kernel's width with explicit wrapping operations, so the
//! results match it bit for bit where it wraps (`100 * cwnd`, `410 * offs^3`, `t << 10`
//! after 2^22 jiffies of epoch).

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
mod tests {
    use super::*;

    fn hz250() -> CubicConfig {
        let mut c = CubicConfig::new();
        c.hz = 250;
        c
    }

    #[test]
    fn delayed_ack_wraps_in_u16_from_the_initial_two_packets_per_ack() {
        let mut b = Bictcp2635::default();
        b.reset();
        assert_eq!(b.delayed_ack, 32);
        // cnt = 1 - (32 >> 4) = u32::MAX; 32 + (u16)u32::MAX = 31.
        b.update_delayed_ack(1);
        assert_eq!(b.delayed_ack, 31);
        // cnt = 2 - (31 >> 4) = 1; 31 + 1 = 32.
        b.update_delayed_ack(2);
        assert_eq!(b.delayed_ack, 32);
    }

    #[test]
    fn a_loss_epoch_gives_the_readme_hand_checked_cnt() {
        // ca_cycles_fastconv_on rows 2285-2287 (HZ=250): loss at cwnd 133, then one slow
        // start step to 94, then an epoch 25 jiffies after... see the README's arithmetic.
        let cfg = hz250();
        let mut b = Bictcp2635::default();
        b.reset();
        b.last_max_cwnd = 98;
        // 133 >= Wmax 98: no fast convergence; ssthresh = 133*717/1024 = 93.
        assert_eq!(b.recalc_ssthresh(&cfg, 133), 93);
        assert_eq!((b.last_max_cwnd, b.loss_cwnd, b.epoch_start), (133, 133, 0));
        // delay_min 200 (25 jiffies << 3), new epoch at cwnd 94.
        b.delay_min = 200;
        b.update(&cfg, 94, 251_293);
        // K = cubic_root(2681735677 * 39) = 4714
        assert_eq!(b.bic_k, 4714);
        // t = 25 * 1024 / 250 = 102; offs = 4612; delta = 410 * 4612^3 >> 40 = 36;
        // target = 133 - 36 = 97; cnt = 94 / 3 = 31; then 31 * 16 / 32 = 15.
        assert_eq!(b.cnt, 15);
        assert_eq!((b.epoch_start, b.ack_cnt, b.tcp_cwnd), (251_293, 1, 94));
    }

    #[test]
    fn fast_convergence_shrinks_wmax_below_the_previous_one() {
        let cfg = hz250();
        let mut b = Bictcp2635 {
            last_max_cwnd: 133,
            ..Default::default()
        };
        // 131 < 133: Wmax = 131 * 1741 / 2048 = 111; ssthresh = 131*717/1024 = 91.
        assert_eq!(b.recalc_ssthresh(&cfg, 131), 91);
        assert_eq!(b.last_max_cwnd, 111);
        // The floor of 2: 2 * 717 / 1024 = 1 -> 2.
        assert_eq!(b.recalc_ssthresh(&cfg, 2), 2);
    }

    #[test]
    fn no_cnt_clamp_before_the_first_loss() {
        // Wmax 0, cwnd 100 at the epoch start: target = 100 at t = K = 0 + delay... with
        // delay_min 0, t = 0, offs = 0, target = 100 = cwnd, so cnt = 100 * 100 = 10000,
        // scaled by 16/32 = 5000. 6.x would clamp it to 20 first.
        let cfg = CubicConfig::new();
        let mut b = Bictcp2635::default();
        b.reset();
        b.tcp_cwnd = 0;
        let mut no_reno = cfg;
        no_reno.tcp_friendliness = false;
        b.update(&no_reno, 100, 5000);
        assert_eq!(b.cnt, 5000);
    }

    #[test]
    fn the_update_is_skipped_within_hz_over_32_at_the_same_cwnd() {
        let cfg = hz250();
        let mut b = Bictcp2635::default();
        b.reset();
        b.update(&cfg, 50, 1000);
        let cnt = b.cnt;
        b.cnt = 12345;
        // 7 jiffies later (HZ/32 = 7 at 250): skipped, only ack_cnt counts.
        b.update(&cfg, 50, 1007);
        assert_eq!((b.cnt, b.ack_cnt), (12345, 2));
        // 8 jiffies later: recomputed.
        b.update(&cfg, 50, 1008);
        assert_ne!(b.cnt, 12345);
        assert!(cnt > 0);
    }

    #[test]
    fn cubic_time_is_computed_in_u32_and_wraps() {
        // 2^22 jiffies after the epoch, (ticks << 10) wraps to 0 in u32: t = 0, as the
        // kernel's code has it (a u64 t would be 4,294,967 at HZ=1000).
        let cfg = CubicConfig::new();
        let b = Bictcp2635 {
            epoch_start: 10,
            origin_point: 500,
            ..Default::default()
        };
        // t = 0 = K: target = origin = 500 > 400: cnt = 400 / 100 = 4.
        assert_eq!(b.cubic_cnt(&cfg, 400, 10 + (1 << 22)), 4);
    }

    #[test]
    fn undo_restores_wmax_only() {
        let b = Bictcp2635 {
            last_max_cwnd: 80,
            ..Default::default()
        };
        assert_eq!(b.undo_cwnd(50), 80);
        assert_eq!(b.undo_cwnd(90), 90);
    }

    #[test]
    fn samples_are_blind_for_a_second_after_the_epoch_and_after_the_wrap() {
        let b = Bictcp2635 {
            epoch_start: 5000,
            ..Default::default()
        };
        assert!(b.in_sample_blackout(5999, 1000));
        assert!(!b.in_sample_blackout(6000, 1000));
        let none = Bictcp2635::default();
        assert!(!none.in_sample_blackout(1_000_000, 1000));
        // (s32)(2^31 + 5 - 0) < 0: blind, the jiffies_wrap case.
        assert!(none.in_sample_blackout((1 << 31) + 5, 1000));
        assert!(none.in_sample_blackout(249, 250));
    }

    #[test]
    fn delay_is_whole_jiffies_shifted_by_three() {
        let mut b = Bictcp2635::default();
        // 18,000 us at HZ=1000 = 18 jiffies = 144; at HZ=250, 18,000 us -> 5 jiffies = 40.
        assert_eq!(b.delay_sample(18_000, 1000), 144);
        assert_eq!(b.delay_min, 144);
        assert_eq!(b.delay_sample(18_000, 250), 40);
        assert_eq!(b.delay_min, 40);
        assert_eq!(b.delay_sample(0, 1000), 1);
        assert_eq!(b.delay_min, 1);
    }
}
