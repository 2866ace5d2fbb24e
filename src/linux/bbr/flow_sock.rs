//! The socket half both Linux-mode BBR flows ([`super::Bbr`] and
//! [`crate::linux::Bbr3`]) share: the settings their configs hold in common, checked
//! once, the fresh socket `bbr_init()` starts from, and the fields a flow keeps
//! between events. Written once so that v1 and v3 cannot drift apart.

use super::pacing::GSO_LEGACY_MAX_SIZE;
use super::{Flight, TCP_INFINITE_SSTHRESH};
use crate::hystart::PacingStatus;
use crate::linux::CaState;
use crate::linux::tcp::{Minmax, TcpSock};
use crate::{ConfigError, Instant};

/// The socket settings every Linux-mode BBR config carries (see
/// [`super::BbrConfig`] for each field's meaning).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SockSettings {
    pub mss: u32,
    pub init_cwnd: u32,
    pub cwnd_clamp: u32,
    pub initial_rtt_us: u32,
    pub max_pacing_rate: u64,
    pub pacing_status: PacingStatus,
    pub pacing_shift: u8,
    pub max_tcp_header: u32,
}

impl SockSettings {
    /// The checks both configs make; `shift_bound` is the first `pacing_shift` refused
    /// (v1 shifts a `u32`, v3 a `u64`).
    pub(crate) const fn validate(&self, shift_bound: u8) -> Result<(), ConfigError> {
        if self.mss == 0 {
            return Err(ConfigError::ZeroMss);
        }
        if self.cwnd_clamp == 0 {
            return Err(ConfigError::ClampTooSmall);
        }
        if self.init_cwnd == 0 || self.init_cwnd > self.cwnd_clamp {
            return Err(ConfigError::InitialWindowOutOfRange);
        }
        if self.pacing_shift >= shift_bound {
            return Err(ConfigError::ShiftOutOfRange);
        }
        if self.max_tcp_header >= GSO_LEGACY_MAX_SIZE - 1 {
            return Err(ConfigError::TcpHeaderOutOfRange);
        }
        Ok(())
    }

    /// A fresh socket established at `now`, before `bbr_init()`: cwnd `init_cwnd`,
    /// srtt and `tcp_min_rtt()` from `initial_rtt_us`, an app-limited bubble.
    pub(crate) fn fresh_sock(&self, now: Instant) -> TcpSock {
        let mut sk = TcpSock::default();
        sk.set_clock(now.as_micros());
        sk.mss_cache = self.mss;
        sk.snd_cwnd = self.init_cwnd;
        sk.snd_cwnd_clamp = self.cwnd_clamp;
        sk.snd_ssthresh = TCP_INFINITE_SSTHRESH;
        // tcp_init_sock(): a bubble in the pipe until the first ACK
        sk.app_limited = u32::MAX;
        sk.rate_app_limited = true;
        sk.rtt_min = Minmax::new(sk.tcp_jiffies32, u32::MAX);
        if self.initial_rtt_us > 0 {
            sk.srtt_us = self.initial_rtt_us.wrapping_shl(3);
            sk.rtt_min = Minmax::new(sk.tcp_jiffies32, self.initial_rtt_us);
        }
        sk.sk_pacing_status = self.pacing_status.code();
        sk.sk_pacing_shift = self.pacing_shift;
        sk.sk_max_pacing_rate = self.max_pacing_rate;
        sk
    }
}

/// The socket fields both BBR flows keep between events (88 bytes): the rest of
/// [`TcpSock`] is either the stack's (scoreboard, sequence numbers), derived from
/// `now` or the settings, or never read by BBR (the sampler's `rate_*` record for
/// `tcp_info`, `prior_cwnd`). v3 keeps a few more beside these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct FlowSock {
    pub first_tx_mstamp: u64,
    pub delivered_mstamp: u64,
    pub sk_pacing_rate: u64,
    pub tcp_wstamp_ns: u64,
    pub rtt_min: Minmax,
    pub snd_cwnd: u32,
    pub snd_ssthresh: u32,
    pub prior_ssthresh: u32,
    pub delivered: u32,
    pub lost: u32,
    pub app_limited: u32,
    pub high_seq: u32,
    pub icsk_ca_state: CaState,
    /// `bbr_tso_segs_goal()` at `sk_pacing_rate` with the flow's settings (1 to 127),
    /// or 0 when not known: BBR v1's view sets it after each ACK's cwnd step (0 when
    /// that step computed none) and clears it whenever the pacing rate changes; a
    /// socket saved whole clears it.
    pub tso_goal: u8,
    /// `data_segs_out`, saturating at 10: only `>= 10` is read (the kernel's counter
    /// wraps after 2^32 segments and then skips pacing 10 segments; this one does not).
    pub data_segs_out: u8,
    /// `sk_pacing_status` (at most 127: 0, 1 or 2 as set here) in the low 7 bits,
    /// `undo_marker` in the top bit ([`Self::UNDO_MARKER`]), so that `tso_goal` fits.
    pub pacing_undo: u8,
}

const _: () = assert!(core::mem::size_of::<FlowSock>() <= 88);

impl FlowSock {
    /// The bit of `pacing_undo` that holds `undo_marker`.
    pub(crate) const UNDO_MARKER: u8 = 0x80;

    /// `sk_pacing_status`.
    pub(crate) const fn sk_pacing_status(&self) -> u8 {
        self.pacing_undo & !Self::UNDO_MARKER
    }

    /// `undo_marker`.
    pub(crate) const fn undo_marker(&self) -> bool {
        self.pacing_undo & Self::UNDO_MARKER != 0
    }

    /// The kernel socket these fields stand for at `now`, with the stack's counters.
    pub(crate) fn load(&self, c: &SockSettings, now: Instant, flight: Flight) -> TcpSock {
        let mut sk = TcpSock {
            mss_cache: c.mss,
            snd_cwnd_clamp: c.cwnd_clamp,
            sk_max_pacing_rate: c.max_pacing_rate,
            sk_pacing_shift: c.pacing_shift,
            sk_pacing_status: self.sk_pacing_status(),
            first_tx_mstamp: self.first_tx_mstamp,
            delivered_mstamp: self.delivered_mstamp,
            sk_pacing_rate: self.sk_pacing_rate,
            tcp_wstamp_ns: self.tcp_wstamp_ns,
            rtt_min: self.rtt_min,
            snd_cwnd: self.snd_cwnd,
            snd_ssthresh: self.snd_ssthresh,
            prior_ssthresh: self.prior_ssthresh,
            delivered: self.delivered,
            lost: self.lost,
            app_limited: self.app_limited,
            high_seq: self.high_seq,
            icsk_ca_state: self.icsk_ca_state,
            undo_marker: self.undo_marker(),
            data_segs_out: u32::from(self.data_segs_out),
            ..TcpSock::default()
        };
        set_flight(&mut sk, flight);
        sk.set_clock(now.as_micros());
        sk
    }

    /// Keeps what the next event needs.
    pub(crate) fn save(sk: &TcpSock) -> Self {
        FlowSock {
            first_tx_mstamp: sk.first_tx_mstamp,
            delivered_mstamp: sk.delivered_mstamp,
            sk_pacing_rate: sk.sk_pacing_rate,
            tcp_wstamp_ns: sk.tcp_wstamp_ns,
            rtt_min: sk.rtt_min,
            snd_cwnd: sk.snd_cwnd,
            snd_ssthresh: sk.snd_ssthresh,
            prior_ssthresh: sk.prior_ssthresh,
            delivered: sk.delivered,
            lost: sk.lost,
            app_limited: sk.app_limited,
            high_seq: sk.high_seq,
            icsk_ca_state: sk.icsk_ca_state,
            tso_goal: 0,
            data_segs_out: sk.data_segs_out.min(10) as u8,
            // A status above 127 (none is set here) keeps its only meaning, non-zero.
            pacing_undo: sk.sk_pacing_status.min(!Self::UNDO_MARKER)
                | if sk.undo_marker { Self::UNDO_MARKER } else { 0 },
        }
    }

    /// The socket `bbr_tso_segs_goal()` reads: the pacing rate, shift and mss.
    pub(crate) fn pacing_sock(&self, c: &SockSettings) -> TcpSock {
        TcpSock {
            sk_pacing_rate: self.sk_pacing_rate,
            sk_pacing_shift: c.pacing_shift,
            mss_cache: c.mss,
            ..TcpSock::default()
        }
    }

    /// Recovery bookkeeping `(high_seq, undo_marker, prior_ssthresh)`.
    pub(crate) const fn recovery(&self) -> (u32, bool, u32) {
        (self.high_seq, self.undo_marker(), self.prior_ssthresh)
    }
}

/// The stack's scoreboard counters into the socket.
pub(crate) fn set_flight(sk: &mut TcpSock, flight: Flight) {
    sk.packets_out = flight.packets_out;
    sk.sacked_out = flight.sacked_out;
    sk.lost_out = flight.lost_out;
    sk.retrans_out = flight.retrans_out;
}
