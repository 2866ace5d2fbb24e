//! TCP Prague 0.7 (`net/ipv4/tcp_prague.c`, the L4S team's 2024 rewrite, as in
//! `minuscat/rpi-6.18.y` at 330b511a): DCTCP's scalable ECN response made fit for the
//! Internet (RFC 9331 Appendix A).
//!
//! Differences from DCTCP: a fractional window (`frac_cwnd`, 2^20 = one segment) from
//! which cwnd steps by one segment per ACK; a 24-bit alpha kept upscaled by 16;
//! additive increase only for unmarked segments, scaled after a few rounds so that
//! flows below the 25 ms target RTT grow as if they had it; a rate-based mode below a
//! few packets of window, with ±3 % pacing swings per RTT; and an MTU that shrinks
//! below two packets per RTT. Prague has its own `cong_control`, so the glue runs no
//! PRR, no Reno growth and no pacing update of its own for it, and its `ssthresh` hook
//! leaves ssthresh as it is: every ssthresh change comes from the step-wise decrement.
//!
//! Modelled: the ECN (AccECN) branch of `prague_init` (no `prague-reno` fallback), and
//! the `ece_delta` of each ACK as the CE count it newly reports. Not modelled: the
//! `tso_segs` hook (see [`prague_tso_segs`]), `get_info` and `release`.

mod div;
mod pacing;
#[cfg(test)]
mod tests;
mod window;

use crate::error::ConfigError;
use crate::linux::CaState;
use crate::linux::tcp::{CaEvent, RandomSource, RateSample, TcpCongestionOps, TcpSock};
use div::div_u64;
use pacing::{
    SegmentRate, prague_should_update_ewma, prague_update_pacing_rate,
    prague_update_pacing_rate_with,
};
use window::{
    prague_cwnd_undo, prague_enter_cwr, prague_enter_loss, prague_new_round, prague_update_alpha,
    prague_update_cwnd,
};

/// `MIN_CWND_RTT`: the smallest cwnd, segments.
// Linux net/ipv4/tcp_prague.c MIN_CWND_RTT
const MIN_CWND_RTT: u32 = 2;
/// `MIN_CWND_VIRT`: packets per virtual RTT the MTU is sized for.
// Linux net/ipv4/tcp_prague.c MIN_CWND_VIRT
const MIN_CWND_VIRT: u32 = 2;
/// `MIN_MSS`: the smallest segment the MTU shrinking goes down to, bytes.
// Linux net/ipv4/tcp_prague.c MIN_MSS
const MIN_MSS: u32 = 150;
/// `MINIMUM_RATE`: 100 kbit/s in bytes per second.
// Linux net/ipv4/tcp_prague.c MINIMUM_RATE
pub const MINIMUM_RATE: u64 = 12_500;
/// `PRAGUE_ALPHA_BITS`: alpha's resolution.
// Linux net/ipv4/tcp_prague.c PRAGUE_ALPHA_BITS
const PRAGUE_ALPHA_BITS: u32 = 24;
/// `PRAGUE_MAX_ALPHA`: alpha of 1.0.
// Linux net/ipv4/tcp_prague.c PRAGUE_MAX_ALPHA
pub const PRAGUE_MAX_ALPHA: u64 = 1 << PRAGUE_ALPHA_BITS;
/// `CWND_UNIT`: the fractional window's scale.
// Linux net/ipv4/tcp_prague.c CWND_UNIT
const CWND_UNIT: u32 = 20;
/// `ONE_CWND`: one segment of fractional window.
// Linux net/ipv4/tcp_prague.c ONE_CWND
pub const ONE_CWND: u64 = 1 << CWND_UNIT;
/// `PRAGUE_SHIFT_G`: the EWMA gain is 1/16.
// Linux net/ipv4/tcp_prague.c PRAGUE_SHIFT_G
const PRAGUE_SHIFT_G: u32 = 4;
/// `MAX_SCALED_RTT`: above this srtt the increase is not scaled, µs.
// Linux net/ipv4/tcp_prague.c MAX_SCALED_RTT
const MAX_SCALED_RTT_US: u64 = 100_000;
/// `MTU_SYS`: the packet size increases are counted in, bytes.
// Linux net/ipv4/tcp_prague.c MTU_SYS
const MTU_SYS: u64 = 1500;
/// `RATE_OFFSET` / 2^`OFFSET_UNIT`: the ±3 % pacing swing.
// Linux net/ipv4/tcp_prague.c RATE_OFFSET, OFFSET_UNIT
const RATE_OFFSET: u64 = 4;
const OFFSET_UNIT: u32 = 7;
/// `HSRTT_SHIFT`: the slow RTT average's gain is 1/128.
// Linux net/ipv4/tcp_prague.c HSRTT_SHIFT
const HSRTT_SHIFT: u32 = 7;
/// `RTT2SEC_SHIFT`: srtt (µs ×8) to seconds, approximately (2^23 ≈ 8·10^6).
// Linux net/ipv4/tcp_prague.c RTT2SEC_SHIFT
const RTT2SEC_SHIFT: u32 = 23;
/// `USEC_PER_SEC`.
const USEC_PER_SEC: u64 = 1_000_000;

/// Prague's module parameters as written (`/sys/module/tcp_prague/parameters/`), before
/// validation.
///
/// ```
/// use congestion::linux::prague::PragueConfig;
/// use congestion::linux::tcp::ReplayedRandom;
/// use congestion::linux::{Prague, TcpSocketConfig};
///
/// let mut config = PragueConfig::new();
/// config.prague_alpha_mode = 1; // alpha starts at 1.0
/// let params = config.validate()?; // every flow borrows it
/// let flow = Prague::new(&params, &TcpSocketConfig::new(), 0, &mut ReplayedRandom::<1>::new())?;
/// assert!(flow.ca().alpha_mode);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PragueConfig {
    /// `prague_rtt_target`: the RTT below which growth is scaled, µs (default 25,000).
    pub prague_rtt_target: u32,
    /// `prague_rtt_transition`: rounds after slow start before RTT independence (4).
    pub prague_rtt_transition: u32,
    /// `prague_alpha_mode`: bit 0 set, alpha starts at 1.0 (no first-CE halving).
    pub prague_alpha_mode: u32,
    /// `prague_cwnd_mode`: bit 0 the initial mode (1 rate-based), bit 1 switching
    /// modes at `prague_cwnd_transit` (default 2).
    pub prague_cwnd_mode: u32,
    /// `prague_cwnd_transit`: the switch point, in 1500-byte packets (4).
    pub prague_cwnd_transit: u32,
    /// `prague_burst_shift`: the TSO burst lasts `1/2^shift` s (default 12, ≈ 250 µs);
    /// at most 63.
    pub prague_burst_shift: u32,
    /// `prague_max_tso_segs`: a cap on the TSO burst, 0 for none.
    pub prague_max_tso_segs: u32,
}

/// The largest `prague_burst_shift` (a shift of the 64-bit burst; the kernel's C
/// would be undefined beyond it).
pub const PRAGUE_MAX_BURST_SHIFT: u32 = 63;

impl PragueConfig {
    /// The module defaults.
    pub const fn new() -> Self {
        PragueConfig {
            prague_rtt_target: 25_000,
            prague_rtt_transition: 4,
            prague_alpha_mode: 0,
            prague_cwnd_mode: 2,
            prague_cwnd_transit: 4,
            prague_burst_shift: 12,
            prague_max_tso_segs: 0,
        }
    }

    /// The parameters, or an error naming `prague_burst_shift` and its range 0..=63.
    /// Every other value is accepted as the kernel accepts it (a target of 0 turns
    /// the RTT scaling off; only bit 0 of the alpha mode and bits 0-1 of the cwnd mode
    /// are read).
    pub const fn validate(&self) -> Result<PragueParams, ConfigError> {
        if self.prague_burst_shift > PRAGUE_MAX_BURST_SHIFT {
            return Err(ConfigError::ParamOutOfRange {
                field: "prague_burst_shift",
                min: 0,
                max: PRAGUE_MAX_BURST_SHIFT,
            });
        }
        Ok(PragueParams { config: *self })
    }
}

impl Default for PragueConfig {
    fn default() -> Self {
        Self::new()
    }
}

/// The validated module parameters, shared by every flow (see [`PragueConfig`]'s
/// example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PragueParams {
    config: PragueConfig,
}

impl PragueParams {
    /// The module defaults.
    pub const fn new() -> Self {
        PragueParams {
            config: PragueConfig::new(),
        }
    }

    /// The settings these parameters were validated from.
    pub const fn config(&self) -> &PragueConfig {
        &self.config
    }
}

impl Default for PragueParams {
    fn default() -> Self {
        Self::new()
    }
}

/// `struct prague`: Prague's per-flow private data (the kernel's bit fields as
/// `bool`s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct PragueCa {
    /// `cwr_stamp`: `tcp_mstamp` of the last CWR reduction, µs.
    pub cwr_stamp: u64,
    /// `alpha_stamp`: `tcp_mstamp` of the last alpha update, µs.
    pub alpha_stamp: u64,
    /// `upscaled_alpha`: the CE-fraction EWMA × 2^24 × 16.
    pub upscaled_alpha: u64,
    /// `ai_ack_increase`: the increase per ACKed segment (2^20 = one per RTT).
    pub ai_ack_increase: u64,
    /// `hsrtt_us`: srtt (×8) averaged with gain 1/128, × 2^7.
    pub hsrtt_us: u64,
    /// `frac_cwnd`: the fractional window, segments × 2^20.
    pub frac_cwnd: u64,
    /// `rate_bytes`: the internal rate, bytes per second.
    pub rate_bytes: u64,
    /// `loss_rate_bytes`: the rate before the last loss.
    pub loss_rate_bytes: u64,
    /// `mtu_cache`: the MTU at init (the largest the shrinking returns to).
    pub mtu_cache: u32,
    /// `loss_cwnd`: cwnd before the last loss.
    pub loss_cwnd: u32,
    /// `max_tso_burst`: segments per TSO burst.
    pub max_tso_burst: u32,
    /// `old_delivered`: `tp->delivered` at the round's start.
    pub old_delivered: u32,
    /// `old_delivered_ce`: `tp->delivered_ce` at the round's start.
    pub old_delivered_ce: u32,
    /// `next_seq`: the round ends when `snd_una` reaches it.
    pub next_seq: u32,
    /// `round`: rounds since slow start ended.
    pub round: u32,
    /// `saw_ce`: a CE mark proved an AQM on the path.
    pub saw_ce: bool,
    /// `alpha_mode`: alpha started at 1.0.
    pub alpha_mode: bool,
    /// `cwnd_mode_transit`: switch between window and rate mode.
    pub cwnd_mode_transit: bool,
    /// `cwnd_mode`: rate-based (true) or window-based.
    pub cwnd_mode: bool,
    /// `in_loss`: a loss reduction holds growth.
    pub in_loss: bool,
}

const _: () = assert!(core::mem::size_of::<PragueCa>() <= 104);

/// Prague's hook table (`struct tcp_congestion_ops prague`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PragueOps;

/// `prague_init()` on an AccECN connection: pacing on, alpha 0 (or 1.0), the window
/// and a rate from cwnd and srtt, the MTU remembered, and the first round.
///
/// The pacing rate is computed before `cwnd_mode` is read from the parameters, so it
/// sees window mode, as in the kernel.
// Linux net/ipv4/tcp_prague.c prague_init()
pub fn prague_init(ca: &mut PragueCa, sk: &mut TcpSock, p: &PragueParams) {
    if sk.sk_pacing_status == 0 {
        sk.sk_pacing_status = 1;
    }
    ca.alpha_stamp = sk.tcp_mstamp;
    ca.alpha_mode = p.config.prague_alpha_mode & 1 != 0;
    ca.upscaled_alpha = if ca.alpha_mode {
        PRAGUE_MAX_ALPHA << PRAGUE_SHIFT_G
    } else {
        0
    };
    ca.frac_cwnd = u64::from(sk.snd_cwnd) << CWND_UNIT;
    ca.max_tso_burst = 1;
    let mtu = u64::from(sk.mss_to_mtu(sk.mss_cache));
    ca.rate_bytes = if sk.srtt_us != 0 {
        // Linux prague_init(): 8e6 * mtu / srtt per segment, times the window
        let per_segment = div_u64((USEC_PER_SEC << 3).wrapping_mul(mtu), u64::from(sk.srtt_us));
        let segments = sk.snd_cwnd.max(sk.packets_in_flight());
        per_segment
            .wrapping_mul(u64::from(segments))
            .max(MINIMUM_RATE)
    } else {
        MINIMUM_RATE
    };
    prague_update_pacing_rate(ca, sk, p);
    ca.loss_rate_bytes = 0;
    ca.round = 0;
    ca.saw_ce = sk.delivered_ce != 0;
    let mtu = sk.mss_to_mtu(sk.mss_cache);
    ca.mtu_cache = if mtu != 0 { mtu } else { MTU_SYS as u32 };
    // Linux prague_init(): hsrtt = srtt << 7, or 1 µs (8 << 7) without a sample
    ca.hsrtt_us = if sk.srtt_us != 0 {
        u64::from(sk.srtt_us) << HSRTT_SHIFT
    } else {
        1 << (HSRTT_SHIFT + 3)
    };
    ca.cwnd_mode_transit = p.config.prague_cwnd_mode & 2 != 0;
    ca.cwnd_mode = p.config.prague_cwnd_mode & 1 != 0;
    prague_new_round(ca, sk, p);
}

/// `prague_cong_control()`: the window update, alpha once per round, the pacing
/// rate, then the switch between window and rate mode at `prague_cwnd_transit`
/// packets (rate mode only once CE was seen).
// Linux net/ipv4/tcp_prague.c prague_cong_control()
pub fn prague_cong_control(ca: &mut PragueCa, sk: &mut TcpSock, p: &PragueParams, rs: &RateSample) {
    let mut segment_rate = SegmentRate::default();
    prague_update_cwnd(ca, sk, p, rs, &mut segment_rate);
    if prague_should_update_ewma(ca, sk, p) {
        prague_update_alpha(ca, sk, p);
        segment_rate.forget();
    }
    prague_update_pacing_rate_with(ca, sk, p, &mut segment_rate);
    if ca.cwnd_mode_transit {
        // The kernel's u32 product, widened after it wrapped.
        let cwnd_bytes = u64::from(sk.snd_cwnd.wrapping_mul(sk.mss_to_mtu(sk.mss_cache)));
        let transit_bytes = u64::from(p.config.prague_cwnd_transit).wrapping_mul(MTU_SYS);
        if ca.saw_ce && cwnd_bytes <= transit_bytes {
            ca.cwnd_mode = true;
            ca.frac_cwnd = pacing::prague_pacing_rate_to_frac_cwnd(ca, sk);
        } else {
            ca.cwnd_mode = false;
            ca.rate_bytes = pacing::prague_frac_cwnd_to_rate_from(ca, segment_rate.get(sk));
        }
    }
}

/// `prague_state()`: Recovery starts a loss reduction, CWR an ECN one, Open ends
/// the loss hold; a transition to the same state does nothing.
// Linux net/ipv4/tcp_prague.c prague_state()
pub fn prague_state(ca: &mut PragueCa, sk: &TcpSock, p: &PragueParams, new_state: CaState) {
    if new_state == sk.icsk_ca_state {
        return;
    }
    match new_state {
        CaState::Recovery => prague_enter_loss(ca, sk, p),
        CaState::Cwr => prague_enter_cwr(ca, sk, p),
        // Linux net/ipv4/tcp_prague.c prague_ca_open()
        CaState::Open => ca.in_loss = false,
        CaState::Disorder | CaState::Loss => {}
    }
}

/// `prague_tso_segs()`: the TSO burst, capped by `prague_max_tso_segs` when set.
// Linux net/ipv4/tcp_prague.c prague_tso_segs()
pub const fn prague_tso_segs(ca: &PragueCa, p: &PragueParams) -> u32 {
    if p.config.prague_max_tso_segs != 0 && p.config.prague_max_tso_segs < ca.max_tso_burst {
        p.config.prague_max_tso_segs
    } else {
        ca.max_tso_burst
    }
}

impl TcpCongestionOps for PragueOps {
    type Ca = PragueCa;
    type Params = PragueParams;
    const NAME: &'static str = "prague";
    const HAS_CONG_CONTROL: bool = true;

    fn init<R: RandomSource>(ca: &mut PragueCa, sk: &mut TcpSock, p: &PragueParams, _: &mut R) {
        prague_init(ca, sk, p);
    }

    /// `prague_ssthresh()`: ssthresh unchanged.
    // Linux net/ipv4/tcp_prague.c prague_ssthresh()
    fn ssthresh(_: &mut PragueCa, sk: &TcpSock, _: &PragueParams) -> u32 {
        sk.snd_ssthresh
    }

    fn undo_cwnd(ca: &mut PragueCa, sk: &TcpSock, _: &PragueParams) -> u32 {
        prague_cwnd_undo(ca, sk)
    }

    fn set_state(ca: &mut PragueCa, sk: &mut TcpSock, p: &PragueParams, new_state: CaState) {
        prague_state(ca, sk, p, new_state);
    }

    /// `prague_cwnd_event()`: an RTO (`CA_EVENT_LOSS`) is a loss reduction.
    // Linux net/ipv4/tcp_prague.c prague_cwnd_event()
    fn cwnd_event(ca: &mut PragueCa, sk: &mut TcpSock, p: &PragueParams, event: CaEvent) {
        if event == CaEvent::Loss {
            prague_enter_loss(ca, sk, p);
        }
    }

    fn cong_control<R: RandomSource>(
        ca: &mut PragueCa,
        sk: &mut TcpSock,
        p: &PragueParams,
        _ack: u32,
        _flag: u32,
        rs: &RateSample,
        _rand: &mut R,
    ) {
        prague_cong_control(ca, sk, p, rs);
    }
}
