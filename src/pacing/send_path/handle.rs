//! [`SendPath`]: a [`SendPathState`] with its handle on the parameters, each call
//! passing them on.

use super::*;

/// A flow's send path: its [`SendPathState`] (one cache line) and a handle `P` to the
/// [`SendPathParams`] it runs under, `Copy` when `P` is.
///
/// `P` is how the flow reaches its parameters, anything that
/// [`Borrow`]s a [`SendPathParams`]:
/// - `SendPathParams` itself (the default): the flow owns a copy, one object as in 0.2
///   ([`SendPath::new`]); 128 bytes;
/// - `&'static SendPathParams` or `&'a SendPathParams`: every flow shares one block
///   ([`SendPath::with_params`]); 128 bytes (the line, then the pointer);
/// - `Arc<SendPathParams>` for a stack that changes parameters at run time (the
///   library itself never allocates);
/// - a zero-sized type of your own whose `Borrow` returns your `static`: 64 bytes.
///
/// `S` is where the state lives: in the `SendPath` (`SendPathState`, the default), or
/// behind a `&mut SendPathState` for a stack that keeps its flows' states in a table of
/// its own ([`SendPath::bind`]): each event then works on the table's line in place,
/// with no copy in or out.
///
/// Fed by hand beside a controller (a stack that keeps the two apart; the
/// [module](crate::pacing) shows it, and [`SendPathState`] parameters in a `static`);
/// most stacks use [`PacedFlow`](crate::pacing::PacedFlow), which feeds both from one
/// call.
///
/// [`Borrow`]: core::borrow::Borrow
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SendPath<P = SendPathParams, S = SendPathState> {
    state: S,
    params: P,
}

impl SendPath {
    /// A new flow that owns its settings: nothing sent, nothing queued, no RTT sample.
    pub const fn new(params: SendPathParams) -> Self {
        SendPath {
            state: SendPathState::new(),
            params,
        }
    }
}

impl<P: Borrow<SendPathParams>> SendPath<P> {
    /// A new flow that reaches its settings through `params` (a shared reference, an
    /// `Arc`, a handle of your own): nothing sent, nothing queued, no RTT sample.
    pub const fn with_params(params: P) -> Self {
        SendPath {
            state: SendPathState::new(),
            params,
        }
    }
}

impl<'a, P: Borrow<SendPathParams>> SendPath<P, &'a mut SendPathState> {
    /// The flow whose state is `state`, kept where the caller keeps it (a table of
    /// flows), run with the settings behind `params`: every event changes `state` in
    /// place, as [`linux::Cubic::bind`](crate::linux::Cubic::bind) does for a
    /// controller's state. Bind per event; nothing is copied.
    ///
    /// ```
    /// use congestion::pacing::{SendPath, SendPathConfig, SendPathState};
    /// use congestion::Instant;
    ///
    /// let params = SendPathConfig::new().validate()?;
    /// let mut table = [SendPathState::new(); 4];
    /// let mut path = SendPath::bind(&mut table[2], &params);
    /// path.on_rtt_sample(Instant::ZERO, congestion::Duration::from_millis(20));
    /// assert_eq!(table[2].min_rtt_us(), 20_000);
    /// # Ok::<(), congestion::ConfigError>(())
    /// ```
    pub fn bind(state: &'a mut SendPathState, params: P) -> Self {
        SendPath { state, params }
    }
}

impl<P: Borrow<SendPathParams>, S: BorrowMut<SendPathState>> SendPath<P, S> {
    /// A flow from its state (owned, or `&mut` to where the caller keeps it) and its
    /// parameter handle (the inverse of [`into_parts`](SendPath::into_parts)).
    pub const fn from_parts(state: S, params: P) -> Self {
        SendPath { state, params }
    }

    /// The state and the parameter handle.
    pub fn into_parts(self) -> (S, P) {
        (self.state, self.params)
    }

    /// The settings.
    pub fn params(&self) -> &SendPathParams {
        self.params.borrow()
    }

    /// The handle through which the flow reaches its settings.
    pub const fn params_handle(&self) -> &P {
        &self.params
    }

    /// Replaces the settings, or the handle to them (as changing sysctls or socket
    /// options would); the state is kept.
    pub fn set_params(&mut self, params: P) {
        self.params = params;
    }

    /// The per-flow state.
    pub fn state(&self) -> &SendPathState {
        self.state.borrow()
    }

    /// The per-flow state, mutably (for its methods that take the settings).
    pub fn state_mut(&mut self) -> &mut SendPathState {
        self.state.borrow_mut()
    }

    /// The pacer.
    pub fn pacer(&self) -> &EdtPacer {
        self.state().pacer()
    }

    /// The TSQ budget.
    pub fn tsq(&self) -> &TsqBudget {
        self.state().tsq()
    }

    /// The windowed minimum RTT, µs (`u32::MAX` before any sample).
    pub fn min_rtt_us(&self) -> u32 {
        self.state().min_rtt_us()
    }

    /// The departure time of the last burst handed to the queues, ns (0 before the
    /// first).
    pub fn last_departure_ns(&self) -> u64 {
        self.state().last_departure_ns()
    }

    /// An RTT sample (feeds the minimum RTT that TSO autosizing reads). Samples above
    /// `u32::MAX` µs (71 minutes) count as that.
    pub fn on_rtt_sample(&mut self, now: Instant, rtt: Duration) {
        self.state
            .borrow_mut()
            .on_rtt_sample(self.params.borrow(), now, rtt);
    }

    /// Segments one burst may carry now (`tcp_tso_segs`).
    pub fn tso_segs(&self, pacing_rate: Rate, mss: u32) -> u32 {
        self.state
            .borrow()
            .tso_segs(self.params.borrow(), pacing_rate, mss)
    }

    /// As [`tso_segs`](Self::tso_segs), with a controller's own floor
    /// ([`SendPathState::tso_segs_with_floor`]).
    pub fn tso_segs_with_floor(
        &self,
        pacing_rate: Rate,
        mss: u32,
        controller_floor: Option<u32>,
    ) -> u32 {
        self.state.borrow().tso_segs_with_floor(
            self.params.borrow(),
            pacing_rate,
            mss,
            controller_floor,
        )
    }

    /// The TSQ limit for a packet of `len_bytes` (its truesize adds the overhead).
    pub fn tsq_limit_bytes(&self, pacing_rate: Rate, len_bytes: u32, retransmit: bool) -> u64 {
        self.state.borrow().tsq_limit_bytes(
            self.params.borrow(),
            pacing_rate,
            len_bytes,
            retransmit,
        )
    }

    /// May the flow send now, and how much? Checks, in order: the congestion window
    /// (a full window waits for an ACK: no timer would help), the pacer (only when the
    /// flow paces itself, `PacingStatus::Needed`; with `Fq` the qdisc holds packets
    /// until their departure time), then TSQ for a burst of the chosen size. A refusal
    /// by TSQ marks the flow throttled, so that a completion can wake it.
    ///
    /// Burst size: `min(tso_segs, window quota)`, where the quota is
    /// `min(cwnd - in_flight, max(cwnd / 2, 1))` segments (bytes-mode windows are
    /// divided by the MSS, rounding the room up: RFC 9002 lets a sender with any room
    /// send a full packet).
    pub fn poll<C: CongestionController + ?Sized>(
        &mut self,
        cc: &C,
        ctx: &SendContext,
    ) -> SendVerdict {
        self.state.borrow_mut().poll(self.params.borrow(), cc, ctx)
    }

    /// A burst of `len_bytes` carrying `segments` segments was handed to the queues
    /// at `now` (after [`poll`](SendPath::poll) said so). Charges its truesize to the
    /// TSQ budget and returns its departure time, ns.
    pub fn on_send(
        &mut self,
        now: Instant,
        len_bytes: u32,
        segments: u32,
        pacing_rate: Rate,
    ) -> u64 {
        self.state
            .borrow_mut()
            .on_send(self.params.borrow(), now, len_bytes, segments, pacing_rate)
    }

    /// The qdisc-level step alone: TSQ-check a packet of `len_bytes` against its own
    /// truesize and, if allowed, queue it and stamp its departure (Linux
    /// `tcp_small_queue_check` then `__tcp_transmit_skb`). The window is not consulted.
    pub fn try_enqueue(
        &mut self,
        now: Instant,
        len_bytes: u32,
        segments: u32,
        pacing_rate: Rate,
        retransmit: bool,
        rtx_queue_at_most_one: bool,
    ) -> Enqueue {
        self.state.borrow_mut().try_enqueue(
            self.params.borrow(),
            now,
            len_bytes,
            segments,
            pacing_rate,
            retransmit,
            rtx_queue_at_most_one,
        )
    }

    /// TX completion of a packet of `len_bytes` sent earlier. Returns true when it
    /// reopened the budget of a throttled flow: call [`poll`](SendPath::poll) again.
    pub fn on_tx_completion(&mut self, len_bytes: u32) -> bool {
        self.state
            .borrow_mut()
            .on_tx_completion(self.params.borrow(), len_bytes)
    }

    /// When the next packet may leave, if the flow paces itself
    /// (`PacingStatus::Needed`) and that time lies after `now`; `None`: it may leave
    /// now. Rounded up to the µs, so a timer set for it never fires early.
    pub fn next_departure(&self, now: Instant) -> Option<Instant> {
        self.state
            .borrow()
            .next_departure(self.params.borrow(), now)
    }
}
