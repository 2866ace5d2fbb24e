//! `rbbr`: the library's BBR v1 hooks (`congestion::linux::bbr`, `tcp_bbr.c`) on the
//! kernel's own socket and `struct rate_sample`.
//!
//! BBR's 104-byte [`BbrState`] lives in `icsk_ca_priv` (104 bytes on the target
//! kernel), which the kernel zeroes before `init`, exactly as it does for its own
//! `struct bbr`. The shim never looks inside it.

use crate::sock::{KernelRandom, ca_event, ca_state};
use congestion::linux::bbr::{
    BbrMode, BbrParams, BbrState, bbr_cwnd_event, bbr_init, bbr_main, bbr_min_tso_segs,
    bbr_set_state, bbr_ssthresh, bbr_undo_cwnd,
};
use congestion::linux::tcp::{Minmax, RateSample, TcpSock};

/// BBR v1 has no module parameters; these are the kernel's build constants
/// (`MAX_TCP_HEADER` 320, which only caps the TSO goal above 64 kB per 1/1024 s).
const PARAMS: BbrParams = BbrParams::new();

/// `ICSK_CA_PRIV_SIZE` on the target kernel (13 × u64).
pub const ICSK_CA_PRIV_BYTES: usize = 104;

/// What one hook call works on: a snapshot of the socket and of the ACK's rate sample
/// (filled by the shim; `io` fields are written back when they changed) and BBR's
/// state, copied from and back to `icsk_ca_priv`.
///
/// Mirrored field for field by `struct RbbrCtx` in `rbbr.bpf.c`.
#[repr(C)]
pub struct RbbrCtx {
    /// `tcp_mstamp`, µs.
    pub tcp_mstamp: u64,
    /// `tcp_clock_cache`, ns.
    pub tcp_clock_cache: u64,
    /// `tcp_wstamp_ns`, ns.
    pub tcp_wstamp_ns: u64,
    /// `sk_pacing_rate`, bytes/s (io).
    pub pacing_rate: u64,
    /// `sk_max_pacing_rate`, bytes/s.
    pub max_pacing_rate: u64,
    /// `delivered_mstamp`, µs.
    pub delivered_mstamp: u64,
    /// `first_tx_mstamp`, µs.
    pub first_tx_mstamp: u64,
    /// `rs->prior_mstamp`, µs.
    pub rs_prior_mstamp: u64,
    /// `rs->interval_us` (-1: invalid).
    pub rs_interval_us: i64,
    /// `rs->rtt_us` (-1: none).
    pub rs_rtt_us: i64,
    /// `snd_cwnd` (io).
    pub cwnd: u32,
    /// `snd_ssthresh` (io).
    pub ssthresh: u32,
    /// `snd_cwnd_clamp`.
    pub clamp: u32,
    /// `mss_cache`, bytes.
    pub mss: u32,
    /// `srtt_us` (×8).
    pub srtt_us: u32,
    /// `snd_una`, bytes.
    pub snd_una: u32,
    /// `snd_nxt`, bytes.
    pub snd_nxt: u32,
    /// `high_seq`, bytes.
    pub high_seq: u32,
    /// `packets_out`.
    pub packets_out: u32,
    /// `sacked_out`.
    pub sacked_out: u32,
    /// `lost_out`.
    pub lost_out: u32,
    /// `retrans_out`.
    pub retrans_out: u32,
    /// `prior_ssthresh`.
    pub prior_ssthresh: u32,
    /// `delivered`.
    pub delivered: u32,
    /// `lost`.
    pub lost: u32,
    /// `app_limited` (io).
    pub app_limited: u32,
    /// `data_segs_out`.
    pub data_segs_out: u32,
    /// `tcp_min_rtt()`, µs.
    pub min_rtt_us: u32,
    /// `icsk_ca_state`.
    pub ca_state: u32,
    /// `icsk_retransmits`.
    pub retransmits: u32,
    /// `sk_pacing_status` (io).
    pub pacing_status: u32,
    /// `sk_pacing_shift`.
    pub pacing_shift: u32,
    /// `undo_marker` (non-zero: set).
    pub undo_marker: u32,
    /// `rate_app_limited`.
    pub rate_app_limited: u32,
    /// `rs->prior_delivered`.
    pub rs_prior_delivered: u32,
    /// `rs->delivered` (-1: invalid).
    pub rs_delivered: i32,
    /// `rs->snd_interval_us`.
    pub rs_snd_interval_us: u32,
    /// `rs->rcv_interval_us`.
    pub rs_rcv_interval_us: u32,
    /// `rs->losses`.
    pub rs_losses: i32,
    /// `rs->acked_sacked`.
    pub rs_acked_sacked: u32,
    /// `rs->prior_in_flight`.
    pub rs_prior_in_flight: u32,
    /// `rs->is_app_limited`.
    pub rs_is_app_limited: u32,
    /// `rs->is_retrans`.
    pub rs_is_retrans: u32,
    /// `rs->is_ack_delayed`.
    pub rs_is_ack_delayed: u32,
    /// BBR's state: the bytes of a [`BbrState`], persisted in `icsk_ca_priv`.
    pub state: [u64; ICSK_CA_PRIV_BYTES / 8],
    /// Scratch for the library's socket, built from the fields above on each call.
    /// It lives here, in the shim's per-CPU map value, because the BPF stack (512
    /// bytes for the whole call chain) cannot hold it beside `bbr_main`'s own frame.
    pub sk: TcpSock,
}

/// Offset of `RbbrCtx::state`, which the shim's mirror must match.
pub const RBBR_STATE_OFFSET: usize = 216;

// The layout the C shim relies on, checked when this crate compiles.
const _: () = assert!(core::mem::size_of::<BbrState>() == ICSK_CA_PRIV_BYTES);
const _: () = assert!(core::mem::align_of::<BbrState>() <= 8);
const _: () = assert!(core::mem::offset_of!(RbbrCtx, state) == RBBR_STATE_OFFSET);
/// Bytes of the library's `TcpSock` (`#[repr(C)]`), which the shim sizes as u64 words.
pub const RBBR_SOCK_BYTES: usize = 224;
const _: () = assert!(core::mem::size_of::<TcpSock>() == RBBR_SOCK_BYTES);
const _: () = assert!(
    core::mem::size_of::<RbbrCtx>() == RBBR_STATE_OFFSET + ICSK_CA_PRIV_BYTES + RBBR_SOCK_BYTES
);

impl RbbrCtx {
    /// The library's socket from the snapshot. Its clocks: `tcp_jiffies32` counts
    /// milliseconds of `tcp_mstamp` (the library's HZ = 1000), so BBR's 10 s min_rtt
    /// window and 200 ms PROBE_RTT fall on the kernel's µs clock to the millisecond;
    /// `tcp_clock_cache` is the kernel's own ns clock (the EDT arithmetic reads it).
    fn fill_sock(&mut self) {
        let sk = &mut self.sk;
        *sk = TcpSock::default();
        sk.snd_cwnd = self.cwnd;
        sk.snd_ssthresh = self.ssthresh;
        sk.snd_cwnd_clamp = self.clamp;
        sk.mss_cache = self.mss;
        sk.srtt_us = self.srtt_us;
        sk.snd_una = self.snd_una;
        sk.snd_nxt = self.snd_nxt;
        sk.high_seq = self.high_seq;
        sk.packets_out = self.packets_out;
        sk.sacked_out = self.sacked_out;
        sk.lost_out = self.lost_out;
        sk.retrans_out = self.retrans_out;
        sk.undo_marker = self.undo_marker != 0;
        sk.prior_ssthresh = self.prior_ssthresh;
        sk.delivered = self.delivered;
        sk.lost = self.lost;
        sk.app_limited = self.app_limited;
        sk.data_segs_out = self.data_segs_out;
        sk.icsk_ca_state = ca_state(self.ca_state);
        sk.icsk_retransmits = self.retransmits.min(255) as u8;
        sk.sk_pacing_rate = self.pacing_rate;
        sk.sk_max_pacing_rate = self.max_pacing_rate;
        sk.sk_pacing_status = self.pacing_status.min(255) as u8;
        sk.sk_pacing_shift = self.pacing_shift.min(255) as u8;
        sk.tcp_wstamp_ns = self.tcp_wstamp_ns;
        sk.first_tx_mstamp = self.first_tx_mstamp;
        sk.delivered_mstamp = self.delivered_mstamp;
        sk.rate_app_limited = self.rate_app_limited != 0;
        sk.set_clock(self.tcp_mstamp);
        sk.tcp_clock_cache = self.tcp_clock_cache;
        sk.rtt_min = Minmax::new(sk.tcp_jiffies32, self.min_rtt_us);
    }

    /// The ACK's `struct rate_sample` (v1 reads none of BBRv3's or AccECN's fields).
    fn rate_sample(&self) -> RateSample {
        RateSample {
            prior_mstamp: self.rs_prior_mstamp,
            interval_us: self.rs_interval_us,
            rtt_us: self.rs_rtt_us,
            prior_delivered: self.rs_prior_delivered,
            delivered: self.rs_delivered,
            snd_interval_us: self.rs_snd_interval_us,
            rcv_interval_us: self.rs_rcv_interval_us,
            losses: self.rs_losses,
            acked_sacked: self.rs_acked_sacked,
            prior_in_flight: self.rs_prior_in_flight,
            is_app_limited: self.rs_is_app_limited != 0,
            is_retrans: self.rs_is_retrans != 0,
            is_ack_delayed: self.rs_is_ack_delayed != 0,
            ..RateSample::default()
        }
    }

    /// Copies back the fields a BBR hook may write.
    fn store(&mut self) {
        let sk = &self.sk;
        self.cwnd = sk.snd_cwnd;
        self.ssthresh = sk.snd_ssthresh;
        self.pacing_rate = sk.sk_pacing_rate;
        self.pacing_status = u32::from(sk.sk_pacing_status);
        self.app_limited = sk.app_limited;
    }

    /// Splits the context into the socket snapshot and BBR's state, or `None` when
    /// the state's two enum bytes hold values no BBR hook writes (memory the kernel
    /// did not zero and BBR did not initialise): then the hook does nothing.
    fn split(&mut self) -> Option<(&mut TcpSock, &mut BbrState)> {
        let mode = byte(&self.state, core::mem::offset_of!(BbrState, mode));
        let prev = byte(&self.state, core::mem::offset_of!(BbrState, prev_ca_state));
        if mode > BbrMode::ProbeRtt as u8 || prev > 4 {
            return None;
        }
        self.fill_sock();
        // SAFETY: `state` is 104 bytes aligned to 8, the size and alignment of
        // `BbrState` (asserted above); every bit pattern is a valid `BbrState` except in
        // its two enum bytes, checked just above; the borrow is unique for its lifetime.
        let st = unsafe { &mut *(self.state.as_mut_ptr() as *mut BbrState) };
        Some((&mut self.sk, st))
    }
}

/// Byte `at` of `words` in memory order (little-endian BPF).
fn byte(words: &[u64; ICSK_CA_PRIV_BYTES / 8], at: usize) -> u8 {
    match words.get(at / 8) {
        Some(w) => w.to_le_bytes()[at % 8],
        None => u8::MAX,
    }
}

/// Turn the shim's pointer into a reference, or `None` for null.
fn ctx<'a>(c: *mut RbbrCtx) -> Option<&'a mut RbbrCtx> {
    // SAFETY: the shim passes either null or a pointer to an `RbbrCtx` in its per-CPU
    // map value, valid, aligned and unaliased for the duration of the call.
    unsafe { c.as_mut() }
}

/// `init`: BBR's model from the socket (`bbr_init`).
// Linux net/ipv4/tcp_bbr.c bbr_init()
#[unsafe(no_mangle)]
pub extern "C" fn rbbr_init(c: *mut RbbrCtx) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    // The kernel zeroes icsk_ca_priv before init; so does this, whatever it held.
    c.state = [0; ICSK_CA_PRIV_BYTES / 8];
    let Some((sk, st)) = c.split() else { return 0 };
    bbr_init(st, sk);
    c.store();
    0
}

/// `cong_control`: one ACK's rate sample through BBR's model, then pacing rate and
/// cwnd (`bbr_main`).
// Linux net/ipv4/tcp_bbr.c bbr_main()
#[unsafe(no_mangle)]
pub extern "C" fn rbbr_cong_control(c: *mut RbbrCtx) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    let rs = c.rate_sample();
    let Some((sk, st)) = c.split() else { return 0 };
    bbr_main(st, sk, &PARAMS, &rs, &mut KernelRandom);
    c.store();
    0
}

/// `ssthresh`: saves cwnd for recovery; returns ssthresh unchanged (`bbr_ssthresh`).
// Linux net/ipv4/tcp_bbr.c bbr_ssthresh()
#[unsafe(no_mangle)]
pub extern "C" fn rbbr_ssthresh(c: *mut RbbrCtx) -> u32 {
    let Some(c) = ctx(c) else { return 2 };
    let fallback = c.ssthresh;
    let Some((sk, st)) = c.split() else {
        return fallback;
    };
    bbr_ssthresh(st, sk)
}

/// `undo_cwnd`: restarts full-pipe detection and long-term sampling; returns cwnd
/// (`bbr_undo_cwnd`).
// Linux net/ipv4/tcp_bbr.c bbr_undo_cwnd()
#[unsafe(no_mangle)]
pub extern "C" fn rbbr_undo_cwnd(c: *mut RbbrCtx) -> u32 {
    let Some(c) = ctx(c) else { return 2 };
    let fallback = c.cwnd;
    let Some((sk, st)) = c.split() else {
        return fallback;
    };
    bbr_undo_cwnd(st, sk)
}

/// `set_state`: an RTO (Loss) ends the round and feeds the long-term sampler
/// (`bbr_set_state`).
// Linux net/ipv4/tcp_bbr.c bbr_set_state()
#[unsafe(no_mangle)]
pub extern "C" fn rbbr_set_state(c: *mut RbbrCtx, new_state: u32) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    let Some((sk, st)) = c.split() else { return 0 };
    bbr_set_state(st, sk, &PARAMS, ca_state(new_state), &mut KernelRandom);
    c.store();
    0
}

/// `cwnd_event`: a transmit after idle while app-limited (`bbr_cwnd_event`).
// Linux net/ipv4/tcp_bbr.c bbr_cwnd_event()
#[unsafe(no_mangle)]
pub extern "C" fn rbbr_cwnd_event(c: *mut RbbrCtx, event: u32) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    let Some(event) = ca_event(event) else {
        return 0;
    };
    let Some((sk, st)) = c.split() else { return 0 };
    bbr_cwnd_event(st, sk, &PARAMS, event, &mut KernelRandom);
    c.store();
    0
}

/// `min_tso_segs`: 1 segment below 1.2 Mbit/s of pacing, else 2 (`bbr_min_tso_segs`).
// Linux net/ipv4/tcp_bbr.c bbr_min_tso_segs()
#[unsafe(no_mangle)]
pub extern "C" fn rbbr_min_tso_segs(pacing_rate: u64) -> u32 {
    let sk = TcpSock {
        sk_pacing_rate: pacing_rate,
        ..TcpSock::default()
    };
    bbr_min_tso_segs(&sk)
}
