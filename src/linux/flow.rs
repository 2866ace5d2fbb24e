//! A Linux-mode flow: CUBIC + HyStart driven through a model of the kernel's socket
//! glue, so that a stack that is not Linux gets exactly what Linux would do.
//!
//! The glue is the part of `tcp_input.c`/`tcp_output.c` that decides *when* CUBIC's
//! hooks run and with what: the transmit step that tracks whether the flow is limited
//! by its window (`tcp_cwnd_validate`), the smoothed RTT (`tcp_rtt_estimator`), the
//! pacing rate (`tcp_update_pacing_rate`), fast recovery and CWR entered and ended at
//! once (`tcp_enter_recovery` … `tcp_end_cwnd_reduction`; PRR is the stack's business),
//! the retransmission timeout (`tcp_enter_loss`) and undo (`tcp_undo_cwnd_reduction`).
//! It counts sequence numbers in segments. A TCP stack can drive a [`LinuxFlow`] from
//! its own ACK processing and get the kernel's cwnd; the reference traces replay
//! through exactly this code.

use crate::controller::{
    AckEvent, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, SentPacket, WindowUnit,
};
use crate::cubic::{LinuxCubicParams, linux_after};
use crate::error::ConfigError;
use crate::hystart::{HystartExit, HystartInput};
use crate::linux::flow_config::LinuxFlowConfig;
use crate::linux::socket_config::LinuxSocketConfig;
use crate::linux::state::{LinuxCubicState, TCP_INFINITE_SSTHRESH};
use crate::pacing::{LinuxPacingInput, Rate, default_send_quantum_bytes, linux_pacing_rate};
use crate::time::Instant;

/// The kernel's congestion-avoidance state machine (`icsk_ca_state`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CaState {
    /// `TCP_CA_Open`: normal operation.
    #[default]
    Open = 0,
    /// `TCP_CA_Disorder`: reordering or SACKs seen (the glue never enters it itself).
    Disorder = 1,
    /// `TCP_CA_CWR`: window reduced for ECN.
    Cwr = 2,
    /// `TCP_CA_Recovery`: fast recovery.
    Recovery = 3,
    /// `TCP_CA_Loss`: recovery after a retransmission timeout.
    Loss = 4,
}

/// One flow in Linux mode. Copy it, store it in an array, put it in a kernel's
/// private area: it is plain data.
///
/// # Driving it from a stack
///
/// Through [`CongestionController`], in segments:
///
/// 1. [`LinuxFlow::new`] with a [`LinuxFlowConfig`] (kernel defaults from
///    [`LinuxFlowConfig::new`]) and the current time.
/// 2. After every send: [`on_sent`](CongestionController::on_sent) with the segments
///    in flight after it (`largest_sent` is not read: the flow keeps `snd_nxt`).
/// 3. Per ACK: [`on_ack`](CongestionController::on_ack) with the newly acknowledged
///    segments and the RTT sample, then send what the window allows, then `on_sent`.
/// 4. [`on_loss`](CongestionController::on_loss) for every lost segment or burst (a
///    segment before `high_seq` does not reduce again), [`on_ecn`](CongestionController::on_ecn)
///    for an ECN echo, [`on_retransmission_timeout`](CongestionController::on_retransmission_timeout);
///    `on_spurious_congestion` when a reduction proves spurious (undo);
///    `on_transmit_start` after idle. Name lost segments by send time
///    ([`LossEvent::sent_at`](crate::LossEvent::sent_at)) when the stack sends after
///    losses: the flow's `snd_nxt` follows `snd_una` plus the flight, which lost
///    segments have left, so a sequence the stack names may lie ahead of it.
/// 5. Read [`cwnd`](CongestionController::cwnd), [`phase`](CongestionController::phase)
///    and [`pacing_rate`](CongestionController::pacing_rate) for the next sends.
///
/// ```
/// use congestion::{AckEvent, CongestionController, Duration, Instant, SentEvent};
/// use congestion::linux::{LinuxFlow, LinuxFlowConfig};
///
/// let mut flow = LinuxFlow::new(LinuxFlowConfig::new(), Instant::ZERO)?;
/// flow.on_sent(Instant::ZERO, &SentEvent::new(10, 10));
/// let ack = AckEvent { acked: 2, rtt: Some(Duration::from_millis(20)), ..AckEvent::default() };
/// flow.on_ack(Instant::from_micros(20_000), &ack);
/// assert_eq!(flow.cwnd(), 12);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
///
/// The flow also has kernel-style calls in `u32` segments (`ack`, `transmit`, `loss`,
/// `ecn`, `rto` with a retransmit count, `undo`, and direct writes of `snd_cwnd`,
/// `snd_ssthresh`, the clamp and `lsndtime`). They are hidden from these docs: they
/// exist for the kernel-trace replay (`replay/`), the C ABI (`ffi/`) and the
/// firmware images (`embedded/`), which speak the kernel's terms. Stacks use the trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LinuxFlow {
    state: LinuxCubicState,
    params: LinuxCubicParams,
    socket: LinuxSocketConfig,
    clamp: u32,
    snd_una: u32,
    snd_nxt: u32,
    packets_out: u32,
    max_packets_out: u32,
    cwnd_usage_seq: u32,
    last_send_jiffies: u32,
    srtt_us_x8: u32,
    prior_cwnd: u32,
    prior_ssthresh: u32,
    high_seq: u32,
    retransmits: u32,
    /// `sk_pacing_rate` when `pacing_rate_fresh`; otherwise computed on demand from
    /// the state after the last event and `pacing_packets_out`.
    pacing_rate: u64,
    /// `packets_out` at the end of the last event, the one input of the pacing rate
    /// that the transmit step changes before anyone asks for the rate.
    pacing_packets_out: u32,
    /// Whether `pacing_rate` holds the rate (computed eagerly, or frozen by a setter).
    pacing_rate_fresh: bool,
    is_cwnd_limited: bool,
    undo_marker: bool,
    /// A loss or ECN-CE reduction set `high_seq`, and no RTO or undo has ended its
    /// recovery period since: [`Phase::Recovery`] while `snd_una` is before `high_seq`.
    loss_recovery: bool,
    ca_state: CaState,
    hystart_exit: Option<HystartExit>,
    /// Whether a loss, ECN-CE or RTO reduction has begun a recovery period yet.
    recovery_armed: bool,
    /// When the current recovery period began, as the kernel's 32-bit µs clock
    /// (`tcp_mstamp` truncated, [`Instant::micros32`]): send times are compared with it
    /// with wrap-around, like every 32-bit kernel clock (valid within 35 minutes).
    recovery_start_us32: u32,
}

impl LinuxFlow {
    /// A new flow, initialised at `now` as the kernel's `tcp_init_congestion_control`
    /// would (CUBIC `init`, pacing rate). Nothing is in flight until the first
    /// `on_sent`. Refuses a configuration out of range ([`LinuxFlowConfig::validate`]).
    pub fn new(config: LinuxFlowConfig, now: Instant) -> Result<Self, ConfigError> {
        let params = config.validate()?;
        let socket = config.socket;
        let mut flow = LinuxFlow {
            state: LinuxCubicState::default(),
            params,
            socket,
            clamp: 0,
            snd_una: 0,
            snd_nxt: 0,
            packets_out: 0,
            max_packets_out: 0,
            cwnd_usage_seq: 0,
            last_send_jiffies: 0,
            srtt_us_x8: 0,
            prior_cwnd: 0,
            prior_ssthresh: 0,
            high_seq: 0,
            retransmits: 0,
            pacing_rate: 0,
            pacing_packets_out: 0,
            pacing_rate_fresh: true,
            is_cwnd_limited: false,
            undo_marker: false,
            loss_recovery: false,
            ca_state: CaState::Open,
            hystart_exit: None,
            recovery_armed: false,
            recovery_start_us32: 0,
        };
        flow.init(now);
        Ok(flow)
    }

    /// Re-initialise the socket and CUBIC at `now`, keeping the configuration.
    pub fn init(&mut self, now: Instant) {
        let s = self.socket;
        self.state = LinuxCubicState {
            cwnd: s.init_cwnd,
            ssthresh: s.init_ssthresh,
            ..LinuxCubicState::default()
        };
        self.clamp = s.cwnd_clamp;
        // tcp_rtt_estimator keeps srtt scaled by 8, u32.
        self.srtt_us_x8 = s.initial_srtt_us.wrapping_shl(3);
        self.snd_una = s.iss;
        self.snd_nxt = s.iss;
        self.cwnd_usage_seq = s.iss;
        self.packets_out = 0;
        self.max_packets_out = 0;
        self.is_cwnd_limited = false;
        self.last_send_jiffies = now.jiffies32();
        self.ca_state = CaState::Open;
        self.prior_cwnd = 0;
        self.prior_ssthresh = 0;
        self.high_seq = 0;
        self.retransmits = 0;
        self.undo_marker = false;
        self.loss_recovery = false;
        self.recovery_armed = false;
        self.hystart_exit = None;
        self.pacing_rate = 0;
        self.pacing_rate_fresh = true;
        // Linux cubictcp_init(): reset, HyStart round, initial_ssthresh without HyStart.
        let cfg = *self.params.config();
        if cfg.hystart {
            self.state.hystart.start_round(now.micros32(), self.snd_nxt);
        } else if cfg.initial_ssthresh != 0 {
            self.state.ssthresh = cfg.initial_ssthresh;
        }
        self.pacing_inputs_changed();
    }

    /// The transmit step: after sending, `in_flight` segments are outstanding.
    ///
    /// More than before means new data left: after an empty pipe CUBIC gets
    /// `CA_EVENT_TX_START` (reading the previous send time), and the send time is
    /// stamped. Then the kernel's window-use tracking (`tcp_cwnd_validate` and the
    /// `tcp_write_xmit` rule `in_flight >= cwnd`) decides `is_cwnd_limited`.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    // Linux net/ipv4/tcp_output.c tcp_event_data_sent(), tcp_cwnd_validate()
    #[inline]
    #[doc(hidden)]
    pub fn transmit(&mut self, now: Instant, in_flight: u32) {
        let sent = in_flight.saturating_sub(self.packets_out);
        let jiffies = now.jiffies32();
        if sent > 0 {
            if self.packets_out == 0 {
                self.state
                    .cubic
                    .on_transmit_start(jiffies, self.last_send_jiffies);
            }
            self.last_send_jiffies = jiffies;
        }
        self.packets_out = in_flight;
        let top = self.snd_una.wrapping_add(in_flight);
        if linux_after(top, self.snd_nxt) {
            self.snd_nxt = top;
        }
        let limited = self.packets_out >= self.state.cwnd;
        if sent > 0 || limited {
            let usage_round_over = !linux_after(self.cwnd_usage_seq, self.snd_una);
            if usage_round_over
                || limited
                || (!self.is_cwnd_limited && self.packets_out > self.max_packets_out)
            {
                self.is_cwnd_limited = limited;
                self.max_packets_out = self.packets_out;
                self.cwnd_usage_seq = self.snd_nxt;
            }
        }
    }

    /// An ACK for `acked` segments, with an RTT sample in µs if it gave one.
    ///
    /// Runs, in the kernel's order: `snd_una`, the smoothed RTT, CUBIC `pkts_acked`
    /// (delay_min and HyStart), the end of RTO recovery, CUBIC `cong_avoid`, and the
    /// pacing rate. Call [`transmit`](LinuxFlow::transmit) afterwards with what is in
    /// flight once the stack has sent in response.
    ///
    /// Odd input: `acked` beyond what is in flight empties the flight (no underflow);
    /// an RTT sample of 0 counts as 1 µs for CUBIC (the kernel's rule); samples above
    /// `i32::MAX` µs (35 minutes) are clamped to it, since the kernel carries them in s32.
    ///
    /// Always inlined: the common ACK (state Open, no HyStart, CUBIC's 1/32 s skip) is
    /// a few dozen instructions; the rare branches are calls.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    #[inline(always)]
    #[doc(hidden)]
    pub fn ack(&mut self, now: Instant, acked: u32, rtt_us: Option<u32>) {
        self.snd_una = self.snd_una.wrapping_add(acked);
        self.packets_out = self.packets_out.saturating_sub(acked);
        let jiffies = now.jiffies32();
        if let Some(rtt) = rtt_us {
            let rtt = rtt.min(i32::MAX as u32);
            self.update_srtt(rtt);
            self.pkts_acked(now, jiffies, rtt);
        }
        let open = self.ca_state == CaState::Open;
        if !open {
            self.end_rto_recovery_once_acked();
        }
        if self.loss_recovery {
            self.end_loss_recovery_once_acked();
        }
        if acked > 0 {
            self.retransmits = 0;
            // CWR and Recovery do not grow the window.
            if open || !matches!(self.ca_state, CaState::Cwr | CaState::Recovery) {
                self.cong_avoid(jiffies, acked);
            }
        }
        self.pacing_inputs_changed();
    }

    /// RTO recovery (`Loss`) ends once `high_seq` is acknowledged. Out of line: it is
    /// rare, and the window growth after it stays in one copy (in `ack`).
    // Linux net/ipv4/tcp_input.c tcp_process_loss(): TCP_CA_Loss ends at high_seq
    #[inline(never)]
    fn end_rto_recovery_once_acked(&mut self) {
        if self.ca_state == CaState::Loss && !linux_after(self.high_seq, self.snd_una) {
            self.ca_state = CaState::Open;
        }
    }

    /// The recovery period of a loss or ECN-CE reduction ends once `high_seq` is
    /// acknowledged; cleared here, so that `high_seq` is never compared again 2^31
    /// segments later, when 32-bit wrap-around would put it ahead once more.
    // Linux net/ipv4/tcp_input.c tcp_try_undo_recovery(): Recovery ends at high_seq
    #[cold]
    #[inline(never)]
    fn end_loss_recovery_once_acked(&mut self) {
        if !linux_after(self.high_seq, self.snd_una) {
            self.loss_recovery = false;
        }
    }

    /// The srtt half of `tcp_rtt_estimator` (EWMA with gain 1/8, kept ×8).
    // Linux net/ipv4/tcp_input.c tcp_rtt_estimator(): srtt += m - srtt/8
    fn update_srtt(&mut self, rtt_us: u32) {
        let srtt = if self.srtt_us_x8 == 0 {
            rtt_us.wrapping_shl(3)
        } else {
            self.srtt_us_x8
                .wrapping_add(rtt_us)
                .wrapping_sub(self.srtt_us_x8 >> 3)
        };
        self.srtt_us_x8 = srtt.max(1);
    }

    /// CUBIC `pkts_acked`: the delay sample feeds `delay_min` and HyStart.
    // Linux net/ipv4/tcp_cubic.c cubictcp_acked()
    #[inline(always)]
    fn pkts_acked(&mut self, now: Instant, jiffies: u32, rtt_us: u32) {
        if self.state.cubic.in_sample_blackout(jiffies) {
            return;
        }
        let delay = rtt_us.max(1);
        self.state.cubic.on_delay_sample(delay);
        if self.hystart_reads_the_next_sample() {
            self.hystart_sample(now, delay);
        }
    }

    /// Whether HyStart looks at delay samples now: in slow start, before it found the
    /// exit, with HyStart on. HyStart is also the one reader of the pacing rate inside
    /// an ACK (`hystart_ack_delay`).
    // Linux net/ipv4/tcp_cubic.c cubictcp_acked()
    #[inline(always)]
    fn hystart_reads_the_next_sample(&self) -> bool {
        self.state.in_slow_start() && !self.state.hystart.found && self.params.config().hystart
    }

    /// HyStart's half of `pkts_acked`; out of line, it runs only in slow start.
    // Linux net/ipv4/tcp_cubic.c hystart_update()
    #[inline(never)]
    fn hystart_sample(&mut self, now: Instant, delay: u32) {
        let input = HystartInput {
            now_us: now.micros32(),
            delay_us: delay,
            delay_min_us: self.state.cubic.delay_min,
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            cwnd: self.state.cwnd,
            pacing_rate: self.sk_pacing_rate(),
            pacing_status: self.socket.pacing_status,
            gso_max_size: self.socket.gso_max_size,
        };
        if let Some(exit) = self.state.hystart.on_delay_sample(&self.params, &input) {
            self.state.ssthresh = self.state.cwnd;
            self.hystart_exit = Some(exit);
        }
    }

    /// `tcp_is_cwnd_limited`: was the last transmit limited by the window? In slow
    /// start, also while cwnd is below twice the largest recent flight.
    // Linux include/net/tcp.h tcp_is_cwnd_limited()
    #[inline(always)]
    fn is_cwnd_limited(&self) -> bool {
        if self.is_cwnd_limited {
            return true;
        }
        self.state.in_slow_start() && self.state.cwnd < self.max_packets_out.wrapping_mul(2)
    }

    /// CUBIC `cong_avoid`: slow start, then the cubic update and additive increase.
    // Linux net/ipv4/tcp_cubic.c cubictcp_cong_avoid()
    #[inline(always)]
    fn cong_avoid(&mut self, jiffies: u32, acked: u32) {
        if !self.is_cwnd_limited() {
            return;
        }
        let mut acked = acked;
        if self.state.in_slow_start() {
            acked = self.state.slow_start(acked, self.clamp);
            if acked == 0 {
                return;
            }
        }
        self.state
            .cubic
            .update(&self.params, self.state.cwnd, acked, jiffies);
        let cnt = self.state.cubic.cnt;
        self.state.congestion_avoidance_ai(cnt, acked, self.clamp);
    }

    /// `tcp_current_ssthresh`: the ssthresh to restore on undo.
    // Linux include/net/tcp.h tcp_current_ssthresh()
    fn current_ssthresh(&self) -> u32 {
        let cwnd = self.state.cwnd;
        self.state.ssthresh.max((cwnd >> 1) + (cwnd >> 2))
    }

    /// `tcp_init_cwnd_reduction`: remember the window, take CUBIC's new ssthresh.
    // Linux net/ipv4/tcp_input.c tcp_init_cwnd_reduction()
    fn init_cwnd_reduction(&mut self) {
        self.high_seq = self.snd_nxt;
        self.state.cwnd_cnt = 0;
        self.prior_cwnd = self.state.cwnd;
        self.state.ssthresh = self
            .state
            .cubic
            .recalc_ssthresh(&self.params, self.state.cwnd);
    }

    /// `tcp_end_cwnd_reduction`: the window lands on ssthresh.
    // Linux net/ipv4/tcp_input.c tcp_end_cwnd_reduction()
    fn end_cwnd_reduction(&mut self) {
        if self.state.ssthresh < TCP_INFINITE_SSTHRESH
            && (self.ca_state == CaState::Cwr || self.undo_marker)
        {
            self.state.cwnd = self.state.ssthresh;
        }
    }

    /// A fast-retransmit congestion event, with recovery entered and left at once
    /// (the stack runs PRR or its own recovery; CUBIC only needs the reduction).
    /// A second loss while still in recovery or CWR does not reduce again.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    // Linux net/ipv4/tcp_input.c tcp_enter_recovery(), tcp_end_cwnd_reduction()
    #[doc(hidden)]
    pub fn loss(&mut self, now: Instant) {
        self.prior_ssthresh = 0;
        self.undo_marker = true;
        if !matches!(self.ca_state, CaState::Cwr | CaState::Recovery) {
            self.prior_ssthresh = self.current_ssthresh();
            self.init_cwnd_reduction();
            self.begin_recovery_period(now);
        }
        // set_state(Recovery) then set_state(Open): CUBIC reacts to neither.
        self.ca_state = CaState::Open;
        self.end_cwnd_reduction();
        self.pacing_inputs_changed();
    }

    /// An ECN-CE echo: the same reduction as a loss, through CWR, with no undo.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    // Linux net/ipv4/tcp_input.c tcp_enter_cwr(), tcp_end_cwnd_reduction()
    #[doc(hidden)]
    pub fn ecn(&mut self, now: Instant) {
        self.prior_ssthresh = 0;
        if !matches!(
            self.ca_state,
            CaState::Cwr | CaState::Recovery | CaState::Loss
        ) {
            self.undo_marker = false;
            self.init_cwnd_reduction();
            self.begin_recovery_period(now);
            self.ca_state = CaState::Cwr;
        }
        self.end_cwnd_reduction();
        if self.ca_state == CaState::Cwr {
            self.ca_state = CaState::Open;
        }
        self.pacing_inputs_changed();
    }

    /// A retransmission timeout: everything outstanding is lost, cwnd drops to 1,
    /// CUBIC and HyStart reset, and `retransmitted` segments (usually 1) go out again.
    /// ssthresh is recomputed only on the first RTO of a loss episode, as the kernel does.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    // Linux net/ipv4/tcp_input.c tcp_enter_loss(); tcp_cubic.c cubictcp_state()
    #[doc(hidden)]
    pub fn rto(&mut self, now: Instant, retransmitted: u32) {
        self.packets_out = 0;
        let first_rto = matches!(self.ca_state, CaState::Open | CaState::Disorder)
            || !linux_after(self.high_seq, self.snd_una)
            || (self.ca_state == CaState::Loss && self.retransmits == 0);
        if first_rto {
            self.prior_ssthresh = self.current_ssthresh();
            self.prior_cwnd = self.state.cwnd;
            self.state.ssthresh = self
                .state
                .cubic
                .recalc_ssthresh(&self.params, self.state.cwnd);
            self.undo_marker = true;
        }
        // Everything in flight is lost: cwnd = in flight + 1.
        self.state.cwnd = 1;
        self.state.cwnd_cnt = 0;
        self.ca_state = CaState::Loss;
        self.state.cubic.reset();
        self.state.hystart.found = false;
        self.state.hystart.start_round(now.micros32(), self.snd_nxt);
        self.hystart_exit = None;
        self.high_seq = self.snd_nxt;
        // The RTO's recovery (state Loss) reports slow start, but older losses still
        // belong to it (tcp_process_loss keeps Loss until high_seq).
        self.loss_recovery = false;
        self.recovery_armed = true;
        self.recovery_start_us32 = now.micros32();
        self.packets_out = retransmitted;
        if retransmitted > 0 {
            self.last_send_jiffies = now.jiffies32();
        }
        self.retransmits = self.retransmits.wrapping_add(1);
        self.pacing_inputs_changed();
    }

    /// Undo the last reduction, found spurious (DSACK, F-RTO). Ignored unless a loss
    /// or RTO armed it. CUBIC's own state is not restored: Linux does not either.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    // Linux net/ipv4/tcp_input.c tcp_undo_cwnd_reduction(); tcp_cong.c tcp_reno_undo_cwnd()
    #[doc(hidden)]
    pub fn undo(&mut self, _now: Instant) {
        if !self.undo_marker {
            return;
        }
        if self.prior_ssthresh != 0 {
            self.state.cwnd = self.state.cwnd.max(self.prior_cwnd);
            if self.prior_ssthresh > self.state.ssthresh {
                self.state.ssthresh = self.prior_ssthresh;
            }
        }
        self.undo_marker = false;
        self.loss_recovery = false;
        if self.ca_state != CaState::Open {
            self.retransmits = 0;
            self.ca_state = CaState::Open;
        }
        self.pacing_inputs_changed();
    }

    /// A loss or ECN-CE reduction just set `high_seq`: its recovery period starts.
    fn begin_recovery_period(&mut self, now: Instant) {
        self.loss_recovery = true;
        self.recovery_armed = true;
        self.recovery_start_us32 = now.micros32();
    }

    /// Whether `packet` was sent before the current recovery period began: a sequence
    /// before `high_seq` (32-bit wrap-around, as the kernel's `before()`), or a send time
    /// at or before the reduction (on the 32-bit µs clock, with wrap-around). Never for [`SentPacket::Unknown`], nor before the
    /// first reduction.
    // Linux net/ipv4/tcp_input.c tcp_fastretrans_alert(): no new recovery before high_seq
    fn sent_before_recovery(&self, packet: SentPacket) -> bool {
        if !self.recovery_armed {
            return false;
        }
        match packet {
            // Truncation to the kernel's 32-bit sequence space, on purpose. Only while the
            // period lasts (an RTO's Loss state, or a loss/ECN period): once `high_seq` is
            // acknowledged every loss is of a packet sent after it.
            SentPacket::Number(seq) => {
                (self.loss_recovery || self.ca_state == CaState::Loss)
                    && linux_after(self.high_seq, seq as u32)
            }
            // At or before the start: not after it, on the 32-bit µs clock.
            SentPacket::SentAt(sent) => {
                (self.loss_recovery || self.ca_state == CaState::Loss)
                    && !linux_after(sent.micros32(), self.recovery_start_us32)
            }
            SentPacket::Unknown => false,
        }
    }

    /// An explicit `CA_EVENT_TX_START`: the epoch shifts by the idle time since the
    /// last send, then the send time is stamped now.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    // Linux net/ipv4/tcp_output.c tcp_event_data_sent(); tcp_cubic.c cubictcp_cwnd_event()
    #[doc(hidden)]
    pub fn transmit_start(&mut self, now: Instant) {
        let jiffies = now.jiffies32();
        self.state
            .cubic
            .on_transmit_start(jiffies, self.last_send_jiffies);
        self.last_send_jiffies = jiffies;
    }

    /// Override the time of the last send (`lsndtime`), in jiffies; for stacks whose
    /// own bookkeeping owns it, and for replaying the kernel's traces.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    #[doc(hidden)]
    pub fn set_last_send_jiffies(&mut self, jiffies: u32) {
        self.last_send_jiffies = jiffies;
    }

    /// `tcp_update_pacing_rate`, at the end of every event. The rate is a pure function
    /// of cwnd, ssthresh, srtt, `packets_out` and the socket settings, all fixed until
    /// the next event except `packets_out`: so it is remembered here and the rate is
    /// computed when asked for ([`pacing_rate`](LinuxFlow::pacing_rate)). Eagerly only
    /// when the next ACK's HyStart will read it, since that ACK changes srtt first.
    // Linux net/ipv4/tcp_input.c tcp_update_pacing_rate()
    #[inline(always)]
    fn pacing_inputs_changed(&mut self) {
        if self.hystart_reads_the_next_sample() {
            self.freeze_pacing_rate_for_hystart();
        } else {
            self.pacing_packets_out = self.packets_out;
            self.pacing_rate_fresh = false;
        }
    }

    /// The eager half of [`pacing_inputs_changed`](Self::pacing_inputs_changed); out
    /// of line, it runs only in slow start.
    #[inline(never)]
    fn freeze_pacing_rate_for_hystart(&mut self) {
        self.freeze_pacing_rate_at(self.packets_out);
    }

    /// Store the rate for `packets_out` now (unless pacing is not modelled, where it
    /// keeps its last value), so that later changes to its inputs do not move it.
    fn freeze_pacing_rate_at(&mut self, packets_out: u32) {
        if self.socket.model_pacing {
            self.pacing_rate = self.pacing_rate_for(packets_out);
        }
        self.pacing_rate_fresh = true;
    }

    /// Before a setter changes an input of the pacing rate or whether HyStart reads it:
    /// the kernel's `sk_pacing_rate` stays as the last event left it.
    fn freeze_pacing_rate(&mut self) {
        if !self.pacing_rate_fresh {
            self.freeze_pacing_rate_at(self.pacing_packets_out);
        }
    }

    /// `tcp_update_pacing_rate` on the current state with `packets_out`.
    // Linux net/ipv4/tcp_input.c tcp_update_pacing_rate()
    const fn pacing_rate_for(&self, packets_out: u32) -> u64 {
        linux_pacing_rate(&LinuxPacingInput {
            mss: self.socket.mss,
            cwnd: self.state.cwnd,
            ssthresh: self.state.ssthresh,
            packets_out,
            srtt_us_x8: self.srtt_us_x8,
            ss_ratio_percent: self.socket.pacing_ss_ratio,
            ca_ratio_percent: self.socket.pacing_ca_ratio,
            max_rate: self.socket.max_pacing_rate,
        })
    }

    /// Override cwnd directly, as a stack writing `snd_cwnd` would; at least 1.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    #[doc(hidden)]
    pub fn set_cwnd(&mut self, cwnd: u32) {
        self.freeze_pacing_rate();
        self.state.cwnd = cwnd.max(1);
    }

    /// Override ssthresh directly; at least 1.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    #[doc(hidden)]
    pub fn set_ssthresh(&mut self, ssthresh: u32) {
        self.freeze_pacing_rate();
        self.state.ssthresh = ssthresh.max(1);
    }

    /// Override the window clamp directly; at least 1. cwnd is not cut until it next grows.
    ///
    /// Kernel-style call, hidden from the docs: for the trace replay, `ffi/` and
    /// `embedded/`; stacks use [`CongestionController`].
    #[doc(hidden)]
    pub fn set_clamp(&mut self, clamp: u32) {
        self.clamp = clamp.max(1);
    }

    /// Replace the CUBIC parameters (as changing the kernel's module parameters would).
    pub fn set_params(&mut self, params: LinuxCubicParams) {
        self.freeze_pacing_rate();
        self.params = params;
    }

    /// Replace the socket settings; they apply from the next event (init values from
    /// the next [`init`](LinuxFlow::init)).
    pub fn set_socket_config(&mut self, socket: LinuxSocketConfig) -> Result<(), ConfigError> {
        socket.validate()?;
        self.freeze_pacing_rate();
        self.socket = socket;
        Ok(())
    }

    /// The CUBIC + HyStart + window state (the 72 bytes the kernel would hold).
    pub const fn state(&self) -> &LinuxCubicState {
        &self.state
    }

    /// The CUBIC parameters in force.
    pub const fn params(&self) -> &LinuxCubicParams {
        &self.params
    }

    /// The socket settings in force.
    pub const fn socket_config(&self) -> &LinuxSocketConfig {
        &self.socket
    }

    /// The kernel's `icsk_ca_state`.
    pub const fn ca_state(&self) -> CaState {
        self.ca_state
    }

    /// `sk_pacing_rate`, bytes per second, as the last event left it (computed here
    /// unless an event or a setter already fixed it; the transmit step does not move it).
    /// The trait's [`pacing_rate`](CongestionController::pacing_rate) is the same value
    /// as a [`Rate`].
    pub const fn sk_pacing_rate(&self) -> u64 {
        if self.pacing_rate_fresh || !self.socket.model_pacing {
            self.pacing_rate
        } else {
            self.pacing_rate_for(self.pacing_packets_out)
        }
    }

    /// Which HyStart detector ended slow start, since init or the last RTO.
    pub const fn hystart_exit(&self) -> Option<HystartExit> {
        self.hystart_exit
    }

    /// The window clamp, segments.
    pub const fn clamp(&self) -> u32 {
        self.clamp
    }

    /// Socket sequence and window-use fields, for inspection and trace output.
    pub const fn socket_view(&self) -> LinuxSocketView {
        LinuxSocketView {
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            packets_out: self.packets_out,
            is_cwnd_limited: self.is_cwnd_limited,
            max_packets_out: self.max_packets_out,
            srtt_us_x8: self.srtt_us_x8,
            prior_cwnd: self.prior_cwnd,
            prior_ssthresh: self.prior_ssthresh,
            last_send_jiffies: self.last_send_jiffies,
        }
    }
}

/// Read-only copy of the socket fields a trace prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LinuxSocketView {
    /// First unacknowledged sequence, segments.
    pub snd_una: u32,
    /// Next sequence to send, segments.
    pub snd_nxt: u32,
    /// Segments in flight.
    pub packets_out: u32,
    /// Whether the last transmit was limited by cwnd.
    pub is_cwnd_limited: bool,
    /// Largest flight in the current window-use round.
    pub max_packets_out: u32,
    /// Smoothed RTT ×8, µs.
    pub srtt_us_x8: u32,
    /// cwnd before the last reduction.
    pub prior_cwnd: u32,
    /// ssthresh to restore on undo; 0 = none.
    pub prior_ssthresh: u32,
    /// jiffies of the last send (`lsndtime`).
    pub last_send_jiffies: u32,
}

/// Saturating conversion from the trait's `u64` amounts to the kernel's `u32` segments.
fn segments(amount: u64) -> u32 {
    u32::try_from(amount).unwrap_or(u32::MAX)
}

impl CongestionController for LinuxFlow {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Segments
    }

    #[inline]
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.transmit(now, segments(sent.in_flight_after));
    }

    #[inline]
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        let rtt = ack.rtt.map(|d| segments(d.as_micros()));
        self.ack(now, segments(ack.acked), rtt);
    }

    /// The lost segments leave `packets_out`; persistent congestion is an RTO with one
    /// retransmit; otherwise a loss of a segment at or after `high_seq` (or of an
    /// unknown one) is a fast-retransmit reduction (`tcp_enter_recovery`).
    // Cold and out of line: congestion events are rare, and inlined into a stack's ACK
    // loop they cost that loop registers (2 instructions per ACK under callgrind).
    #[cold]
    #[inline(never)]
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.packets_out = self.packets_out.saturating_sub(segments(loss.lost));
        if loss.persistent_congestion {
            // The kernel retransmits the head at once on an RTO.
            self.rto(now, 1);
        } else if !self.sent_before_recovery(loss.newest_lost) {
            self.loss(now);
        } else {
            self.pacing_inputs_changed();
        }
    }

    /// `tcp_enter_cwr` for a CE rise above 0 on a segment at or after `high_seq`; the
    /// kernel's own rule also ignores CE during an RTO's recovery (state Loss).
    // Cold and out of line: congestion events are rare, and inlined into a stack's ACK
    // loop they cost that loop registers (2 instructions per ACK under callgrind).
    #[cold]
    #[inline(never)]
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        // tcp_enter_cwr() does nothing in state Loss (an RTO's recovery): no reduction,
        // and no end of a CWR that never began (the kernel-style `ecn` models the
        // harness, which ends CWR whatever the state).
        if self.ca_state == CaState::Loss {
            return;
        }
        if ecn.ce_increase > 0 && !self.sent_before_recovery(ecn.newest_acked) {
            self.ecn(now);
        }
    }

    /// `tcp_enter_loss` with the head retransmitted at once.
    // Cold and out of line: congestion events are rare, and inlined into a stack's ACK
    // loop they cost that loop registers (2 instructions per ACK under callgrind).
    #[cold]
    #[inline(never)]
    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.rto(now, 1);
    }

    // Cold and out of line: congestion events are rare, and inlined into a stack's ACK
    // loop they cost that loop registers (2 instructions per ACK under callgrind).
    #[cold]
    #[inline(never)]
    fn on_discarded(&mut self, _now: Instant, amount: u64) {
        self.packets_out = self.packets_out.saturating_sub(segments(amount));
        self.pacing_inputs_changed();
    }

    fn on_spurious_congestion(&mut self, now: Instant) {
        self.undo(now);
    }

    fn on_transmit_start(&mut self, now: Instant) {
        self.transmit_start(now);
    }

    fn cwnd(&self) -> u64 {
        u64::from(self.state.cwnd)
    }

    /// `None` while `snd_ssthresh` is the kernel's `TCP_INFINITE_SSTHRESH` or above.
    fn ssthresh(&self) -> Option<u64> {
        let s = self.state.ssthresh;
        if s >= TCP_INFINITE_SSTHRESH {
            None
        } else {
            Some(u64::from(s))
        }
    }

    /// [`Phase::Recovery`] after a loss or ECN-CE reduction until `snd_una` reaches
    /// `high_seq`; after an RTO, slow start (state Loss grows by slow start).
    fn phase(&self) -> Phase {
        if self.loss_recovery && linux_after(self.high_seq, self.snd_una) {
            Phase::Recovery
        } else if self.state.in_slow_start() {
            Phase::SlowStart
        } else {
            Phase::CongestionAvoidance
        }
    }

    /// `packets_out`.
    fn in_flight(&self) -> u64 {
        u64::from(self.packets_out)
    }

    /// `sk_pacing_rate` ([`sk_pacing_rate`](LinuxFlow::sk_pacing_rate)).
    fn pacing_rate(&self) -> Rate {
        Rate::from_bytes_per_second(self.sk_pacing_rate())
    }

    fn mss_bytes(&self) -> u64 {
        u64::from(self.socket.mss)
    }

    /// `tcp_tso_autosize` on `sk_pacing_rate`, with CUBIC's `delay_min` standing in for
    /// the kernel's windowed `tcp_min_rtt` (a [`PacedFlow`](crate::pacing::PacedFlow)
    /// keeps the windowed one).
    fn send_quantum_bytes(&self) -> u64 {
        let delay_min = self.state.cubic.delay_min;
        let min_rtt = if delay_min == 0 { u32::MAX } else { delay_min };
        default_send_quantum_bytes(self.pacing_rate(), min_rtt, u64::from(self.socket.mss))
    }
}
