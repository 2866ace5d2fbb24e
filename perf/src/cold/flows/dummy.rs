//! The floor and the stream's own cost.

use crate::cold::{Ack, ColdFlow, Send};
use crate::common::WARMUP_PEAK_PACKETS;
use std::hint::black_box;
use std::sync::atomic::{Ordering, compiler_fence};

/// What every dummy (and the stream alone) shares: no shared state, a window of a
/// constant 1430 packets, a send that only passes its packet number through
/// `black_box`, no loss handling, always in congestion avoidance.
macro_rules! constant_window_flow {
    () => {
        type Shared = ();
        fn shared() {}
        #[inline(always)]
        fn cwnd_packets(&self, _: &()) -> u32 {
            WARMUP_PEAK_PACKETS
        }
        #[inline(always)]
        fn on_send(&mut self, _: &(), send: &Send) -> bool {
            black_box(send.largest_sent);
            true
        }
        fn on_loss(&mut self, _: &(), _: u64, _: u64, _: u32) {}
        fn in_congestion_avoidance(&self, _: &()) -> bool {
            true
        }
    };
}

/// A "controller" of `LINES` 64-byte lines (aligned) whose ACK reads and writes one word
/// in each line, and whose window is a constant 1430 packets (so the warm-up has nothing to do): what touching that many
/// cold lines per ACK costs, with almost no work. `Dummy<1>` is the floor.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Dummy<const LINES: usize>(pub [[u64; 8]; LINES]);

impl<const LINES: usize> ColdFlow for Dummy<LINES> {
    const NAME: &'static str = match LINES {
        1 => "dummy 1 line",
        2 => "dummy 2 lines",
        3 => "dummy 3 lines",
        _ => "dummy",
    };
    constant_window_flow!();
    fn fresh(_: &()) -> Self {
        Dummy([[0; 8]; LINES])
    }
    #[inline(always)]
    fn on_ack(&mut self, _: &(), ack: &Ack) {
        for line in &mut self.0 {
            line[0] = line[0].wrapping_add(ack.largest_acked);
        }
    }
}

/// A 1-line "controller" whose ACK makes `STORES` stores into its line (8 words,
/// written in turn, each from a value its first word gives): what stores cost when the
/// flow's line is cold, with little other work. Each store is kept apart by a compiler
/// fence, so the compiler cannot merge two stores to the same word.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct DummyStores<const STORES: usize>(pub [u64; 8]);

impl<const STORES: usize> ColdFlow for DummyStores<STORES> {
    const NAME: &'static str = match STORES {
        8 => "dummy 8 stores",
        16 => "dummy 16 stores",
        24 => "dummy 24 stores",
        _ => "dummy stores",
    };
    constant_window_flow!();
    fn fresh(_: &()) -> Self {
        DummyStores([0; 8])
    }
    #[inline(always)]
    fn on_ack(&mut self, _: &(), ack: &Ack) {
        let x = self.0[0].wrapping_add(ack.largest_acked);
        for i in 0..STORES {
            self.0[i % 8] = x.wrapping_add(i as u64);
            compiler_fence(Ordering::SeqCst);
        }
    }
}

/// A 1-line "controller" whose ACK reads its first word and runs `STEPS` steps of
/// arithmetic on it, each needing the one before (a multiply of the value by itself and
/// an exclusive or, two instructions a step), then stores the result: what instructions
/// cost when they wait on the flow's cold line, as a controller's ACK does. Squaring
/// keeps the compiler from folding the steps into fewer.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct DummyWork<const STEPS: usize>(pub [u64; 8]);

impl<const STEPS: usize> ColdFlow for DummyWork<STEPS> {
    const NAME: &'static str = match STEPS {
        16 => "dummy 16 steps",
        32 => "dummy 32 steps",
        _ => "dummy steps",
    };
    constant_window_flow!();
    fn fresh(_: &()) -> Self {
        DummyWork([0; 8])
    }
    #[inline(always)]
    fn on_ack(&mut self, _: &(), ack: &Ack) {
        let mut x = self.0[0].wrapping_add(ack.largest_acked);
        for i in 0..STEPS {
            x = x.wrapping_mul(x) ^ (i as u64 + 1);
        }
        // Never zero: the smoke test tells a written line from a fresh one.
        self.0[0] = x | 1;
    }
}

/// No state at all (zero-sized): what the stream itself costs per ACK (the loop, the
/// permutation read, the clock and packet numbers, the arguments through `black_box`).
#[derive(Clone, Copy, Default)]
pub struct Null;

impl ColdFlow for Null {
    const NAME: &'static str = "stream";
    constant_window_flow!();
    fn fresh(_: &()) -> Self {
        Null
    }
    #[inline(always)]
    fn on_ack(&mut self, _: &(), ack: &Ack) {
        black_box((ack.now_us, ack.largest_acked));
    }
}
