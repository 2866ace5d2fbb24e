//! [`PacedFlow`]: a controller together with its send path, fed once per event.

use core::borrow::{Borrow, BorrowMut};

use crate::controller::{
    AckEvent, AckedPacket, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, TxSnapshot,
    WindowUnit,
};
use crate::pacing::bandwidth::Rate;
use crate::pacing::send_config::SendPathParams;
use crate::pacing::send_path::{SendContext, SendPath, SendPathState, SendVerdict};
use crate::time::Instant;

/// What the stack knows about the packet it wants to send next; `Default` is a new-data
/// packet with more than one packet unacknowledged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct NextPacket {
    /// The packet is a retransmission (TSQ's budget doubles for it).
    pub retransmit: bool,
    /// At most one packet is sent and unacknowledged: such a flow always passes TSQ.
    pub rtx_queue_at_most_one: bool,
}

/// A flow that paces: any [`CongestionController`] and its [`SendPath`] (EDT pacer, TCP
/// Small Queues, TSO autosizing, windowed minimum RTT) in one object, so that one
/// `on_sent` and one `on_ack` feed both and each RTT sample is given once.
///
/// - [`poll`](PacedFlow::poll) before sending: a burst size, or when to ask again;
/// - [`on_sent`](CongestionController::on_sent) after sending: the controller's
///   bookkeeping, the burst's departure time and its TSQ charge;
///   [`last_departure_ns`](PacedFlow::last_departure_ns) is that departure, for the
///   packet's timestamp (fq's `skb->tstamp`, `SO_TXTIME`);
/// - [`on_tx_completion`](PacedFlow::on_tx_completion) when the NIC reports a packet
///   sent;
/// - [`next_departure`](PacedFlow::next_departure) for a stack that asks for the
///   earliest departure time before each packet (s2n-quic's model).
///
/// Other events go to the controller as they are; [`send_quantum_bytes`] uses the send
/// path's minimum RTT and GSO limits. `P` (the [`SendPathParams`] handle) and `S` (where
/// the state lives) are [`SendPath`]'s. A stack with many flows keeps bare states in a
/// table and binds them per event, copying nothing:
///
/// ```
/// use congestion::linux::{self, LinuxFlowState, LinuxParams};
/// use congestion::pacing::{PacedFlow, SendPath, SendPathConfig, SendPathState};
/// use congestion::{AckEvent, CongestionController, Duration, Instant};
///
/// struct Slot {
///     cc: LinuxFlowState,
///     path: SendPathState,
/// }
/// let cc_params = LinuxParams::new(linux::CubicConfig::new())?;
/// let path_params = SendPathConfig::new().validate()?;
/// let mut table: Vec<Slot> = (0..3)
///     .map(|_| Slot {
///         cc: LinuxFlowState::new(&cc_params, Instant::ZERO),
///         path: SendPathState::new(),
///     })
///     .collect();
///
/// let slot = &mut table[1];
/// let mut flow = PacedFlow::from_parts(
///     linux::Cubic::bind(&mut slot.cc, &cc_params),
///     SendPath::bind(&mut slot.path, &path_params),
/// );
/// flow.on_ack(
///     Instant::from_micros(20_000),
///     &AckEvent::new(0, 0, Some(Duration::from_millis(20))),
/// );
/// assert_eq!(table[1].path.min_rtt_us(), 20_000); // written in the table itself
/// # Ok::<(), congestion::ConfigError>(())
/// ```
///
/// The [crate's front page](crate) sends a window through one (TCP quick start).
///
/// [`send_quantum_bytes`]: CongestionController::send_quantum_bytes
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PacedFlow<C, P = SendPathParams, S = SendPathState> {
    cc: C,
    path: SendPath<P, S>,
}

/// Saturating `u64` to `u32`.
const fn sat_u32(v: u64) -> u32 {
    if v > u32::MAX as u64 {
        u32::MAX
    } else {
        v as u32
    }
}

impl<C: CongestionController> PacedFlow<C> {
    /// The controller `cc` with a fresh send path that owns its settings `path`.
    pub const fn new(cc: C, path: SendPathParams) -> Self {
        PacedFlow {
            cc,
            path: SendPath::new(path),
        }
    }
}

impl<C: CongestionController, P: Borrow<SendPathParams>> PacedFlow<C, P> {
    /// The controller `cc` with a fresh send path that reaches its settings through
    /// `path` (`&'static SendPathParams`, an `Arc`, a handle of your own).
    pub const fn with_params(cc: C, path: P) -> Self {
        PacedFlow {
            cc,
            path: SendPath::with_params(path),
        }
    }
}

impl<C: CongestionController, P: Borrow<SendPathParams>, S: BorrowMut<SendPathState>>
    PacedFlow<C, P, S>
{
    /// The controller `cc` with the send path `path` (its state and settings as they
    /// are; the state owned, or bound where the caller keeps it, [`SendPath::bind`]).
    pub const fn from_parts(cc: C, path: SendPath<P, S>) -> Self {
        PacedFlow { cc, path }
    }

    /// The controller and the send path.
    pub fn into_parts(self) -> (C, SendPath<P, S>) {
        (self.cc, self.path)
    }

    /// The controller.
    pub const fn controller(&self) -> &C {
        &self.cc
    }

    /// The controller, mutably (for its own setters; events sent to it directly do
    /// not reach the send path).
    pub fn controller_mut(&mut self) -> &mut C {
        &mut self.cc
    }

    /// The send path.
    pub const fn send_path(&self) -> &SendPath<P, S> {
        &self.path
    }

    /// The send path, mutably (for its settings).
    pub fn send_path_mut(&mut self) -> &mut SendPath<P, S> {
        &mut self.path
    }

    fn mss(&self) -> u32 {
        sat_u32(self.cc.mss_bytes())
    }

    /// May the flow send now, and how many segments? [`SendPath::poll`] with the
    /// controller's window, flight, MSS and pacing rate.
    pub fn poll(&mut self, now: Instant, next: &NextPacket) -> SendVerdict {
        let ctx = SendContext {
            now,
            in_flight: self.cc.in_flight(),
            mss: self.mss(),
            pacing_rate: self.cc.pacing_rate(),
            retransmit: next.retransmit,
            rtx_queue_at_most_one: next.rtx_queue_at_most_one,
        };
        self.path.poll(&self.cc, &ctx)
    }

    /// The departure time of the last send, ns on the caller's clock (µs × 1000).
    pub fn last_departure_ns(&self) -> u64 {
        self.path.last_departure_ns()
    }

    /// When the next packet may leave, if the flow paces itself
    /// (`PacingStatus::Needed`) and that time lies after `now`; `None`: it may leave
    /// now. Rounded up to the µs, so a timer set for it never fires early.
    pub fn next_departure(&self, now: Instant) -> Option<Instant> {
        self.path.next_departure(now)
    }

    /// TX completion of a packet of `len_bytes` sent earlier. True when it reopened the
    /// budget of a throttled flow: poll again.
    pub fn on_tx_completion(&mut self, len_bytes: u32) -> bool {
        self.path.on_tx_completion(len_bytes)
    }

    /// A send added `burst` to the flight: the pacer stamps it and TSQ charges it at
    /// `rate`, the controller's pacing rate before the send.
    fn stamp_burst(&mut self, now: Instant, burst: u64, rate: Rate) {
        if burst == 0 {
            return;
        }
        let mss = u64::from(self.mss().max(1));
        let (len_bytes, segments) = match self.cc.unit() {
            WindowUnit::Segments => (burst.saturating_mul(mss), burst),
            WindowUnit::Bytes => (burst, burst.div_ceil(mss)),
        };
        // The departure is kept in the send path's line (last_departure_ns).
        self.path
            .on_send(now, sat_u32(len_bytes), sat_u32(segments), rate);
    }
}

impl<C: CongestionController, P: Borrow<SendPathParams>, S: BorrowMut<SendPathState>>
    CongestionController for PacedFlow<C, P, S>
{
    fn unit(&self) -> WindowUnit {
        self.cc.unit()
    }

    /// The controller's send, then the burst (what the send added to the flight) is
    /// stamped by the pacer and charged to TSQ at the rate in force before it.
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        let before = self.cc.in_flight();
        let rate: Rate = self.cc.pacing_rate();
        self.cc.on_sent(now, sent);
        self.stamp_burst(now, sent.in_flight_after.saturating_sub(before), rate);
    }

    /// As [`on_sent`](CongestionController::on_sent), returning the controller's
    /// per-packet snapshot.
    fn on_packet_sent(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
        let before = self.cc.in_flight();
        let rate: Rate = self.cc.pacing_rate();
        let snapshot = self.cc.on_packet_sent(now, sent);
        self.stamp_burst(now, sent.in_flight_after.saturating_sub(before), rate);
        snapshot
    }

    /// The RTT sample feeds the send path's minimum-RTT filter and the controller,
    /// which samples the delivery rate from `newest`.
    fn on_ack_sampled(&mut self, now: Instant, ack: &AckEvent, newest: &AckedPacket) {
        if let Some(rtt) = ack.rtt {
            self.path.on_rtt_sample(now, rtt);
        }
        self.cc.on_ack_sampled(now, ack, newest);
    }

    fn on_packet_lost(&mut self, now: Instant, loss: &LossEvent, lost: &TxSnapshot) {
        self.cc.on_packet_lost(now, loss, lost);
    }

    fn uses_packet_snapshots(&self) -> bool {
        self.cc.uses_packet_snapshots()
    }

    fn min_tso_segs(&self) -> Option<u32> {
        self.cc.min_tso_segs()
    }

    /// The RTT sample feeds the send path's minimum-RTT filter and the controller.
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        if let Some(rtt) = ack.rtt {
            self.path.on_rtt_sample(now, rtt);
        }
        self.cc.on_ack(now, ack);
    }

    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.cc.on_loss(now, loss);
    }

    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        self.cc.on_ecn(now, ecn);
    }

    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.cc.on_retransmission_timeout(now);
    }

    fn on_discarded(&mut self, now: Instant, amount: u64) {
        self.cc.on_discarded(now, amount);
    }

    fn on_spurious_congestion(&mut self, now: Instant) {
        self.cc.on_spurious_congestion(now);
    }

    fn on_transmit_start(&mut self, now: Instant) {
        self.cc.on_transmit_start(now);
    }

    fn cwnd(&self) -> u64 {
        self.cc.cwnd()
    }

    fn ssthresh(&self) -> Option<u64> {
        self.cc.ssthresh()
    }

    fn phase(&self) -> Phase {
        self.cc.phase()
    }

    fn in_flight(&self) -> u64 {
        self.cc.in_flight()
    }

    fn pacing_rate(&self) -> Rate {
        self.cc.pacing_rate()
    }

    fn mss_bytes(&self) -> u64 {
        self.cc.mss_bytes()
    }

    /// `tcp_tso_segs` of the send path (its windowed minimum RTT and GSO limits) on the
    /// controller's pacing rate, with the controller's own `min_tso_segs` if it has one
    /// (BBR), in bytes.
    fn send_quantum_bytes(&self) -> u64 {
        let mss = self.mss();
        let floor = self.cc.min_tso_segs();
        let segs = self
            .path
            .tso_segs_with_floor(self.cc.pacing_rate(), mss, floor);
        u64::from(segs) * u64::from(mss)
    }
}
