//! The cold benchmark for BBR: N flows in one array, ACKs in one seeded random flow
//! order, as [`super::run`] does for CUBIC, on the BBR streams of `crate::bbr`.
//!
//! A BBR ACK needs what the stack kept per packet (our `Sent`, s2n's `PacketInfo`,
//! quinn's send time), which at 10^6 flows and a 1000-packet flight each would take
//! tens of GB. So the stack's side is recorded once: one flow runs the stream (steady
//! PROBE_BW, or from the ACK that reports a loss on: a recovery period) behind its
//! stack's records, and each of its ACKs is written down with everything the stack
//! passed (the records handed back, counters, times) and the sends that followed it
//! until the next ACK ([`Script`]). Flow `i` starts as the recorded flow before ACK
//! `i % 64` and in round r replays step `i % 64 + r`: the same inputs the recorded flow
//! had in that state, so every flow follows it exactly. The records come from the
//! script, a few KB that stay in cache: the figures are the controller's own state
//! going cold, not the stack's per-packet memory (which a real stack also pays, alike
//! for all). What `on_send` returns is dropped into `black_box`.
//!
//! Randomness: every flow here draws from a stateless source ([`ZeroRandom`] for ours,
//! s2n's `NoRandom`, quinn's own generator in its state), so that replaying a step
//! gives the recorded result.

mod ours;
mod peers;

use super::Mode;
use crate::bbr::{BbrController, BbrRegime, BbrStream, LOSS_EVERY_ACKS, Phase};
use crate::common::StreamController;
use core::time::Duration;
pub use ours::{ColdBbr, ColdBbr3, TcpAckIn, TcpSendIn, TcpStack, ZeroRandom, delivered_of};
pub use peers::{
    ColdQuinnBbr, ColdS2nBbr, QuinnAckIn, QuinnSendIn, QuinnShared, QuinnStack, S2nAckIn,
    S2nShared, S2nStack,
};
use std::hint::black_box;
use std::time::Instant as WallClock;

/// The clock the timed loops read: the wall clock, or with `COLD_CPU_TIME=1` in the
/// environment the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), which leaves out the
/// time the thread waited for a core on a shared machine (other processes still
/// share the caches).
enum Stopwatch {
    Wall(WallClock),
    Cpu(Duration),
}

fn thread_cpu_time() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timespec {
            sec: i64,
            nsec: i64,
        }
        unsafe extern "C" {
            fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut t = Timespec { sec: 0, nsec: 0 };
        // SAFETY: writes one timespec into `t`.
        let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
        if rc == 0 {
            return Some(Duration::new(t.sec as u64, t.nsec as u32));
        }
    }
    None
}

impl Stopwatch {
    fn start() -> Self {
        let cpu = std::env::var_os("COLD_CPU_TIME").is_some_and(|v| v == "1");
        match thread_cpu_time() {
            Some(t) if cpu => Stopwatch::Cpu(t),
            _ => Stopwatch::Wall(WallClock::now()),
        }
    }
    fn elapsed(&self) -> Duration {
        match self {
            Stopwatch::Wall(w) => w.elapsed(),
            Stopwatch::Cpu(t) => thread_cpu_time().map_or(Duration::ZERO, |n| n - *t),
        }
    }
}

/// Flows start at this many consecutive steps of the script (a power of two).
pub const PHASES: usize = 64;

/// A controller's per-flow state in the cold array, and the calls its stack makes.
pub trait ScriptFlow: Clone {
    /// Column name.
    const NAME: &'static str;
    /// What every flow shares (parameters, the RTT estimator the stack keeps).
    type Shared;
    /// Everything one ACK passes.
    type AckIn: Copy;
    /// Everything one send passes.
    type SendIn: Copy;
    /// What a send returns for the stack to keep.
    type SendOut;
    /// The shared part.
    fn shared() -> Self::Shared;
    /// A fresh flow at `START_US`.
    fn fresh(sh: &Self::Shared) -> Self;
    /// One ACK.
    fn ack(&mut self, sh: &Self::Shared, a: &Self::AckIn);
    /// One packet sent.
    fn send(&mut self, sh: &Self::Shared, s: &Self::SendIn) -> Self::SendOut;
    /// The congestion window, packets.
    fn cwnd_packets(&self, sh: &Self::Shared) -> u32;
    /// The pacer lets the next packet leave at `now_us`.
    fn may_send(&self, sh: &Self::Shared, now_us: u64) -> bool;
    /// BBR's phase (checks only).
    fn phase(&self) -> Phase;
    /// In a recovery period (checks only).
    fn in_recovery(&self) -> bool;
}

/// One controller's recorded stream.
pub struct Script<F: ScriptFlow> {
    /// The shared part.
    pub shared: F::Shared,
    /// The flow before step `p`, for `p < PHASES`.
    pub phases: Vec<F>,
    /// Step `v`'s ACK.
    pub acks: Vec<F::AckIn>,
    /// Step `v`'s sends: `sends[send_ranges[v].0..send_ranges[v].1]`.
    pub send_ranges: Vec<(u32, u32)>,
    /// All sends.
    pub sends: Vec<F::SendIn>,
}

/// The stack side of one controller, turning the stream's calls into its inputs.
pub trait Stack<F: ScriptFlow>: Clone {
    /// A fresh stack.
    fn new() -> Self;
    /// The inputs of an ACK of `packets` at `now_us` with an RTT sample.
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) -> F::AckIn;
    /// The inputs of the next send at `now_us`.
    fn send(&mut self, now_us: u64) -> F::SendIn;
    /// Keep what the send returned.
    fn keep(&mut self, out: F::SendOut);
    /// Lose the oldest packet (declared on the next ACK or now).
    fn lose(&mut self, flow: &mut F, sh: &F::Shared, now_us: u64);
    /// Packets in flight.
    fn in_flight(&self) -> u32;
    /// Packets due at `now_us`.
    fn due(&self, now_us: u64) -> u32;
}

/// A flow and its stack on a [`BbrStream`], writing down every input.
pub struct Recorder<'a, F: ScriptFlow, K: Stack<F>> {
    sh: &'a F::Shared,
    flow: F,
    stack: K,
    /// Recording from the next ACK on.
    pub on: bool,
    /// The script so far.
    pub acks: Vec<F::AckIn>,
    /// Its sends.
    pub sends: Vec<F::SendIn>,
    /// Its ranges.
    pub send_ranges: Vec<(u32, u32)>,
    /// The flow before each recorded ACK, the first [`PHASES`].
    pub phases: Vec<F>,
}

impl<F: ScriptFlow, K: Stack<F>> Clone for Recorder<'_, F, K> {
    fn clone(&self) -> Self {
        Recorder {
            sh: self.sh,
            flow: self.flow.clone(),
            stack: self.stack.clone(),
            on: self.on,
            acks: self.acks.clone(),
            sends: self.sends.clone(),
            send_ranges: self.send_ranges.clone(),
            phases: self.phases.clone(),
        }
    }
}

impl<'a, F: ScriptFlow, K: Stack<F>> Recorder<'a, F, K> {
    /// A fresh flow and stack.
    pub fn new(sh: &'a F::Shared) -> Self {
        Recorder {
            sh,
            flow: F::fresh(sh),
            stack: K::new(),
            on: false,
            acks: Vec::new(),
            sends: Vec::new(),
            send_ranges: Vec::new(),
            phases: Vec::new(),
        }
    }

    /// The flow now.
    pub fn flow(&self) -> &F {
        &self.flow
    }
}

impl<F: ScriptFlow, K: Stack<F>> StreamController for Recorder<'_, F, K> {
    fn name(&self) -> &'static str {
        F::NAME
    }
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        let a = self.stack.ack(now_us, packets, rtt_us);
        if self.on {
            if self.phases.len() < PHASES {
                self.phases.push(self.flow.clone());
            }
            self.acks.push(a);
            let at = self.sends.len() as u32;
            self.send_ranges.push((at, at));
        }
        self.flow.ack(self.sh, &a);
    }
    fn send(&mut self, now_us: u64, packets: u32) {
        for _ in 0..packets {
            let s = self.stack.send(now_us);
            if self.on && !self.acks.is_empty() {
                self.sends.push(s);
                if let Some(r) = self.send_ranges.last_mut() {
                    r.1 += 1;
                }
            }
            let out = self.flow.send(self.sh, &s);
            self.stack.keep(out);
        }
    }
    fn loss(&mut self, now_us: u64) {
        self.stack.lose(&mut self.flow, self.sh, now_us);
    }
    fn rto(&mut self, _now_us: u64) {
        unimplemented!("the BBR streams have no timeout")
    }
    fn cwnd_packets(&self) -> u32 {
        self.flow.cwnd_packets(self.sh)
    }
    fn in_flight_packets(&self) -> u32 {
        self.stack.in_flight()
    }
}

impl<F: ScriptFlow, K: Stack<F>> BbrController for Recorder<'_, F, K> {
    fn phase(&self) -> Phase {
        self.flow.phase()
    }
    fn losses(&self) -> u32 {
        0
    }
    fn due(&self, now_us: u64) -> u32 {
        self.stack.due(now_us)
    }
    fn may_send(&self, now_us: u64) -> bool {
        self.flow.may_send(self.sh, now_us)
    }
}

/// Which part of the stream a script covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// PROBE_BW, no loss (the steady stream's snapshot on).
    Steady,
    /// From the ACK after the one that reports the PROBE_RTT stream's first loss on
    /// (a recovery period: Recovery for ours, the peers' recovery state).
    Recovery,
}

impl<F: ScriptFlow> Script<F> {
    /// Records `steps` steps of `part` with stack `K`.
    pub fn record<K: Stack<F>>(part: Part, steps: usize) -> Self {
        let shared = F::shared();
        let (acks, sends, send_ranges, phases) = {
            let regime = match part {
                Part::Steady => BbrRegime::Steady,
                Part::Recovery => BbrRegime::ProbeRttLoss,
            };
            let mut stream = BbrStream::new(Recorder::<F, K>::new(&shared), regime);
            if part == Part::Recovery {
                // Up to and including the ACK that reports the cycle's first loss, so
                // that every starting phase is inside the recovery period.
                while stream.acks_in_cycle() != LOSS_EVERY_ACKS / 2 + 1 {
                    stream.step();
                }
            }
            stream.live_mut().on = true;
            for _ in 0..steps {
                stream.step();
            }
            let r = stream.live_mut();
            (
                std::mem::take(&mut r.acks),
                std::mem::take(&mut r.sends),
                std::mem::take(&mut r.send_ranges),
                std::mem::take(&mut r.phases),
            )
        };
        Script {
            shared,
            phases,
            acks,
            send_ranges,
            sends,
        }
    }

    /// Step `v` on `f`.
    #[inline(always)]
    pub fn step(&self, f: &mut F, v: usize) {
        f.ack(&self.shared, &self.acks[v]);
        let (a, b) = self.send_ranges[v];
        for s in &self.sends[a as usize..b as usize] {
            black_box(f.send(&self.shared, s));
        }
    }
}

/// Runs `acks` ACKs over `flows` in `perm`'s order (flow `i` in round r replays step
/// `i % PHASES + r`); the wall time.
#[inline(never)]
pub fn run<F: ScriptFlow>(
    flows: &mut [F],
    script: &Script<F>,
    perm: &[u32],
    acks: u64,
    mode: Mode,
) -> Duration {
    let n = flows.len();
    assert_eq!(perm.len(), n);
    let rounds = acks.div_ceil(n as u64) as usize;
    assert!(
        script.acks.len() >= PHASES + rounds,
        "{}: script too short",
        F::NAME
    );
    let base = flows.as_mut_ptr();
    let mut done = 0u64;
    let mut round = 0usize;
    let start = Stopwatch::start();
    while done < acks {
        let take = (acks - done).min(n as u64) as usize;
        let order = &perm[..take];
        // SAFETY (both arms): every index comes from a permutation of 0..n, so each
        // pointer is inside `flows`, and only one flow is borrowed at a time.
        match mode {
            Mode::Plain => {
                for &i in order {
                    let i = i as usize;
                    let f = unsafe { &mut *base.add(i) };
                    script.step(f, (i & (PHASES - 1)) + round);
                }
            }
            Mode::Batched { burst } => {
                for chunk in order.chunks(burst) {
                    for &i in chunk {
                        super::prefetch(unsafe { base.add(i as usize) });
                    }
                    for &i in chunk {
                        let i = i as usize;
                        let f = unsafe { &mut *base.add(i) };
                        script.step(f, (i & (PHASES - 1)) + round);
                    }
                }
            }
        }
        done += take as u64;
        round += 1;
    }
    start.elapsed()
}

/// The same loop as [`run`] with no flow at all: every step's inputs read and passed
/// to `black_box` (the stream's own cost, to subtract).
#[inline(never)]
pub fn run_null<F: ScriptFlow>(n: usize, script: &Script<F>, perm: &[u32], acks: u64) -> Duration {
    assert_eq!(perm.len(), n);
    let mut done = 0u64;
    let mut round = 0usize;
    let start = Stopwatch::start();
    while done < acks {
        let take = (acks - done).min(n as u64) as usize;
        for &i in &perm[..take] {
            let v = (i as usize & (PHASES - 1)) + round;
            black_box(&script.acks[v]);
            let (a, b) = script.send_ranges[v];
            for s in &script.sends[a as usize..b as usize] {
                black_box(s);
            }
        }
        done += take as u64;
        round += 1;
    }
    start.elapsed()
}
