//! The C configurations of Linux-mode DCTCP and TCP Prague (`TcpFlow<O>`): the socket's
//! starting values and the host's sysctls they share, each algorithm's module
//! parameters, their defaults and their validation into a parameter block's contents.

use crate::tcp_blob::*;
use crate::*;
use congestion::linux::dctcp::{DctcpConfig, DctcpParams};
use congestion::linux::prague::{PragueConfig, PragueParams};
use congestion::linux::tcp::TcpSysctl;
use congestion::linux::{TCP_INFINITE_SSTHRESH, TcpSocketConfig};

/// A Linux-mode socket's starting values and the host's sysctls, shared by DCTCP's and
/// Prague's configs. Flags are `uint8_t`: 0 false, anything else true.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionLinuxTcpSocketConfig {
    /// `sk_max_pacing_rate`, bytes/s (`CONGESTION_RATE_UNLIMITED`: none).
    pub max_pacing_rate: u64,
    /// Initial `snd_ssthresh`, segments (`CONGESTION_SSTHRESH_NONE`: none; else below
    /// 2^32).
    pub init_ssthresh: u64,
    /// Initial window and restart window after idle, segments (10; at least 1, at most
    /// `cwnd_clamp`).
    pub init_cwnd: u32,
    /// `snd_cwnd_clamp`, segments (UINT32_MAX).
    pub cwnd_clamp: u32,
    /// `mss_cache`, bytes (1448; at least 1).
    pub mss: u32,
    /// The handshake's RTT sample, µs (0: none).
    pub initial_srtt_us: u32,
    /// The initial send sequence, segments (0).
    pub iss: u32,
    /// `icsk_rto`, ms (200): read by the restart after idle.
    pub rto_ms: u32,
    /// Header bytes per packet (52: IPv4 with timestamps).
    pub header_len: u32,
    /// `tcp_pacing_ss_ratio`, percent (200; 1..=10000).
    pub pacing_ss_ratio: u32,
    /// `tcp_pacing_ca_ratio`, percent (120; 1..=10000).
    pub pacing_ca_ratio: u32,
    /// `sk_pacing_status`: 0 none, 1 needed, 2 fq (0).
    pub pacing_status: u8,
    /// `tcp_slow_start_after_idle` (1).
    pub slow_start_after_idle: u8,
    /// Whether the glue writes `sk_pacing_rate` on ACKs (1).
    pub update_pacing_rate: u8,
}

impl CongestionLinuxTcpSocketConfig {
    /// The kernel's defaults.
    fn linux_default() -> Self {
        let s = TcpSocketConfig::new();
        let y = TcpSysctl::new();
        CongestionLinuxTcpSocketConfig {
            max_pacing_rate: s.max_pacing_rate,
            init_ssthresh: CONGESTION_SSTHRESH_NONE,
            init_cwnd: s.init_cwnd,
            cwnd_clamp: s.cwnd_clamp,
            mss: s.mss,
            initial_srtt_us: s.initial_srtt_us,
            iss: s.iss,
            rto_ms: s.rto_ms,
            header_len: s.header_len,
            pacing_ss_ratio: y.pacing_ss_ratio,
            pacing_ca_ratio: y.pacing_ca_ratio,
            pacing_status: s.pacing_status,
            slow_start_after_idle: u8::from(y.slow_start_after_idle),
            update_pacing_rate: u8::from(y.update_pacing_rate),
        }
    }

    /// The library's socket config and sysctls, validated, or the refused field's code.
    fn to_rust(self) -> Result<(TcpSocketConfig, TcpSysctl), i32> {
        let mut s = TcpSocketConfig::new();
        s.init_cwnd = self.init_cwnd;
        s.init_ssthresh = match self.init_ssthresh {
            CONGESTION_SSTHRESH_NONE => TCP_INFINITE_SSTHRESH,
            v => u32::try_from(v).map_err(|_| CONGESTION_ERR_INITIAL_WINDOW)?,
        };
        s.cwnd_clamp = self.cwnd_clamp;
        s.mss = self.mss;
        s.initial_srtt_us = self.initial_srtt_us;
        s.iss = self.iss;
        s.max_pacing_rate = self.max_pacing_rate;
        s.rto_ms = self.rto_ms;
        s.header_len = self.header_len;
        s.pacing_status = self.pacing_status;
        s.validate().map_err(crate::bbr_types::config_code)?;
        let ratio_ok = |r: u32| (1..=10_000).contains(&r);
        if !ratio_ok(self.pacing_ss_ratio) || !ratio_ok(self.pacing_ca_ratio) {
            return Err(CONGESTION_ERR_PACING_RATIO);
        }
        let mut y = TcpSysctl::new();
        y.pacing_ss_ratio = self.pacing_ss_ratio;
        y.pacing_ca_ratio = self.pacing_ca_ratio;
        y.slow_start_after_idle = self.slow_start_after_idle != 0;
        y.update_pacing_rate = self.update_pacing_rate != 0;
        Ok((s, y))
    }
}

/// A Linux-mode DCTCP flow's settings. Fill it with
/// `congestion_linux_dctcp_config_default`, change what you need, then call
/// `congestion_linux_dctcp_params_init`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionLinuxDctcpConfig {
    /// The socket's starting values and the host's sysctls.
    pub socket: CongestionLinuxTcpSocketConfig,
    /// `dctcp_shift_g`: the EWMA gain is 1/2^g (4; 0..=10).
    pub dctcp_shift_g: u32,
    /// `dctcp_alpha_on_init`, of 1024 (1024; `init` takes at most 1024).
    pub dctcp_alpha_on_init: u32,
}

/// A Linux-mode TCP Prague flow's settings (Prague 0.7's module parameters). Fill it
/// with `congestion_linux_prague_config_default`, change what you need, then call
/// `congestion_linux_prague_params_init`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CongestionLinuxPragueConfig {
    /// The socket's starting values and the host's sysctls.
    pub socket: CongestionLinuxTcpSocketConfig,
    /// `prague_rtt_target`, µs (25000).
    pub prague_rtt_target: u32,
    /// `prague_rtt_transition`, rounds (4).
    pub prague_rtt_transition: u32,
    /// `prague_alpha_mode` (0).
    pub prague_alpha_mode: u32,
    /// `prague_cwnd_mode` (2).
    pub prague_cwnd_mode: u32,
    /// `prague_cwnd_transit`, 1500-byte packets (4).
    pub prague_cwnd_transit: u32,
    /// `prague_burst_shift` (12; 0..=63).
    pub prague_burst_shift: u32,
    /// `prague_max_tso_segs` (0: no cap).
    pub prague_max_tso_segs: u32,
}

/// Fills `*config` with the kernel's defaults for DCTCP.
///
/// Returns `CONGESTION_OK`, or `CONGESTION_ERR_NULL` if `config` is NULL.
///
/// # Safety
/// `config` is NULL or valid for writing one `CongestionLinuxDctcpConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_config_default(
    config: *mut CongestionLinuxDctcpConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let d = DctcpConfig::new();
    let value = CongestionLinuxDctcpConfig {
        socket: CongestionLinuxTcpSocketConfig::linux_default(),
        dctcp_shift_g: d.dctcp_shift_g,
        dctcp_alpha_on_init: d.dctcp_alpha_on_init,
    };
    // SAFETY: non-null and valid for writes per the contract.
    unsafe { config.write(value) };
    CONGESTION_OK
}

/// Fills `*config` with the module defaults for TCP Prague.
///
/// Returns `CONGESTION_OK`, or `CONGESTION_ERR_NULL` if `config` is NULL.
///
/// # Safety
/// `config` is NULL or valid for writing one `CongestionLinuxPragueConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_prague_config_default(
    config: *mut CongestionLinuxPragueConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let p = PragueConfig::new();
    let value = CongestionLinuxPragueConfig {
        socket: CongestionLinuxTcpSocketConfig::linux_default(),
        prague_rtt_target: p.prague_rtt_target,
        prague_rtt_transition: p.prague_rtt_transition,
        prague_alpha_mode: p.prague_alpha_mode,
        prague_cwnd_mode: p.prague_cwnd_mode,
        prague_cwnd_transit: p.prague_cwnd_transit,
        prague_burst_shift: p.prague_burst_shift,
        prague_max_tso_segs: p.prague_max_tso_segs,
    };
    // SAFETY: non-null and valid for writes per the contract.
    unsafe { config.write(value) };
    CONGESTION_OK
}

/// DCTCP's settings from the C config, or the refused field's code.
pub(crate) fn dctcp_params(
    c: &CongestionLinuxDctcpConfig,
) -> Result<TcpFlowParams<DctcpParams>, i32> {
    let (socket, sysctl) = c.socket.to_rust()?;
    let mut d = DctcpConfig::new();
    d.dctcp_shift_g = c.dctcp_shift_g;
    d.dctcp_alpha_on_init = c.dctcp_alpha_on_init;
    let ops = d.validate().map_err(crate::bbr_types::config_code)?;
    Ok(TcpFlowParams {
        ops,
        socket,
        sysctl,
    })
}

/// Prague's settings from the C config, or the refused field's code.
pub(crate) fn prague_params(
    c: &CongestionLinuxPragueConfig,
) -> Result<TcpFlowParams<PragueParams>, i32> {
    let (socket, sysctl) = c.socket.to_rust()?;
    let mut p = PragueConfig::new();
    p.prague_rtt_target = c.prague_rtt_target;
    p.prague_rtt_transition = c.prague_rtt_transition;
    p.prague_alpha_mode = c.prague_alpha_mode;
    p.prague_cwnd_mode = c.prague_cwnd_mode;
    p.prague_cwnd_transit = c.prague_cwnd_transit;
    p.prague_burst_shift = c.prague_burst_shift;
    p.prague_max_tso_segs = c.prague_max_tso_segs;
    let ops = p.validate().map_err(crate::bbr_types::config_code)?;
    Ok(TcpFlowParams {
        ops,
        socket,
        sysctl,
    })
}

/// What `_on_ack` did with an ACK: it acknowledged data never sent and was discarded.
pub const CONGESTION_ACK_DISCARDED: u32 = 0;

/// What `_on_ack` did with an ACK: nothing was in flight (the kernel's `no_queue`).
pub const CONGESTION_ACK_NO_QUEUE: u32 = 1;

/// What `_on_ack` did with an ACK: processed in full.
pub const CONGESTION_ACK_PROCESSED: u32 = 2;
