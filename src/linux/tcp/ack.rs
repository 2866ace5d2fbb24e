//! `tcp_ack()`: one incoming ACK through the glue, in the kernel's order.

use crate::linux::CaState;
use crate::linux::tcp::ack_update_rtt::tcp_ack_update_rtt;
use crate::linux::tcp::ca_state::tcp_fastretrans_alert;
use crate::linux::tcp::cong_control::{TcpSysctl, tcp_cong_control};
use crate::linux::tcp::{RandomSource, RateSample, TcpCongestionOps, TcpSock, ack_flags, after};

/// What one ACK reports, in segments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TcpAck {
    /// Segments newly acknowledged (cumulatively): `snd_una` moves by this much.
    pub acked: u32,
    /// The ACK's RTT sample, µs (`None`: no sample, e.g. the segment was retransmitted).
    pub rtt_us: Option<u32>,
    /// Segments newly reported CE-marked (AccECN's CE delta); may exceed `acked`.
    pub ce_delta: u32,
    /// The ACK carries ECN-Echo although `ce_delta` is 0.
    pub ece: bool,
}

/// How [`tcp_ack`] treated an ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AckOutcome {
    /// It acknowledged data never sent (beyond `snd_nxt`): discarded, nothing changed.
    Discarded,
    /// Nothing was in flight (`no_queue`): only `snd_una` and `in_ack_event` ran.
    NoQueue,
    /// Processed in full.
    Processed,
}

/// One ACK, in the order of `tcp_ack()`:
///
/// 1. an ACK beyond `snd_nxt` is discarded;
/// 2. `snd_una` advances (clearing `icsk_retransmits`); with nothing in flight before
///    it, only `in_ack_event` runs (the kernel's `no_queue` path);
/// 3. the retransmit queue is cleaned: `packets_out`, `delivered`, the srtt sample,
///    then `pkts_acked` (also on an ACK that acknowledged nothing new);
/// 4. AccECN: the CE delta joins `delivered_ce` and raises `FLAG_ECE`;
/// 5. `in_ack_event`;
/// 6. a dubious ACK (no new data acknowledged, an ECN echo, or a state other than
///    Open) runs the state machine ([`tcp_fastretrans_alert`]);
/// 7. [`tcp_cong_control`].
///
/// The caller transmits afterwards ([`tcp_write_xmit`](super::tcp_write_xmit)). An
/// `acked` beyond what is in flight empties the flight; a CE delta above `acked` is
/// accepted (AccECN may report marks of earlier, lost ACKs).
// Linux net/ipv4/tcp_input.c tcp_ack()
pub fn tcp_ack<O: TcpCongestionOps, R: RandomSource>(
    ca: &mut O::Ca,
    sk: &mut TcpSock,
    p: &O::Params,
    sysctl: &TcpSysctl,
    ack: &TcpAck,
    rand: &mut R,
) -> AckOutcome {
    let new_una = sk.snd_una.wrapping_add(ack.acked);
    if after(new_una, sk.snd_nxt) {
        return AckOutcome::Discarded;
    }
    let prior_packets = sk.packets_out;
    let mut flag = 0;
    if ack.acked > 0 {
        sk.icsk_retransmits = 0;
        flag |= ack_flags::SND_UNA_ADVANCED;
    }
    sk.snd_una = new_una;
    if prior_packets == 0 {
        O::in_ack_event(ca, sk, p, flag);
        return AckOutcome::NoQueue;
    }
    // Linux tcp_clean_rtx_queue(): the acknowledged segments leave the flight
    if ack.acked > 0 {
        sk.packets_out = sk.packets_out.saturating_sub(ack.acked);
        sk.delivered = sk.delivered.wrapping_add(ack.acked);
        flag |= ack_flags::DATA_ACKED;
    }
    // Linux tcp_ack_update_rtt(): the windowed min RTT and srtt
    tcp_ack_update_rtt(sk, ack.rtt_us, false);
    // Linux tcp_clean_rtx_queue(): pkts_acked with the sample as an s32 (-1: none)
    let rtt_s32 = ack.rtt_us.map_or(-1, |rtt| rtt.min(i32::MAX as u32) as i32);
    O::pkts_acked(ca, sk, p, ack.acked, rtt_s32, prior_packets);
    // Linux tcp_accecn_process(): the CE delta, and FLAG_ECE when positive
    sk.delivered_ce = sk.delivered_ce.wrapping_add(ack.ce_delta);
    if ack.ce_delta > 0 || ack.ece {
        flag |= ack_flags::ECE;
    }
    O::in_ack_event(ca, sk, p, flag);
    // Linux tcp_ack_is_dubious(): no new data, an alert flag, or not Open
    if ack.acked == 0 || flag & ack_flags::ECE != 0 || sk.icsk_ca_state != CaState::Open {
        tcp_fastretrans_alert::<O, R>(ca, sk, p, flag, rand);
    }
    // Only the fields this glue knows: no delivery-rate sample (`tcp_rate_gen()`).
    let rs = RateSample {
        acked_sacked: ack.acked,
        ece_delta: ack.ce_delta,
        is_ece: flag & ack_flags::ECE != 0,
        prior_in_flight: prior_packets,
        delivered: -1,
        interval_us: -1,
        rtt_us: ack.rtt_us.map_or(-1, i64::from),
        ..RateSample::default()
    };
    tcp_cong_control::<O, R>(ca, sk, p, sysctl, sk.snd_una, flag, &rs, rand);
    AckOutcome::Processed
}
