//! [`Bbr`]: a whole Linux-mode BBR v1 flow a TCP stack drives: the socket glue, the
//! delivery-rate sampler and BBR, in 192 bytes.

use super::flow_sock::FlowSock;
use super::sock_view::{EventSock, FlowSockView};
use super::{BbrConfig, BbrMode, BbrOps, BbrParams, BbrState, bbr_bw, bbr_main, bbr_tso_segs_goal};
use crate::Instant;
use crate::linux::CaState;
use crate::linux::tcp::ack_update_rtt::tcp_update_rtt_min;
use crate::linux::tcp::rate::{
    RateSock, tcp_rate_check_app_limited, tcp_rate_gen, tcp_rate_skb_delivered, tcp_rate_skb_sent,
};
use crate::linux::tcp::seq::before;
use crate::linux::tcp::skb::{RETRANS, SACKED_ACKED};
use crate::linux::tcp::{
    RandomSource, RateSample, TcpCongestionOps, TcpSock, TxSnapshot, tcp_enter_loss,
    tcp_enter_recovery, tcp_set_ca_state, tcp_transmit_skb, tcp_try_undo,
};

/// The stack's scoreboard counters (`packets_out`, `sacked_out`, `lost_out`,
/// `retrans_out`), in segments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Flight {
    /// Segments sent and not cumulatively acknowledged.
    pub packets_out: u32,
    /// Of those, SACKed.
    pub sacked_out: u32,
    /// Of those, marked lost (and not SACKed).
    pub lost_out: u32,
    /// Retransmissions in flight.
    pub retrans_out: u32,
}

impl Flight {
    /// `tcp_packets_in_flight()`: `packets_out - (sacked_out + lost_out) + retrans_out`,
    /// wrapping as the kernel's `u32` on inconsistent counts.
    pub const fn in_flight(&self) -> u32 {
        crate::linux::tcp::tcp_packets_in_flight(
            self.packets_out,
            self.sacked_out,
            self.lost_out,
            self.retrans_out,
        )
    }
}

/// What [`Bbr::on_send`] returns for the stack to keep with the segment.
///
/// `repr(C)`, as [`DeliveredSegment`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Sent {
    /// The segment's earliest departure time (`skb->skb_mstamp_ns`), ns since the
    /// origin of `now`.
    pub departure_ns: u64,
    /// The sampler's snapshot (`tcp_skb_cb.tx`).
    pub snapshot: TxSnapshot,
}

/// One segment an ACK newly delivered.
///
/// `repr(C)`, fields in this order: the C ABI's `CongestionDeliveredSegment` has the
/// same layout, so that a C caller's array is read (and its spent snapshots written)
/// in place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct DeliveredSegment {
    /// What [`Bbr::on_send`] returned for its last transmission.
    pub sent: Sent,
    /// Its end sequence (`end_seq`): one past its own sequence number, in segments.
    pub end_seq: u32,
    /// It was ever retransmitted (`TCPCB_RETRANS`).
    pub retransmitted: bool,
    /// It was delivered by SACK on this ACK (not cumulatively).
    pub sacked: bool,
}

/// What an ACK did, as the stack's scoreboard saw it.
#[derive(Debug, PartialEq, Eq)]
pub struct BbrAck<'a> {
    /// `snd_una` after the ACK.
    pub snd_una: u32,
    /// `snd_nxt`: the next new segment's sequence number.
    pub snd_nxt: u32,
    /// The segments newly delivered (see [`Bbr`] for the order); their
    /// snapshots are spent here. May be empty.
    pub delivered: &'a mut [DeliveredSegment],
    /// How many segments were newly delivered, at least `delivered.len()` (more when
    /// the stack keeps no snapshots for some).
    pub delivered_count: u32,
    /// Segments newly marked lost (`tcp_mark_skb_lost()`, including retransmissions
    /// lost again).
    pub newly_lost: u32,
    /// The ACK's RTT sample, µs (`ca_rtt_us`), if it gave one.
    pub rtt_us: Option<u32>,
    /// The stack's smoothed RTT, µs (0: none yet); BBR reads it until its pacing rate
    /// has been seeded from a real RTT.
    pub srtt_us: u32,
    /// The ACK may have been delayed by the receiver (`FLAG_ACK_MAYBE_DELAYED`).
    pub ack_maybe_delayed: bool,
    /// The scoreboard counters before the ACK.
    pub prior_flight: Flight,
    /// The scoreboard counters after it (tags, cumulative ACK, marks).
    pub flight: Flight,
    /// The stack found the last reduction spurious (DSACKs, timestamps): undo it.
    pub undo: bool,
}

/// A Linux-mode BBR v1 flow: `tcp_bbr.c` with the socket glue and the delivery-rate
/// sampler of `tcp_rate.c`, driven by a TCP stack. Segments, not bytes. Bit-exact with the kernel
/// on the reference traces.
///
/// # Call order
///
/// The stack keeps its own scoreboard (which segments are outstanding, SACKed, lost,
/// retransmitted) and tells the flow what happened on each event; the flow keeps the
/// socket fields BBR and the sampler need and returns what the stack must keep per
/// segment. The call order per segment and per ACK is the kernel's:
///
/// 1. `Bbr::new(&params, now, rand)` when the connection is established.
/// 2. For every (re)transmitted segment, [`Bbr::on_send`] with the flight *before* it
///    is counted; keep the returned [`Sent`] with the segment (its departure time and
///    [`TxSnapshot`]). It may leave no earlier than [`Bbr::next_departure_ns`] before
///    the call; the returned `departure_ns` is its own earliest departure.
/// 3. When the application runs out of data to send, [`Bbr::on_app_limited`].
/// 4. For every ACK, update the scoreboard first (SACK tags, cumulative ACK, loss
///    marks, and the LOST marks an undo clears), then [`Bbr::on_ack`] with the
///    segments it newly delivered ([`DeliveredSegment`], SACKed ones first, each
///    group in ascending sequence, as `tcp_sacktag_write_queue()` and
///    `tcp_clean_rtx_queue()` visit them), and store back the snapshots of the SACKed
///    ones (the flow spends them so that their later cumulative ACK samples nothing).
/// 5. On a retransmission timeout, mark every outstanding segment lost, then
///    [`Bbr::on_rto`].
///
/// Read [`Bbr::cwnd`] and [`Bbr::pacing_rate`] after each event.
///
/// Pass the same [`BbrParams`] to every event of a flow: between ACKs the flow keeps
/// `bbr_tso_segs_goal()` for its current pacing rate, and that goal also depends on
/// the config's `mss`, `pacing_shift` and `max_tcp_header` (a new pacing rate, or an
/// event with CA-state work, recomputes it).
///
/// **Without per-segment snapshots** (a stack that keeps nothing per packet) there
/// is no delivery-rate sample: pass an empty `delivered` slice and the count in
/// [`BbrAck::delivered_count`]. BBR then never measures bandwidth: it stays in
/// STARTUP at the initial pacing rate, and cwnd only grows while fewer than 10
/// segments were delivered, then holds at the quantization budget (about 3 TSO
/// bursts). Such a flow is safe but slow; BBR needs the snapshots.
///
/// Recovery follows the model of `tests/data/linux-bbr` (the traces this flow
/// is tested against): Recovery starts when `lost_out > 0` (no Disorder state), ends
/// when `snd_una` reaches the recovery point; Loss ends the same way; undo only when
/// the stack says so ([`BbrAck::undo`], its DSACK or timestamp decision). An ACK that
/// arrives with nothing outstanding (`packets_out` 0 before it) changes nothing, as
/// the kernel's `no_queue` path skips congestion control.
///
/// # Example
///
/// ```
/// use congestion::Instant;
/// use congestion::linux::bbr::{BbrAck, DeliveredSegment, Flight};
/// use congestion::linux::tcp::ReplayedRandom;
/// use congestion::linux::{Bbr, BbrConfig};
///
/// let mut config = BbrConfig::new();
/// config.initial_rtt_us = 10_000; // the handshake took 10 ms
/// let params = config.validate()?;
/// let mut rand = ReplayedRandom::<4>::new(); // a stack passes its own generator
/// let t0 = Instant::from_micros(1_000_000);
/// let mut flow = Bbr::new(&params, t0, &mut rand);
/// // 10 · 2^24 / 10,000 µs at gain 739/256, less 1 %: 4,138,115 bytes/s.
/// assert_eq!((flow.cwnd(), flow.pacing_rate()), (10, 4_138_115));
///
/// // Ten segments leave at t0; the stack keeps what each send returns.
/// let mut flight = Flight::default();
/// let mut sent = Vec::new();
/// for _ in 0..10 {
///     sent.push(flow.on_send(&params, t0, flight, &mut rand));
///     flight.packets_out += 1;
/// }
///
/// // 10 ms later the first two are acknowledged with an RTT of 10 ms.
/// let prior_flight = flight;
/// flight.packets_out -= 2;
/// let mut delivered: Vec<DeliveredSegment> = (0..2)
///     .map(|i| DeliveredSegment { sent: sent[i], end_seq: i as u32 + 1, ..Default::default() })
///     .collect();
/// let mut ack = BbrAck {
///     snd_una: 2,
///     snd_nxt: 10,
///     delivered: &mut delivered,
///     delivered_count: 2,
///     newly_lost: 0,
///     rtt_us: Some(10_000),
///     srtt_us: 10_000,
///     ack_maybe_delayed: false,
///     prior_flight,
///     flight,
///     undo: false,
/// };
/// let rs = flow.on_ack(&params, Instant::from_micros(1_010_000), &mut ack, &mut rand);
/// // 2 segments over 10,000 µs: bw 2 · 2^24 / 10,000 = 3355; the cwnd target is
/// // bdp(3355 · 10,000 µs · 739/256) = 6 plus 3 TSO bursts of 2 = 12, and cwnd grows
/// // by the 2 delivered to it.
/// assert_eq!((rs.delivered, rs.interval_us), (2, 10_000));
/// assert_eq!((flow.bw(), flow.cwnd()), (3355, 12));
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bbr {
    bbr: BbrState,
    sock: FlowSock,
}

/// `tcp_rate_skb_delivered()` on each newly delivered segment, in the stack's order;
/// spends the snapshots.
// Linux net/ipv4/tcp_input.c tcp_sacktag_one(), tcp_clean_rtx_queue(): per skb
pub(crate) fn tcp_rate_skbs_delivered<S: RateSock>(
    sk: &mut S,
    delivered: &mut [DeliveredSegment],
    rs: &mut RateSample,
) {
    for seg in delivered.iter_mut() {
        let mut sacked = if seg.retransmitted { RETRANS } else { 0 };
        if seg.sacked {
            sacked |= SACKED_ACKED;
        }
        let tx_us = seg.sent.departure_ns / 1000;
        let (snapshot, end_seq) = (&mut seg.sent.snapshot, seg.end_seq);
        tcp_rate_skb_delivered(sk, snapshot, tx_us, end_seq, sacked, rs);
    }
}

// Linux net/ipv4/tcp_input.c tcp_ack_update_rtt(): the min filter (srtt is the stack's)
pub(crate) fn tcp_ack_update_rtt_min(
    sk: &mut TcpSock,
    rtt_us: Option<u32>,
    ack_maybe_delayed: bool,
    rs: &mut RateSample,
) {
    rs.rtt_us = -1;
    if let Some(rtt) = rtt_us {
        rs.rtt_us = i64::from(rtt);
        tcp_update_rtt_min(sk, rtt, ack_maybe_delayed);
    }
    rs.is_ack_delayed = ack_maybe_delayed;
}
const _: () = assert!(core::mem::size_of::<Bbr>() <= 192);

impl Bbr {
    /// A flow whose connection is established at `now`: `bbr_init()` on a fresh socket
    /// (cwnd `init_cwnd`, srtt and `tcp_min_rtt()` from `initial_rtt_us`). BBR v1 draws
    /// no random number here; `rand` is for symmetry with the other events.
    pub fn new<R: RandomSource>(p: &BbrParams, now: Instant, rand: &mut R) -> Self {
        let mut sk = p.config().sock_settings().fresh_sock(now);
        let mut flow = Bbr {
            bbr: BbrState::default(),
            sock: FlowSock::default(),
        };
        BbrOps::init(&mut flow.bbr, &mut sk, p, rand);
        flow.store(&sk);
        flow
    }

    fn sock(&self, p: &BbrParams, now: Instant, flight: Flight) -> TcpSock {
        self.sock.load(&p.config().sock_settings(), now, flight)
    }

    fn store(&mut self, sk: &TcpSock) {
        self.sock = FlowSock::save(sk);
    }

    /// The socket at `now` over the kept fields in place (the common events' path:
    /// no socket is built or written back), with the stack's `facts`.
    fn view<'a, F>(
        &'a mut self,
        p: &'a BbrParams,
        now: Instant,
        facts: F,
    ) -> (&'a mut BbrState, FlowSockView<'a, BbrConfig, F>) {
        let e = EventSock {
            now_us: now.as_micros(),
            jiffies: now.jiffies32(),
            flight: facts,
            srtt_us: 0,
            delivered_ce: 0,
            ecn_flags: 0,
            is_cwnd_limited: false,
        };
        (
            &mut self.bbr,
            FlowSockView {
                s: &mut self.sock,
                e,
                c: p.config(),
            },
        )
    }

    /// A segment (new or retransmitted) is handed to the wire at `now`, with `flight`
    /// the counters before it is counted (`tcp_transmit_skb()`'s order): its departure
    /// time, a transmit-start event if nothing was in flight, the pacing step, and
    /// the sampler's snapshot. The stack then counts it (`packets_out` or
    /// `retrans_out`).
    pub fn on_send<R: RandomSource>(
        &mut self,
        p: &BbrParams,
        now: Instant,
        flight: Flight,
        rand: &mut R,
    ) -> Sent {
        if flight.in_flight() != 0 {
            return self.send_in_place(p, now, flight);
        }
        self.send_with_start(p, now, flight, rand)
    }

    /// [`Self::on_send`] with nothing in flight: the transmit-start event on a whole
    /// [`TcpSock`]. Kept out of line so that the common send's frame stays small.
    #[inline(never)]
    #[cold]
    fn send_with_start<R: RandomSource>(
        &mut self,
        p: &BbrParams,
        now: Instant,
        flight: Flight,
        rand: &mut R,
    ) -> Sent {
        let mut sk = self.sock(p, now, flight);
        let departure_ns = tcp_transmit_skb::<BbrOps, R>(&mut self.bbr, &mut sk, p, rand);
        let snapshot = tcp_rate_skb_sent(&mut sk, departure_ns / 1000);
        self.store(&sk);
        Sent {
            departure_ns,
            snapshot,
        }
    }

    /// The application has nothing more to send and the host queues are empty
    /// (`host_queues_empty`): `tcp_rate_check_app_limited()`, which marks the flow
    /// app-limited if cwnd is not full and every lost segment was retransmitted.
    pub fn on_app_limited(
        &mut self,
        p: &BbrParams,
        now: Instant,
        flight: Flight,
        host_queues_empty: bool,
    ) {
        let mut sk = self.sock(p, now, flight);
        tcp_rate_check_app_limited(&mut sk, host_queues_empty);
        self.store(&sk);
    }

    /// An ACK: the sampler's per-segment step on each delivered segment, the RTT
    /// filter, undo, the end of Recovery/Loss, loss counting, the start of Recovery,
    /// the rate sample and `bbr_main()`, in `tcp_ack()`'s order. Returns the sample.
    pub fn on_ack<R: RandomSource>(
        &mut self,
        p: &BbrParams,
        now: Instant,
        ack: &mut BbrAck<'_>,
        rand: &mut R,
    ) -> RateSample {
        let mut rs = RateSample::default();
        // Linux net/ipv4/tcp_input.c tcp_ack(): no_queue skips congestion control
        if ack.prior_flight.packets_out == 0 {
            return rs;
        }
        let state = self.sock.icsk_ca_state;
        let ends_recovery = matches!(state, CaState::Recovery | CaState::Loss)
            && !before(ack.snd_una, self.sock.high_seq);
        let starts_recovery = (state as u8) < (CaState::Recovery as u8) && ack.flight.lost_out > 0;
        if !ack.undo && !ends_recovery && !starts_recovery {
            self.ack_in_place(p, now, ack, rand, &mut rs);
            return rs;
        }
        self.ack_with_ca_state(p, now, ack, rand, &mut rs);
        rs
    }

    /// [`Self::on_ack`] with CA-state work (undo, the end of Recovery/Loss, the start
    /// of Recovery): the kernel's glue on a whole [`TcpSock`]. Kept out of line so
    /// that the common ACK's frame stays small.
    #[inline(never)]
    #[cold]
    fn ack_with_ca_state<R: RandomSource>(
        &mut self,
        p: &BbrParams,
        now: Instant,
        ack: &mut BbrAck<'_>,
        rand: &mut R,
        rs: &mut RateSample,
    ) {
        let mut sk = self.sock(p, now, ack.flight);
        sk.srtt_us = ack.srtt_us.wrapping_shl(3);
        let prior_delivered = sk.delivered;
        let prior_lost = sk.lost;
        rs.prior_in_flight = ack.prior_flight.in_flight();

        let count = u32::try_from(ack.delivered.len()).unwrap_or(u32::MAX);
        sk.delivered = sk.delivered.wrapping_add(ack.delivered_count.max(count));
        tcp_rate_skbs_delivered(&mut sk, ack.delivered, rs);
        sk.snd_una = ack.snd_una;
        sk.snd_nxt = ack.snd_nxt;
        tcp_ack_update_rtt_min(&mut sk, ack.rtt_us, ack.ack_maybe_delayed, rs);

        if ack.undo {
            tcp_try_undo::<BbrOps, R>(&mut self.bbr, &mut sk, p, rand);
            // The stack's counters already reflect the cleared (and any new) marks.
            sk.lost_out = ack.flight.lost_out;
        }
        if matches!(sk.icsk_ca_state, CaState::Recovery | CaState::Loss)
            && !before(sk.snd_una, sk.high_seq)
        {
            tcp_set_ca_state::<BbrOps, R>(&mut self.bbr, &mut sk, p, CaState::Open, rand);
        }
        sk.lost = sk.lost.wrapping_add(ack.newly_lost);
        if (sk.icsk_ca_state as u8) < (CaState::Recovery as u8) && sk.lost_out > 0 {
            tcp_enter_recovery::<BbrOps, R>(&mut self.bbr, &mut sk, p, false, rand);
        }

        let delivered = sk.delivered.wrapping_sub(prior_delivered);
        let lost = sk.lost.wrapping_sub(prior_lost);
        tcp_rate_gen(&mut sk, delivered, lost, false, rs);
        BbrOps::cong_control(&mut self.bbr, &mut sk, p, ack.snd_una, 0, rs, rand);
        self.store(&sk);
    }

    /// [`Self::on_send`] with something in flight (no transmit-start event):
    /// `tcp_transmit_skb()`'s departure time, count and pacing step and
    /// `tcp_rate_skb_sent()`, on the kept fields in place.
    fn send_in_place(&mut self, p: &BbrParams, now: Instant, flight: Flight) -> Sent {
        let (_, mut sk) = self.view(p, now, (&flight, &0));
        let departure_ns = sk.transmit();
        let snapshot = tcp_rate_skb_sent(&mut sk, departure_ns / 1000);
        Sent {
            departure_ns,
            snapshot,
        }
    }

    /// [`Self::on_ack`] when the CA state does not change (no undo, Recovery/Loss
    /// neither ends nor starts): the sampler, the min-RTT filter and `bbr_main()` on
    /// the kept fields in place.
    #[inline(never)]
    fn ack_in_place<R: RandomSource>(
        &mut self,
        p: &BbrParams,
        now: Instant,
        ack: &mut BbrAck<'_>,
        rand: &mut R,
        rs: &mut RateSample,
    ) {
        let (bbr, mut sk) = self.view(p, now, (&ack.flight, &ack.srtt_us));
        // tcp_ack() runs these two after the segments' steps, which read nothing they write.
        sk.ack_update_rtt_min(ack.rtt_us, ack.ack_maybe_delayed, rs);
        sk.s.lost = sk.s.lost.wrapping_add(ack.newly_lost);
        let count = u32::try_from(ack.delivered.len()).unwrap_or(u32::MAX);
        // What tcp_ack() passes as `delivered` (tp->delivered - prior): this count.
        let delivered = ack.delivered_count.max(count);
        sk.s.delivered = sk.s.delivered.wrapping_add(delivered);
        tcp_rate_skbs_delivered(&mut sk, ack.delivered, rs);
        tcp_rate_gen(&mut sk, delivered, ack.newly_lost, false, rs);
        // Read by bbr_main() alone: set last, so that it is not held through the sampler.
        rs.prior_in_flight = ack.prior_flight.in_flight();
        bbr_main(bbr, &mut sk, p, rs, rand);
    }

    /// A retransmission timeout, after the stack marked every outstanding segment lost
    /// (`newly_lost` of them newly) into `flight`: `tcp_enter_loss()`. `timeouts` counts
    /// the earlier timeouts since the last forward progress (`icsk_retransmits`).
    #[expect(
        clippy::too_many_arguments,
        reason = "the stack's view of the timeout, one argument each"
    )]
    pub fn on_rto<R: RandomSource>(
        &mut self,
        p: &BbrParams,
        now: Instant,
        flight: Flight,
        newly_lost: u32,
        snd_una: u32,
        snd_nxt: u32,
        timeouts: u32,
        rand: &mut R,
    ) {
        let mut sk = self.sock(p, now, flight);
        sk.lost = sk.lost.wrapping_add(newly_lost);
        sk.snd_una = snd_una;
        sk.snd_nxt = snd_nxt;
        sk.icsk_retransmits = timeouts.min(u32::from(u8::MAX)) as u8;
        tcp_enter_loss::<BbrOps, R>(&mut self.bbr, &mut sk, p, rand);
        self.store(&sk);
    }

    /// `snd_cwnd`, segments.
    pub const fn cwnd(&self) -> u32 {
        self.sock.snd_cwnd
    }

    /// `snd_ssthresh`, segments (BBR sets it only on entering DRAIN).
    pub const fn ssthresh(&self) -> u32 {
        self.sock.snd_ssthresh
    }

    /// `sk_pacing_rate`, bytes per second.
    pub const fn pacing_rate(&self) -> u64 {
        self.sock.sk_pacing_rate
    }

    /// `tcp_wstamp_ns`: the earliest departure of the next segment, ns.
    pub const fn next_departure_ns(&self) -> u64 {
        self.sock.tcp_wstamp_ns
    }

    /// The CA state (Open, Recovery or Loss).
    pub const fn ca_state(&self) -> CaState {
        self.sock.icsk_ca_state
    }

    /// BBR's mode.
    pub const fn mode(&self) -> BbrMode {
        self.bbr.mode
    }

    /// `bbr_bw()`: the bandwidth estimate, packets/µs << 24.
    pub const fn bw(&self) -> u32 {
        bbr_bw(&self.bbr)
    }

    /// `tcp_min_rtt()`: the socket's 300 s min RTT, µs (`u32::MAX` before a sample).
    pub const fn tcp_min_rtt(&self) -> u32 {
        self.sock.rtt_min.get()
    }

    /// `bbr_tso_segs_goal()`: segments per TSO/GSO burst at the current pacing rate.
    pub fn tso_segs_goal(&self, p: &BbrParams) -> u32 {
        let sk = self.sock.pacing_sock(&p.config().sock_settings());
        bbr_tso_segs_goal(&sk, p)
    }

    /// BBR's private state (`struct bbr`), for inspection.
    pub const fn bbr(&self) -> &BbrState {
        &self.bbr
    }

    /// Socket counters a diagnostic may want: `(delivered, lost, app_limited)`.
    pub const fn delivery_counters(&self) -> (u32, u32, u32) {
        (self.sock.delivered, self.sock.lost, self.sock.app_limited)
    }

    /// The sampler's socket stamps `(first_tx_mstamp, delivered_mstamp)`, µs.
    pub const fn sampler_stamps(&self) -> (u64, u64) {
        (self.sock.first_tx_mstamp, self.sock.delivered_mstamp)
    }

    /// Recovery bookkeeping `(high_seq, undo_marker, prior_ssthresh)`.
    pub const fn recovery(&self) -> (u32, bool, u32) {
        self.sock.recovery()
    }

    /// Whether BBR is in PROBE_RTT (the stack may want to know why cwnd is 4).
    pub fn in_probe_rtt(&self) -> bool {
        self.bbr.mode == BbrMode::ProbeRtt
    }
}

#[cfg(test)]
mod tests;
