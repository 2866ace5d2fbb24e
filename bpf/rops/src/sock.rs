//! What both shims share: the kernel's enum numbers, and randomness from the kernel.

use congestion::linux::CaState;
use congestion::linux::tcp::{CaEvent, RandomSource};

/// `enum tcp_ca_state` as the kernel numbers it (`TCP_CA_Open` 0 .. `TCP_CA_Loss` 4);
/// an unknown number reads as Open (the kernel has no other state).
pub(crate) fn ca_state(v: u32) -> CaState {
    match v {
        1 => CaState::Disorder,
        2 => CaState::Cwr,
        3 => CaState::Recovery,
        4 => CaState::Loss,
        _ => CaState::Open,
    }
}

/// `enum tcp_ca_event` as the kernel numbers it, or `None` for a number it does not
/// have.
pub(crate) fn ca_event(v: u32) -> Option<CaEvent> {
    match v {
        0 => Some(CaEvent::TxStart),
        1 => Some(CaEvent::CwndRestart),
        2 => Some(CaEvent::CompleteCwr),
        3 => Some(CaEvent::Loss),
        4 => Some(CaEvent::EcnNoCe),
        5 => Some(CaEvent::EcnIsCe),
        _ => None,
    }
}

/// The library's [`RandomSource`] on the kernel's `bpf_get_prandom_u32()`.
///
/// The kernel's own `bbr` calls `get_random_u32_below(ceil)`; BPF has no such helper,
/// so a 32-bit draw is scaled to `0..ceil` by multiply-and-shift (Lemire's reduction,
/// what `get_random_u32_below` does before its rare rejection step: the bias is below
/// `ceil / 2^32`, 2e-9 for BBR's one draw below 7).
pub(crate) struct KernelRandom;

impl RandomSource for KernelRandom {
    fn below(&mut self, ceil: u32) -> u32 {
        let ceil = ceil.max(1);
        // Lemire: (r * ceil) >> 32 lies in 0..ceil for any 32-bit r.
        ((u64::from(prandom_u32()) * u64::from(ceil)) >> 32) as u32
    }
}

/// `bpf_get_prandom_u32()`, BPF helper number 7.
#[cfg(target_arch = "bpf")]
fn prandom_u32() -> u32 {
    // SAFETY: on BPF, a call to the constant address N is how a program calls helper N
    // (llc emits `call 7`); the helper takes no arguments and returns a u32.
    let helper: unsafe extern "C" fn() -> u32 = unsafe { core::mem::transmute(7usize) };
    unsafe { helper() }
}

/// Host builds only type-check this crate; they never run the hooks.
#[cfg(not(target_arch = "bpf"))]
fn prandom_u32() -> u32 {
    0
}
