//! `tcp_cong_control()`: what an ACK does to the window, and the pacing rate after it.

use crate::linux::tcp::cwnd_reduction::tcp_cwnd_reduction;
use crate::linux::tcp::{RandomSource, RateSample, TcpCongestionOps, TcpSock, ack_flags};
use crate::pacing::{
    LinuxPacingInput, PACING_CA_RATIO_PERCENT, PACING_SS_RATIO_PERCENT, linux_pacing_rate,
};

/// The host-wide settings (`net.ipv4.*` sysctls) the glue reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TcpSysctl {
    /// `tcp_pacing_ss_ratio`, percent (default 200).
    pub pacing_ss_ratio: u32,
    /// `tcp_pacing_ca_ratio`, percent (default 120).
    pub pacing_ca_ratio: u32,
    /// `tcp_slow_start_after_idle` (default on): restart the window after an idle RTO.
    pub slow_start_after_idle: bool,
    /// Whether the glue writes `sk_pacing_rate` at all (`tcp_update_pacing_rate`). Off
    /// for a stack that paces by other means; the rate then keeps its last value.
    pub update_pacing_rate: bool,
}

impl TcpSysctl {
    /// The kernel defaults.
    pub const fn new() -> Self {
        TcpSysctl {
            pacing_ss_ratio: PACING_SS_RATIO_PERCENT,
            pacing_ca_ratio: PACING_CA_RATIO_PERCENT,
            slow_start_after_idle: true,
            update_pacing_rate: true,
        }
    }
}

impl Default for TcpSysctl {
    fn default() -> Self {
        Self::new()
    }
}

/// `tcp_update_pacing_rate()`: `mss · max(cwnd, packets_out) / srtt`, at 200 % while
/// cwnd is below half of ssthresh and 120 % after, capped at `sk_max_pacing_rate`
/// (the arithmetic is [`linux_pacing_rate`]'s). Nothing when `update_pacing_rate` is off.
// Linux net/ipv4/tcp_input.c tcp_update_pacing_rate()
pub fn tcp_update_pacing_rate(sk: &mut TcpSock, sysctl: &TcpSysctl) {
    if !sysctl.update_pacing_rate {
        return;
    }
    sk.sk_pacing_rate = linux_pacing_rate(&LinuxPacingInput {
        mss: sk.mss_cache,
        cwnd: sk.snd_cwnd,
        ssthresh: sk.snd_ssthresh,
        packets_out: sk.packets_out,
        srtt_us_x8: sk.srtt_us,
        ss_ratio_percent: sysctl.pacing_ss_ratio,
        ca_ratio_percent: sysctl.pacing_ca_ratio,
        max_rate: sk.sk_max_pacing_rate,
    });
}

/// `tcp_cong_control()`: an algorithm with its own `cong_control` does everything
/// itself. Otherwise PRR inside a reduction, window growth (`cong_avoid`) on an ACK
/// that acknowledged new data, and then the pacing rate.
// Linux net/ipv4/tcp_input.c tcp_cong_control()
#[allow(clippy::too_many_arguments)] // the kernel's five, the hook table's params, sysctls, rand
pub fn tcp_cong_control<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    sysctl: &TcpSysctl,
    ack: u32,
    flag: u32,
    rs: &RateSample,
    rand: &mut R,
) {
    if O::HAS_CONG_CONTROL {
        O::cong_control(ca, sk, p, ack, flag, rs, rand);
        return;
    }
    if sk.in_cwnd_reduction() {
        tcp_cwnd_reduction(sk, rs.acked_sacked, rs.losses, flag);
    } else if flag & ack_flags::DATA_ACKED != 0 {
        // Linux tcp_may_raise_cwnd(): in-order delivery (no reordering is modelled)
        O::cong_avoid(ca, sk, p, ack, rs.acked_sacked);
    }
    tcp_update_pacing_rate(sk, sysctl);
}
