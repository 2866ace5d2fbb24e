//! [`Cubic`]: one flow's state with the way it reaches its shared parameters, the
//! type a stack drives through [`CongestionController`].

use core::borrow::{Borrow, BorrowMut};
use core::ops::Deref;

use crate::controller::{
    AckEvent, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, WindowUnit,
};
use crate::cubic::LinuxCubicParams;
use crate::error::ConfigError;
use crate::linux::flow::{LinuxFlowState, segments};
use crate::linux::flow_config::CubicConfig;
use crate::linux::params::LinuxParams;
use crate::linux::socket_config::LinuxSocketConfig;
use crate::linux::state::TCP_INFINITE_SSTHRESH;
use crate::observe::{ObservableController, Observer, ReductionCause};
use crate::pacing::{Rate, default_send_quantum_bytes};
use crate::time::Instant;

/// One flow in Linux mode: CUBIC + HyStart inside a model of the kernel's socket glue,
/// so that a stack that is not Linux gets exactly the kernel's window. Plain data: copy
/// it, store it in an array, put it in a kernel's private area.
///
/// `P` reaches the [`LinuxParams`], never copied, as [`rfc::Classic`](crate::rfc::Classic)'s
/// does (default: owned; or `&'static`, `Arc`, or a zero-sized handle such as
/// [`KernelDefaults`](crate::linux::KernelDefaults): then the flow is 128 bytes, two
/// cache lines). A stack that keeps the parameters can store the bare
/// [`LinuxFlowState`] and pass them per call.
///
/// Driven through [`CongestionController`] in segments; `largest_sent` is `snd_nxt` and
/// `largest_acked` the cumulative ACK, from
/// [`LinuxSocketConfig::iss`](crate::linux::LinuxSocketConfig::iss) on (see
/// [`SentEvent::largest_sent`](crate::SentEvent::largest_sent)).
///
/// ```
/// use congestion::{AckEvent, CongestionController, Duration, Instant, SentEvent};
/// use congestion::linux::{Cubic, CubicConfig};
///
/// let mut flow = Cubic::new(CubicConfig::new(), Instant::ZERO)?;
/// flow.on_sent(Instant::ZERO, &SentEvent::new(10, 10));
/// let ack = AckEvent { acked: 2, rtt: Some(Duration::from_millis(20)), ..AckEvent::default() };
/// flow.on_ack(Instant::from_micros(20_000), &ack);
/// assert_eq!(flow.cwnd(), 12);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
///
/// Hidden kernel-style calls in `u32` segments serve the trace replay, the C ABI and
/// firmware; stacks use the trait. [`LinuxFlowState`]'s accessors work through `Deref`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Cubic<
    P: Borrow<LinuxParams> = LinuxParams,
    S: BorrowMut<LinuxFlowState> = LinuxFlowState,
> {
    state: S,
    params: P,
}

impl Cubic {
    /// A new flow owning its parameters, initialised at `now` as the kernel's
    /// `tcp_init_congestion_control` would (CUBIC `init`, pacing rate). Nothing is in
    /// flight until the first `on_sent`. Refuses a configuration out of range
    /// ([`CubicConfig::validate`]).
    pub fn new(config: CubicConfig, now: Instant) -> Result<Self, ConfigError> {
        Ok(Cubic::with_params(LinuxParams::new(config)?, now))
    }
}

impl<P: Borrow<LinuxParams>> Cubic<P> {
    /// A new flow on parameters validated once ([`LinuxParams::new`]) and reached
    /// through `params`, initialised at `now`.
    pub fn with_params(params: P, now: Instant) -> Self {
        let state = LinuxFlowState::new(params.borrow(), now);
        Cubic { state, params }
    }
}

impl<'a> Cubic<&'a LinuxParams, &'a mut LinuxFlowState> {
    /// A flow kept as bare state (in a connection table, a C blob) with parameters kept
    /// elsewhere, bound for one call or a few: everything [`Cubic`] does, on `state`.
    ///
    /// ```
    /// use congestion::{CongestionController, Instant, SentEvent};
    /// use congestion::linux::{Cubic, LinuxFlowState, LinuxParams};
    ///
    /// let params = LinuxParams::KERNEL_DEFAULTS;
    /// let mut table = [LinuxFlowState::new(&params, Instant::ZERO); 4];
    /// Cubic::bind(&mut table[2], &params).on_sent(Instant::ZERO, &SentEvent::new(10, 10));
    /// assert_eq!(table[2].packets_out(), 10);
    /// ```
    pub fn bind(state: &'a mut LinuxFlowState, params: &'a LinuxParams) -> Self {
        Cubic { state, params }
    }
}

impl<P: Borrow<LinuxParams>, S: BorrowMut<LinuxFlowState>> Cubic<P, S> {
    /// Re-initialise the socket and CUBIC at `now`, keeping the parameters.
    pub fn init(&mut self, now: Instant) {
        self.state.borrow_mut().init(self.params.borrow(), now);
    }

    /// The flow's state, without its parameters.
    pub fn flow_state(&self) -> &LinuxFlowState {
        self.state.borrow()
    }

    /// The shared parameters in force.
    pub fn linux_params(&self) -> &LinuxParams {
        self.params.borrow()
    }

    /// The CUBIC parameters in force.
    pub fn params(&self) -> &LinuxCubicParams {
        self.params.borrow().cubic()
    }

    /// The socket settings in force.
    pub fn socket_config(&self) -> &LinuxSocketConfig {
        self.params.borrow().socket()
    }

    /// `sk_pacing_rate`, bytes per second, as the last event left it (the transmit step
    /// does not move it). The trait's [`pacing_rate`](CongestionController::pacing_rate)
    /// is the same value as a [`Rate`].
    pub fn sk_pacing_rate(&self) -> u64 {
        self.state.borrow().sk_pacing_rate(self.params.borrow())
    }

    /// Kernel-style transmit step ([`LinuxFlowState::transmit`]).
    #[doc(hidden)]
    #[inline]
    pub fn transmit(&mut self, now: Instant, in_flight: u32) {
        self.state.borrow_mut().transmit(now, in_flight);
    }

    /// Kernel-style ACK ([`LinuxFlowState::ack`]).
    #[doc(hidden)]
    #[inline(always)]
    pub fn ack(&mut self, now: Instant, acked: u32, rtt_us: Option<u32>) {
        self.state
            .borrow_mut()
            .ack(self.params.borrow(), now, acked, rtt_us);
    }

    /// Kernel-style fast-retransmit reduction ([`LinuxFlowState::loss`]).
    #[doc(hidden)]
    pub fn loss(&mut self, now: Instant) {
        self.state.borrow_mut().loss(self.params.borrow(), now);
    }

    /// Kernel-style ECN-CE reduction ([`LinuxFlowState::ecn`]).
    #[doc(hidden)]
    pub fn ecn(&mut self, now: Instant) {
        self.state.borrow_mut().ecn(self.params.borrow(), now);
    }

    /// Kernel-style RTO ([`LinuxFlowState::rto`]).
    #[doc(hidden)]
    pub fn rto(&mut self, now: Instant, retransmitted: u32) {
        self.state
            .borrow_mut()
            .rto(self.params.borrow(), now, retransmitted);
    }

    /// Kernel-style undo ([`LinuxFlowState::undo`]).
    #[doc(hidden)]
    pub fn undo(&mut self, now: Instant) {
        self.state.borrow_mut().undo(self.params.borrow(), now);
    }

    /// Kernel-style `CA_EVENT_TX_START` ([`LinuxFlowState::transmit_start`]).
    #[doc(hidden)]
    pub fn transmit_start(&mut self, now: Instant) {
        self.state.borrow_mut().transmit_start(now);
    }

    /// Kernel-style write of `lsndtime`, jiffies.
    #[doc(hidden)]
    pub fn set_last_send_jiffies(&mut self, jiffies: u32) {
        self.state.borrow_mut().set_last_send_jiffies(jiffies);
    }

    /// Kernel-style write of `snd_cwnd`; at least 1.
    #[doc(hidden)]
    pub fn set_cwnd(&mut self, cwnd: u32) {
        self.state.borrow_mut().set_cwnd(self.params.borrow(), cwnd);
    }

    /// Kernel-style write of `snd_ssthresh`; at least 1.
    #[doc(hidden)]
    pub fn set_ssthresh(&mut self, ssthresh: u32) {
        self.state
            .borrow_mut()
            .set_ssthresh(self.params.borrow(), ssthresh);
    }

    /// Kernel-style write of `snd_cwnd_clamp`; at least 1. Applied by the next ACK
    /// that runs `cong_avoid`, as the kernel applies it.
    #[doc(hidden)]
    pub fn set_clamp(&mut self, clamp: u32) {
        self.state.borrow_mut().set_clamp(clamp);
    }
}

impl<P: BorrowMut<LinuxParams>, S: BorrowMut<LinuxFlowState>> Cubic<P, S> {
    /// Replace the CUBIC parameters (as changing the kernel's module parameters would).
    /// Only for a flow that can write its parameters (owned, or `&mut`); shared ones
    /// change where they are kept, for every flow at once.
    pub fn set_params(&mut self, params: LinuxCubicParams) {
        self.state
            .borrow_mut()
            .freeze_pacing_rate(self.params.borrow());
        self.params.borrow_mut().set_cubic(params);
    }

    /// Replace the socket settings; they apply from the next event (init values from
    /// the next [`init`](Cubic::init)). Refuses them out of range.
    pub fn set_socket_config(&mut self, socket: LinuxSocketConfig) -> Result<(), ConfigError> {
        socket.validate()?;
        self.state
            .borrow_mut()
            .set_pacing_modelled(self.params.borrow(), socket.model_pacing);
        self.params.borrow_mut().set_socket(socket)
    }
}

impl<P: Borrow<LinuxParams>, S: BorrowMut<LinuxFlowState>> Deref for Cubic<P, S> {
    type Target = LinuxFlowState;

    fn deref(&self) -> &LinuxFlowState {
        self.state.borrow()
    }
}

impl<P: Borrow<LinuxParams>, S: BorrowMut<LinuxFlowState>> CongestionController for Cubic<P, S> {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Segments
    }

    /// The transmit step with the stack's own `snd_nxt`: `largest_sent` is the sequence
    /// after the last segment sent (TCP's `SND.NXT`, in segments), and moves the flow's
    /// `snd_nxt` up when ahead of `snd_una + in_flight_after` (never back).
    #[inline(always)]
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        // Truncation to the kernel's 32-bit sequence space, on purpose.
        let snd_nxt = sent.largest_sent as u32;
        self.state
            .borrow_mut()
            .transmit_with_snd_nxt(now, segments(sent.in_flight_after), snd_nxt);
    }

    // Always inlined: a stack's ACK loop keeps the flow in registers.
    #[inline(always)]
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        // The kernel carries RTT samples in s32 µs: clamped to it once, here.
        let rtt = ack.rtt.map(|d| d.as_micros().min(i32::MAX as u64) as u32);
        // `largest_acked` is the cumulative ACK: snd_una after this ACK.
        self.state.borrow_mut().ack_with_cumulative(
            self.params.borrow(),
            now,
            segments(ack.acked),
            rtt,
            ack.largest_acked,
        );
    }

    /// As [`LinuxFlowState::on_loss`].
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.state
            .borrow_mut()
            .on_loss(self.params.borrow(), now, loss);
    }

    /// As [`LinuxFlowState::on_ecn`].
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        self.state
            .borrow_mut()
            .on_ecn(self.params.borrow(), now, ecn);
    }

    /// `tcp_enter_loss` with the head retransmitted at once.
    // Cold: rare, and inlined it would cost the ACK loop registers.
    #[cold]
    #[inline(never)]
    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.state.borrow_mut().rto(self.params.borrow(), now, 1);
    }

    fn on_discarded(&mut self, _now: Instant, amount: u64) {
        self.state
            .borrow_mut()
            .on_discarded(self.params.borrow(), amount);
    }

    fn on_spurious_congestion(&mut self, now: Instant) {
        self.state.borrow_mut().undo(self.params.borrow(), now);
    }

    fn on_transmit_start(&mut self, now: Instant) {
        self.state.borrow_mut().transmit_start(now);
    }

    fn cwnd(&self) -> u64 {
        u64::from(self.state.borrow().snd_cwnd())
    }

    /// `None` while `snd_ssthresh` is the kernel's `TCP_INFINITE_SSTHRESH` or above.
    fn ssthresh(&self) -> Option<u64> {
        let s = self.state.borrow().snd_ssthresh();
        if s >= TCP_INFINITE_SSTHRESH {
            None
        } else {
            Some(u64::from(s))
        }
    }

    /// As [`LinuxFlowState::phase`].
    fn phase(&self) -> Phase {
        self.state.borrow().phase()
    }

    /// `packets_out`.
    fn in_flight(&self) -> u64 {
        u64::from(self.state.borrow().packets_out())
    }

    /// `sk_pacing_rate` ([`sk_pacing_rate`](Cubic::sk_pacing_rate)).
    fn pacing_rate(&self) -> Rate {
        Rate::from_bytes_per_second(self.sk_pacing_rate())
    }

    fn mss_bytes(&self) -> u64 {
        u64::from(self.socket_config().mss)
    }

    /// `tcp_tso_autosize` on `sk_pacing_rate`, with CUBIC's `delay_min` standing in for
    /// the kernel's windowed `tcp_min_rtt` (a [`PacedFlow`](crate::pacing::PacedFlow)
    /// keeps the windowed one).
    fn send_quantum_bytes(&self) -> u64 {
        let delay_min = self.state.borrow().delay_min_us();
        let min_rtt = if delay_min == 0 { u32::MAX } else { delay_min };
        default_send_quantum_bytes(
            self.pacing_rate(),
            min_rtt,
            u64::from(self.socket_config().mss),
        )
    }
}

impl<P: Borrow<LinuxParams>, S: BorrowMut<LinuxFlowState>> ObservableController for Cubic<P, S> {
    #[inline(always)]
    fn on_ack_observed<O: Observer>(&mut self, now: Instant, ack: &AckEvent, observer: &mut O) {
        // The kernel carries RTT samples in s32 µs: clamped to it once, here.
        let rtt = ack.rtt.map(|d| d.as_micros().min(i32::MAX as u64) as u32);
        self.state.borrow_mut().ack_with_cumulative_observed(
            self.params.borrow(),
            now,
            segments(ack.acked),
            rtt,
            ack.largest_acked,
            observer,
        );
    }

    fn on_loss_observed<O: Observer>(&mut self, now: Instant, loss: &LossEvent, observer: &mut O) {
        self.state
            .borrow_mut()
            .on_loss_observed(self.params.borrow(), now, loss, observer);
    }

    fn on_ecn_observed<O: Observer>(&mut self, now: Instant, ecn: &EcnEvent, observer: &mut O) {
        self.state
            .borrow_mut()
            .on_ecn_observed(self.params.borrow(), now, ecn, observer);
    }

    fn on_retransmission_timeout_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        let cause = ReductionCause::RetransmissionTimeout;
        self.state
            .borrow_mut()
            .rto_observed(self.params.borrow(), now, 1, cause, observer);
    }

    fn on_spurious_congestion_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        self.state
            .borrow_mut()
            .undo_observed(self.params.borrow(), now, observer);
    }
}
