//! BBRv3 (`--cc bbr3`): the socket model of `shared/conformance/linux-bbr3/README.md`
//! (the v1 model of `linux-bbr/README.md` with v3's changes) driven through
//! `congestion::linux::bbr3` and the shared rate sampler of `congestion::linux::tcp`.
//!
//! Segments count as one skb each (`pcount` 1); the outstanding ones live in a
//! fixed-capacity [`Scoreboard`]. The model's deliberate simplifications (no Disorder,
//! no F-RTO, no automatic undo, no TLP) are the README's, not the kernel's.

use crate::bbr_model::{Settings, outstanding, range};
use crate::scoreboard::{CAPACITY, Scoreboard, Segment};
use crate::{Event, Mode, Problem, Row, running};
use congestion::Instant;
use congestion::linux::CaState;
use congestion::linux::bbr3::{
    self, Bbr, Bbr3Config, Bbr3Params, CyclePhase, FastPath, Mode as BbrMode, Sample, TcpBbr3,
};
use congestion::linux::tcp::ack_update_rtt::{tcp_rtt_estimator_srtt, tcp_update_rtt_min};
use congestion::linux::tcp::rate::{
    tcp_rate_check_app_limited, tcp_rate_gen, tcp_rate_skb_delivered, tcp_rate_skb_sent_v3,
};
use congestion::linux::tcp::seq::{after, before};
use congestion::linux::tcp::{
    RandomSource, RateSample, TcpCongestionOps, TcpSock, ecn_flags, skb, tcp_enter_cwr,
    tcp_enter_loss, tcp_enter_recovery, tcp_set_ca_state, tcp_transmit_skb, tcp_try_undo,
};
use core::fmt::{self, Write};

/// The CSV header of the reference traces.
const HEADER: &str = "idx,ev,t_us,jiffies,cwnd,ssthresh,pacing_rate,ca_state,mode,cycle_idx,phase,bw,max_bw,bw_hi_0,bw_hi_1,bw_lo,bw_latest,inflight_hi,inflight_lo,inflight_latest,min_rtt_us,min_rtt_stamp,probe_rtt_min_us,probe_rtt_min_stamp,probe_rtt_done_stamp,probe_rtt_round_done,full_bw_reached,full_bw_now,full_bw,full_bw_cnt,next_rtt_delivered,round_start,rounds_since_probe,probe_wait_us,cycle_mstamp,bw_probe_up_rounds,bw_probe_up_cnt,bw_probe_up_acks,bw_probe_samples,prev_probe_too_high,stopped_risky_probe,ack_phase,loss_round_delivered,loss_round_start,loss_in_round,ecn_in_round,loss_in_cycle,ecn_in_cycle,loss_events_in_round,startup_ecn_rounds,ecn_eligible,ecn_alpha,alpha_last_delivered,alpha_last_delivered_ce,undo_bw_lo,undo_inflight_lo,undo_inflight_hi,pacing_gain,cwnd_gain,prior_cwnd,prev_ca_state,idle_restart,has_seen_rtt,try_fast_path,init_cwnd,ack_epoch_mstamp,ack_epoch_acked,extra_acked_0,extra_acked_1,extra_acked_win_rtts,extra_acked_win_idx,tso_segs_goal,rs_delivered,rs_interval_us,rs_acked_sacked,rs_losses,rs_lost,rs_tx_in_flight,rs_delivered_ce,rs_is_ece,rs_is_app_limited,rs_rtt_us,rs_prior_in_flight,rs_prior_delivered,rs_is_retrans,snd_una,snd_nxt,packets_out,sacked_out,lost_out,retrans_out,in_flight,delivered,delivered_ce,lost,app_limited,first_tx_mstamp,delivered_mstamp,rate_delivered,rate_interval_us,rate_app_limited,srtt_us,tcp_min_rtt,wstamp_ns,data_segs_out,high_seq,undo_marker,prior_ssthresh,retransmits,is_cwnd_limited,max_packets_out,cwnd_usage_seq,fast_path,lost_skb_ihi,rand_drawn";

/// Draws one event may record for the `rand_drawn` column.
const MAX_DRAWS: usize = 16;

/// The trace's `rand` queue, recording the draws of the current event.
type Draws = crate::draws::Draws<MAX_DRAWS>;

/// What one event leaves for its row besides the socket and BBR state.
#[derive(Clone, Copy, Debug, Default)]
struct EventTrace {
    /// The ACK's rate sample (zero for other events and `no_queue` ACKs).
    rs: RateSample,
    fast_path: FastPath,
    lost_skb_ihi: u32,
}

/// The running connection.
struct Flow {
    sk: TcpSock,
    bbr: Bbr,
    params: Bbr3Params,
    board: Scoreboard,
    trace: EventTrace,
}

/// BBRv3 replay state.
pub struct Bbr3Replay {
    settings: Settings,
    draws: Draws,
    flow: Option<Flow>,
}

impl Bbr3Replay {
    /// Before any event: the README's defaults, no socket.
    pub(crate) fn new() -> Self {
        Bbr3Replay {
            settings: Settings::new(),
            draws: Draws::new(),
            flow: None,
        }
    }
}

impl Flow {
    /// `init T`: a fresh socket from `settings`, then `bbr_init`.
    fn new(settings: &Settings, t_us: u64) -> Result<Self, Problem<'static>> {
        let mut sk = settings.socket(t_us);
        // The hooks read everything else from the socket.
        let mut config = Bbr3Config::new();
        config.max_tcp_header = settings.max_tcp_header;
        let params = config.validate().map_err(Problem::Config)?;
        let mut bbr = Bbr::default();
        let min_rtt = sk.tcp_min_rtt();
        bbr3::bbr_init(&mut bbr, &mut sk, min_rtt);
        Ok(Flow {
            sk,
            bbr,
            params,
            board: Scoreboard::default(),
            trace: EventTrace::default(),
        })
    }

    /// `tcp_set_ca_state()` through BBR's `set_state` hook.
    fn set_state<R: RandomSource>(&mut self, state: CaState, rand: &mut R) {
        tcp_set_ca_state::<TcpBbr3, R>(&mut self.bbr, &mut self.sk, &self.params, state, rand);
    }

    /// Transmit step `X(skb)` for segment `seq` (new or retransmitted).
    fn transmit<R: RandomSource>(&mut self, seq: u32, rand: &mut R) {
        let sk = &mut self.sk;
        let mstamp_ns = tcp_transmit_skb::<TcpBbr3, R>(&mut self.bbr, sk, &self.params, rand);
        let tx_us = mstamp_ns / 1000;
        let tx = tcp_rate_skb_sent_v3(sk, tx_us, 1);
        let sacked = self.board.get(seq).sacked;
        let fresh = seq == self.sk.snd_nxt;
        self.board.put(
            seq,
            Segment {
                tx_us,
                sacked: if fresh { 0 } else { sacked },
                tx,
            },
        );
    }

    /// `tcp_rate_check_app_limited()` when the trace says both host-side tests hold.
    fn check_app_limited(&mut self, al: bool) {
        if al {
            self.sk.write_seq = self.sk.snd_nxt;
            tcp_rate_check_app_limited(&mut self.sk, true);
        }
    }

    /// `send T N [al]`.
    fn send<R: RandomSource>(
        &mut self,
        n: u32,
        al: bool,
        rand: &mut R,
    ) -> Result<(), Problem<'static>> {
        self.check_app_limited(al);
        for _ in 0..n {
            if !Scoreboard::has_room(self.sk.snd_una, self.sk.snd_nxt) {
                return Err(Problem::ScoreboardFull(CAPACITY));
            }
            let seq = self.sk.snd_nxt;
            self.transmit(seq, rand);
            self.sk.snd_nxt = seq.wrapping_add(1);
            self.sk.write_seq = self.sk.snd_nxt;
            self.sk.packets_out = self.sk.packets_out.wrapping_add(1);
        }
        // tcp_cwnd_validate()
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

    /// `rtx T R...`.
    fn rtx<'a, R: RandomSource>(
        &mut self,
        ev: &Event<'a>,
        rand: &mut R,
    ) -> Result<(), Problem<'a>> {
        for word in ev.words().skip(1) {
            let (a, b) = range(word)?;
            let mut seq = a;
            while before(seq, b) {
                if !outstanding(&self.sk, seq)
                    || self.board.get(seq).sacked & skb::SACKED_ACKED != 0
                {
                    return Err(Problem::NotOutstanding(seq));
                }
                self.transmit(seq, rand);
                if let Some(s) = self.board.get_mut(seq) {
                    s.sacked |= skb::SACKED_RETRANS | skb::EVER_RETRANS;
                }
                self.sk.retrans_out = self.sk.retrans_out.wrapping_add(1);
                seq = seq.wrapping_add(1);
            }
        }
        Ok(())
    }

    /// `tcp_mark_skb_lost()` then `tcp_notify_skb_loss_event()` (counter, then BBR's hook).
    fn mark_lost<R: RandomSource>(&mut self, seq: u32, rand: &mut R) {
        let Some(seg) = self.board.get_mut(seq) else {
            return;
        };
        if seg.sacked & skb::SACKED_ACKED != 0 {
            return;
        }
        if seg.sacked & skb::LOST != 0 {
            if seg.sacked & skb::SACKED_RETRANS == 0 {
                return;
            }
            seg.sacked &= !skb::SACKED_RETRANS;
            self.sk.retrans_out = self.sk.retrans_out.wrapping_sub(1);
        } else {
            seg.sacked |= skb::LOST;
            self.sk.lost_out = self.sk.lost_out.wrapping_add(1);
        }
        let tx = seg.tx;
        self.sk.lost = self.sk.lost.wrapping_add(1);
        let before_hi = self.bbr.inflight_hi;
        TcpBbr3::skb_marked_lost(&mut self.bbr, &mut self.sk, &self.params, &tx, 1, rand);
        if self.bbr.inflight_hi != before_hi {
            self.trace.lost_skb_ihi = self.bbr.inflight_hi;
        }
    }

    /// `rto T [al]`: `tcp_rate_check_app_limited()`, then `tcp_enter_loss()`.
    fn rto<R: RandomSource>(&mut self, al: bool, rand: &mut R) {
        self.check_app_limited(al);
        let mut seq = self.sk.snd_una;
        while before(seq, self.sk.snd_nxt) {
            self.mark_lost(seq, rand);
            seq = seq.wrapping_add(1);
        }
        tcp_enter_loss::<TcpBbr3, R>(&mut self.bbr, &mut self.sk, &self.params, rand);
        self.sk.icsk_retransmits = self.sk.icsk_retransmits.wrapping_add(1);
    }

    /// `ack T CUM RTT [sack=A-B]... [lost=A-B]... [undo] [delayed] [ece] [al]`.
    fn ack<'a, R: RandomSource>(
        &mut self,
        ev: &Event<'a>,
        rand: &mut R,
    ) -> Result<(), Problem<'a>> {
        let cum: u32 = ev.int(1)?;
        let rtt: i64 = ev.int(2)?;
        let (mut undo, mut delayed, mut ece, mut al) = (false, false, false, false);
        for word in ev.words().skip(3) {
            match word {
                "undo" => undo = true,
                "delayed" => delayed = true,
                "ece" => ece = true,
                "al" => al = true,
                w if w.starts_with("sack=") || w.starts_with("lost=") => {}
                _ => return Err(Problem::UnknownKey(word)),
            }
        }
        // The stack honours ECE only when ECN was negotiated (TCP_ECN_OK).
        let ece = ece && self.sk.ecn_flags & ecn_flags::TCP_ECN_OK != 0;

        let mut rs = RateSample::default();
        let prior_delivered = self.sk.delivered;
        let prior_lost = self.sk.lost;
        rs.prior_in_flight = self.sk.packets_in_flight();
        self.check_app_limited(al);
        if self.sk.packets_out == 0 {
            // tcp_ack() no_queue: no cong_control, no rate sample.
            return Ok(());
        }
        if before(cum, self.sk.snd_una) || after(cum, self.sk.snd_nxt) {
            return Err(Problem::NotOutstanding(cum));
        }

        // SACK blocks: tcp_sacktag_one() and tcp_rate_skb_delivered(), seq by seq.
        for word in ev.words().skip(3) {
            let Some(block) = word.strip_prefix("sack=") else {
                continue;
            };
            let (a, b) = range(block)?;
            let mut seq = a;
            while before(seq, b) {
                if !before(seq, cum) && before(seq, self.sk.snd_nxt) {
                    self.sack_one(seq, ece, &mut rs);
                }
                seq = seq.wrapping_add(1);
            }
        }

        // The cumulative part: tcp_clean_rtx_queue().
        if after(cum, self.sk.snd_una) {
            self.sk.icsk_retransmits = 0;
        }
        let mut seq = self.sk.snd_una;
        while before(seq, cum) {
            self.cum_ack_one(seq, ece, &mut rs);
            seq = seq.wrapping_add(1);
        }
        self.sk.snd_una = cum;

        // tcp_ack_update_rtt().
        rs.rtt_us = rtt;
        if rtt >= 0 {
            let rtt = rtt.min(i64::from(u32::MAX)) as u32;
            tcp_update_rtt_min(&mut self.sk, rtt, delayed);
            tcp_rtt_estimator_srtt(&mut self.sk, rtt);
        }
        rs.is_ack_delayed = delayed;
        rs.is_ece = ece;

        self.fastretrans_alert(ev, undo, ece, rand)?;

        let delivered = self.sk.delivered.wrapping_sub(prior_delivered);
        let lost = self.sk.lost.wrapping_sub(prior_lost);
        tcp_rate_gen(&mut self.sk, delivered, lost, false, &mut rs);
        self.trace.fast_path = bbr3::bbr_main(
            &mut self.bbr,
            &mut self.sk,
            &self.params,
            &Sample::from_rate_sample(&rs),
            rand,
        );
        self.trace.rs = rs;
        Ok(())
    }

    /// One SACKed segment.
    fn sack_one(&mut self, seq: u32, ece: bool, rs: &mut RateSample) {
        let sk = &mut self.sk;
        let Some(seg) = self.board.get_mut(seq) else {
            return;
        };
        if seg.sacked & skb::SACKED_ACKED == 0 {
            if seg.sacked & skb::SACKED_RETRANS != 0 {
                if seg.sacked & skb::LOST != 0 {
                    seg.sacked &= !(skb::LOST | skb::SACKED_RETRANS);
                    sk.lost_out = sk.lost_out.wrapping_sub(1);
                    sk.retrans_out = sk.retrans_out.wrapping_sub(1);
                }
            } else if seg.sacked & skb::LOST != 0 {
                seg.sacked &= !skb::LOST;
                sk.lost_out = sk.lost_out.wrapping_sub(1);
            }
            seg.sacked |= skb::SACKED_ACKED;
            sk.sacked_out = sk.sacked_out.wrapping_add(1);
            sk.delivered = sk.delivered.wrapping_add(1);
            if ece {
                sk.delivered_ce = sk.delivered_ce.wrapping_add(1);
            }
        }
        let (mstamp_us, sacked) = (seg.tx_us, seg.sacked);
        tcp_rate_skb_delivered(sk, &mut seg.tx, mstamp_us, seq.wrapping_add(1), sacked, rs);
    }

    /// One cumulatively acknowledged segment.
    fn cum_ack_one(&mut self, seq: u32, ece: bool, rs: &mut RateSample) {
        let sk = &mut self.sk;
        let Some(seg) = self.board.get_mut(seq) else {
            return;
        };
        if seg.sacked & skb::SACKED_RETRANS != 0 {
            sk.retrans_out = sk.retrans_out.wrapping_sub(1);
        }
        if seg.sacked & skb::SACKED_ACKED != 0 {
            sk.sacked_out = sk.sacked_out.wrapping_sub(1);
        } else {
            sk.delivered = sk.delivered.wrapping_add(1);
            if ece {
                sk.delivered_ce = sk.delivered_ce.wrapping_add(1);
            }
        }
        if seg.sacked & skb::LOST != 0 {
            sk.lost_out = sk.lost_out.wrapping_sub(1);
        }
        sk.packets_out = sk.packets_out.wrapping_sub(1);
        let (mstamp_us, sacked) = (seg.tx_us, seg.sacked);
        tcp_rate_skb_delivered(sk, &mut seg.tx, mstamp_us, seq.wrapping_add(1), sacked, rs);
    }

    /// The model's `tcp_fastretrans_alert()`: ECE, undo, the end of a reduction, loss
    /// marking, and entering Recovery or CWR.
    fn fastretrans_alert<'a, R: RandomSource>(
        &mut self,
        ev: &Event<'a>,
        undo: bool,
        ece: bool,
        rand: &mut R,
    ) -> Result<(), Problem<'a>> {
        if ece {
            self.sk.prior_ssthresh = 0;
        }
        if undo && self.sk.undo_marker {
            if self.sk.icsk_ca_state == CaState::Loss {
                let mut seq = self.sk.snd_una;
                while before(seq, self.sk.snd_nxt) {
                    if let Some(s) = self.board.get_mut(seq) {
                        s.sacked &= !skb::LOST;
                    }
                    seq = seq.wrapping_add(1);
                }
            }
            tcp_try_undo::<TcpBbr3, R>(&mut self.bbr, &mut self.sk, &self.params, rand);
        }
        let (una, high) = (self.sk.snd_una, self.sk.high_seq);
        match self.sk.icsk_ca_state {
            CaState::Recovery | CaState::Loss if !before(una, high) => {
                self.set_state(CaState::Open, rand);
            }
            CaState::Cwr if !before(una, high) && una != high => {
                self.set_state(CaState::Open, rand);
            }
            _ => {}
        }
        for word in ev.words().skip(3) {
            let Some(block) = word.strip_prefix("lost=") else {
                continue;
            };
            let (a, b) = range(block)?;
            let mut seq = a;
            while before(seq, b) {
                if outstanding(&self.sk, seq) {
                    self.mark_lost(seq, rand);
                }
                seq = seq.wrapping_add(1);
            }
        }
        let state = self.sk.icsk_ca_state;
        if (state as u8) < CaState::Recovery as u8 && self.sk.lost_out > 0 {
            tcp_enter_recovery::<TcpBbr3, R>(&mut self.bbr, &mut self.sk, &self.params, ece, rand);
        } else if ece && (state as u8) < CaState::Cwr as u8 {
            tcp_enter_cwr::<TcpBbr3, R>(&mut self.bbr, &mut self.sk, &self.params, rand);
        }
        Ok(())
    }

    /// The row's columns after `t_us,` (the event's time is written by the caller).
    fn write_state<W: Write>(&self, out: &mut W, drawn: &[(u32, u32)]) -> fmt::Result {
        let (sk, b, rs, tr) = (&self.sk, &self.bbr, &self.trace.rs, &self.trace);
        let phase = match (b.mode, b.cycle_idx) {
            (BbrMode::Startup, _) => "STARTUP",
            (BbrMode::Drain, _) => "DRAIN",
            (BbrMode::ProbeRtt, _) => "PROBE_RTT",
            (BbrMode::ProbeBw, CyclePhase::Up) => "UP",
            (BbrMode::ProbeBw, CyclePhase::Down) => "DOWN",
            (BbrMode::ProbeBw, CyclePhase::Cruise) => "CRUISE",
            (BbrMode::ProbeBw, CyclePhase::Refill) => "REFILL",
        };
        let [bw_hi_0, bw_hi_1] = b.bw_hi;
        let [extra_0, extra_1] = b.extra_acked;
        let f = |v: bool| u8::from(v);
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{}",
            sk.tcp_jiffies32,
            sk.snd_cwnd,
            sk.snd_ssthresh,
            sk.sk_pacing_rate,
            sk.icsk_ca_state as u8,
            b.mode as u8,
            b.cycle_idx as u8,
            phase,
            b.bw()
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{}",
            b.max_bw(),
            bw_hi_0,
            bw_hi_1,
            b.bw_lo,
            b.bw_latest,
            b.inflight_hi,
            b.inflight_lo,
            b.inflight_latest
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{}",
            b.min_rtt_us,
            b.min_rtt_stamp,
            b.probe_rtt_min_us,
            b.probe_rtt_min_stamp,
            b.probe_rtt_done_stamp,
            f(b.probe_rtt_round_done()),
            f(b.full_bw_reached()),
            f(b.full_bw_now()),
            b.full_bw,
            b.full_bw_cnt
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{},{}",
            b.next_rtt_delivered,
            f(b.round_start()),
            b.rounds_since_probe,
            b.probe_wait_us,
            b.cycle_mstamp,
            b.bw_probe_up_rounds,
            b.bw_probe_up_cnt,
            b.bw_probe_up_acks,
            f(b.bw_probe_samples()),
            f(b.prev_probe_too_high()),
            f(b.stopped_risky_probe()),
            b.ack_phase as u8
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{},{}",
            b.loss_round_delivered,
            f(b.loss_round_start()),
            f(b.loss_in_round()),
            f(b.ecn_in_round()),
            f(b.loss_in_cycle()),
            f(b.ecn_in_cycle()),
            b.loss_events_in_round,
            b.startup_ecn_rounds,
            f(b.ecn_eligible()),
            b.ecn_alpha,
            b.alpha_last_delivered,
            b.alpha_last_delivered_ce
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{}",
            b.undo_bw_lo,
            b.undo_inflight_lo,
            b.undo_inflight_hi,
            b.pacing_gain,
            b.cwnd_gain,
            b.prior_cwnd,
            b.prev_ca_state as u8,
            f(b.idle_restart()),
            f(b.has_seen_rtt()),
            f(b.try_fast_path()),
            b.init_cwnd
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{}",
            b.ack_epoch_mstamp,
            b.ack_epoch_acked,
            extra_0,
            extra_1,
            b.extra_acked_win_rtts,
            b.extra_acked_win_idx,
            bbr3::bbr_tso_segs_goal(b, sk, &self.params)
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{},{},{}",
            rs.delivered,
            rs.interval_us,
            rs.acked_sacked,
            rs.losses,
            rs.lost,
            rs.tx_in_flight,
            rs.delivered_ce,
            f(rs.is_ece),
            f(rs.is_app_limited),
            rs.rtt_us,
            rs.prior_in_flight,
            rs.prior_delivered,
            f(rs.is_retrans)
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{}",
            sk.snd_una,
            sk.snd_nxt,
            sk.packets_out,
            sk.sacked_out,
            sk.lost_out,
            sk.retrans_out,
            sk.packets_in_flight(),
            sk.delivered,
            sk.delivered_ce,
            sk.lost,
            sk.app_limited
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{}",
            sk.first_tx_mstamp,
            sk.delivered_mstamp,
            sk.rate_delivered,
            sk.rate_interval_us,
            f(sk.rate_app_limited),
            sk.srtt_us,
            sk.tcp_min_rtt(),
            sk.tcp_wstamp_ns,
            sk.data_segs_out
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},",
            sk.high_seq,
            f(sk.undo_marker),
            sk.prior_ssthresh,
            sk.icsk_retransmits,
            f(sk.is_cwnd_limited),
            sk.max_packets_out,
            sk.cwnd_usage_seq,
            tr.fast_path as u8,
            tr.lost_skb_ihi
        )?;
        crate::draws::write_drawn(out, drawn)
    }
}

impl<'a> Mode<'a> for Bbr3Replay {
    const LONG_LINES: bool = true;

    fn write_header<W: Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str(HEADER)?;
        out.write_str("\n")
    }

    fn set(&mut self, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        // A `set` row shows no rate sample or draws of its own.
        self.draws.begin_event();
        if let Some(flow) = self.flow.as_mut() {
            flow.trace = EventTrace::default();
        }
        self.settings.set(ev.key()?, ev.int(1)?)
    }

    fn has_flow(&self) -> bool {
        self.flow.is_some()
    }

    fn init(&mut self, now: Instant, _ev: Option<&Event<'a>>) -> Result<(), Problem<'a>> {
        self.draws.begin_event();
        self.flow = Some(Flow::new(&self.settings, now.as_micros())?);
        Ok(())
    }

    /// `rand V...` queues values for the next draws.
    fn untimed(&mut self, ev: &Event<'a>) -> Result<bool, Problem<'a>> {
        if ev.keyword != "rand" {
            return Ok(false);
        }
        self.draws.begin_event();
        self.draws.queue_line(ev)?;
        if let Some(flow) = self.flow.as_mut() {
            flow.trace = EventTrace::default();
        }
        Ok(true)
    }

    fn event(&mut self, now: Instant, ev: &Event<'a>) -> Result<(), Problem<'a>> {
        let flow = running(&mut self.flow, ev)?;
        let t_us = now.as_micros();
        flow.sk.set_clock(t_us);
        flow.trace = EventTrace::default();
        let draws = &mut self.draws;
        draws.begin_event();
        let al = ev.words().skip(1).any(|w| w == "al");
        match ev.keyword {
            "send" => flow.send(ev.int(1)?, al, draws)?,
            "rtx" => flow.rtx(ev, draws)?,
            "ack" => flow.ack(ev, draws)?,
            "rto" => flow.rto(al, draws),
            other => return Err(Problem::UnknownEvent(other)),
        }
        draws.check()
    }

    fn write_row<W: Write>(&mut self, out: &mut W, row: Row<'_>) -> fmt::Result {
        write!(out, "{},{}", row.idx, row.keyword)?;
        match &self.flow {
            Some(flow) => {
                write!(out, ",{}", row.t_us)?;
                flow.write_state(out, self.draws.drawn())?;
            }
            None => {
                for _ in 0..8 {
                    out.write_str(",0")?;
                }
                out.write_str(",-")?;
                for _ in 0..103 {
                    out.write_str(",0")?;
                }
                out.write_str(",-")?;
            }
        }
        out.write_str("\n")
    }
}
