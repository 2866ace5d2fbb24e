//! `rops`: the `congestion` crate's Linux-mode BBR v1 (`linux::bbr`) and DCTCP
//! (`linux::dctcp`) hooks behind a few C functions, for the BPF struct_ops shims
//! `../rbbr.bpf.c` and `../rdctcp.bpf.c`.
//!
//! In BPF the kernel is the glue: its own `tcp_ack()`, rate sampler, CA state machine
//! and PRR decide when a hook runs, as they do for the kernel's `bbr` and `dctcp`. On
//! each hook the shim copies the `tcp_sock` (and `rate_sample`) fields the hook reads
//! into a `#[repr(C)]` context on a per-CPU map, together with the algorithm's private
//! state from `icsk_ca_priv`, calls one function here, and writes back what the hook
//! changed. Here the context becomes the library's [`TcpSock`](congestion::linux::tcp::TcpSock)
//! and [`RateSample`](congestion::linux::tcp::RateSample), the library's hook runs, and
//! the fields it may change are copied back into the context.
//!
//! Each exported function is a BPF global function: the verifier checks it on its own
//! against its BTF signature, so each takes one context pointer (checked for null) and
//! plain numbers.
#![no_std]

pub mod bbr;
pub mod dctcp;
mod sock;

#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // Unreachable by construction: the library has no panic path, and any that crept
    // in would show up as this loop, which the BPF verifier rejects at load time.
    loop {}
}
