//! `rdctcp`: the library's DCTCP hooks (`congestion::linux::dctcp`, `tcp_dctcp.c`) on
//! the kernel's own socket.
//!
//! DCTCP's 28-byte [`DctcpCa`] (`#[repr(C)]`, the kernel's `struct dctcp` without PLB)
//! lives in `icsk_ca_priv`. The receiver's half of DCTCP (`dctcp_ece_ack_update`: an
//! immediate ACK when the CE state flips) is not in the library; the shim does it in C
//! on the same `prior_rcv_nxt` and `ce_state` fields.

use crate::sock::{ca_event, ca_state};
use congestion::linux::dctcp::{
    DctcpCa, DctcpConfig, DctcpParams, dctcp_cwnd_undo, dctcp_init, dctcp_react_to_loss,
    dctcp_ssthresh, dctcp_state, dctcp_update_alpha,
};
use congestion::linux::tcp::{CaEvent, TcpSock, tcp_reno_cong_avoid};

/// The kernel module's defaults (`dctcp_shift_g` 4, `dctcp_alpha_on_init` 1024),
/// validated at compile time.
const PARAMS: DctcpParams = match DctcpConfig::new().validate() {
    Ok(p) => p,
    Err(_) => panic!("the default DCTCP configuration is valid"),
};

/// What one hook call works on: a snapshot of the socket (`io` fields are written
/// back) and DCTCP's state, copied from and back to `icsk_ca_priv`.
///
/// Mirrored field for field by `struct RdctcpCtx` in `rdctcp.bpf.c`.
#[repr(C)]
pub struct RdctcpCtx {
    /// `snd_cwnd` (io).
    pub cwnd: u32,
    /// `snd_ssthresh` (io).
    pub ssthresh: u32,
    /// `snd_cwnd_cnt` (io).
    pub cwnd_cnt: u32,
    /// `snd_cwnd_clamp`.
    pub clamp: u32,
    /// `snd_una`, bytes.
    pub snd_una: u32,
    /// `snd_nxt`, bytes.
    pub snd_nxt: u32,
    /// `delivered`.
    pub delivered: u32,
    /// `delivered_ce`.
    pub delivered_ce: u32,
    /// `icsk_ca_state`.
    pub ca_state: u32,
    /// `tcp_is_cwnd_limited()`, computed by the shim (non-zero: limited).
    pub cwnd_limited: u32,
    /// DCTCP's state, persisted in `icsk_ca_priv`.
    pub state: DctcpCa,
}

/// Bytes of `RdctcpCtx::state` the shim keeps in `icsk_ca_priv`.
pub const RDCTCP_STATE_BYTES: usize = 28;
/// Offset of `RdctcpCtx::state`, which the shim's mirror must match.
pub const RDCTCP_STATE_OFFSET: usize = 40;

const _: () = assert!(core::mem::size_of::<DctcpCa>() == RDCTCP_STATE_BYTES);
const _: () = assert!(core::mem::offset_of!(RdctcpCtx, state) == RDCTCP_STATE_OFFSET);
const _: () = assert!(core::mem::offset_of!(DctcpCa, prior_rcv_nxt) == 8);
const _: () = assert!(core::mem::offset_of!(DctcpCa, ce_state) == 20);

impl RdctcpCtx {
    /// The library's socket from the snapshot (DCTCP reads no clock).
    fn sock(&self) -> TcpSock {
        TcpSock {
            snd_cwnd: self.cwnd,
            snd_ssthresh: self.ssthresh,
            snd_cwnd_cnt: self.cwnd_cnt,
            snd_cwnd_clamp: self.clamp,
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            delivered: self.delivered,
            delivered_ce: self.delivered_ce,
            icsk_ca_state: ca_state(self.ca_state),
            is_cwnd_limited: self.cwnd_limited != 0,
            ..TcpSock::default()
        }
    }

    /// Copies back the window fields a DCTCP hook may write.
    fn store(&mut self, sk: &TcpSock) {
        self.cwnd = sk.snd_cwnd;
        self.ssthresh = sk.snd_ssthresh;
        self.cwnd_cnt = sk.snd_cwnd_cnt;
    }
}

/// Turn the shim's pointer into a reference, or `None` for null.
fn ctx<'a>(c: *mut RdctcpCtx) -> Option<&'a mut RdctcpCtx> {
    // SAFETY: the shim passes either null or a pointer to an `RdctcpCtx` in its
    // per-CPU map value, valid, aligned and unaliased for the duration of the call.
    unsafe { c.as_mut() }
}

/// `init`: alpha from `dctcp_alpha_on_init`, a new round from `snd_nxt`.
// Linux net/ipv4/tcp_dctcp.c dctcp_init()
#[unsafe(no_mangle)]
pub extern "C" fn rdctcp_init(c: *mut RdctcpCtx) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    let sk = c.sock();
    dctcp_init(&mut c.state, &sk, &PARAMS);
    0
}

/// `ssthresh`: `cwnd·(1 - alpha/2)`, at least 2.
// Linux net/ipv4/tcp_dctcp.c dctcp_ssthresh()
#[unsafe(no_mangle)]
pub extern "C" fn rdctcp_ssthresh(c: *mut RdctcpCtx) -> u32 {
    let Some(c) = ctx(c) else { return 2 };
    let sk = c.sock();
    dctcp_ssthresh(&mut c.state, &sk)
}

/// `undo_cwnd`: the larger of cwnd and the cwnd before the reduction.
// Linux net/ipv4/tcp_dctcp.c dctcp_cwnd_undo()
#[unsafe(no_mangle)]
pub extern "C" fn rdctcp_undo_cwnd(c: *mut RdctcpCtx) -> u32 {
    let Some(c) = ctx(c) else { return 2 };
    let sk = c.sock();
    dctcp_cwnd_undo(&c.state, &sk)
}

/// `cong_avoid`: Reno's slow start and additive increase.
// Linux net/ipv4/tcp_cong.c tcp_reno_cong_avoid()
#[unsafe(no_mangle)]
pub extern "C" fn rdctcp_cong_avoid(c: *mut RdctcpCtx, ack: u32, acked: u32) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    let mut sk = c.sock();
    tcp_reno_cong_avoid(&mut sk, ack, acked);
    c.store(&sk);
    0
}

/// `set_state`: entering Recovery halves the window.
// Linux net/ipv4/tcp_dctcp.c dctcp_state()
#[unsafe(no_mangle)]
pub extern "C" fn rdctcp_set_state(c: *mut RdctcpCtx, new_state: u32) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    let mut sk = c.sock();
    dctcp_state(&mut c.state, &mut sk, ca_state(new_state));
    c.store(&sk);
    0
}

/// `cwnd_event`, sender side: `CA_EVENT_LOSS` (an RTO) halves the window. The
/// receiver's CE events are the shim's.
// Linux net/ipv4/tcp_dctcp.c dctcp_cwnd_event()
#[unsafe(no_mangle)]
pub extern "C" fn rdctcp_cwnd_event(c: *mut RdctcpCtx, event: u32) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    if ca_event(event) != Some(CaEvent::Loss) {
        return 0;
    }
    let mut sk = c.sock();
    dctcp_react_to_loss(&mut c.state, &mut sk);
    c.store(&sk);
    0
}

/// `in_ack_event`: once per round, alpha from the round's CE fraction.
// Linux net/ipv4/tcp_dctcp.c dctcp_update_alpha()
#[unsafe(no_mangle)]
pub extern "C" fn rdctcp_in_ack_event(c: *mut RdctcpCtx) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    let sk = c.sock();
    dctcp_update_alpha(&mut c.state, &sk, &PARAMS);
    0
}
