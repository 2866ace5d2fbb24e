//! [`Bbr3`]: the flow a QUIC stack drives with RFC 9002's events, and the order of
//! work on each (§5.2).

use super::params::{Bbr3Params, GAIN_UNIT, STARTUP_PACING_GAIN};
use super::sampler::Sampler;
use super::state::{Model, State};
use crate::linux::bbr3::AckPhase;
use crate::linux::tcp::rate::{
    RateSample, TxSnapshot, tcp_rate_gen, tcp_rate_skb_delivered, tcp_rate_skb_sent,
};
use crate::linux::tcp::{RandomSource, skb};
use crate::time::Instant;

/// What a stack knows when it has processed one ACK frame, after it handed every newly
/// acknowledged packet to [`Bbr3::on_packet_acked`].
///
/// ```
/// use congestion::rfc::Bbr3Ack;
///
/// let mut ack = Bbr3Ack::with_rtt_us(25_000); // RFC 9002 latest_rtt
/// ack.srtt_us = 27_000; // smoothed_rtt
/// ack.ecn_ce_count = 3; // the ACK frame's ECN-CE count so far
/// ack.is_cwnd_limited = true;
/// assert_eq!(ack.rtt_us, Some(25_000));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct Bbr3Ack {
    /// RFC 9002 `latest_rtt` of this ACK, µs (the RTT of the largest newly acknowledged
    /// packet, the most recently sent: §5.5.7.1), if the ACK gave one.
    pub rtt_us: Option<u64>,
    /// RFC 9002 `smoothed_rtt`, µs (0: none yet); seeds the initial pacing rate.
    pub srtt_us: u64,
    /// The ACK frame's ECN-CE count for this packet number space (cumulative, as
    /// RFC 9000 §19.3.2 sends it); 0 without ECN. A count below the last one is ignored.
    pub ecn_ce_count: u64,
    /// `C.is_cwnd_limited` (§2.2): the sender filled cwnd at some point in the last
    /// round (RFC 9002 §7.8's "congestion window limited").
    pub is_cwnd_limited: bool,
}

impl Bbr3Ack {
    /// An ACK with an RTT sample and nothing else (no ECN, not cwnd-limited).
    pub const fn with_rtt_us(rtt_us: u64) -> Self {
        Bbr3Ack {
            rtt_us: Some(rtt_us),
            srtt_us: rtt_us,
            ecn_ce_count: 0,
            is_cwnd_limited: false,
        }
    }
}

/// BBRv3 per draft-ietf-ccwg-bbr-06, in bytes, for QUIC (RFC 9002) and RFC-following
/// TCP stacks: `congestion::rfc::Bbr3`.
///
/// Call order, every call with the caller's monotonic `now`:
/// 1. [`on_packet_sent`](Self::on_packet_sent) for each ack-eliciting packet (or each
///    offload burst, treated as one packet): keep the returned [`TxSnapshot`] with the
///    packet, as RFC 9002 keeps `time_sent` and `sent_bytes`.
/// 2. On an ACK frame: [`on_packet_acked`](Self::on_packet_acked) for each newly
///    acknowledged packet ([`on_lost_packet_acked`](Self::on_lost_packet_acked) for one
///    already declared lost), then [`on_packet_lost`](Self::on_packet_lost) for each packet
///    (or burst) this ACK declared lost, then [`on_ack`](Self::on_ack) once.
/// 3. Losses found by a timer: [`on_packet_lost`](Self::on_packet_lost);
///    persistent congestion: [`on_persistent_congestion`](Self::on_persistent_congestion).
/// 4. When the application has nothing more to send:
///    [`on_app_limited`](Self::on_app_limited). A recovery found spurious:
///    [`on_spurious_loss`](Self::on_spurious_loss). Packets discarded with their
///    keys: [`on_packet_discarded`](Self::on_packet_discarded).
///
/// Read [`cwnd`](Self::cwnd), [`pacing_rate`](Self::pacing_rate) and
/// [`send_quantum`](Self::send_quantum) after any call.
///
/// Odd events are clamped: bytes acknowledged or lost beyond what is in flight leave 0
/// in flight; an ECN-CE count that goes down is ignored; an RTT of 0 is read as 1 µs.
///
/// ```
/// use congestion::linux::tcp::ReplayedRandom;
/// use congestion::rfc::{Bbr3, Bbr3Ack, Bbr3Config};
/// use congestion::Instant;
///
/// let params = Bbr3Config::quic(1200).validate()?;
/// let mut flow = Bbr3::new(&params, Instant::ZERO);
/// let mut rand = ReplayedRandom::<0>::new();
/// let mut tx = flow.on_packet_sent(Instant::ZERO, 0, 1200, &mut rand);
/// let now = Instant::from_micros(20_000);
/// flow.on_packet_acked(&mut tx, Instant::ZERO, 0, 1200);
/// flow.on_ack(&params, now, &Bbr3Ack::with_rtt_us(20_000), &mut rand);
/// assert!(flow.cwnd() >= params.min_pipe_cwnd());
/// assert!(flow.pacing_rate() > 0);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bbr3 {
    pub(super) m: Model,
    pub(super) s: Sampler,
    /// The rate sample being built for the current ACK (§4.1.2.3).
    pub(super) rs: RateSample,
    /// Bytes newly acknowledged and newly lost since the last [`Bbr3::on_ack`].
    pub(super) newly_acked: u32,
    pub(super) newly_lost: u32,
    /// Packets newly acknowledged since the last ACK, and the last ECN-CE count seen.
    pub(super) newly_acked_packets: u32,
    pub(super) ecn_ce_count: u64,
    /// `C.cwnd`, `C.pacing_rate` (bytes/s), `C.send_quantum` (bytes).
    pub(super) cwnd: u32,
    pub(super) pacing_rate: u64,
    pub(super) send_quantum: u32,
    /// Whether the first RTT sample has re-seeded the pacing rate (§5.6.2).
    pub(super) has_seen_rtt: bool,
    /// RFC 9002 §7.3.2 recovery: in it, and the first packet number sent after it began.
    pub(super) in_recovery: bool,
    /// A packet sent after the recovery began was acknowledged: the recovery ends
    /// when this ACK has been processed (§5.6.4.4: "during ACK processing").
    pub(super) recovery_exit_pending: bool,
    pub(super) recovery_point: u64,
    pub(super) recovery_round: u64,
    /// The next packet number the stack will send (largest sent + 1).
    pub(super) next_packet_number: u64,
    /// The last lost packet number (+1), to count discontiguous lost ranges (§5.3.1.3).
    pub(super) last_lost_end: u64,
}

// 416 bytes: the model (~250), the sampler (~60) and the rate sample of the ACK being
// processed (88), which the per-packet calls fill before `on_ack` ends it.
const _: () = assert!(core::mem::size_of::<Bbr3>() <= 416);

impl Bbr3 {
    /// `OnInit()` (§5.2.1): a flow in Startup with `C.cwnd` = `C.InitialCwnd`.
    pub fn new(p: &Bbr3Params, now: Instant) -> Self {
        let mut flow = Bbr3 {
            m: Model {
                min_rtt_us: u32::MAX,
                min_rtt_stamp: now,
                probe_rtt_min_us: u32::MAX,
                probe_rtt_min_stamp: now,
                extra_acked_interval_start: now,
                inflight_longterm: u32::MAX,
                probe_up_acked_per_inc: u32::MAX,
                ack_phase: AckPhase::Init,
                ecn_alpha: GAIN_UNIT as u16,
                ..Model::default()
            },
            s: Sampler {
                min_rtt_us: u32::MAX,
                ..Sampler::default()
            },
            rs: RateSample::default(),
            newly_acked: 0,
            newly_lost: 0,
            newly_acked_packets: 0,
            ecn_ce_count: 0,
            cwnd: p.config().initial_cwnd,
            pacing_rate: 0,
            send_quantum: 2 * p.smss(),
            has_seen_rtt: false,
            in_recovery: false,
            recovery_exit_pending: false,
            recovery_point: 0,
            recovery_round: 0,
            next_packet_number: 0,
            last_lost_end: 0,
        };
        flow.reset_congestion_signals();
        flow.reset_short_term_model();
        flow.reset_full_bw();
        flow.init_pacing_rate(p, 0);
        flow.enter_startup();
        flow
    }

    pub(super) const fn stamp(now: Instant) -> u64 {
        now.as_micros().saturating_add(1)
    }

    /// `OnTransmit()` and `OnPacketSent()` (§5.2.2, §4.1.2.2): a packet (or offload
    /// burst) of `bytes` with `packet_number` leaves now. Returns its snapshot, whose
    /// `in_flight` is `C.inflight` including it.
    /// `rand` is drawn only when a restart ends ProbeRTT (into ProbeBW_DOWN).
    pub fn on_packet_sent<R: RandomSource>(
        &mut self,
        now: Instant,
        packet_number: u64,
        bytes: u32,
        rand: &mut R,
    ) -> TxSnapshot {
        self.handle_restart_from_idle(now, rand);
        self.s.mstamp = Self::stamp(now);
        // draft-ietf-ccwg-bbr §4.1.2.2 OnPacketSent(): the kernel's tcp_rate_skb_sent()
        let mut tx = tcp_rate_skb_sent(&mut self.s, Self::stamp(now));
        self.s.inflight = self.s.inflight.saturating_add(bytes);
        // draft-ietf-ccwg-bbr §4.1.2.2: P.tx_in_flight = C.inflight, including P
        tx.set_in_flight_bytes(self.s.inflight);
        self.next_packet_number = self.next_packet_number.max(packet_number.saturating_add(1));
        tx
    }

    /// `UpdateRateSample(P)` (§4.1.2.3) for one newly acknowledged packet sent at
    /// `sent` with `packet_number` and `bytes`. A snapshot already used is ignored. A
    /// packet already reported lost goes to [`Self::on_lost_packet_acked`] instead.
    pub fn on_packet_acked(
        &mut self,
        tx: &mut TxSnapshot,
        sent: Instant,
        packet_number: u64,
        bytes: u32,
    ) {
        self.packet_delivered(tx, sent, packet_number, bytes, true);
    }

    /// A packet reported lost earlier is acknowledged after all (a spurious loss, RFC
    /// 9002 §6.1's late ACK): it counts as delivered (§2.2: C.delivered SHOULD include
    /// it) but left `C.inflight` when it was declared lost.
    pub fn on_lost_packet_acked(
        &mut self,
        tx: &mut TxSnapshot,
        sent: Instant,
        packet_number: u64,
        bytes: u32,
    ) {
        self.packet_delivered(tx, sent, packet_number, bytes, false);
    }

    fn packet_delivered(
        &mut self,
        tx: &mut TxSnapshot,
        sent: Instant,
        packet_number: u64,
        bytes: u32,
        in_flight: bool,
    ) {
        if tx.delivered_mstamp == 0 {
            return;
        }
        if in_flight {
            self.s.inflight = self.s.inflight.saturating_sub(bytes);
        }
        // draft-ietf-ccwg-bbr §4.1.2.3 UpdateRateSample(): C.delivered += P.data_length
        self.s.delivered = self.s.delivered.wrapping_add(bytes);
        self.newly_acked = self.newly_acked.saturating_add(bytes);
        self.newly_acked_packets = self.newly_acked_packets.saturating_add(1);
        // The packet number stands in for TCP's end sequence in IsNewestPacket(): it is
        // compared modulo 2^32, so one ACK's packets must lie within 2^31 of each other.
        tcp_rate_skb_delivered(
            &mut self.s,
            tx,
            Self::stamp(sent),
            packet_number as u32,
            skb::SACKED_ACKED,
            &mut self.rs,
        );
        if self.in_recovery && packet_number >= self.recovery_point {
            self.recovery_exit_pending = true;
        }
    }

    /// `UpdateOnACK()` (§5.2.3): ends the ACK whose packets were handed to
    /// [`Self::on_packet_acked`] (and its losses to [`Self::on_packet_lost`]).
    pub fn on_ack<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        ack: &Bbr3Ack,
        rand: &mut R,
    ) {
        self.s.mstamp = Self::stamp(now);
        if let Some(rtt) = ack.rtt_us {
            let rtt = rtt.clamp(1, u64::from(u32::MAX - 1)) as u32;
            // draft-ietf-ccwg-bbr §4.1.2.1.1 C.min_rtt: the lifetime minimum, for the sampler's plausibility test
            self.s.min_rtt_us = self.s.min_rtt_us.min(rtt);
            self.rs.rtt_us = i64::from(rtt);
        } else {
            self.rs.rtt_us = -1;
        }
        if !self.has_seen_rtt && ack.srtt_us != 0 {
            self.has_seen_rtt = true;
            self.init_pacing_rate(p, ack.srtt_us);
        }
        // RFC 9002 §7.1: an increase of the ECN-CE count is newly CE-marked packets
        let new_ce = ack.ecn_ce_count.saturating_sub(self.ecn_ce_count);
        self.ecn_ce_count = self.ecn_ce_count.max(ack.ecn_ce_count);
        // draft-ietf-ccwg-bbr §4.1.2.3 GenerateRateSample(): the kernel's tcp_rate_gen()
        tcp_rate_gen(
            &mut self.s,
            self.newly_acked,
            self.newly_lost,
            false,
            &mut self.rs,
        );
        let newly_acked = self.newly_acked;
        let packets = self.newly_acked_packets;
        self.note_ecn(new_ce.min(u64::from(u32::MAX)) as u32, packets);

        self.update_model_and_state(p, now, ack.is_cwnd_limited, rand);
        if self.recovery_exit_pending {
            self.recovery_exit_pending = false;
            self.exit_recovery();
        }
        self.update_control_parameters(p, newly_acked);

        self.rs = RateSample::default();
        self.newly_acked = 0;
        self.newly_lost = 0;
        self.newly_acked_packets = 0;
    }

    /// `UpdateModelAndState()` (§5.2.3), in the draft's order.
    fn update_model_and_state<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        is_cwnd_limited: bool,
        rand: &mut R,
    ) {
        let rate = self.delivery_rate();
        self.update_latest_delivery_signals(rate);
        self.update_congestion_signals(p, rate);
        self.update_ack_aggregation(now);
        self.check_full_bw_reached(rate);
        self.check_startup_done(p);
        self.check_drain_done(p, now, rand);
        self.update_probe_bw_cycle_phase(p, now, rate, is_cwnd_limited, rand);
        self.update_min_rtt(now);
        self.check_probe_rtt(p, now, rand);
        self.advance_latest_delivery_signals(rate);
        self.bound_bw_for_model();
        self.end_ecn_round();
    }

    /// `UpdateControlParameters()` (§5.2.3).
    fn update_control_parameters(&mut self, p: &Bbr3Params, newly_acked: u32) {
        self.set_pacing_rate_with_gain(self.m.pacing_gain);
        self.set_send_quantum(p);
        self.set_cwnd(p, newly_acked);
    }

    /// `HandleLostPacket(P)` (§5.2.4, §5.5.10.2) for a lost packet, or an offload burst
    /// of `bytes` whose newest packet has snapshot `tx` and number `packet_number`.
    /// Starts an RFC 9002 recovery period (`OnEnterFastRecovery()`, §5.6.4.4) unless the
    /// packet was sent before the current one began.
    pub fn on_packet_lost<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        tx: &TxSnapshot,
        packet_number: u64,
        bytes: u32,
        rand: &mut R,
    ) {
        self.s.mstamp = Self::stamp(now);
        self.s.inflight = self.s.inflight.saturating_sub(bytes);
        // draft-ietf-ccwg-bbr §2.2 C.lost counts the lost bytes before HandleLostPacket() reads it
        self.s.lost = self.s.lost.wrapping_add(bytes);
        self.newly_lost = self.newly_lost.saturating_add(bytes);
        // draft-ietf-ccwg-bbr §5.3.1.3: count discontiguous lost ranges of packet numbers
        if packet_number != self.last_lost_end || self.m.lost_ranges_in_round == 0 {
            self.m.lost_ranges_in_round = self.m.lost_ranges_in_round.saturating_add(1);
        }
        self.last_lost_end = packet_number.saturating_add(1);
        // RFC 9002 §7.3.2: a loss of a packet sent before the recovery began starts none
        if !self.in_recovery || packet_number >= self.recovery_point {
            self.enter_fast_recovery();
        }
        self.handle_lost_packet(p, now, tx, bytes, rand);
    }

    /// RFC 9002 §7.3.2: a recovery period begins; `OnEnterFastRecovery()` (§5.6.4.4).
    fn enter_fast_recovery(&mut self) {
        self.recovery_exit_pending = false;
        self.save_cwnd();
        self.save_state_upon_loss();
        self.in_recovery = true;
        self.recovery_point = self.next_packet_number;
        self.recovery_round = self.m.round_count;
    }

    /// The recovery period ended (a packet sent after it began was acknowledged):
    /// `RestoreCwnd()` (§5.6.4.4).
    fn exit_recovery(&mut self) {
        self.in_recovery = false;
        self.restore_cwnd();
    }

    /// RFC 9002 §7.6.2 persistent congestion, the draft's `OnEnterRTO()` (§5.6.4.4):
    /// save the model for an undo, then `C.cwnd = C.inflight + 1 SMSS`.
    pub fn on_persistent_congestion(&mut self, p: &Bbr3Params) {
        self.save_cwnd();
        self.save_state_upon_loss();
        // draft-ietf-ccwg-bbr §5.6.4.4 OnEnterRTO(): C.cwnd = C.inflight + 1 (one SMSS)
        self.cwnd = self.s.inflight.saturating_add(p.smss());
        self.reset_full_bw();
    }

    /// `HandleSpuriousLossDetection()` (§5.2.5, §5.5.11.2): the last recovery was
    /// spurious (e.g. an RFC 9002 loss later acknowledged, as quinn and s2n-quic detect).
    pub fn on_spurious_loss(&mut self) {
        self.in_recovery = false;
        self.recovery_exit_pending = false;
        self.handle_spurious_loss_detection();
    }

    /// `CheckIfApplicationLimited()` (§4.1.2.4), as a QUIC stack marks it: call when
    /// the application has no data to send and nothing is queued below the transport.
    /// Marks the flow app-limited if `C.inflight < C.cwnd`.
    pub fn on_app_limited(&mut self) {
        if self.s.inflight < self.cwnd {
            self.s.mark_app_limited();
        }
    }

    /// Packets of `bytes` left flight without an ACK or a loss (RFC 9002 §6.4 discarded
    /// keys): only `C.inflight` shrinks.
    pub fn on_packet_discarded(&mut self, bytes: u32) {
        self.s.inflight = self.s.inflight.saturating_sub(bytes);
    }

    /// `C.cwnd`, bytes: never below one SMSS, and at least `BBR.MinPipeCwnd` after an ACK.
    pub const fn cwnd(&self) -> u32 {
        self.cwnd
    }

    /// `C.pacing_rate`, bytes per second (at least 1).
    pub const fn pacing_rate(&self) -> u64 {
        self.pacing_rate
    }

    /// `C.send_quantum`, bytes (§5.6.3).
    pub const fn send_quantum(&self) -> u32 {
        self.send_quantum
    }

    /// The RFC 9002 recovery period under way, by the first packet number sent after
    /// it began (`None`: not in recovery).
    pub const fn recovery_point(&self) -> Option<u64> {
        if self.in_recovery {
            Some(self.recovery_point)
        } else {
            None
        }
    }

    /// `BBR.state`.
    pub const fn state(&self) -> State {
        self.m.state
    }

    /// `C.inflight`, bytes, as this flow counts it.
    pub const fn bytes_in_flight(&self) -> u32 {
        self.s.inflight
    }

    /// `BBR.bw`, bytes per µs << 16 ([`super::BW_UNIT`]).
    pub const fn bw(&self) -> u32 {
        self.m.bw
    }

    /// `BBR.max_bw`, bytes per µs << 16.
    pub const fn max_bw(&self) -> u32 {
        let [a, b] = self.m.max_bw_filter;
        if a > b { a } else { b }
    }

    /// `BBR.min_rtt`, µs (`None` before any sample).
    pub const fn min_rtt_us(&self) -> Option<u32> {
        if self.m.min_rtt_us == u32::MAX {
            None
        } else {
            Some(self.m.min_rtt_us)
        }
    }

    /// `BBR.inflight_longterm`, bytes (`None`: Infinity).
    pub const fn inflight_longterm(&self) -> Option<u32> {
        if self.m.inflight_longterm == u32::MAX {
            None
        } else {
            Some(self.m.inflight_longterm)
        }
    }

    /// `BBR.inflight_shortterm`, bytes (`None`: Infinity).
    pub const fn inflight_shortterm(&self) -> Option<u32> {
        if self.m.inflight_shortterm == u32::MAX {
            None
        } else {
            Some(self.m.inflight_shortterm)
        }
    }

    /// `BBR.bw_shortterm`, bytes per µs << 16 (`None`: Infinity).
    pub const fn bw_shortterm(&self) -> Option<u32> {
        if self.m.bw_shortterm == u32::MAX {
            None
        } else {
            Some(self.m.bw_shortterm)
        }
    }

    /// `BBR.full_bw_reached`.
    pub const fn full_bw_reached(&self) -> bool {
        self.m.full_bw_reached
    }

    /// `BBR.round_count`.
    pub const fn round_count(&self) -> u64 {
        self.m.round_count
    }

    /// `BBR.pacing_gain` and `BBR.cwnd_gain`, /256.
    pub const fn gains(&self) -> (u32, u32) {
        (self.m.pacing_gain, self.m.cwnd_gain)
    }

    /// The ECN EWMA `ecn_alpha` (/256), the kernel's.
    pub const fn ecn_alpha(&self) -> u16 {
        self.m.ecn_alpha
    }

    /// `InitPacingRate()` (§5.6.2): `StartupPacingGain × C.InitialCwnd / (srtt or 1 ms)`.
    pub(super) fn init_pacing_rate(&mut self, p: &Bbr3Params, srtt_us: u64) {
        let rtt_us = if srtt_us == 0 { 1000 } else { srtt_us };
        // draft-ietf-ccwg-bbr §5.6.2 InitPacingRate(): nominal_bandwidth = InitialCwnd / srtt
        let bw = (u64::from(p.config().initial_cwnd) << super::params::BW_SCALE) / rtt_us.max(1);
        let bw = bw.min(u64::from(u32::MAX)) as u32;
        self.pacing_rate = super::control::rate_for(bw, STARTUP_PACING_GAIN);
    }

    /// Whether an invariant of the draft is broken (for fuzzing and property tests):
    /// cwnd below one SMSS, a zero pacing rate, or `bw` above `max_bw`.
    pub fn invariants(&self, p: &Bbr3Params) -> Result<(), &'static str> {
        if self.cwnd < p.smss() {
            return Err("cwnd below one SMSS");
        }
        if self.pacing_rate == 0 {
            return Err("pacing rate zero");
        }
        if self.m.bw > self.max_bw() {
            return Err("bw above max_bw");
        }
        Ok(())
    }

    /// `EnterStartup()` (§5.3.1.1).
    pub(super) fn enter_startup(&mut self) {
        self.m.state = State::Startup;
        self.m.pacing_gain = STARTUP_PACING_GAIN;
        self.m.cwnd_gain = super::params::DEFAULT_CWND_GAIN;
    }
}
