//! The CSV row of BBR v1's replay: every column of `shared/conformance/linux-bbr`.

use crate::Row;
use congestion::Instant;
use congestion::linux::bbr::{BbrParams, BbrState, bbr_bw, bbr_tso_segs_goal};
use congestion::linux::tcp::{RateSample, TcpSock};
use core::fmt::{self, Write};

/// `0`/`1` for a flag.
fn b(flag: bool) -> u8 {
    u8::from(flag)
}

/// Writes the row after an event: the socket, BBR's state, this event's sample and its
/// random draws (`value/ceil`, `-` for none).
pub(super) fn write_row<W: Write>(
    out: &mut W,
    row: Row<'_>,
    sk: &TcpSock,
    bbr: &BbrState,
    rs: &RateSample,
    params: &BbrParams,
    drawn: &[(u32, u32)],
) -> fmt::Result {
    let Row { idx, keyword, t_us } = row;
    let [s0, s1, s2] = bbr.bw.s;
    write!(
        out,
        "{idx},{keyword},{t_us},{},{},{},{},{},{},{},{},{},{},{},{},{},",
        Instant::from_micros(t_us).jiffies32(),
        sk.snd_cwnd,
        sk.snd_ssthresh,
        sk.sk_pacing_rate,
        sk.icsk_ca_state as u8,
        bbr.mode as u8,
        bbr_bw(bbr),
        s0.v,
        s1.v,
        s2.v,
        s0.t,
        s1.t,
        s2.t,
    )?;
    write!(
        out,
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},",
        bbr.min_rtt_us,
        bbr.min_rtt_stamp,
        b(bbr.full_bw_reached()),
        bbr.full_bw,
        bbr.full_bw_cnt,
        bbr.rtt_cnt,
        b(bbr.round_start()),
        bbr.next_rtt_delivered,
        bbr.pacing_gain,
        bbr.cwnd_gain,
        bbr.cycle_idx,
        bbr.cycle_mstamp,
        bbr.prior_cwnd,
        b(bbr.packet_conservation()),
        bbr.prev_ca_state as u8,
        b(bbr.idle_restart()),
        bbr.probe_rtt_done_stamp,
        b(bbr.probe_rtt_round_done()),
        b(bbr.has_seen_rtt()),
    )?;
    write!(
        out,
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},",
        b(bbr.lt_is_sampling()),
        bbr.lt_rtt_cnt,
        b(bbr.lt_use_bw()),
        bbr.lt_bw,
        bbr.lt_last_delivered,
        bbr.lt_last_stamp,
        bbr.lt_last_lost,
        bbr.ack_epoch_mstamp,
        bbr.ack_epoch_acked,
        bbr.extra_acked[0],
        bbr.extra_acked[1],
        bbr.extra_acked_win_rtts,
        b(bbr.extra_acked_win_idx()),
        bbr_tso_segs_goal(sk, params),
    )?;
    write!(
        out,
        "{},{},{},{},{},{},{},{},{},",
        rs.delivered,
        rs.interval_us,
        rs.acked_sacked,
        rs.losses,
        b(rs.is_app_limited),
        rs.rtt_us,
        rs.prior_in_flight,
        rs.prior_delivered,
        b(rs.is_retrans),
    )?;
    write!(
        out,
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},",
        sk.snd_una,
        sk.snd_nxt,
        sk.packets_out,
        sk.sacked_out,
        sk.lost_out,
        sk.retrans_out,
        sk.packets_in_flight(),
        sk.delivered,
        sk.lost,
        sk.app_limited,
        sk.first_tx_mstamp,
        sk.delivered_mstamp,
        sk.rate_delivered,
        sk.rate_interval_us,
        b(sk.rate_app_limited),
        sk.srtt_us,
        sk.tcp_min_rtt(),
        sk.tcp_wstamp_ns,
        sk.data_segs_out,
        sk.high_seq,
        b(sk.undo_marker),
        sk.prior_ssthresh,
        sk.icsk_retransmits,
        b(sk.is_cwnd_limited),
        sk.max_packets_out,
    )?;
    crate::draws::write_drawn(out, drawn)?;
    out.write_str("\n")
}
