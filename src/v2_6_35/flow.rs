//! A 2.6.35 flow: the era's CUBIC and HyStart driven through a model of the 2.6.35
//! socket glue (`tcp_ack` → `tcp_clean_rtx_queue` → `tcp_cong_avoid` →
//! `tcp_fastretrans_alert`), as `tests/data/linux-2.6.35/README.md` specifies it.
//!
//! The socket model counts sequence numbers in segments and has no SACK, lost or
//! retransmitted-segment accounting, so segments in flight are `packets_out`. Fast
//! recovery is entered and left at once (the stack runs its own recovery; CUBIC only
//! needs the reduction), after which the socket sits in Disorder until the ACKs pass
//! `high_seq`, moderating cwnd to `packets_out + reordering` on each ACK, as 2.6.35 did.

use core::borrow::{Borrow, BorrowMut};

use super::config::CubicConfig;
use super::hystart::HystartExit2635;
use super::jiffies::{jiffies_at, jiffies_to_usecs};
use super::params::Linux2635Params;
use super::state::{Bictcp2635, Linux2635State};
use super::tcp_cong::{CwndUse, is_cwnd_limited};
use crate::cubic::linux_after;
use crate::error::ConfigError;
use crate::linux::CaState;
use crate::time::{Duration, Instant};

/// One flow of the 2.6.35 profile. Plain `Copy` data; the kernel's part of it is the
/// 76-byte [`Linux2635State`].
///
/// `P` reaches the [`Linux2635Params`], never copied (owned by default, or `&'static`,
/// `Arc`, a zero-sized handle: [`with_params`](Self::with_params)).
///
/// Call order: [`transmit`](Self::transmit) with what is in flight; per ACK,
/// [`ack`](Self::ack) then `transmit`; [`loss`](Self::loss), [`rto`](Self::rto),
/// [`undo`](Self::undo), [`ecn`](Self::ecn) as detected. The
/// [`CongestionController`](crate::CongestionController) methods map onto these.
///
/// ```
/// use congestion::v2_6_35::{CubicConfig, Cubic};
/// use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, SentEvent};
///
/// let start = Instant::from_micros(1_000_000_000);
/// let mut flow = Cubic::new(CubicConfig::new(), start)?;
/// flow.on_sent(start, &SentEvent::new(2, 2)); // the era's initial window: 2 segments
/// let later = Instant::from_micros(1_000_050_000);
/// flow.on_ack(later, &AckEvent::new(1, 1, Some(Duration::from_millis(50))));
/// assert_eq!(flow.cwnd(), 3); // slow start, +1 per ACK (tcp_abc = 0)
/// flow.on_loss(later, &LossEvent::packet(1, 1));
/// assert_eq!(flow.ssthresh(), Some(2)); // max(3 · 819 / 1024, 2)
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Cubic<P: Borrow<Linux2635Params> = Linux2635Params> {
    pub(super) state: Linux2635State,
    pub(super) clamp: u32,
    pub(super) snd_una: u32,
    pub(super) snd_nxt: u32,
    pub(super) packets_out: u32,
    pub(super) high_seq: u32,
    pub(super) prior_ssthresh: u32,
    pub(super) rtt_us_passed: i32,
    /// `icsk_retransmits`, a `u8` in the kernel (wraps after 255 RTOs in a row).
    pub(super) retransmits: u8,
    pub(super) undo_marker: bool,
    pub(super) ca_state: CaState,
    pub(super) hystart_exit: Option<HystartExit2635>,
    /// A loss or ECN-CE reduction set `high_seq` and no RTO or undo has ended its
    /// recovery period since: `Phase::Recovery` while `snd_una` is before `high_seq`.
    pub(super) loss_recovery: bool,
    /// When the current recovery period began; `None` before the first reduction.
    pub(super) recovery_start: Option<Instant>,
    /// `snd_nxt` at the reduction that began the period: the era's `high_seq` moves on
    /// without a reduction too (`tcp_try_keep_open` when a Loss state ends), so the
    /// period keeps its own mark.
    pub(super) recovery_seq: u32,
    /// The settings, reached and never copied (see [`Linux2635Params`]).
    params: P,
}

impl Cubic {
    /// A new flow that owns its settings, initialised at `now` as [`init`](Self::init)
    /// does. Nothing is in flight until [`transmit`](Self::transmit). A bad `config` is
    /// refused.
    pub fn new(config: CubicConfig, now: Instant) -> Result<Self, ConfigError> {
        Ok(Self::with_params(Linux2635Params::new(config)?, now))
    }
}

impl<P: BorrowMut<Linux2635Params>> Cubic<P> {
    /// Replace the configuration. CUBIC parameters, `hz`, `mss`, `gso`, `gso_max_size`,
    /// `reordering` and `tso_win_divisor` apply from the next event (as changing a
    /// module parameter or sysctl would); `init_cwnd`, `init_ssthresh`, `cwnd_clamp` and
    /// `iss` from the next [`init`](Self::init). A bad one is refused and changes nothing.
    /// Only where the flow can write its settings (it owns them, or holds `&mut`).
    pub fn set_config(&mut self, config: CubicConfig) -> Result<(), ConfigError> {
        *self.params.borrow_mut() = Linux2635Params::new(config)?;
        Ok(())
    }
}

impl<P: Borrow<Linux2635Params>> Cubic<P> {
    /// A new flow reading its settings through `params` (already validated),
    /// initialised at `now` as [`init`](Self::init) does.
    pub fn with_params(params: P, now: Instant) -> Self {
        let config = *params.borrow().config();
        let mut flow = Cubic {
            state: Linux2635State::default(),
            clamp: config.cwnd_clamp,
            snd_una: 0,
            snd_nxt: 0,
            packets_out: 0,
            high_seq: 0,
            prior_ssthresh: 0,
            rtt_us_passed: -1,
            retransmits: 0,
            undo_marker: false,
            ca_state: CaState::Open,
            hystart_exit: None,
            loss_recovery: false,
            recovery_start: None,
            recovery_seq: 0,
            params,
        };
        flow.init(now);
        flow
    }

    /// The settings in force, read through `P`.
    #[inline]
    pub(super) fn cfg(&self) -> &CubicConfig {
        self.params.borrow().config()
    }

    /// Re-initialise at `now`: socket fields zeroed, `cwnd = init_cwnd`, `ssthresh =
    /// init_ssthresh`, the clamp, `snd_una = snd_nxt = high_seq = iss`, state Open; then
    /// CUBIC's `init` (`bictcp_reset`; a HyStart round if HyStart is on;
    /// `initial_ssthresh` if it is off and non-zero).
    // Linux 2.6.35 tcp_cubic.c bictcp_init(); tcp_input.c tcp_init_cwnd()
    pub fn init(&mut self, now: Instant) {
        let c = *self.cfg();
        self.state = Linux2635State {
            cwnd: c.init_cwnd,
            ssthresh: c.init_ssthresh,
            ..Linux2635State::default()
        };
        self.clamp = c.cwnd_clamp;
        self.snd_una = c.iss;
        self.snd_nxt = c.iss;
        self.high_seq = c.iss;
        self.packets_out = 0;
        self.prior_ssthresh = 0;
        self.rtt_us_passed = -1;
        self.retransmits = 0;
        self.undo_marker = false;
        self.ca_state = CaState::Open;
        self.hystart_exit = None;
        self.loss_recovery = false;
        self.recovery_start = None;
        self.state.bictcp.reset();
        if c.hystart {
            self.state
                .bictcp
                .hystart_reset(self.jiffies(now), self.snd_nxt);
        } else if c.initial_ssthresh != 0 {
            self.state.ssthresh = c.initial_ssthresh;
        }
    }

    /// The transmit step: `in_flight` segments are outstanding after sending, and
    /// `snd_nxt` moves up to `snd_una + in_flight` if that is past it.
    ///
    /// Nothing else: 2.6.35 CUBIC has no `cwnd_event` hook (no idle handling), and
    /// window use is judged per ACK.
    pub fn transmit(&mut self, _now: Instant, in_flight: u32) {
        self.packets_out = in_flight;
        let top = self.snd_una.wrapping_add(in_flight);
        if linux_after(top, self.snd_nxt) {
            self.snd_nxt = top;
        }
    }

    /// An ACK newly acknowledging `acked` segments; `path_rtt` is the RTT of the newest
    /// segment it covers (`None` if it gave none, e.g. Karn: a covered segment was
    /// retransmitted). Call [`transmit`](Self::transmit) afterwards.
    ///
    /// In the kernel's order: `snd_una` and `packets_out` move; the RTT becomes
    /// `ca_seq_rtt`, whole jiffies between the send and now, passed to CUBIC as
    /// `jiffies_to_usecs` of it only if positive; CUBIC `pkts_acked` (`delayed_ack` in
    /// state Open, `delay_min`, HyStart); `cong_avoid` with the flight before the ACK
    /// unless in Recovery/CWR; then the Loss/Disorder exits and `tcp_moderate_cwnd`.
    ///
    /// Odd input: `acked` beyond the flight empties it (no underflow); an RTT longer
    /// than `now` is clamped to `now`; an RTT under one jiffy, or over `i32::MAX` µs once
    /// converted, gives no sample (the kernel's `> 0` and `s32` rules); `acked == 0`
    /// reaches neither CUBIC hook.
    // Linux 2.6.35 tcp_input.c tcp_ack(), tcp_clean_rtx_queue(), tcp_fastretrans_alert()
    pub fn ack(&mut self, now: Instant, acked: u32, path_rtt: Option<Duration>) {
        let jiffies = self.jiffies(now);
        let prior_in_flight = self.packets_out;
        self.snd_una = self.snd_una.wrapping_add(acked);
        self.packets_out = self.packets_out.saturating_sub(acked);

        self.rtt_us_passed = match path_rtt {
            Some(rtt) if acked > 0 => self.rtt_us_of(now, rtt),
            _ => -1,
        };
        if acked > 0 {
            self.pkts_acked(jiffies, acked);
        }
        if self.loss_recovery && !linux_before(self.snd_una, self.recovery_seq) {
            // The period ends once its mark is acknowledged: never compared again 2^31
            // segments later, when wrap-around would put it ahead once more.
            self.loss_recovery = false;
        }
        let state = self.ca_state;
        if acked > 0 && !matches!(state, CaState::Recovery | CaState::Cwr) {
            self.cong_avoid(jiffies, prior_in_flight);
        }
        match state {
            CaState::Loss => {
                if acked > 0 {
                    self.retransmits = 0;
                }
                if !linux_before(self.snd_una, self.high_seq) {
                    self.ca_state = CaState::Open;
                    self.try_keep_open();
                }
                self.moderate_cwnd();
            }
            CaState::Disorder => {
                if !linux_before(self.snd_una, self.high_seq) {
                    self.undo_marker = false;
                    self.ca_state = CaState::Open;
                }
                self.moderate_cwnd();
            }
            CaState::Open | CaState::Cwr | CaState::Recovery => {}
        }
    }

    /// `rtt_us` as `tcp_clean_rtx_queue` hands it to CUBIC: `ca_seq_rtt = (s32)(jiffies
    /// now - jiffies at send)`; if positive, `(s32)jiffies_to_usecs(ca_seq_rtt)`, else -1.
    // Linux 2.6.35 tcp_input.c tcp_clean_rtx_queue()
    fn rtt_us_of(&self, now: Instant, rtt: Duration) -> i32 {
        let sent = Instant::from_micros(now.as_micros().saturating_sub(rtt.as_micros()));
        let ca_seq_rtt = self.jiffies(now).wrapping_sub(self.jiffies(sent)) as i32;
        if ca_seq_rtt > 0 {
            jiffies_to_usecs(ca_seq_rtt as u32, self.cfg().hz) as i32
        } else {
            -1
        }
    }

    /// CUBIC `pkts_acked`: `delayed_ack` (state Open only), then, for a sample outside
    /// the post-epoch blackout, `delay_min` and HyStart while `cwnd <= ssthresh` and
    /// `cwnd >= hystart_low_window`. HyStart's exit sets ssthresh to cwnd.
    // Linux 2.6.35 tcp_cubic.c bictcp_acked()
    fn pkts_acked(&mut self, jiffies: u32, acked: u32) {
        let cfg = *self.cfg();
        let b = &mut self.state.bictcp;
        if self.ca_state == CaState::Open {
            b.update_delayed_ack(acked);
        }
        if self.rtt_us_passed < 0 || b.in_sample_blackout(jiffies, cfg.hz) {
            return;
        }
        let delay = b.delay_sample(self.rtt_us_passed as u32, cfg.hz);
        let cwnd = self.state.cwnd;
        if cfg.hystart && self.state.in_slow_start() && cwnd >= cfg.hystart_low_window {
            if let Some(exit) = self.state.bictcp.hystart_update(&cfg, jiffies, delay) {
                self.state.ssthresh = cwnd;
                self.hystart_exit = Some(exit);
            }
        }
    }

    /// CUBIC `cong_avoid`: nothing unless the window was used; in slow start (`cwnd <=
    /// ssthresh`) a new HyStart round once the ACK passes `end_seq`, then +1; otherwise
    /// the cubic `cnt` and one additive-increase step.
    // Linux 2.6.35 tcp_cubic.c bictcp_cong_avoid()
    fn cong_avoid(&mut self, jiffies: u32, in_flight: u32) {
        let cfg = *self.cfg();
        let used = CwndUse {
            cwnd: self.state.cwnd,
            in_flight,
            gso: cfg.gso,
            tso_win_divisor: cfg.tso_win_divisor,
            mss: cfg.mss,
            gso_max_size: cfg.gso_max_size,
            max_burst: cfg.reordering,
        };
        if !is_cwnd_limited(&used) {
            return;
        }
        if self.state.in_slow_start() {
            if cfg.hystart && linux_after(self.snd_una, self.state.bictcp.end_seq) {
                self.state.bictcp.hystart_reset(jiffies, self.snd_nxt);
            }
            self.state.slow_start(self.clamp);
        } else {
            self.state.bictcp.update(&cfg, self.state.cwnd, jiffies);
            let cnt = self.state.bictcp.cnt;
            self.state.cong_avoid_ai(cnt, self.clamp);
        }
    }

    /// `jiffies` (= `tcp_time_stamp`) at `now`, at this flow's HZ.
    pub fn jiffies(&self, now: Instant) -> u32 {
        jiffies_at(now, self.cfg().hz)
    }

    /// CUBIC + HyStart + window state (the kernel's 64-byte `struct bictcp` plus cwnd,
    /// ssthresh and cwnd_cnt).
    pub const fn state(&self) -> &Linux2635State {
        &self.state
    }

    /// The era's `struct bictcp`.
    pub const fn bictcp(&self) -> &Bictcp2635 {
        &self.state.bictcp
    }

    /// The configuration in force.
    pub fn config(&self) -> &CubicConfig {
        self.cfg()
    }

    /// The validated settings the flow reads.
    pub fn params(&self) -> &Linux2635Params {
        self.params.borrow()
    }

    /// The kernel's `icsk_ca_state`: Open, Disorder (after a loss, until the ACKs pass
    /// `high_seq`) or Loss (after an RTO); never Recovery or CWR between calls.
    pub const fn ca_state(&self) -> CaState {
        self.ca_state
    }

    /// Which HyStart detectors ended slow start (since init or the last RTO); `None`
    /// while slow start was not left by HyStart.
    pub const fn hystart_exit(&self) -> Option<HystartExit2635> {
        self.hystart_exit
    }

    /// The window clamp, segments.
    pub const fn clamp(&self) -> u32 {
        self.clamp
    }

    /// The `rtt_us` the last ACK handed CUBIC's `pkts_acked`; -1 if none (or if the
    /// last event was not an ACK with newly acknowledged data). Another negative value
    /// is the kernel's own wrap of a sample over 35 minutes, which CUBIC then ignores.
    pub const fn rtt_us_passed(&self) -> i32 {
        self.rtt_us_passed
    }

    /// Socket sequence and recovery fields, for inspection and trace output.
    pub const fn socket_view(&self) -> Linux2635SocketView {
        Linux2635SocketView {
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            packets_out: self.packets_out,
            high_seq: self.high_seq,
            prior_ssthresh: self.prior_ssthresh,
            undo_marker: self.undo_marker,
            retransmits: self.retransmits,
        }
    }

    /// Forget the last ACK's RTT column (events other than `ack` pass none).
    pub fn clear_rtt_us_passed(&mut self) {
        self.rtt_us_passed = -1;
    }
}

/// Linux `before(a, b)` on 32-bit sequence numbers.
pub(super) const fn linux_before(a: u32, b: u32) -> bool {
    linux_after(b, a)
}

/// Read-only copy of the 2.6.35 socket fields a trace prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Linux2635SocketView {
    /// First unacknowledged sequence, segments.
    pub snd_una: u32,
    /// Next sequence to send, segments.
    pub snd_nxt: u32,
    /// Segments in flight.
    pub packets_out: u32,
    /// `snd_nxt` when the last loss, RTO or recovery exit happened.
    pub high_seq: u32,
    /// ssthresh to restore on undo; 0 = none.
    pub prior_ssthresh: u32,
    /// Whether an undo is still possible.
    pub undo_marker: bool,
    /// RTOs since the last forward progress (`icsk_retransmits`, `u8`).
    pub retransmits: u8,
}

#[cfg(test)]
mod tests;
