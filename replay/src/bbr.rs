//! BBR v1 (`--cc bbr`): the socket model of `shared/conformance/linux-bbr/README.md`
//! around `congestion::linux::bbr`, with the kernel's delivery-rate sampler.
//!
//! The model's glue follows `tcp_ack()`, `tcp_transmit_skb()` and `tcp_enter_loss()`
//! in the simplified form the README states (no Disorder, F-RTO, automatic undo, TLP
//! or PRR; sequence numbers count segments). Per-segment state (the skb's departure
//! time, `sacked` bits and rate snapshot) lives in a fixed ring here, not in the
//! library; a trace that needs more than [`SCOREBOARD`] segments outstanding is an
//! error.

use crate::bbr_csv as csv;
use crate::bbr_model::{Settings, outstanding, range};
use crate::{Event, Mode, Problem, Row, zeros_after};
use congestion::Instant;
use congestion::linux::CaState;
use congestion::linux::bbr::{BbrConfig, BbrOps, BbrParams, BbrState};
use congestion::linux::tcp::ack_update_rtt::tcp_ack_update_rtt;
use congestion::linux::tcp::rate::{
    tcp_rate_check_app_limited, tcp_rate_gen, tcp_rate_skb_delivered, tcp_rate_skb_sent,
};
use congestion::linux::tcp::seq::{after, before};
use congestion::linux::tcp::skb::{EVER_RETRANS, LOST, SACKED_ACKED, SACKED_RETRANS};
use congestion::linux::tcp::{
    RateSample, TcpCongestionOps, TcpSock, tcp_enter_loss, tcp_enter_recovery, tcp_set_ca_state,
    tcp_transmit_skb, tcp_try_undo,
};
use core::fmt::{self, Write};

/// Segments the scoreboard holds.
pub const SCOREBOARD: usize = crate::scoreboard::CAPACITY;
/// Random draws one event may make and the row reports.
const MAX_DRAWS: usize = 8;

/// One outstanding segment: what the kernel keeps in its skb.
type Skb = crate::scoreboard::Segment;

/// The trace's `rand` queue, recording the draws of the current event.
type Draws = crate::draws::Draws<MAX_DRAWS>;

/// The replay state: settings, the socket, BBR and the scoreboard.
pub struct BbrReplay {
    settings: Settings,
    params: BbrParams,
    started: bool,
    sk: TcpSock,
    bbr: BbrState,
    skbs: crate::scoreboard::Scoreboard,
    draws: Draws,
    /// The sample of this event, if it was an `ack` (else all zero).
    rs: RateSample,
}

impl BbrReplay {
    /// The CSV header of `shared/conformance/linux-bbr`.
    pub const HEADER: &'static str = "idx,ev,t_us,jiffies,cwnd,ssthresh,pacing_rate,ca_state,mode,bw,max_bw,bw_s1,bw_s2,bw_t0,bw_t1,bw_t2,min_rtt_us,min_rtt_stamp,full_bw_reached,full_bw,full_bw_cnt,rtt_cnt,round_start,next_rtt_delivered,pacing_gain,cwnd_gain,cycle_idx,cycle_mstamp,prior_cwnd,packet_conservation,prev_ca_state,idle_restart,probe_rtt_done_stamp,probe_rtt_round_done,has_seen_rtt,lt_is_sampling,lt_rtt_cnt,lt_use_bw,lt_bw,lt_last_delivered,lt_last_stamp,lt_last_lost,ack_epoch_mstamp,ack_epoch_acked,extra_acked_0,extra_acked_1,extra_acked_win_rtts,extra_acked_win_idx,tso_segs_goal,rs_delivered,rs_interval_us,rs_acked_sacked,rs_losses,rs_is_app_limited,rs_rtt_us,rs_prior_in_flight,rs_prior_delivered,rs_is_retrans,snd_una,snd_nxt,packets_out,sacked_out,lost_out,retrans_out,in_flight,delivered,lost,app_limited,first_tx_mstamp,delivered_mstamp,rate_delivered,rate_interval_us,rate_app_limited,srtt_us,tcp_min_rtt,wstamp_ns,data_segs_out,high_seq,undo_marker,prior_ssthresh,retransmits,is_cwnd_limited,max_packets_out,rand_drawn";

    /// Before any event: the default settings, no socket.
    pub fn new() -> Self {
        BbrReplay {
            settings: Settings::new(),
            params: BbrParams::new(),
            started: false,
            sk: TcpSock::default(),
            bbr: BbrState::default(),
            skbs: crate::scoreboard::Scoreboard::default(),
            draws: Draws::new(),
            rs: RateSample::default(),
        }
    }

    /// The scoreboard slot of `seq`.
    fn skb(&mut self, seq: u32) -> Result<&mut Skb, Problem<'static>> {
        self.skbs
            .get_mut(seq)
            .ok_or(Problem::Model("scoreboard slot"))
    }

    /// Sets the socket's clocks to `t_us`.
    fn set_clock(&mut self, t_us: u64) {
        self.sk.set_clock(t_us);
    }

    /// `tcp_set_ca_state()`: the hook first, then the state.
    fn set_state(&mut self, state: CaState) {
        tcp_set_ca_state::<BbrOps, _>(
            &mut self.bbr,
            &mut self.sk,
            &self.params,
            state,
            &mut self.draws,
        );
    }

    /// Transmit step `X(skb)` of the README, for `seq`.
    fn transmit(&mut self, seq: u32) -> Result<(), Problem<'static>> {
        let sk = &mut self.sk;
        let departure_ns =
            tcp_transmit_skb::<BbrOps, _>(&mut self.bbr, sk, &self.params, &mut self.draws);
        let tx_us = departure_ns / 1000;
        let tx = tcp_rate_skb_sent(sk, tx_us);
        let skb = self.skb(seq)?;
        skb.tx_us = tx_us;
        skb.tx = tx;
        Ok(())
    }

    fn init_flow(&mut self, t_us: u64) -> Result<(), Problem<'static>> {
        let s = self.settings;
        let mut config = BbrConfig::new();
        config.mss = s.mss;
        config.init_cwnd = s.init_cwnd;
        config.cwnd_clamp = s.cwnd_clamp;
        config.initial_rtt_us = s.syn_rtt_us;
        config.max_pacing_rate = s.max_pacing_rate;
        config.pacing_status = s.pacing_status();
        config.pacing_shift = s.pacing_shift;
        config.max_tcp_header = s.max_tcp_header;
        self.params = config.validate().map_err(Problem::Config)?;
        self.sk = s.socket(t_us);
        self.skbs.clear();
        BbrOps::init(&mut self.bbr, &mut self.sk, &self.params, &mut self.draws);
        self.started = true;
        Ok(())
    }

    fn send<'a>(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let n: u32 = ev.int(1)?;
        match ev.arg(2) {
            None => {}
            Some("al") => {
                self.sk.write_seq = self.sk.snd_nxt;
                tcp_rate_check_app_limited(&mut self.sk, true);
            }
            Some(_) => return Err(Problem::Model("send: the only flag is `al`")),
        }
        for _ in 0..n {
            let seq = self.sk.snd_nxt;
            if self.sk.snd_nxt.wrapping_sub(self.sk.snd_una) >= SCOREBOARD as u32 {
                return Err(Problem::Model(
                    "more segments outstanding than the scoreboard holds",
                ));
            }
            *self.skb(seq)? = Skb::default();
            self.transmit(seq)?;
            let sk = &mut self.sk;
            sk.snd_nxt = sk.snd_nxt.wrapping_add(1);
            sk.write_seq = sk.snd_nxt;
            sk.packets_out = sk.packets_out.wrapping_add(1);
        }
        // tcp_cwnd_validate()'s bookkeeping (v1 never reads it)
        let sk = &mut self.sk;
        let lim = sk.packets_in_flight() >= sk.snd_cwnd;
        if (n > 0 || lim)
            && (!before(sk.snd_una, sk.cwnd_usage_seq)
                || lim
                || (!sk.is_cwnd_limited && sk.packets_out > sk.max_packets_out))
        {
            sk.is_cwnd_limited = lim;
            sk.max_packets_out = sk.packets_out;
            sk.cwnd_usage_seq = sk.snd_nxt;
        }
        Ok(())
    }

    fn rtx<'a>(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let mut i = 1;
        while let Some(word) = ev.arg(i) {
            let (a, b) = range(word)?;
            let mut seq = a;
            while seq != b {
                if !outstanding(&self.sk, seq) {
                    return Err(Problem::Model("rtx: segment not outstanding"));
                }
                if self.skb(seq)?.sacked & SACKED_ACKED != 0 {
                    return Err(Problem::Model("rtx: segment already SACKed"));
                }
                self.transmit(seq)?;
                self.skb(seq)?.sacked |= SACKED_RETRANS | EVER_RETRANS;
                self.sk.retrans_out = self.sk.retrans_out.wrapping_add(1);
                seq = seq.wrapping_add(1);
            }
            i += 1;
        }
        Ok(())
    }

    /// `tcp_mark_skb_lost()` on `seq`.
    fn mark_lost(&mut self, seq: u32) -> Result<(), Problem<'static>> {
        let skb = self.skb(seq)?;
        let sacked = skb.sacked;
        if sacked & SACKED_ACKED != 0 {
            return Ok(());
        }
        if sacked & LOST != 0 {
            if sacked & SACKED_RETRANS != 0 {
                skb.sacked &= !SACKED_RETRANS;
                self.sk.retrans_out = self.sk.retrans_out.wrapping_sub(1);
                self.sk.lost = self.sk.lost.wrapping_add(1);
            }
        } else {
            skb.sacked |= LOST;
            self.sk.lost_out = self.sk.lost_out.wrapping_add(1);
            self.sk.lost = self.sk.lost.wrapping_add(1);
        }
        Ok(())
    }

    fn ack<'a>(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let cum: u32 = ev.int(1)?;
        let rtt: i64 = ev.int(2)?;
        if before(cum, self.sk.snd_una) || after(cum, self.sk.snd_nxt) {
            return Err(Problem::Model("ack: CUM outside [snd_una, snd_nxt]"));
        }
        let (mut undo, mut delayed, mut ece) = (false, false, false);
        let mut i = 3;
        while let Some(word) = ev.arg(i) {
            match word {
                "undo" => undo = true,
                "delayed" => delayed = true,
                "ece" => ece = true,
                w if w.starts_with("sack=") || w.starts_with("lost=") => {}
                _ => return Err(Problem::Model("ack: unknown token")),
            }
            i += 1;
        }

        // 1. The sample starts empty.
        let mut rs = RateSample::default();
        let prior_delivered = self.sk.delivered;
        let prior_lost = self.sk.lost;
        rs.prior_in_flight = self.sk.packets_in_flight();

        // 2. SACK blocks (tcp_sacktag_one + tcp_rate_skb_delivered), seq by seq.
        let mut i = 3;
        while let Some(word) = ev.arg(i) {
            i += 1;
            let Some(block) = word.strip_prefix("sack=") else {
                continue;
            };
            let (a, b) = range(block)?;
            let mut seq = a;
            while seq != b {
                if !before(seq, cum) && before(seq, self.sk.snd_nxt) {
                    self.sack_one(seq, ece, &mut rs)?;
                }
                seq = seq.wrapping_add(1);
            }
        }

        // 3. The cumulative part (tcp_clean_rtx_queue).
        if after(cum, self.sk.snd_una) {
            self.sk.icsk_retransmits = 0;
        }
        let mut seq = self.sk.snd_una;
        while seq != cum {
            let skb = *self.skb(seq)?;
            let sk = &mut self.sk;
            if skb.sacked & SACKED_RETRANS != 0 {
                sk.retrans_out = sk.retrans_out.wrapping_sub(1);
            }
            if skb.sacked & SACKED_ACKED != 0 {
                sk.sacked_out = sk.sacked_out.wrapping_sub(1);
            } else {
                sk.delivered = sk.delivered.wrapping_add(1);
                if ece {
                    sk.delivered_ce = sk.delivered_ce.wrapping_add(1);
                }
            }
            if skb.sacked & LOST != 0 {
                sk.lost_out = sk.lost_out.wrapping_sub(1);
            }
            sk.packets_out = sk.packets_out.wrapping_sub(1);
            let mut tx = skb.tx;
            tcp_rate_skb_delivered(
                sk,
                &mut tx,
                skb.tx_us,
                seq.wrapping_add(1),
                skb.sacked,
                &mut rs,
            );
            seq = seq.wrapping_add(1);
        }
        self.sk.snd_una = cum;

        // 4. RTT (tcp_ack_update_rtt).
        rs.rtt_us = if rtt >= 0 { rtt } else { -1 };
        let sample = u32::try_from(rtt).ok();
        tcp_ack_update_rtt(&mut self.sk, sample, delayed);
        rs.is_ack_delayed = delayed;

        // 5. The simplified tcp_fastretrans_alert().
        if undo && self.sk.undo_marker {
            self.undo()?;
        }
        if matches!(self.sk.icsk_ca_state, CaState::Recovery | CaState::Loss)
            && !before(self.sk.snd_una, self.sk.high_seq)
        {
            self.set_state(CaState::Open);
        }
        let mut i = 3;
        while let Some(word) = ev.arg(i) {
            i += 1;
            let Some(block) = word.strip_prefix("lost=") else {
                continue;
            };
            let (a, b) = range(block)?;
            let mut seq = a;
            while seq != b {
                if outstanding(&self.sk, seq) {
                    self.mark_lost(seq)?;
                }
                seq = seq.wrapping_add(1);
            }
        }
        if (self.sk.icsk_ca_state as u8) < (CaState::Recovery as u8) && self.sk.lost_out > 0 {
            self.enter_recovery();
        }

        // 6. The rate sample, 7. BBR.
        let delivered = self.sk.delivered.wrapping_sub(prior_delivered);
        let lost = self.sk.lost.wrapping_sub(prior_lost);
        tcp_rate_gen(&mut self.sk, delivered, lost, false, &mut rs);
        BbrOps::cong_control(
            &mut self.bbr,
            &mut self.sk,
            &self.params,
            cum,
            0,
            &rs,
            &mut self.draws,
        );
        self.rs = rs;
        Ok(())
    }

    /// `tcp_sacktag_one()` and `tcp_rate_skb_delivered()` for one SACKed segment.
    fn sack_one(
        &mut self,
        seq: u32,
        ece: bool,
        rs: &mut RateSample,
    ) -> Result<(), Problem<'static>> {
        let mut skb = *self.skb(seq)?;
        let sk = &mut self.sk;
        if skb.sacked & SACKED_ACKED == 0 {
            if skb.sacked & SACKED_RETRANS != 0 {
                if skb.sacked & LOST != 0 {
                    skb.sacked &= !(LOST | SACKED_RETRANS);
                    sk.lost_out = sk.lost_out.wrapping_sub(1);
                    sk.retrans_out = sk.retrans_out.wrapping_sub(1);
                }
            } else if skb.sacked & LOST != 0 {
                skb.sacked &= !LOST;
                sk.lost_out = sk.lost_out.wrapping_sub(1);
            }
            skb.sacked |= SACKED_ACKED;
            sk.sacked_out = sk.sacked_out.wrapping_add(1);
            sk.delivered = sk.delivered.wrapping_add(1);
            if ece {
                sk.delivered_ce = sk.delivered_ce.wrapping_add(1);
            }
        }
        tcp_rate_skb_delivered(
            sk,
            &mut skb.tx,
            skb.tx_us,
            seq.wrapping_add(1),
            skb.sacked,
            rs,
        );
        *self.skb(seq)? = skb;
        Ok(())
    }

    /// The `undo` token: the LOST marks go when the state is Loss, then
    /// `tcp_undo_cwnd_reduction()` and the return to Open.
    fn undo(&mut self) -> Result<(), Problem<'static>> {
        if self.sk.icsk_ca_state == CaState::Loss {
            let mut seq = self.sk.snd_una;
            while seq != self.sk.snd_nxt {
                self.skb(seq)?.sacked &= !LOST;
                seq = seq.wrapping_add(1);
            }
        }
        tcp_try_undo::<BbrOps, _>(&mut self.bbr, &mut self.sk, &self.params, &mut self.draws);
        Ok(())
    }

    /// `tcp_enter_recovery()` from Open. The model saves `prior_ssthresh` even on an
    /// ECE ACK (the kernel does not; no v1 trace has one), so `ece_ack` is false here.
    fn enter_recovery(&mut self) {
        tcp_enter_recovery::<BbrOps, _>(
            &mut self.bbr,
            &mut self.sk,
            &self.params,
            false,
            &mut self.draws,
        );
    }

    /// `rto T`: every outstanding segment is marked lost (`tcp_timeout_mark_lost()`
    /// without RACK's exemption), `tcp_enter_loss()`, and the timer's retransmit count.
    fn rto(&mut self) -> Result<(), Problem<'static>> {
        let mut seq = self.sk.snd_una;
        while seq != self.sk.snd_nxt {
            self.mark_lost(seq)?;
            seq = seq.wrapping_add(1);
        }
        tcp_enter_loss::<BbrOps, _>(&mut self.bbr, &mut self.sk, &self.params, &mut self.draws);
        self.sk.icsk_retransmits = self.sk.icsk_retransmits.wrapping_add(1);
        Ok(())
    }
}

impl Default for BbrReplay {
    fn default() -> Self {
        Self::new()
    }
}

/// `A` or `A-B` (= `[A, B)`) of a `rtx`, `sack=` or `lost=` word.
impl<'a> Mode<'a> for BbrReplay {
    fn write_header<W: Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str(Self::HEADER)?;
        out.write_str("\n")
    }

    fn set(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        self.settings.set(ev.key()?, ev.int(1)?)
    }

    fn has_flow(&self) -> bool {
        self.started
    }

    fn init(&mut self, now: Instant, _ev: Option<&Event<'a>>) -> Result<(), Problem<'a>> {
        self.begin_event();
        self.init_flow(now.as_micros())?;
        self.end_event()
    }

    /// `rand V...`: queue the values for the next draws.
    fn untimed(&mut self, ev: &Event<'a>) -> Result<bool, Problem<'a>> {
        if ev.keyword != "rand" {
            return Ok(false);
        }
        self.begin_event();
        self.draws.queue_line(ev)?;
        Ok(true)
    }

    fn event(&mut self, now: Instant, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        self.begin_event();
        self.set_clock(now.as_micros());
        match ev.keyword {
            "send" => self.send(ev)?,
            "rtx" => self.rtx(ev)?,
            "ack" => self.ack(ev)?,
            "rto" => self.rto()?,
            other => return Err(Problem::UnknownEvent(other)),
        }
        self.end_event()
    }

    fn write_row<W: Write>(&mut self, out: &mut W, row: Row<'_>) -> fmt::Result {
        if !self.started {
            zeros_after(out, row.idx, row.keyword, 81)?;
            return out.write_str(",-\n");
        }
        let drawn = self.draws.drawn();
        csv::write_row(out, row, &self.sk, &self.bbr, &self.rs, &self.params, drawn)
    }
}

impl BbrReplay {
    /// A new event: no sample, no draws yet.
    fn begin_event(&mut self) {
        self.rs = RateSample::default();
        self.draws.begin_event();
    }

    /// A draw from an empty `rand` queue is an error.
    fn end_event(&self) -> Result<(), Problem<'static>> {
        self.draws.check()
    }
}
