//! DCTCP (`net/ipv4/tcp_dctcp.c`, mainline): Reno growth, and a reduction on ECN echo
//! in proportion to the fraction of CE-marked segments (RFC 8257).
//!
//! Once per round trip (`dctcp_update_alpha`) the fraction `F` of delivered segments
//! that were CE-marked updates the EWMA `alpha = (1 - g)·alpha + g·F` (scaled so that
//! 1024 is 1.0). An ECN echo enters CWR with `ssthresh = cwnd·(1 - alpha/2)`; a loss
//! halves cwnd whatever alpha is (`dctcp_react_to_loss`). Everything else is the
//! kernel's glue ([`crate::linux::tcp`]). PLB (`tcp_plb_*`) is off, as by default;
//! the receiver's CE state machine (`dctcp_ece_ack_update`) is not driven.

use crate::error::ConfigError;
use crate::linux::CaState;
use crate::linux::tcp::{
    CaEvent, RandomSource, TcpCongestionOps, TcpSock, before, tcp_reno_cong_avoid,
};

/// `DCTCP_MAX_ALPHA`: alpha of 1.0.
// Linux net/ipv4/tcp_dctcp.c DCTCP_MAX_ALPHA
pub const DCTCP_MAX_ALPHA: u32 = 1024;

/// The largest `dctcp_shift_g` the kernel accepts (`param_set_uint_minmax(.., 0, 10)`).
// Linux net/ipv4/tcp_dctcp.c dctcp_shift_g_set()
pub const DCTCP_MAX_SHIFT_G: u32 = 10;

/// DCTCP's module parameters as written (`/sys/module/tcp_dctcp/parameters/`), before
/// validation.
///
/// ```
/// use congestion::ConfigError;
/// use congestion::linux::dctcp::DctcpConfig;
///
/// let mut params = DctcpConfig::new().validate()?; // every flow borrows it
/// let err = ConfigError::ParamOutOfRange { field: "dctcp_shift_g", min: 0, max: 10 };
/// assert_eq!(params.set_dctcp_shift_g(11), Err(err)); // as `validate`: refused
/// assert_eq!(params.dctcp_shift_g(), 4);
/// # Ok::<(), ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DctcpConfig {
    /// `dctcp_shift_g`: the EWMA gain is `1/2^g`; 0..=10 (default 4).
    pub dctcp_shift_g: u32,
    /// `dctcp_alpha_on_init`: alpha at `init` (1024 = 1.0, the default); `init` takes
    /// at most 1024.
    pub dctcp_alpha_on_init: u32,
}

impl DctcpConfig {
    /// The kernel defaults: `g = 1/2^4`, alpha starting at 1.0.
    pub const fn new() -> Self {
        DctcpConfig {
            dctcp_shift_g: 4,
            dctcp_alpha_on_init: DCTCP_MAX_ALPHA,
        }
    }

    /// The parameters, or an error naming `dctcp_shift_g` and its range 0..=10.
    // Linux net/ipv4/tcp_dctcp.c dctcp_shift_g_set(): param_set_uint_minmax(0, 10)
    pub const fn validate(&self) -> Result<DctcpParams, ConfigError> {
        if self.dctcp_shift_g > DCTCP_MAX_SHIFT_G {
            return Err(ConfigError::ParamOutOfRange {
                field: "dctcp_shift_g",
                min: 0,
                max: DCTCP_MAX_SHIFT_G,
            });
        }
        Ok(DctcpParams { config: *self })
    }
}

impl Default for DctcpConfig {
    fn default() -> Self {
        Self::new()
    }
}

/// The validated module parameters, shared by every flow (see [`DctcpConfig`]'s
/// example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DctcpParams {
    config: DctcpConfig,
}

impl DctcpParams {
    /// The kernel defaults.
    pub const fn new() -> Self {
        DctcpParams {
            config: DctcpConfig::new(),
        }
    }

    /// The settings these parameters were validated from.
    pub const fn config(&self) -> &DctcpConfig {
        &self.config
    }

    /// `dctcp_shift_g`.
    pub const fn dctcp_shift_g(&self) -> u32 {
        self.config.dctcp_shift_g
    }

    /// Rewrites `dctcp_shift_g` on live parameters, as a sysfs write does: a value
    /// above 10 is refused with the error of [`DctcpConfig::validate`] and the old
    /// value stays.
    pub const fn set_dctcp_shift_g(&mut self, g: u32) -> Result<(), ConfigError> {
        let mut config = self.config;
        config.dctcp_shift_g = g;
        match config.validate() {
            Ok(p) => {
                *self = p;
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Rewrites `dctcp_alpha_on_init` on live parameters (every value is accepted).
    pub const fn set_dctcp_alpha_on_init(&mut self, alpha: u32) {
        self.config.dctcp_alpha_on_init = alpha;
    }
}

impl Default for DctcpParams {
    fn default() -> Self {
        Self::new()
    }
}

/// `struct dctcp` without its PLB state: DCTCP's per-flow private data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct DctcpCa {
    /// `old_delivered`: `tp->delivered` when the current round began.
    pub old_delivered: u32,
    /// `old_delivered_ce`: `tp->delivered_ce` when the current round began.
    pub old_delivered_ce: u32,
    /// `prior_rcv_nxt`: receiver-side state (not driven here).
    pub prior_rcv_nxt: u32,
    /// `dctcp_alpha`: the CE fraction EWMA, 1024 = 1.0.
    pub dctcp_alpha: u32,
    /// `next_seq`: the round ends when `snd_una` reaches it.
    pub next_seq: u32,
    /// `ce_state`: receiver-side state (not driven here).
    pub ce_state: u32,
    /// `loss_cwnd`: cwnd at the last reduction, restored by undo.
    pub loss_cwnd: u32,
}

const _: () = assert!(core::mem::size_of::<DctcpCa>() <= 104);

/// DCTCP's hook table (`struct tcp_congestion_ops dctcp`): [`crate::linux::Dctcp`] is
/// `TcpFlow<DctcpOps>` (see [`TcpFlow`](crate::linux::TcpFlow)'s example).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DctcpOps;

// Linux net/ipv4/tcp_dctcp.c dctcp_reset()
fn dctcp_reset(ca: &mut DctcpCa, sk: &TcpSock) {
    ca.next_seq = sk.snd_nxt;
    ca.old_delivered = sk.delivered;
    ca.old_delivered_ce = sk.delivered_ce;
}

/// `dctcp_init()` on an ECN-capable connection (the `dctcp-reno` fallback without ECN
/// is not modelled).
// Linux net/ipv4/tcp_dctcp.c dctcp_init()
pub fn dctcp_init(ca: &mut DctcpCa, sk: &TcpSock, p: &DctcpParams) {
    ca.prior_rcv_nxt = 0;
    ca.dctcp_alpha = p.config.dctcp_alpha_on_init.min(DCTCP_MAX_ALPHA);
    ca.loss_cwnd = 0;
    ca.ce_state = 0;
    dctcp_reset(ca, sk);
}

/// `dctcp_ssthresh()`: remembers cwnd for undo and returns `cwnd·(1 - alpha/2)`, at
/// least 2. `cwnd·alpha` wraps as the kernel's `u32` product does (cwnd above 4M).
// Linux net/ipv4/tcp_dctcp.c dctcp_ssthresh()
pub fn dctcp_ssthresh(ca: &mut DctcpCa, sk: &TcpSock) -> u32 {
    let cwnd = sk.snd_cwnd;
    ca.loss_cwnd = cwnd;
    // Linux dctcp_ssthresh(): max(cwnd - ((cwnd * alpha) >> 11), 2)
    cwnd.wrapping_sub(cwnd.wrapping_mul(ca.dctcp_alpha) >> 11)
        .max(2)
}

/// `dctcp_update_alpha()` (the `in_ack_event` hook): once `snd_una` reaches
/// `next_seq`, the round's CE fraction updates alpha, and a new round begins.
///
/// `alpha -= min_not_zero(alpha, alpha >> g)`: with `alpha < 2^g` all of it decays.
/// Then `alpha += (c << (10 - g)) / max(d, 1)`, capped at 1024, where a round may
/// report more CE segments `c` than delivered `d` (AccECN after ACK loss). The shift
/// wraps as the kernel's `u32` does.
// Linux net/ipv4/tcp_dctcp.c dctcp_update_alpha()
pub fn dctcp_update_alpha(ca: &mut DctcpCa, sk: &TcpSock, p: &DctcpParams) {
    if before(sk.snd_una, ca.next_seq) {
        return;
    }
    let delivered = sk.delivered.wrapping_sub(ca.old_delivered);
    let delivered_ce = sk.delivered_ce.wrapping_sub(ca.old_delivered_ce);
    let mut alpha = ca.dctcp_alpha;
    // Linux dctcp_update_alpha(): alpha -= min_not_zero(alpha, alpha >> g)
    let decay = alpha >> p.config.dctcp_shift_g;
    alpha -= if decay == 0 { alpha } else { decay };
    if delivered_ce != 0 {
        // Linux dctcp_update_alpha(): (c << (10 - g)) / max(1, d), u32
        let scaled = delivered_ce.wrapping_shl(10 - p.config.dctcp_shift_g) / delivered.max(1);
        // The kernel's u32 sum wraps (only for a round with billions of CE marks).
        alpha = alpha.wrapping_add(scaled).min(DCTCP_MAX_ALPHA);
    }
    ca.dctcp_alpha = alpha;
    dctcp_reset(ca, sk);
}

/// `dctcp_react_to_loss()`: remember cwnd, and halve it (ssthresh at least 2).
// Linux net/ipv4/tcp_dctcp.c dctcp_react_to_loss()
pub fn dctcp_react_to_loss(ca: &mut DctcpCa, sk: &mut TcpSock) {
    ca.loss_cwnd = sk.snd_cwnd;
    sk.snd_ssthresh = (sk.snd_cwnd >> 1).max(2);
}

/// `dctcp_state()`: entering Recovery (from another state) halves; RTOs are handled
/// by `CA_EVENT_LOSS`, so that each window is reduced once.
// Linux net/ipv4/tcp_dctcp.c dctcp_state()
pub fn dctcp_state(ca: &mut DctcpCa, sk: &mut TcpSock, new_state: CaState) {
    if new_state == CaState::Recovery && new_state != sk.icsk_ca_state {
        dctcp_react_to_loss(ca, sk);
    }
}

/// `dctcp_cwnd_undo()`: the larger of cwnd and the cwnd before the reduction.
// Linux net/ipv4/tcp_dctcp.c dctcp_cwnd_undo()
pub fn dctcp_cwnd_undo(ca: &DctcpCa, sk: &TcpSock) -> u32 {
    sk.snd_cwnd.max(ca.loss_cwnd)
}

impl TcpCongestionOps for DctcpOps {
    type Ca = DctcpCa;
    type Params = DctcpParams;
    const NAME: &'static str = "dctcp";

    fn init<R: RandomSource>(ca: &mut DctcpCa, sk: &mut TcpSock, p: &DctcpParams, _: &mut R) {
        dctcp_init(ca, sk, p);
    }

    fn ssthresh(ca: &mut DctcpCa, sk: &TcpSock, _: &DctcpParams) -> u32 {
        dctcp_ssthresh(ca, sk)
    }

    fn undo_cwnd(ca: &mut DctcpCa, sk: &TcpSock, _: &DctcpParams) -> u32 {
        dctcp_cwnd_undo(ca, sk)
    }

    fn cong_avoid(_: &mut DctcpCa, sk: &mut TcpSock, _: &DctcpParams, ack: u32, acked: u32) {
        tcp_reno_cong_avoid(sk, ack, acked);
    }

    fn set_state(ca: &mut DctcpCa, sk: &mut TcpSock, _: &DctcpParams, new_state: CaState) {
        dctcp_state(ca, sk, new_state);
    }

    /// Only `CA_EVENT_LOSS` matters with PLB off (`dctcp_react_to_loss`); the
    /// receiver-side ECN events are not driven here.
    // Linux net/ipv4/tcp_dctcp.c dctcp_cwnd_event()
    fn cwnd_event(ca: &mut DctcpCa, sk: &mut TcpSock, _: &DctcpParams, event: CaEvent) {
        if event == CaEvent::Loss {
            dctcp_react_to_loss(ca, sk);
        }
    }

    fn in_ack_event(ca: &mut DctcpCa, sk: &mut TcpSock, p: &DctcpParams, _flags: u32) {
        dctcp_update_alpha(ca, sk, p);
    }
}
