//! Which 64-byte lines of a flow one congestion-avoidance ACK (and the send after it)
//! touches, exactly: `scripts/cold-lines.sh` runs `cold lines` under valgrind's lackey
//! (every load and store, with its address and size) and reads the accesses that fall
//! between the markers this module emits.
//!
//! The flows under measurement sit in [`LAB`], a static block whose first 4096 bytes
//! are the markers and whose rest holds [`PHASES`] flows of one type as a plain array
//! (so the 64 flows start at every offset a flow of that size takes in an array). The
//! script finds the block by a calibration pattern of four loads, then each marker is
//! one 8-byte load from the block's marker page:
//!
//! - `+64`: an ACK begins (the stack reads cwnd, then its ACK calls);
//! - `+128`: the send begins (the stack reads cwnd, then its send calls);
//! - `+192`: the step ends.

use super::{Ack, ColdFlow, PHASES, Send, Template};
use crate::common::{ACK_INTERVAL_US, PACKETS_PER_ACK, START_US};
use core::cell::UnsafeCell;
use core::sync::atomic::{Ordering, compiler_fence};

/// Bytes for the flows after the marker page.
pub const LAB_FLOW_BYTES: usize = 1 << 16;

/// The marker page and the flows under measurement.
#[repr(C, align(4096))]
pub struct Lab(UnsafeCell<[u8; 4096 + LAB_FLOW_BYTES]>);

// SAFETY: used from one thread (the `cold lines` command).
unsafe impl Sync for Lab {}

/// The block.
pub static LAB: Lab = Lab(UnsafeCell::new([0; 4096 + LAB_FLOW_BYTES]));

#[inline(always)]
fn mark(offset: usize) {
    compiler_fence(Ordering::SeqCst);
    // SAFETY: inside LAB's marker page; a plain 8-byte read.
    unsafe {
        let p = LAB.0.get().cast::<u8>().add(offset).cast::<u64>();
        core::hint::black_box(p.read_volatile());
    }
    compiler_fence(Ordering::SeqCst);
}

/// The four loads the script finds the block by: +0, +56, +24, +40.
pub fn calibrate() {
    for off in [0, 56, 24, 40] {
        mark(off);
    }
}

/// Places the templates' flows in the lab, runs one marked step on each, and drops
/// them. Prints one line per flow: `name index size_of`.
pub fn measure<F: ColdFlow>(sh: &F::Shared, t: &Template<F>) {
    let size = size_of::<F>();
    assert!(
        size * PHASES <= LAB_FLOW_BYTES,
        "{}: too big for the lab",
        F::NAME
    );
    assert!(align_of::<F>() <= 4096);
    // SAFETY: the flow area is page-aligned, large enough (checked), and `size` is a
    // multiple of the alignment; each slot is written once, used, and dropped below.
    let base = unsafe { LAB.0.get().cast::<u8>().add(4096).cast::<F>() };
    for (i, f) in t.phases.iter().enumerate() {
        unsafe { base.add(i).write(f.clone()) };
    }
    for i in 0..PHASES {
        println!("{} {i} {size}", F::NAME);
        let f = unsafe { &mut *base.add(i) };
        let v = t.consts.v0 + 1 + i as u64;
        let now_us = START_US + v * ACK_INTERVAL_US;
        let largest_acked = (2 * v).wrapping_add(t.consts.acked_offset);
        mark(64);
        let before = f.cwnd_packets(sh);
        let after_ack = before - PACKETS_PER_ACK;
        f.on_ack(
            sh,
            &Ack {
                now_us,
                packets: PACKETS_PER_ACK,
                largest_acked,
                in_flight_after: after_ack,
            },
        );
        mark(128);
        let cwnd = f.cwnd_packets(sh);
        let ok = cwnd > after_ack
            && f.on_send(
                sh,
                &Send {
                    now_us,
                    packets: cwnd - after_ack,
                    in_flight_after: cwnd,
                    largest_sent: largest_acked
                        .wrapping_add(u64::from(cwnd))
                        .wrapping_add(t.consts.sent_offset),
                },
            );
        mark(192);
        assert!(ok, "{}: the marked step did not behave", F::NAME);
    }
    for i in 0..PHASES {
        unsafe { core::ptr::drop_in_place(base.add(i)) };
    }
}
