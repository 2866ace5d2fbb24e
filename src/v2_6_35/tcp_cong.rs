//! The 2.6.35 `tcp_cong.c` helpers CUBIC calls: `tcp_slow_start(tp)` with the era's
//! sysctls (`tcp_abc = 0`, `tcp_max_ssthresh = 0`), `tcp_cong_avoid_ai(tp, w)` and
//! `tcp_is_cwnd_limited(sk, in_flight)`.
//!
//! Separate copies of today's functions, because the era's take no `acked` count: slow
//! start grows cwnd by one per ACK however many segments it covers, and additive
//! increase takes one step per ACK.

use super::state::Linux2635State;

/// Most slow-start steps one ACK can take: the kernel's loop gives up to
/// `sqrt(2 * 2^32)` ≈ 92,682 steps when a large leftover `snd_cwnd_cnt` meets a small
/// cwnd; 2^17 bounds that (the bound of the search below).
const MAX_SLOW_START_STEPS: u64 = 1 << 17;

impl Linux2635State {
    /// `tcp_slow_start(tp)` with `tcp_abc = 0` and `tcp_max_ssthresh = 0`:
    /// `snd_cwnd_cnt += cwnd` (u32 wrap), then `while (snd_cwnd_cnt >= snd_cwnd)
    /// { snd_cwnd_cnt -= snd_cwnd; if (snd_cwnd < clamp) snd_cwnd++; }`.
    ///
    /// From `snd_cwnd_cnt < cwnd` (the usual case) that is exactly +1 per ACK. A larger
    /// leftover count (additive increase left it, then cwnd was cut without resetting it)
    /// runs the loop many times; here its closed form runs instead, so the work is
    /// bounded by a constant: the number of growing steps `k` is the largest with
    /// `k*cwnd + k(k-1)/2 <= cnt` (found by a 17-step binary search), capped by the
    /// clamp, then the rest is reduced modulo the final cwnd. A cwnd of 0 (unreachable)
    /// is left alone.
    // Linux 2.6.35 net/ipv4/tcp_cong.c tcp_slow_start()
    pub fn slow_start(&mut self, clamp: u32) {
        let cwnd = self.cwnd;
        if cwnd == 0 {
            return;
        }
        let cnt = self.cwnd_cnt.wrapping_add(cwnd);
        let room = u64::from(clamp.saturating_sub(cwnd));
        let steps = growing_steps(u64::from(cnt), u64::from(cwnd)).min(room);
        // steps <= 2^17 and cwnd < 2^32, so the sum fits u64 and is <= cnt.
        let used = steps * u64::from(cwnd) + steps * steps.saturating_sub(1) / 2;
        let grown = u64::from(cwnd) + steps;
        let left = u64::from(cnt) - used;
        // Once the clamp stops growth, the loop only subtracts the final cwnd.
        self.cwnd = grown as u32;
        self.cwnd_cnt = (left % grown) as u32;
    }

    /// `tcp_cong_avoid_ai(tp, w)`: once `snd_cwnd_cnt` reaches `w`, grow by one (below
    /// the clamp) and restart the count; otherwise count this ACK. One step per ACK.
    // Linux 2.6.35 net/ipv4/tcp_cong.c tcp_cong_avoid_ai()
    pub fn cong_avoid_ai(&mut self, w: u32, clamp: u32) {
        if self.cwnd_cnt >= w {
            if self.cwnd < clamp {
                self.cwnd += 1;
            }
            self.cwnd_cnt = 0;
        } else {
            self.cwnd_cnt += 1;
        }
    }
}

/// The largest `k` with `k*w + k(k-1)/2 <= cnt`, by binary search over `0..2^17`.
fn growing_steps(cnt: u64, w: u64) -> u64 {
    let fits = |k: u64| k * w + k * k.saturating_sub(1) / 2 <= cnt;
    let (mut lo, mut hi) = (0u64, MAX_SLOW_START_STEPS);
    // Invariant: fits(lo); !fits(hi) (2^17 steps need more than 2^33 > cnt).
    for _ in 0..17 {
        if hi - lo <= 1 {
            break;
        }
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// What `tcp_is_cwnd_limited` reads from the socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CwndUse {
    /// `snd_cwnd`.
    pub cwnd: u32,
    /// Segments in flight before the ACK (`prior_in_flight`).
    pub in_flight: u32,
    /// `sk_can_gso`.
    pub gso: bool,
    /// `sysctl_tcp_tso_win_divisor`.
    pub tso_win_divisor: u32,
    /// `mss_cache`, bytes.
    pub mss: u32,
    /// `sk_gso_max_size`, bytes.
    pub gso_max_size: u32,
    /// `tcp_max_burst` = `tp->reordering`.
    pub max_burst: u32,
}

/// `tcp_is_cwnd_limited(sk, in_flight)`: the window counts as used when the flight
/// filled it, or when what is left is small enough that TSO would defer rather than
/// send it (`left * tso_win_divisor < cwnd` and `left * mss < gso_max_size`, u32 products
/// as in C), or, without GSO, at most one burst (`tcp_max_burst`).
// Linux 2.6.35 net/ipv4/tcp_cong.c tcp_is_cwnd_limited()
pub const fn is_cwnd_limited(u: &CwndUse) -> bool {
    if u.in_flight >= u.cwnd {
        return true;
    }
    let left = u.cwnd - u.in_flight;
    if u.gso
        && left.wrapping_mul(u.tso_win_divisor) < u.cwnd
        && left.wrapping_mul(u.mss) < u.gso_max_size
    {
        return true;
    }
    left <= u.max_burst
}

#[cfg(test)]
mod tests;
