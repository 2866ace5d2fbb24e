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

use super::Mode;
use crate::bbr::ours::{AckOut, Scoreboard};
use crate::bbr::peers::{Wire, blank_info};
use crate::bbr::{BbrController, BbrRegime, BbrStream, LOSS_EVERY_ACKS, Phase};
use crate::common::{PACKET_BYTES, RTT_US, START_US, StreamController};
use crate::quinn::rtt_estimator;
use crate::s2n::{NoEvents, NoRandom, timestamp};
use congestion::Instant;
use congestion::linux::bbr::{BbrAck, BbrMode, DeliveredSegment, Flight, Sent};
use congestion::linux::bbr3::{Bbr3Ack, Mode as Bbr3Mode};
use congestion::linux::tcp::{RandomSource, TxSnapshot};
use congestion::linux::{Bbr, Bbr3, Bbr3Config, Bbr3Params, BbrConfig, BbrParams};
use core::time::Duration;
use s2n_quic_core::packet::number::PacketNumberSpace;
use s2n_quic_core::recovery::bandwidth::PacketInfo;
use s2n_quic_core::recovery::bbr::{ApplicationSettings, BbrCongestionController};
use s2n_quic_core::recovery::{CongestionController, RttEstimator};
use std::hint::black_box;
use std::sync::Arc;
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

/// A [`RandomSource`] that always draws 0 (stateless, so replays repeat).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroRandom;

impl RandomSource for ZeroRandom {
    fn below(&mut self, _ceil: u32) -> u32 {
        0
    }
}

/// Our TCP flows' ACK: what `BbrAck` / `Bbr3Ack` carry.
#[derive(Clone, Copy)]
pub struct TcpAckIn {
    now_us: u64,
    out: AckOut,
    snd_una: u32,
    snd_nxt: u32,
    flight: Flight,
    rtt_us: u32,
}

/// Our TCP flows' send: the time and the counters before it.
#[derive(Clone, Copy)]
pub struct TcpSendIn {
    now_us: u64,
    seq: u32,
    prior: Flight,
}

/// The TCP scoreboard of `crate::bbr` as the stack side.
#[derive(Clone)]
pub struct TcpStack(Scoreboard, Option<u32>);

impl<F: ScriptFlow<AckIn = TcpAckIn, SendIn = TcpSendIn, SendOut = Sent>> Stack<F> for TcpStack {
    fn new() -> Self {
        TcpStack(Scoreboard::new(), None)
    }
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) -> TcpAckIn {
        let out = self.0.ack(packets);
        let (snd_una, snd_nxt) = self.0.seqs();
        TcpAckIn {
            now_us,
            out,
            snd_una,
            snd_nxt,
            flight: self.0.flight(),
            rtt_us: rtt_us as u32,
        }
    }
    fn send(&mut self, now_us: u64) -> TcpSendIn {
        let (seq, prior) = self.0.next_send(now_us);
        self.1 = Some(seq);
        TcpSendIn { now_us, seq, prior }
    }
    fn keep(&mut self, out: Sent) {
        if let Some(seq) = self.1.take() {
            self.0.record(seq, out);
        }
    }
    fn lose(&mut self, _flow: &mut F, _sh: &F::Shared, _now_us: u64) {
        self.0.lose_next();
    }
    fn in_flight(&self) -> u32 {
        self.0.in_flight()
    }
    fn due(&self, now_us: u64) -> u32 {
        self.0.due(now_us)
    }
}

/// `linux::Bbr`, the flow alone (192 bytes).
#[derive(Clone)]
pub struct ColdBbr(Bbr);

impl ColdBbr {
    /// The flow.
    pub fn flow(&self) -> &Bbr {
        &self.0
    }
}

impl ScriptFlow for ColdBbr {
    const NAME: &'static str = "bbr";
    type Shared = BbrParams;
    type AckIn = TcpAckIn;
    type SendIn = TcpSendIn;
    type SendOut = Sent;
    fn shared() -> BbrParams {
        let mut config = BbrConfig::new();
        config.mss = PACKET_BYTES;
        config.validate().expect("kernel defaults are valid")
    }
    fn fresh(p: &BbrParams) -> Self {
        ColdBbr(Bbr::new(p, Instant::from_micros(START_US), &mut ZeroRandom))
    }
    #[inline(always)]
    fn ack(&mut self, p: &BbrParams, a: &TcpAckIn) {
        let mut delivered = a.out.delivered;
        let mut ack = BbrAck {
            snd_una: a.snd_una,
            snd_nxt: a.snd_nxt,
            delivered: &mut delivered[..a.out.n],
            delivered_count: a.out.n as u32,
            newly_lost: a.out.newly_lost,
            rtt_us: Some(a.rtt_us),
            srtt_us: RTT_US as u32,
            ack_maybe_delayed: false,
            prior_flight: a.out.prior_flight,
            flight: a.flight,
            undo: false,
        };
        self.0
            .on_ack(p, Instant::from_micros(a.now_us), &mut ack, &mut ZeroRandom);
    }
    #[inline(always)]
    fn send(&mut self, p: &BbrParams, s: &TcpSendIn) -> Sent {
        let _ = s.seq;
        self.0
            .on_send(p, Instant::from_micros(s.now_us), s.prior, &mut ZeroRandom)
    }
    fn cwnd_packets(&self, _: &BbrParams) -> u32 {
        self.0.cwnd()
    }
    fn may_send(&self, _: &BbrParams, now_us: u64) -> bool {
        self.0.next_departure_ns() <= now_us * 1000
    }
    fn phase(&self) -> Phase {
        match self.0.mode() {
            BbrMode::Startup => Phase::Startup,
            BbrMode::Drain => Phase::Drain,
            BbrMode::ProbeBw => Phase::ProbeBw,
            BbrMode::ProbeRtt => Phase::ProbeRtt,
        }
    }
    fn in_recovery(&self) -> bool {
        self.0.ca_state() != congestion::linux::CaState::Open
    }
}

/// `linux::Bbr3`, the flow alone (256 bytes).
#[derive(Clone)]
pub struct ColdBbr3(Bbr3);

impl ColdBbr3 {
    /// The flow.
    pub fn flow(&self) -> &Bbr3 {
        &self.0
    }
}

impl ScriptFlow for ColdBbr3 {
    const NAME: &'static str = "bbr3";
    type Shared = Bbr3Params;
    type AckIn = TcpAckIn;
    type SendIn = TcpSendIn;
    type SendOut = Sent;
    fn shared() -> Bbr3Params {
        let mut config = Bbr3Config::new();
        config.mss = PACKET_BYTES;
        config.validate().expect("kernel defaults are valid")
    }
    fn fresh(p: &Bbr3Params) -> Self {
        ColdBbr3(Bbr3::new(
            p,
            Instant::from_micros(START_US),
            &mut ZeroRandom,
        ))
    }
    #[inline(always)]
    fn ack(&mut self, p: &Bbr3Params, a: &TcpAckIn) {
        let mut delivered = a.out.delivered;
        let lost: [TxSnapshot; 1] = [a.out.lost_snapshot];
        let mut ack = Bbr3Ack {
            snd_una: a.snd_una,
            snd_nxt: a.snd_nxt,
            delivered: &mut delivered[..a.out.n],
            delivered_count: a.out.n as u32,
            newly_lost: &lost[..a.out.newly_lost as usize],
            rtt_us: Some(a.rtt_us),
            srtt_us: RTT_US as u32,
            ack_maybe_delayed: false,
            ece: false,
            nothing_queued: false,
            is_cwnd_limited: true,
            prior_flight: a.out.prior_flight,
            flight: a.flight,
            undo: false,
        };
        self.0
            .on_ack(p, Instant::from_micros(a.now_us), &mut ack, &mut ZeroRandom);
    }
    #[inline(always)]
    fn send(&mut self, p: &Bbr3Params, s: &TcpSendIn) -> Sent {
        self.0
            .on_send(p, Instant::from_micros(s.now_us), s.prior, &mut ZeroRandom)
    }
    fn cwnd_packets(&self, _: &Bbr3Params) -> u32 {
        self.0.cwnd()
    }
    fn may_send(&self, _: &Bbr3Params, now_us: u64) -> bool {
        self.0.next_departure_ns() <= now_us * 1000
    }
    fn phase(&self) -> Phase {
        match self.0.mode() {
            Bbr3Mode::Startup => Phase::Startup,
            Bbr3Mode::Drain => Phase::Drain,
            Bbr3Mode::ProbeBw => Phase::ProbeBw,
            Bbr3Mode::ProbeRtt => Phase::ProbeRtt,
        }
    }
    fn in_recovery(&self) -> bool {
        self.0.ca_state() != congestion::linux::CaState::Open
    }
}

/// What quinn's stack shares: the clock's origin, its RTT estimator, the config.
pub struct QuinnShared {
    epoch: std::time::Instant,
    rtt: quinn_proto::RttEstimator,
    config: Arc<quinn_proto::congestion::BbrConfig>,
}

/// quinn's ACK: the packets' numbers and send times, the flight after.
#[derive(Clone, Copy)]
pub struct QuinnAckIn {
    now_us: u64,
    packets: [(u64, u64); 2],
    n: u8,
    in_flight_after: u64,
    /// A packet declared lost before this ACK: its send time.
    lost_sent_us: Option<u64>,
}

/// quinn's send.
#[derive(Clone, Copy)]
pub struct QuinnSendIn {
    now_us: u64,
    pn: u64,
}

/// quinn's `Bbr` with the departure time its stack's pacer keeps.
#[derive(Clone)]
pub struct ColdQuinnBbr {
    bbr: quinn_proto::congestion::Bbr,
    next_departure_us: u64,
}

impl ScriptFlow for ColdQuinnBbr {
    const NAME: &'static str = "quinn-bbr";
    type Shared = QuinnShared;
    type AckIn = QuinnAckIn;
    type SendIn = QuinnSendIn;
    type SendOut = ();
    fn shared() -> QuinnShared {
        QuinnShared {
            epoch: std::time::Instant::now(),
            rtt: rtt_estimator(Duration::from_micros(RTT_US)),
            config: Arc::new(quinn_proto::congestion::BbrConfig::default()),
        }
    }
    fn fresh(sh: &QuinnShared) -> Self {
        ColdQuinnBbr {
            bbr: quinn_proto::congestion::Bbr::new(sh.config.clone(), PACKET_BYTES as u16),
            next_departure_us: 0,
        }
    }
    #[inline(always)]
    fn ack(&mut self, sh: &QuinnShared, a: &QuinnAckIn) {
        use quinn_proto::congestion::Controller;
        let now = sh.epoch + Duration::from_micros(a.now_us);
        if let Some(sent_us) = a.lost_sent_us {
            let sent = sh.epoch + Duration::from_micros(sent_us);
            self.bbr
                .on_congestion_event(now, sent, false, u64::from(PACKET_BYTES));
        }
        let mut largest = None;
        for &(pn, sent_us) in &a.packets[..a.n as usize] {
            let sent = sh.epoch + Duration::from_micros(sent_us);
            self.bbr
                .on_ack(now, sent, u64::from(PACKET_BYTES), false, &sh.rtt);
            largest = Some(pn);
        }
        self.bbr.on_end_acks(now, a.in_flight_after, false, largest);
    }
    #[inline(always)]
    fn send(&mut self, sh: &QuinnShared, s: &QuinnSendIn) {
        use quinn_proto::congestion::Controller;
        let now = sh.epoch + Duration::from_micros(s.now_us);
        self.bbr.on_sent(now, u64::from(PACKET_BYTES), s.pn);
        let rate = self.bbr.metrics().pacing_rate.unwrap_or(0) / 8;
        if let Some(gap) = (u64::from(PACKET_BYTES) * 1_000_000).checked_div(rate) {
            self.next_departure_us = self.next_departure_us.max(s.now_us) + gap;
        }
    }
    fn cwnd_packets(&self, _: &QuinnShared) -> u32 {
        use quinn_proto::congestion::Controller;
        (self.bbr.window() / u64::from(PACKET_BYTES)) as u32
    }
    fn may_send(&self, _: &QuinnShared, now_us: u64) -> bool {
        self.next_departure_us <= now_us
    }
    fn phase(&self) -> Phase {
        debug_phase(&format!("{:?}", self.bbr), "mode: ")
    }
    fn in_recovery(&self) -> bool {
        !format!("{:?}", self.bbr).contains("recovery_state: NotInRecovery")
    }
}

/// quinn's stack side: packet numbers and send times in flight.
#[derive(Clone)]
pub struct QuinnStack {
    wire: Wire<(u64, u64)>,
    next_pn: u64,
    lost_sent_us: Option<u64>,
}

impl Stack<ColdQuinnBbr> for QuinnStack {
    fn new() -> Self {
        QuinnStack {
            wire: Wire::new((0, 0)),
            next_pn: 0,
            lost_sent_us: None,
        }
    }
    fn ack(&mut self, now_us: u64, packets: u32, _rtt_us: u64) -> QuinnAckIn {
        let mut a = QuinnAckIn {
            now_us,
            packets: [(0, 0); 2],
            n: 0,
            in_flight_after: 0,
            lost_sent_us: self.lost_sent_us.take(),
        };
        for _ in 0..packets.min(2) {
            a.packets[a.n as usize] = self.wire.pop();
            a.n += 1;
        }
        a.in_flight_after = u64::from(self.wire.len) * u64::from(PACKET_BYTES);
        a
    }
    fn send(&mut self, now_us: u64) -> QuinnSendIn {
        let pn = self.next_pn;
        self.next_pn += 1;
        self.wire.push((pn, now_us));
        QuinnSendIn { now_us, pn }
    }
    fn keep(&mut self, _: ()) {}
    fn lose(&mut self, _: &mut ColdQuinnBbr, _: &QuinnShared, _now_us: u64) {
        if self.wire.len > 2 {
            let (_, sent_us) = self.wire.pop();
            self.lost_sent_us = Some(sent_us);
        }
    }
    fn in_flight(&self) -> u32 {
        self.wire.len
    }
    fn due(&self, now_us: u64) -> u32 {
        (0..2)
            .filter(|&i| i < self.wire.len && self.wire.peek(i).1 + RTT_US <= now_us)
            .count() as u32
    }
}

/// What s2n's stack shares: its RTT estimators (20 ms, and 20.1 ms after the PROBE_RTT
/// stream's warm-up).
pub struct S2nShared {
    rtt: RttEstimator,
    rtt_late: RttEstimator,
}

/// s2n's ACK: the newest packet's record and send time, the bytes, which estimator.
#[derive(Clone, Copy)]
pub struct S2nAckIn {
    now_us: u64,
    newest: PacketInfo,
    newest_sent_us: u64,
    bytes: u32,
    late: bool,
    /// A packet declared lost before this ACK: its record.
    lost: Option<PacketInfo>,
}

/// s2n's `BbrCongestionController` (BBRv2, paces itself).
#[derive(Clone)]
pub struct ColdS2nBbr(BbrCongestionController);

impl ScriptFlow for ColdS2nBbr {
    const NAME: &'static str = "s2n-bbr";
    type Shared = S2nShared;
    type AckIn = S2nAckIn;
    type SendIn = u64;
    type SendOut = PacketInfo;
    fn shared() -> S2nShared {
        let est = |us: u64| {
            let mut rtt = RttEstimator::new(Duration::from_micros(RTT_US));
            for _ in 0..64 {
                rtt.update_rtt(
                    Duration::ZERO,
                    Duration::from_micros(us),
                    timestamp(START_US),
                    true,
                    PacketNumberSpace::ApplicationData,
                );
            }
            rtt
        };
        let mut rtt = RttEstimator::new(Duration::from_micros(RTT_US));
        rtt.update_rtt(
            Duration::ZERO,
            Duration::from_micros(RTT_US),
            timestamp(START_US),
            true,
            PacketNumberSpace::ApplicationData,
        );
        S2nShared {
            rtt,
            rtt_late: est(crate::bbr::LATE_RTT_US),
        }
    }
    fn fresh(_: &S2nShared) -> Self {
        ColdS2nBbr(BbrCongestionController::new(
            PACKET_BYTES as u16,
            ApplicationSettings::default(),
        ))
    }
    #[inline(always)]
    fn ack(&mut self, sh: &S2nShared, a: &S2nAckIn) {
        let now = timestamp(a.now_us);
        if let Some(info) = a.lost {
            self.0.on_packet_lost(
                PACKET_BYTES,
                info,
                false,
                true,
                &mut NoRandom,
                now,
                &mut NoEvents,
            );
        }
        let rtt = if a.late { &sh.rtt_late } else { &sh.rtt };
        let sent = timestamp(a.newest_sent_us);
        self.0.on_rtt_update(sent, now, rtt, &mut NoEvents);
        self.0.on_ack(
            sent,
            a.bytes as usize,
            a.newest,
            rtt,
            &mut NoRandom,
            now,
            &mut NoEvents,
        );
    }
    #[inline(always)]
    fn send(&mut self, sh: &S2nShared, now_us: &u64) -> PacketInfo {
        self.0.on_packet_sent(
            timestamp(*now_us),
            PACKET_BYTES as usize,
            Some(false),
            &sh.rtt,
            &mut NoEvents,
        )
    }
    fn cwnd_packets(&self, _: &S2nShared) -> u32 {
        self.0.congestion_window() / PACKET_BYTES
    }
    fn may_send(&self, _: &S2nShared, now_us: u64) -> bool {
        self.0
            .earliest_departure_time()
            .is_none_or(|t| t <= timestamp(now_us))
    }
    fn phase(&self) -> Phase {
        debug_phase(&format!("{:?}", self.0), "state: ")
    }
    fn in_recovery(&self) -> bool {
        self.0.requires_fast_retransmission()
            || format!("{:?}", self.0).contains("recovery_state: Recovering")
    }
}

/// s2n's stack side: each packet's `PacketInfo` and send time.
#[derive(Clone)]
pub struct S2nStack {
    wire: Wire<(PacketInfo, u64)>,
    pending: u64,
    lost: Option<PacketInfo>,
}

impl Stack<ColdS2nBbr> for S2nStack {
    fn new() -> Self {
        S2nStack {
            wire: Wire::new((blank_info(), 0)),
            pending: 0,
            lost: None,
        }
    }
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) -> S2nAckIn {
        let mut newest = (blank_info(), 0);
        for _ in 0..packets {
            newest = self.wire.pop();
        }
        S2nAckIn {
            now_us,
            newest: newest.0,
            newest_sent_us: newest.1,
            bytes: packets * PACKET_BYTES,
            late: rtt_us != RTT_US,
            lost: self.lost.take(),
        }
    }
    fn send(&mut self, now_us: u64) -> u64 {
        self.pending = now_us;
        now_us
    }
    fn keep(&mut self, info: PacketInfo) {
        self.wire.push((info, self.pending));
    }
    fn lose(&mut self, _: &mut ColdS2nBbr, _: &S2nShared, _now_us: u64) {
        if self.wire.len > 2 {
            self.lost = Some(self.wire.pop().0);
        }
    }
    fn in_flight(&self) -> u32 {
        self.wire.len
    }
    fn due(&self, now_us: u64) -> u32 {
        (0..2)
            .filter(|&i| i < self.wire.len && self.wire.peek(i).1 + RTT_US <= now_us)
            .count() as u32
    }
}

fn debug_phase(debug: &str, key: &str) -> Phase {
    let rest = debug.split_once(key).map_or("", |(_, r)| r);
    if rest.starts_with("ProbeRtt") {
        Phase::ProbeRtt
    } else if rest.starts_with("ProbeBw") {
        Phase::ProbeBw
    } else if rest.starts_with("Drain") {
        Phase::Drain
    } else {
        Phase::Startup
    }
}

/// The delivered segments of a script step, for the tests.
pub fn delivered_of(a: &TcpAckIn) -> &[DeliveredSegment] {
    &a.out.delivered[..a.out.n]
}
