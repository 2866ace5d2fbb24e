//! `rcubic`: the `congestion` crate's Linux-mode CUBIC + HyStart behind a few C
//! functions, for the BPF struct_ops shim in `../rcubic.bpf.c`.
//!
//! The shim owns every access to kernel structures. On each hook it copies the
//! socket fields CUBIC needs into an [`RcubicCtx`] on its stack, together with the
//! 72-byte [`LinuxCubicState`] it keeps in `icsk_ca_priv`, calls one function here,
//! then writes back what changed. The functions take that pointer plus plain numbers
//! (at most five arguments, a BPF limit) and return a number (0 when there is
//! nothing to return). Each checks its pointer for null, so the verifier, which
//! checks every global function on its own, can prove every access.
//!
//! Time: the library's Linux mode counts jiffies at HZ = 1000. The shim passes
//! "jiffies" as kernel jiffies × (1000 / HZ), so the 1/32 s update skip, the 1 s
//! sample blackout and the idle shift of the epoch fall on exactly the kernel's ticks
//! (see bpf/README.md for the one rounding that still differs at HZ = 250).
#![no_std]

use congestion::cubic::{LinuxCubicConfig, LinuxCubicParams};
use congestion::hystart::{HystartInput, PacingStatus};
use congestion::linux::LinuxCubicState;

/// CUBIC's parameters: the kernel module's defaults, validated at compile time.
const PARAMS: LinuxCubicParams = match LinuxCubicConfig::new().validate() {
    Ok(p) => p,
    Err(_) => panic!("the default CUBIC configuration is valid"),
};

/// `TCP_CA_Loss`, from `enum tcp_ca_state`.
const TCP_CA_LOSS: u32 = 4;
/// `CA_EVENT_TX_START`, from `enum tcp_ca_event`.
const CA_EVENT_TX_START: u32 = 0;

/// What one hook call works on: a snapshot of the socket (filled by the shim) and the
/// persistent CUBIC state (copied in from and back to `icsk_ca_priv`).
///
/// Mirrored field for field by `struct RcubicCtx` in `rcubic.bpf.c`; the shim only
/// sizes `state` and never looks inside it.
#[repr(C)]
pub struct RcubicCtx {
    /// `sk_pacing_rate`, bytes per second (in).
    pub pacing_rate: u64,
    /// `snd_cwnd`, segments (in/out).
    pub cwnd: u32,
    /// `snd_ssthresh`, segments (in/out).
    pub ssthresh: u32,
    /// `snd_cwnd_cnt` (in/out).
    pub cwnd_cnt: u32,
    /// `snd_cwnd_clamp`, segments (in).
    pub clamp: u32,
    /// `snd_una`, bytes (in).
    pub snd_una: u32,
    /// `snd_nxt`, bytes (in).
    pub snd_nxt: u32,
    /// `sk_gso_max_size`, bytes (in).
    pub gso_max_size: u32,
    /// `sk_pacing_status`: 0 none, 1 needed, 2 fq (in).
    pub pacing_status: u32,
    /// CUBIC + HyStart state, persisted in `icsk_ca_priv` by the shim.
    pub state: LinuxCubicState,
}

/// Bytes of `RcubicCtx::state` the shim keeps in `icsk_ca_priv`.
pub const RCUBIC_STATE_BYTES: usize = 72;
/// Offset of `RcubicCtx::state`, which the shim's mirror must match.
pub const RCUBIC_STATE_OFFSET: usize = 40;
/// `ICSK_CA_PRIV_SIZE` on the target kernel (13 × u64).
pub const ICSK_CA_PRIV_BYTES: usize = 104;

// The layout the C shim relies on, checked when this crate compiles.
const _: () = assert!(core::mem::size_of::<LinuxCubicState>() == RCUBIC_STATE_BYTES);
const _: () = assert!(RCUBIC_STATE_BYTES <= ICSK_CA_PRIV_BYTES);
const _: () = assert!(core::mem::align_of::<LinuxCubicState>() <= 8);
const _: () = assert!(core::mem::offset_of!(RcubicCtx, state) == RCUBIC_STATE_OFFSET);
const _: () = assert!(core::mem::size_of::<RcubicCtx>() == RCUBIC_STATE_OFFSET + 72);

impl RcubicCtx {
    /// Bring the state's copy of the window up to date with the socket's.
    fn load_window(&mut self) {
        self.state.cwnd = self.cwnd;
        self.state.ssthresh = self.ssthresh;
        self.state.cwnd_cnt = self.cwnd_cnt;
    }

    /// Hand the window back to the socket.
    fn store_window(&mut self) {
        self.cwnd = self.state.cwnd;
        self.ssthresh = self.state.ssthresh;
        self.cwnd_cnt = self.state.cwnd_cnt;
    }

    fn pacing_status(&self) -> PacingStatus {
        match self.pacing_status {
            1 => PacingStatus::Needed,
            2 => PacingStatus::Fq,
            _ => PacingStatus::None,
        }
    }
}

/// Turn the shim's pointer into a reference, or `None` for null.
fn ctx<'a>(ctx: *mut RcubicCtx) -> Option<&'a mut RcubicCtx> {
    // SAFETY: the shim passes either null or a pointer to an `RcubicCtx` on its own
    // stack, valid, aligned and unaliased for the duration of the call.
    unsafe { ctx.as_mut() }
}

/// CUBIC `init`: reset, then start a HyStart round at `now_us` (the socket's µs clock).
// Linux net/ipv4/tcp_cubic.c cubictcp_init()
#[unsafe(no_mangle)]
pub extern "C" fn rcubic_init(c: *mut RcubicCtx, now_us: u32) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    c.load_window();
    c.state.cubic.reset();
    c.state.hystart = Default::default();
    if PARAMS.config().hystart {
        c.state.hystart.start_round(now_us, c.snd_nxt);
    } else if PARAMS.config().initial_ssthresh != 0 {
        c.state.ssthresh = PARAMS.config().initial_ssthresh;
    }
    c.store_window();
    0
}

/// CUBIC `ssthresh`: end the epoch, record Wmax, return the new ssthresh.
// Linux net/ipv4/tcp_cubic.c cubictcp_recalc_ssthresh()
#[unsafe(no_mangle)]
pub extern "C" fn rcubic_ssthresh(c: *mut RcubicCtx) -> u32 {
    let Some(c) = ctx(c) else { return 2 };
    c.state.cubic.recalc_ssthresh(&PARAMS, c.cwnd)
}

/// CUBIC `cong_avoid`: slow start, then the cubic update and additive increase.
/// `cwnd_limited` is the shim's `tcp_is_cwnd_limited()` (non-zero = limited).
// Linux net/ipv4/tcp_cubic.c cubictcp_cong_avoid()
#[unsafe(no_mangle)]
pub extern "C" fn rcubic_cong_avoid(
    c: *mut RcubicCtx,
    acked: u32,
    now_jiffies: u32,
    cwnd_limited: u32,
) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    if cwnd_limited == 0 {
        return 0;
    }
    c.load_window();
    let clamp = c.clamp;
    let mut acked = acked;
    if c.state.in_slow_start() {
        acked = c.state.slow_start(acked, clamp);
    }
    if acked != 0 {
        let cwnd = c.state.cwnd;
        c.state.cubic.update(&PARAMS, cwnd, acked, now_jiffies);
        let cnt = c.state.cubic.cnt;
        c.state.congestion_avoidance_ai(cnt, acked, clamp);
    }
    c.store_window();
    0
}

/// CUBIC `set_state`: entering Loss (an RTO) resets CUBIC and HyStart.
// Linux net/ipv4/tcp_cubic.c cubictcp_state()
#[unsafe(no_mangle)]
pub extern "C" fn rcubic_set_state(c: *mut RcubicCtx, new_state: u32, now_us: u32) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    if new_state == TCP_CA_LOSS {
        c.state.cubic.reset();
        c.state.hystart.found = false;
        c.state.hystart.start_round(now_us, c.snd_nxt);
    }
    0
}

/// CUBIC `cwnd_event`: on `CA_EVENT_TX_START` shift the epoch by the idle time since
/// `last_send_jiffies` (`lsndtime`).
// Linux net/ipv4/tcp_cubic.c cubictcp_cwnd_event()
#[unsafe(no_mangle)]
pub extern "C" fn rcubic_cwnd_event(
    c: *mut RcubicCtx,
    event: u32,
    now_jiffies: u32,
    last_send_jiffies: u32,
) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    if event == CA_EVENT_TX_START {
        c.state
            .cubic
            .on_transmit_start(now_jiffies, last_send_jiffies);
    }
    0
}

/// CUBIC `pkts_acked`: an RTT sample (`rtt_us` < 0: none) feeds `delay_min` and
/// HyStart; when HyStart fires, ssthresh drops to cwnd. Returns 1 when it fired.
// Linux net/ipv4/tcp_cubic.c cubictcp_acked(), hystart_update()
#[unsafe(no_mangle)]
pub extern "C" fn rcubic_pkts_acked(
    c: *mut RcubicCtx,
    rtt_us: i32,
    now_jiffies: u32,
    now_us: u32,
) -> u32 {
    let Some(c) = ctx(c) else { return 0 };
    if rtt_us < 0 || c.state.cubic.in_sample_blackout(now_jiffies) {
        return 0;
    }
    c.load_window();
    // A zero sample counts as 1 µs, as in the kernel.
    let delay = (rtt_us as u32).max(1);
    c.state.cubic.on_delay_sample(delay);
    if c.state.hystart.found || !c.state.in_slow_start() || !PARAMS.config().hystart {
        return 0;
    }
    let input = HystartInput {
        now_us,
        delay_us: delay,
        delay_min_us: c.state.cubic.delay_min,
        snd_una: c.snd_una,
        snd_nxt: c.snd_nxt,
        cwnd: c.cwnd,
        pacing_rate: c.pacing_rate,
        pacing_status: c.pacing_status(),
        gso_max_size: c.gso_max_size,
    };
    if c.state.hystart.on_delay_sample(&PARAMS, &input).is_none() {
        return 0;
    }
    c.state.ssthresh = c.state.cwnd;
    c.store_window();
    1
}

#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // Unreachable by construction: the library has no panic path, and any that crept
    // in would show up as this loop, which the BPF verifier rejects at load time.
    loop {}
}
