//! [`Bbr3`]: a whole Linux-mode BBRv3 flow a TCP stack drives: the socket glue, the
//! v3 delivery-rate sampler and BBRv3, in 256 bytes.

use super::{
    Bbr, Bbr3Config, Bbr3Params, FastPath, Mode, PacedAt, Sample, TcpBbr3, bbr_main,
    bbr_main_paced, bbr_tso_segs_goal,
};
use crate::Instant;
use crate::linux::CaState;
use crate::linux::bbr::flow_sock::{FlowSock, set_flight};
use crate::linux::bbr::sock_view::{EventSock, FlowSockView, StackFacts};
use crate::linux::bbr::{
    DeliveredSegment, Flight, Sent, tcp_ack_update_rtt_min, tcp_rate_skbs_delivered,
};
use crate::linux::tcp::rate::{
    rate_skb_sent_v3, tcp_rate_check_app_limited, tcp_rate_gen, tcp_rate_skb_sent_v3,
};
use crate::linux::tcp::seq::before;
use crate::linux::tcp::{
    RandomSource, RateSample, TcpCongestionOps, TcpSock, TxSnapshot, ecn_flags, tcp_enter_cwr,
    tcp_enter_loss, tcp_enter_recovery, tcp_set_ca_state, tcp_transmit_skb, tcp_try_undo,
};

/// What an ACK did, as the stack's scoreboard saw it.
#[derive(Debug, PartialEq, Eq)]
pub struct Bbr3Ack<'a> {
    /// `snd_una` after the ACK.
    pub snd_una: u32,
    /// `snd_nxt`: the next new segment's sequence number.
    pub snd_nxt: u32,
    /// The segments newly delivered (SACKed ones first, each group in ascending
    /// sequence); their snapshots are spent here: store back those of SACKed ones.
    pub delivered: &'a mut [DeliveredSegment],
    /// How many segments were newly delivered, at least `delivered.len()`.
    pub delivered_count: u32,
    /// The snapshots of the segments this ACK newly marked lost, in marking order
    /// (`tcp_mark_skb_lost()` of a segment not yet lost, or of a retransmission lost
    /// again).
    pub newly_lost: &'a [TxSnapshot],
    /// The ACK's RTT sample, µs (`ca_rtt_us`), if it gave one.
    pub rtt_us: Option<u32>,
    /// The stack's smoothed RTT, µs (0: none yet); BBR reads it until its pacing rate
    /// has been seeded from a real RTT.
    pub srtt_us: u32,
    /// The ACK may have been delayed by the receiver (`FLAG_ACK_MAYBE_DELAYED`).
    pub ack_maybe_delayed: bool,
    /// The ACK carried ECN-Echo (ignored unless the config negotiated ECN).
    pub ece: bool,
    /// Less than one segment of unsent data and nothing in the host's queues: the
    /// first two tests of `tcp_rate_check_app_limited()`, which v3 runs on every ACK.
    pub nothing_queued: bool,
    /// The last send round was limited by cwnd (`tp->is_cwnd_limited` of
    /// `tcp_cwnd_validate()`).
    pub is_cwnd_limited: bool,
    /// The scoreboard counters before the ACK.
    pub prior_flight: Flight,
    /// The scoreboard counters after it (tags, cumulative ACK, marks).
    pub flight: Flight,
    /// The stack found the last reduction spurious (DSACKs, timestamps): undo it.
    pub undo: bool,
}

/// A retransmission timeout, as the stack saw it.
#[derive(Debug, PartialEq, Eq)]
pub struct Bbr3Rto<'a> {
    /// The scoreboard counters before the stack marked the outstanding segments lost.
    pub prior_flight: Flight,
    /// The counters after marking them.
    pub flight: Flight,
    /// The snapshots of the segments newly marked lost, in marking order.
    pub newly_lost: &'a [TxSnapshot],
    /// `snd_una`.
    pub snd_una: u32,
    /// `snd_nxt`.
    pub snd_nxt: u32,
    /// Earlier timeouts since the last forward progress (`icsk_retransmits`).
    pub timeouts: u32,
    /// As [`Bbr3Ack::nothing_queued`]: the timer checks for an app-limited bubble first.
    pub nothing_queued: bool,
}

/// The socket fields a flow keeps between events (104 bytes): v1's, and the CE
/// count, srtt and ECN flags v3 also reads; and what the pacing rate was computed
/// from, which only the in-place ACK keeps (every other event's [`Bbr3::store`]
/// clears it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Bbr3Sock {
    core: FlowSock,
    delivered_ce: u32,
    srtt_us: u32,
    ecn_flags: u8,
    paced: PacedAt,
}

/// A Linux-mode BBRv3 flow: Google's v3 `tcp_bbr.c` with the socket glue and the v3
/// delivery-rate sampler, driven by a TCP stack. Segments, not bytes. Bit-exact with the kernel
/// on the reference traces.
///
/// # Call order
///
/// It follows [`crate::linux::Bbr`] (BBR v1) and shares its per-segment types
/// ([`Flight`], [`Sent`], [`DeliveredSegment`]): the stack keeps its own scoreboard and
/// tells the flow what happened; the flow keeps the socket fields BBRv3 and the sampler
/// need. What v3 adds to the call order:
///
/// 1. `Bbr3::new(&params, now, rand)` when the connection is established.
/// 2. For every (re)transmitted segment, [`Bbr3::on_send`] with the flight *before* it
///    is counted; keep the returned [`Sent`] with the segment. v3's snapshot also
///    records the flight and `tp->lost` at the send.
/// 3. When the application writes into an empty queue, [`Bbr3::on_app_limited`].
/// 4. For every ACK, update the scoreboard first, then [`Bbr3::on_ack`] with the
///    newly delivered segments (SACKed ones first, each group in ascending sequence)
///    **and the snapshots of the segments it newly marked lost**, in marking order:
///    each lost segment reaches BBR (`skb_marked_lost`), which may cut `inflight_hi`.
///    Say whether the ACK carried ECN-Echo, whether the host has nothing queued (v3
///    checks for an app-limited bubble on every ACK) and whether the last send round
///    was cwnd-limited (`tcp_cwnd_validate()`: BBRv3's PROBE_UP reads it).
/// 5. On a retransmission timeout, mark every outstanding segment lost, then
///    [`Bbr3::on_rto`] with the snapshots of those newly marked.
///
/// Read [`Bbr3::cwnd`] and [`Bbr3::pacing_rate`] after each event. Randomness (two
/// draws at each start of PROBE_DOWN) comes from the `rand` of each call.
///
/// Recovery follows the model of `tests/data/linux-bbr3` (the traces this flow
/// is tested against): Recovery starts when `lost_out > 0` (no Disorder state), CWR on
/// an ECE ACK in Open, each ends when `snd_una` passes the recovery point (CWR only
/// strictly past it); undo only when the stack says so ([`Bbr3Ack::undo`]). An ACK
/// that arrives with nothing outstanding (`packets_out` 0 before it) only runs the
/// app-limited check, as the kernel's `no_queue` path skips congestion control.
///
/// An ACK is [`Bbr`](crate::linux::Bbr)'s example with [`Bbr3Ack`]'s extra fields.
///
/// ```
/// use congestion::linux::bbr::Flight;
/// use congestion::linux::bbr3::Bbr3Rto;
/// use congestion::linux::tcp::ReplayedRandom;
/// use congestion::linux::{Bbr3, Bbr3Config, CaState};
/// use congestion::{ConfigError, Instant};
///
/// let mut config = Bbr3Config::new();
/// (config.ecn, config.ecn_low) = (true, true); // an L4S path: CE marks count
/// let p = config.validate()?; // once: every flow borrows it
/// let mut rand = ReplayedRandom::<4>::new(); // or the stack's generator
/// let mut flow = Bbr3::new(&p, Instant::ZERO, &mut rand);
/// let kept = [flow.on_send(&p, Instant::ZERO, Flight::default(), &mut rand).snapshot];
/// // The timer fires: the stack marks the segment lost and hands its snapshot back.
/// let flight = Flight { packets_out: 1, ..Flight::default() };
/// let rto = Bbr3Rto { prior_flight: flight, flight: Flight { lost_out: 1, ..flight },
///     newly_lost: &kept, snd_una: 0, snd_nxt: 1, timeouts: 0, nothing_queued: false };
/// flow.on_rto(&p, Instant::from_micros(1_000_000), &rto, &mut rand);
/// assert_eq!((flow.cwnd(), flow.ca_state()), (1, CaState::Loss));
/// # Ok::<(), ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bbr3 {
    bbr: Bbr,
    sock: Bbr3Sock,
}

const _: () = assert!(core::mem::size_of::<Bbr3Sock>() <= 104);
const _: () = assert!(core::mem::size_of::<Bbr3>() <= 256);

impl Bbr3 {
    /// A flow whose connection is established at `now`: `bbr_init()` on a fresh socket
    /// (cwnd `init_cwnd`, srtt and `tcp_min_rtt()` from `initial_rtt_us`). BBRv3 draws
    /// no random number here; `rand` is for symmetry with the other events.
    pub fn new<R: RandomSource>(p: &Bbr3Params, now: Instant, rand: &mut R) -> Self {
        let c = p.config();
        let mut sk = c.sock_settings().fresh_sock(now);
        if c.ecn {
            sk.ecn_flags |= ecn_flags::TCP_ECN_OK;
        }
        if c.ecn_low {
            sk.ecn_flags |= ecn_flags::TCP_ECN_LOW;
        }
        let mut flow = Bbr3 {
            bbr: Bbr::default(),
            sock: Bbr3Sock::default(),
        };
        TcpBbr3::init(&mut flow.bbr, &mut sk, p, rand);
        flow.store(&sk);
        flow
    }

    /// The kernel socket this flow stands for at `now`, with the stack's counters.
    fn sock(&self, p: &Bbr3Params, now: Instant, flight: Flight) -> TcpSock {
        let s = &self.sock;
        let mut sk = s.core.load(&p.config().sock_settings(), now, flight);
        sk.delivered_ce = s.delivered_ce;
        sk.srtt_us = s.srtt_us;
        sk.ecn_flags = s.ecn_flags;
        sk
    }

    /// Keeps what the next event needs.
    fn store(&mut self, sk: &TcpSock) {
        self.sock = Bbr3Sock {
            core: FlowSock::save(sk),
            delivered_ce: sk.delivered_ce,
            srtt_us: sk.srtt_us,
            ecn_flags: sk.ecn_flags,
            // The whole socket may have set a pacing rate of its own.
            paced: PacedAt::NONE,
        };
    }

    /// The socket at `now` over the kept fields in place (the common events' path:
    /// no socket is built or written back).
    fn view<'a, F: StackFacts>(
        &'a mut self,
        p: &'a Bbr3Params,
        now: Instant,
        flight: F,
        is_cwnd_limited: bool,
    ) -> (
        &'a mut Bbr,
        FlowSockView<'a, Bbr3Config, F>,
        &'a mut PacedAt,
    ) {
        let s = &mut self.sock;
        let e = EventSock {
            now_us: now.as_micros(),
            jiffies: now.jiffies32(),
            flight,
            srtt_us: s.srtt_us,
            delivered_ce: s.delivered_ce,
            ecn_flags: s.ecn_flags,
            is_cwnd_limited,
        };
        let sk = FlowSockView {
            s: &mut s.core,
            e,
            c: p.config(),
        };
        (&mut self.bbr, sk, &mut s.paced)
    }

    /// A segment (new or retransmitted) is handed to the wire at `now`, with `flight`
    /// the counters before it is counted: its departure time, a transmit-start event if
    /// nothing was in flight (which may end PROBE_RTT and draw), the pacing step, and
    /// v3's snapshot. The stack then counts it (`packets_out` or `retrans_out`).
    pub fn on_send<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        flight: Flight,
        rand: &mut R,
    ) -> Sent {
        if flight.in_flight() != 0 {
            // No transmit-start event: the kept fields in place.
            let (_, mut sk, _) = self.view(p, now, flight, false);
            let departure_ns = sk.transmit();
            let in_flight = flight.in_flight().wrapping_add(1);
            let snapshot = rate_skb_sent_v3(&mut sk, departure_ns / 1000, in_flight);
            return Sent {
                departure_ns,
                snapshot,
            };
        }
        self.send_with_start(p, now, flight, rand)
    }

    /// [`Self::on_send`] with nothing in flight: the transmit-start event on a whole
    /// [`TcpSock`]. Kept out of line so that the common send's frame stays small.
    #[inline(never)]
    #[cold]
    fn send_with_start<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        flight: Flight,
        rand: &mut R,
    ) -> Sent {
        let mut sk = self.sock(p, now, flight);
        let departure_ns = tcp_transmit_skb::<TcpBbr3, R>(&mut self.bbr, &mut sk, p, rand);
        let snapshot = tcp_rate_skb_sent_v3(&mut sk, departure_ns / 1000, 1);
        self.store(&sk);
        Sent {
            departure_ns,
            snapshot,
        }
    }

    /// The application wrote into an empty queue (`tcp_sendmsg()`) and the host queues
    /// are empty (`host_queues_empty`): `tcp_rate_check_app_limited()`.
    pub fn on_app_limited(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        flight: Flight,
        host_queues_empty: bool,
    ) {
        let mut sk = self.sock(p, now, flight);
        tcp_rate_check_app_limited(&mut sk, host_queues_empty);
        self.store(&sk);
    }

    /// An ACK, in v3 `tcp_ack()`'s order: the app-limited check, the sampler's step on
    /// each delivered segment, the RTT filter, ECE, undo, the end of a reduction, BBR's
    /// `skb_marked_lost` for each newly lost segment, the start of Recovery or CWR, the
    /// rate sample and `bbr_main()`. Returns the sample and the fast path's decision.
    #[inline]
    pub fn on_ack<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        ack: &mut Bbr3Ack<'_>,
        rand: &mut R,
    ) -> (RateSample, FastPath) {
        // One tuple on both paths, built in the caller's place: no copy.
        let mut out = (RateSample::default(), FastPath::NotTaken);
        out.1 = if ack.prior_flight.packets_out != 0 && !self.changes_ca_state(ack) {
            self.ack_in_place(p, now, ack, rand, &mut out.0)
        } else {
            self.ack_with_ca_state(p, now, ack, rand, &mut out.0)
        };
        out
    }

    /// [`Self::on_ack`] with nothing outstanding before it or with CA-state work (see
    /// [`Self::changes_ca_state`]): the kernel's glue on a whole [`TcpSock`]. Kept out
    /// of line so that the common ACK's frame stays small.
    #[inline(never)]
    #[cold]
    fn ack_with_ca_state<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        ack: &mut Bbr3Ack<'_>,
        rand: &mut R,
        rs: &mut RateSample,
    ) -> FastPath {
        let mut sk = self.sock(p, now, ack.prior_flight);
        let prior_delivered = sk.delivered;
        let prior_lost = sk.lost;
        let prior_in_flight = sk.packets_in_flight();
        // BBRv3 net/ipv4/tcp_input.c tcp_ack(): an app-limited bubble, checked on every ACK
        tcp_rate_check_app_limited(&mut sk, ack.nothing_queued);
        // Linux net/ipv4/tcp_input.c tcp_ack(): no_queue skips congestion control
        if ack.prior_flight.packets_out == 0 {
            self.store(&sk);
            return FastPath::NotTaken;
        }
        rs.prior_in_flight = prior_in_flight;
        set_flight(&mut sk, ack.flight);
        sk.srtt_us = ack.srtt_us.wrapping_shl(3);
        let ece = ack.ece && sk.ecn_flags & ecn_flags::TCP_ECN_OK != 0;

        let count = u32::try_from(ack.delivered.len()).unwrap_or(u32::MAX);
        let newly_delivered = ack.delivered_count.max(count);
        sk.delivered = sk.delivered.wrapping_add(newly_delivered);
        if ece {
            sk.delivered_ce = sk.delivered_ce.wrapping_add(newly_delivered);
        }
        tcp_rate_skbs_delivered(&mut sk, ack.delivered, rs);
        sk.snd_una = ack.snd_una;
        sk.snd_nxt = ack.snd_nxt;
        tcp_ack_update_rtt_min(&mut sk, ack.rtt_us, ack.ack_maybe_delayed, rs);
        rs.is_ece = ece;

        self.fastretrans_alert(p, &mut sk, ack, ece, rand);

        let delivered = sk.delivered.wrapping_sub(prior_delivered);
        let lost = sk.lost.wrapping_sub(prior_lost);
        sk.is_cwnd_limited = ack.is_cwnd_limited;
        tcp_rate_gen(&mut sk, delivered, lost, false, rs);
        let fast_path = bbr_main(
            &mut self.bbr,
            &mut sk,
            p,
            &Sample::from_rate_sample(rs),
            rand,
        );
        self.store(&sk);
        fast_path
    }

    /// Whether `tcp_fastretrans_alert()` has work on this ACK: ECE (with ECN on), an
    /// undo, the end of a reduction, newly lost segments or the start of Recovery.
    /// Otherwise [`Self::ack_in_place`] runs the ACK on the kept fields.
    /// Tested in that order, cheapest first (the answer is the same in any order).
    fn changes_ca_state(&self, ack: &Bbr3Ack<'_>) -> bool {
        let s = &self.sock;
        if ack.undo || !ack.newly_lost.is_empty() {
            return true;
        }
        if ack.ece && s.ecn_flags & ecn_flags::TCP_ECN_OK != 0 {
            return true;
        }
        let state = s.core.icsk_ca_state;
        if state == CaState::Open {
            // No reduction to end; Recovery starts with anything marked lost.
            return ack.flight.lost_out > 0;
        }
        let (una, high) = (ack.snd_una, s.core.high_seq);
        let reduction_over = match state {
            CaState::Recovery | CaState::Loss => !before(una, high),
            CaState::Cwr => !before(una, high) && una != high,
            _ => false,
        };
        let starts_recovery = (state as u8) < (CaState::Recovery as u8) && ack.flight.lost_out > 0;
        reduction_over || starts_recovery
    }

    /// [`Self::on_ack`] with something outstanding and no CA-state work (see
    /// [`Self::changes_ca_state`]): the app-limited check, the sampler, the min-RTT
    /// filter and `bbr_main()`, in the same order, on the kept fields in place.
    #[inline(never)]
    fn ack_in_place<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        ack: &mut Bbr3Ack<'_>,
        rand: &mut R,
        rs: &mut RateSample,
    ) -> FastPath {
        rs.prior_in_flight = ack.prior_flight.in_flight();
        // No ECE counts here (`changes_ca_state`): written where the model sees it.
        rs.is_ece = false;
        self.sock.srtt_us = ack.srtt_us.wrapping_shl(3);
        // Borrowed (as v1's): loaded only where read.
        let f = (&ack.prior_flight, &ack.srtt_us);
        let (bbr, mut sk, paced) = self.view(p, now, f, ack.is_cwnd_limited);
        let prior_delivered = sk.s.delivered;
        // BBRv3 net/ipv4/tcp_input.c tcp_ack(): an app-limited bubble, checked on every ACK
        sk.check_app_limited(ack.nothing_queued);
        sk.e.flight = (&ack.flight, &ack.srtt_us);
        let count = u32::try_from(ack.delivered.len()).unwrap_or(u32::MAX);
        sk.s.delivered = prior_delivered.wrapping_add(ack.delivered_count.max(count));
        tcp_rate_skbs_delivered(&mut sk, ack.delivered, rs);
        sk.ack_update_rtt_min(ack.rtt_us, ack.ack_maybe_delayed, rs);
        let delivered = sk.s.delivered.wrapping_sub(prior_delivered);
        tcp_rate_gen(&mut sk, delivered, 0, false, rs);
        // The view's mss and pacing cap are the config's, as `paced` needs.
        bbr_main_paced(bbr, &mut sk, p, &Sample::from_rate_sample(rs), rand, paced)
    }

    /// The model's `tcp_fastretrans_alert()`: ECE forbids an undo, the stack's undo,
    /// the end of Recovery/Loss/CWR, each lost segment through BBR's hook, and the
    /// start of Recovery (or of CWR on ECE).
    fn fastretrans_alert<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        sk: &mut TcpSock,
        ack: &Bbr3Ack<'_>,
        ece: bool,
        rand: &mut R,
    ) {
        if ece {
            sk.prior_ssthresh = 0;
        }
        if ack.undo {
            tcp_try_undo::<TcpBbr3, R>(&mut self.bbr, sk, p, rand);
            // The stack's counters already reflect the cleared (and any new) marks.
            sk.lost_out = ack.flight.lost_out;
        }
        let (una, high) = (sk.snd_una, sk.high_seq);
        let reduction_over = match sk.icsk_ca_state {
            CaState::Recovery | CaState::Loss => !before(una, high),
            CaState::Cwr => !before(una, high) && una != high,
            _ => false,
        };
        if reduction_over {
            tcp_set_ca_state::<TcpBbr3, R>(&mut self.bbr, sk, p, CaState::Open, rand);
        }
        self.mark_lost(p, sk, ack.newly_lost, rand);
        let state = sk.icsk_ca_state as u8;
        if state < CaState::Recovery as u8 && sk.lost_out > 0 {
            tcp_enter_recovery::<TcpBbr3, R>(&mut self.bbr, sk, p, ece, rand);
        } else if ece && state < CaState::Cwr as u8 {
            tcp_enter_cwr::<TcpBbr3, R>(&mut self.bbr, sk, p, rand);
        }
    }

    /// `tcp_mark_skb_lost()`'s counter and `tcp_notify_skb_loss_event()` for each newly
    /// lost segment, in order.
    fn mark_lost<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        sk: &mut TcpSock,
        lost: &[TxSnapshot],
        rand: &mut R,
    ) {
        for tx in lost {
            sk.lost = sk.lost.wrapping_add(1);
            TcpBbr3::skb_marked_lost(&mut self.bbr, sk, p, tx, 1, rand);
        }
    }

    /// A retransmission timeout: the app-limited check, each newly lost segment through
    /// BBR's hook, then `tcp_enter_loss()`.
    pub fn on_rto<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        rto: &Bbr3Rto<'_>,
        rand: &mut R,
    ) {
        let mut sk = self.sock(p, now, rto.prior_flight);
        // BBRv3 net/ipv4/tcp_timer.c tcp_write_timer_handler(): app-limited check first
        tcp_rate_check_app_limited(&mut sk, rto.nothing_queued);
        set_flight(&mut sk, rto.flight);
        sk.snd_una = rto.snd_una;
        sk.snd_nxt = rto.snd_nxt;
        self.mark_lost(p, &mut sk, rto.newly_lost, rand);
        sk.icsk_retransmits = rto.timeouts.min(u32::from(u8::MAX)) as u8;
        tcp_enter_loss::<TcpBbr3, R>(&mut self.bbr, &mut sk, p, rand);
        self.store(&sk);
    }

    /// `snd_cwnd`, segments.
    pub const fn cwnd(&self) -> u32 {
        self.sock.core.snd_cwnd
    }

    /// `snd_ssthresh`, segments (BBR sets it only on leaving STARTUP).
    pub const fn ssthresh(&self) -> u32 {
        self.sock.core.snd_ssthresh
    }

    /// `sk_pacing_rate`, bytes per second.
    pub const fn pacing_rate(&self) -> u64 {
        self.sock.core.sk_pacing_rate
    }

    /// `tcp_wstamp_ns`: the earliest departure of the next segment, ns.
    pub const fn next_departure_ns(&self) -> u64 {
        self.sock.core.tcp_wstamp_ns
    }

    /// The CA state (Open, CWR, Recovery or Loss).
    pub const fn ca_state(&self) -> CaState {
        self.sock.core.icsk_ca_state
    }

    /// BBR's mode.
    pub const fn mode(&self) -> Mode {
        self.bbr.mode
    }

    /// `bbr_bw()`: the bandwidth estimate, packets/µs << 24.
    pub const fn bw(&self) -> u32 {
        self.bbr.bw()
    }

    /// `tcp_min_rtt()`: the socket's 300 s min RTT, µs (`u32::MAX` before a sample).
    pub const fn tcp_min_rtt(&self) -> u32 {
        self.sock.core.rtt_min.get()
    }

    /// `bbr_tso_segs_goal()`: segments per TSO/GSO burst at the current pacing rate.
    pub fn tso_segs_goal(&self, p: &Bbr3Params) -> u32 {
        let sk = self.sock.core.pacing_sock(&p.config().sock_settings());
        bbr_tso_segs_goal(&self.bbr, &sk, p)
    }

    /// BBR's private state (`struct bbr`), for inspection.
    pub const fn bbr(&self) -> &Bbr {
        &self.bbr
    }

    /// Socket counters a diagnostic may want: `(delivered, delivered_ce, lost,
    /// app_limited)`.
    pub const fn delivery_counters(&self) -> (u32, u32, u32, u32) {
        let (s, core) = (&self.sock, &self.sock.core);
        (core.delivered, s.delivered_ce, core.lost, core.app_limited)
    }

    /// The sampler's socket stamps `(first_tx_mstamp, delivered_mstamp)`, µs.
    pub const fn sampler_stamps(&self) -> (u64, u64) {
        (
            self.sock.core.first_tx_mstamp,
            self.sock.core.delivered_mstamp,
        )
    }

    /// Recovery bookkeeping `(high_seq, undo_marker, prior_ssthresh)`.
    pub const fn recovery(&self) -> (u32, bool, u32) {
        self.sock.core.recovery()
    }
}

#[cfg(test)]
mod tests;
