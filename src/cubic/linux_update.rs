//! `bictcp_update` and `cubictcp_recalc_ssthresh` written once over wherever the fields
//! of `struct bictcp` live: the kernel's own layout ([`LinuxCubic`]) or a flow that keeps
//! them on two cache lines (`crate::linux::LinuxFlowState`), which then runs them in
//! place instead of gathering a copy and scattering it back.

use super::cube_root::linux_cubic_root;
use super::linux::{HZ, LinuxCubic, usecs_to_jiffies};
use super::linux_config::{BICTCP_BETA_SCALE, BICTCP_HZ, LinuxCubicParams};

/// The CUBIC fields of `struct bictcp`, read and written one by one (each pair is the
/// kernel field of the same name).
pub(crate) trait BictcpFields {
    fn cnt(&self) -> u32;
    fn set_cnt(&mut self, v: u32);
    fn last_max_cwnd(&self) -> u32;
    fn set_last_max_cwnd(&mut self, v: u32);
    fn set_last_cwnd(&mut self, v: u32);
    fn last_time(&self) -> u32;
    fn set_last_time(&mut self, v: u32);
    fn origin_point(&self) -> u32;
    fn set_origin_point(&mut self, v: u32);
    fn bic_k(&self) -> u32;
    fn set_bic_k(&mut self, v: u32);
    fn delay_min(&self) -> u32;
    fn epoch_start(&self) -> u32;
    fn set_epoch_start(&mut self, v: u32);
    fn ack_cnt(&self) -> u32;
    fn set_ack_cnt(&mut self, v: u32);
    fn tcp_cwnd(&self) -> u32;
    fn set_tcp_cwnd(&mut self, v: u32);
}

impl BictcpFields for LinuxCubic {
    fn cnt(&self) -> u32 {
        self.cnt
    }
    fn set_cnt(&mut self, v: u32) {
        self.cnt = v;
    }
    fn last_max_cwnd(&self) -> u32 {
        self.last_max_cwnd
    }
    fn set_last_max_cwnd(&mut self, v: u32) {
        self.last_max_cwnd = v;
    }
    fn set_last_cwnd(&mut self, v: u32) {
        self.last_cwnd = v;
    }
    fn last_time(&self) -> u32 {
        self.last_time
    }
    fn set_last_time(&mut self, v: u32) {
        self.last_time = v;
    }
    fn origin_point(&self) -> u32 {
        self.origin_point
    }
    fn set_origin_point(&mut self, v: u32) {
        self.origin_point = v;
    }
    fn bic_k(&self) -> u32 {
        self.bic_k
    }
    fn set_bic_k(&mut self, v: u32) {
        self.bic_k = v;
    }
    fn delay_min(&self) -> u32 {
        self.delay_min
    }
    fn epoch_start(&self) -> u32 {
        self.epoch_start
    }
    fn set_epoch_start(&mut self, v: u32) {
        self.epoch_start = v;
    }
    fn ack_cnt(&self) -> u32 {
        self.ack_cnt
    }
    fn set_ack_cnt(&mut self, v: u32) {
        self.ack_cnt = v;
    }
    fn tcp_cwnd(&self) -> u32 {
        self.tcp_cwnd
    }
    fn set_tcp_cwnd(&mut self, v: u32) {
        self.tcp_cwnd = v;
    }
}

/// `bictcp_update` past its 1/32 s early return: `cnt` for `cwnd` at jiffies `now`.
// Linux net/ipv4/tcp_cubic.c bictcp_update()
#[inline(always)]
pub(crate) fn recompute<B: BictcpFields>(
    b: &mut B,
    p: &LinuxCubicParams,
    cwnd: u32,
    acked: u32,
    now: u32,
) {
    // At most one cubic recompute per jiffy; the Reno-friendly part still runs.
    if !(b.epoch_start() != 0 && now == b.last_time()) {
        update_cubic_target(b, p, cwnd, acked, now);
    }
    if p.config().tcp_friendliness {
        update_reno_friendly(b, p, cwnd);
    }
    // At most one segment of growth per two segments acked (1.5x per RTT).
    if b.cnt() < 2 {
        b.set_cnt(2);
    }
}

/// The cubic half of `bictcp_update`: epoch bookkeeping and `cnt` from W_cubic(t + RTT).
#[inline(always)]
fn update_cubic_target<B: BictcpFields>(
    b: &mut B,
    p: &LinuxCubicParams,
    cwnd: u32,
    acked: u32,
    now: u32,
) {
    b.set_last_cwnd(cwnd);
    b.set_last_time(now);

    if b.epoch_start() == 0 {
        b.set_epoch_start(now);
        b.set_ack_cnt(acked);
        b.set_tcp_cwnd(cwnd);
        let w_max = b.last_max_cwnd();
        if w_max <= cwnd {
            b.set_bic_k(0);
            b.set_origin_point(cwnd);
        } else {
            // Linux bictcp_update(): K = cubic_root(cube_factor * (Wmax - cwnd)), 2^-10 s
            let gap = (w_max - cwnd) as u64;
            b.set_bic_k(linux_cubic_root(p.cube_factor().wrapping_mul(gap)));
            b.set_origin_point(w_max);
        }
    }

    // Linux bictcp_update(): t = (s32)(now - epoch) + usecs_to_jiffies(delay_min), then
    // <<BICTCP_HZ / HZ. The s32 difference is sign-extended into u64, as in C.
    let elapsed = now.wrapping_sub(b.epoch_start()) as i32 as i64 as u64;
    let t_jiffies = elapsed.wrapping_add(usecs_to_jiffies(b.delay_min()));
    let t = (t_jiffies << BICTCP_HZ) / HZ as u64;
    let k = b.bic_k() as u64;
    let below_origin = t < k;
    let offs = if below_origin { k - t } else { t - k };

    // Linux bictcp_update(): delta = (cube_rtt_scale * offs^3) >> (10 + 3*BICTCP_HZ), u64 wrap
    let cube = (p.cube_rtt_scale() as u64)
        .wrapping_mul(offs)
        .wrapping_mul(offs)
        .wrapping_mul(offs);
    let delta = (cube >> (10 + 3 * BICTCP_HZ)) as u32;
    let target = if below_origin {
        b.origin_point().wrapping_sub(delta)
    } else {
        b.origin_point().wrapping_add(delta)
    };

    // Linux bictcp_update(): cnt = cwnd / (target - cwnd), else 100 * cwnd (u32 wrap)
    let mut cnt = if target > cwnd {
        cwnd / (target - cwnd)
    } else {
        cwnd.wrapping_mul(100)
    };
    // Without a Wmax, grow at least 5 % per RTT.
    if b.last_max_cwnd() == 0 && cnt > 20 {
        cnt = 20;
    }
    b.set_cnt(cnt);
}

/// The Reno-friendly half of `bictcp_update`: grow `tcp_cwnd` as Reno with β-adjusted
/// α would, and never let CUBIC be slower than that.
#[inline(always)]
fn update_reno_friendly<B: BictcpFields>(b: &mut B, p: &LinuxCubicParams, cwnd: u32) {
    // Linux bictcp_update(): delta = (cwnd * beta_scale) >> 3, u32 wrap
    let per_segment = cwnd.wrapping_mul(p.beta_scale()) >> 3;
    // The kernel loops `while (ack_cnt > delta) { ack_cnt -= delta; tcp_cwnd++; }`;
    // this is its closed form, (ack_cnt - 1) / delta iterations, so the loop bound is
    // constant. Deviation: with delta == 0 the kernel would spin forever; we skip.
    let ack_cnt = b.ack_cnt();
    if per_segment != 0 && ack_cnt > per_segment {
        let steps = (ack_cnt - 1) / per_segment;
        b.set_ack_cnt(ack_cnt - steps * per_segment);
        b.set_tcp_cwnd(b.tcp_cwnd().wrapping_add(steps));
    }
    let tcp_cwnd = b.tcp_cwnd();
    if tcp_cwnd > cwnd {
        let max_cnt = cwnd / (tcp_cwnd - cwnd);
        if b.cnt() > max_cnt {
            b.set_cnt(max_cnt);
        }
    }
}

/// `cubictcp_recalc_ssthresh`: end the epoch, record Wmax (with fast convergence), and
/// return the new ssthresh.
// Linux net/ipv4/tcp_cubic.c cubictcp_recalc_ssthresh()
#[inline(always)]
pub(crate) fn recalc_ssthresh<B: BictcpFields>(b: &mut B, p: &LinuxCubicParams, cwnd: u32) -> u32 {
    let beta = p.config().beta;
    b.set_epoch_start(0);
    let w_max = if cwnd < b.last_max_cwnd() && p.config().fast_convergence {
        // Wmax = cwnd * (1 + beta) / 2, u32 wrap as in the kernel
        cwnd.wrapping_mul(BICTCP_BETA_SCALE + beta) / (2 * BICTCP_BETA_SCALE)
    } else {
        cwnd
    };
    b.set_last_max_cwnd(w_max);
    // ssthresh = max(cwnd * beta / 1024, 2), u32 wrap as in the kernel
    let ssthresh = cwnd.wrapping_mul(beta) / BICTCP_BETA_SCALE;
    if ssthresh < 2 { 2 } else { ssthresh }
}
