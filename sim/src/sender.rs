//! The TCP sender: the application, the socket's window caps, loss recovery, and the
//! transmit loop in which the controller, pacer, TSQ and TSO decide every send.

use crate::app::AppModel;
use crate::cc::{AckReport, SimController};
use crate::cc_linux::{LinuxAck, LinuxRto};
use crate::config::Ect;
use crate::config::{
    Amount, SKB_OVERHEAD_BYTES, SimConfig, SizeGoal, TsoMode, TsqMode, WindowMode,
};
use crate::event::{Event, EventQueue};
use crate::host::Host;
use crate::limits::{Limit, LimitTimes};
use crate::link::Link;
use crate::rtt::RttEstimator;
use crate::scoreboard::{AckDetail, Scoreboard};
use crate::sendpath::{Decision, SendPath, SendPathModes};
use crate::tso_defer::{DeferInputs, wants_to_defer};
use crate::window::send_buffer_segments;
use crate::write_queue::WriteQueue;

/// Everything below the sender: host queue, path, and the clock's event queue.
#[derive(Debug)]
pub struct Net {
    /// Qdisc + NIC.
    pub host: Host,
    /// Bottleneck + propagation.
    pub link: Link,
    /// Pending events.
    pub queue: EventQueue,
}

/// The recovery episode the sender is in; one congestion event per episode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Recovery {
    /// No episode.
    Open,
    /// Fast recovery or CWR until `snd_una` reaches the mark.
    Reduced { until: u32 },
    /// After an RTO until `snd_una` reaches the mark.
    Loss { until: u32 },
}

/// Sender counters for the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// Segments retransmitted.
    pub retransmits: u64,
    /// Fast-recovery congestion events.
    pub loss_events: u64,
    /// Retransmission timeouts.
    pub rtos: u64,
    /// Times the qdisc was full (Linux enters CWR).
    pub local_congestion: u64,
    /// Classic ECN reductions (CWR on a CE echo, RFC 3168) of a controller that does
    /// not read CE counts itself.
    pub ecn_reductions: u64,
    /// CE-marked segments the receiver reported.
    pub ce_marked: u64,
}

/// `tcp_wmem[1]`, the send buffer an autotuned socket starts from, bytes.
const TCP_WMEM_DEFAULT_BYTES: u32 = 16_384;

/// One TCP sender.
#[derive(Debug)]
pub struct Sender {
    /// The congestion controller.
    pub cc: SimController,
    /// Pacer + TSQ + TSO.
    pub path: SendPath,
    /// Segment state.
    pub sb: Scoreboard,
    /// RTT and RTO.
    pub rtt: RttEstimator,
    /// Counters.
    pub stats: SenderStats,
    /// TSval of the latest ACK (`ts_recent`), echoed as TSecr in every segment sent.
    pub ts_recent: u32,
    /// How long each reason held the transmit loop back.
    pub limits: LimitTimes,
    total_segs: u32,
    app: AppModel,
    app_open: bool,
    rwnd: u32,
    sndbuf_segs: u32,
    mss: u32,
    wire_bytes: u64,
    tx_completion_ns: u64,
    track_completions: bool,
    /// 2.6.35 TSO deferral: the fixed burst size short bursts are held back for.
    defer_burst: Option<u32>,
    /// One jiffy of the 2.6.35 host, ns (deferral ends once the jiffies counter has
    /// moved on by two).
    jiffy_ns: u64,
    /// The host's uptime at the first send, ns: where the jiffies ticks fall.
    uptime_ns: u64,
    /// When the current deferral (`tp->tso_deferred`) gives up, ns of the host's clock
    /// (since boot): the start of the second tick after the one it began in; `None`
    /// while none is running.
    deferred_until: Option<u64>,
    /// The 2.6.35 host's write queue of skbs as a bulk writer built them (`None`:
    /// every burst may be a whole fixed-size skb).
    wq: Option<WriteQueue>,
    recovery: Recovery,
    /// The ECN codepoint of every data packet.
    ect: Ect,
    /// The receiver's CE count on the latest ACK (AccECN's `r.cep`, in segments).
    ce_seen: u32,
    /// Retransmission timeouts since `snd_una` last moved (`icsk_retransmits`).
    timeouts: u32,
    /// Delivered and lost segments of the current ACK, for a per-segment sampler.
    detail: AckDetail,
    rto_deadline: Option<u64>,
    rto_event_at: Option<u64>,
    wake_at: Option<u64>,
}

impl Sender {
    /// The sender `cfg` describes.
    pub fn new(cfg: &SimConfig) -> Result<Self, String> {
        let mss = cfg.mss();
        let total_segs = match cfg.amount {
            Amount::Bytes(b) => b.div_ceil(u64::from(mss)).min(u64::from(u32::MAX / 2)) as u32,
            Amount::TimeNs(_) => u32::MAX / 2,
        };
        let sndbuf_segs = send_buffer_segments(cfg);
        // The 2.6.35 host sends the skbs a bulk writer built, one at a time.
        let wq = match cfg.effective_tso() {
            TsoMode::Segs(n) if cfg.tso_defer() && cfg.app == AppModel::Bulk => {
                let half_window = cfg.size_goal == SizeGoal::HalfWindow;
                Some(match cfg.window {
                    WindowMode::Fixed(_) => {
                        WriteQueue::new(total_segs, n, half_window, sndbuf_segs, None)
                    }
                    // tcp_fixup_sndbuf(): max(tcp_wmem[1], 3 * sndmem) to start.
                    WindowMode::Auto { .. } => {
                        let start = (TCP_WMEM_DEFAULT_BYTES / (mss + SKB_OVERHEAD_BYTES)).max(3);
                        WriteQueue::new(
                            total_segs,
                            n,
                            half_window,
                            start.min(sndbuf_segs),
                            Some(sndbuf_segs),
                        )
                    }
                })
            }
            _ => None,
        };
        let cc = SimController::new(cfg)?;
        Ok(Sender {
            path: SendPath::new(SendPathModes {
                pacing: cfg.paces(),
                tsq: cfg.effective_tsq(),
                tso: cfg.effective_tso(),
                mss,
            })?,
            sb: {
                let sb = Scoreboard::with_capacity(sndbuf_segs.min(1 << 20) as usize + 64);
                if cc.samples_per_segment() {
                    sb.keeping_tx()
                } else {
                    sb
                }
            },
            rtt: RttEstimator::new(),
            stats: SenderStats::default(),
            ts_recent: 0,
            limits: LimitTimes::default(),
            total_segs,
            app: cfg.app,
            app_open: true,
            // Until the first ACK: the initial receive window (Linux: 64 KB before scaling).
            rwnd: (65_535 / mss).max(1),
            sndbuf_segs,
            mss,
            wire_bytes: u64::from(cfg.wire_bytes()),
            tx_completion_ns: cfg.tx_completion_ns,
            track_completions: cfg.effective_tsq() != TsqMode::Off,
            defer_burst: match cfg.effective_tso() {
                TsoMode::Segs(n) if cfg.tso_defer() => Some(n),
                _ => None,
            },
            jiffy_ns: 1_000_000_000 / u64::from(cfg.hz.max(1)),
            uptime_ns: cfg.uptime_ns,
            deferred_until: None,
            wq,
            cc,
            recovery: Recovery::Open,
            ect: cfg.cc.ect(cfg.ecn),
            ce_seen: 0,
            timeouts: 0,
            detail: AckDetail::default(),
            rto_deadline: None,
            rto_event_at: None,
            wake_at: None,
        })
    }

    /// Whether every segment the application wrote has been acknowledged.
    pub fn done(&self) -> bool {
        self.sb.snd_una() >= self.total_segs
    }

    /// The application stops writing (end of a timed run).
    pub fn close_app(&mut self) {
        self.app_open = false;
    }

    fn arm_rto(&mut self, now_ns: u64, q: &mut EventQueue) {
        let deadline = now_ns + self.rtt.rto_ns();
        self.rto_deadline = Some(deadline);
        // One timer event at a time, re-armed lazily when it fires early; a new
        // deadline before the pending event (the RTO shrank) needs its own event.
        if self.rto_event_at.is_none_or(|t| t > deadline) {
            q.push(deadline, Event::RtoTimer);
            self.rto_event_at = Some(deadline);
        }
    }

    fn wake(&mut self, at_ns: u64, q: &mut EventQueue) {
        if self.wake_at.is_none_or(|t| t > at_ns) {
            q.push(at_ns, Event::PacingWake);
            self.wake_at = Some(at_ns);
        }
    }

    /// A pacing or qdisc wake-up at `now_ns`.
    pub fn on_wake(&mut self, now_ns: u64, net: &mut Net) {
        if self.wake_at == Some(now_ns) {
            self.wake_at = None;
        }
        self.try_send(now_ns, net);
    }

    /// A TX completion of a burst of `len_bytes` payload.
    pub fn on_tx_completion(&mut self, now_ns: u64, len_bytes: u32, net: &mut Net) {
        if self.path.on_tx_completion(len_bytes) {
            self.try_send(now_ns, net);
        }
    }

    /// The window the receiver's last advertisement and the send buffer allow, segments.
    pub fn send_window_segments(&self) -> u32 {
        self.rwnd.min(self.sndbuf_segs)
    }

    /// An ACK arrives, with the receiver's count of CE-marked segments so far. Returns
    /// the RTT sample it gave, ns.
    pub fn on_ack(
        &mut self,
        now_ns: u64,
        cum: u32,
        sack: (u32, u32),
        rwnd: u32,
        ce_count: u32,
        net: &mut Net,
    ) -> Option<u64> {
        self.rwnd = rwnd;
        if let Some(wq) = self.wq.as_mut() {
            wq.on_window(rwnd);
        }
        // AccECN: the count only grows; an ACK reordered behind a newer one adds nothing.
        let ce_delta = ce_count.saturating_sub(self.ce_seen);
        self.ce_seen = self.ce_seen.max(ce_count);
        self.stats.ce_marked += u64::from(ce_delta);
        let prior_flight = self.sb.flight();
        let per_segment = self.cc.samples_per_segment();
        self.detail.clear();
        let detail = per_segment.then_some(&mut self.detail);
        let out = self.sb.on_ack(cum, sack.0, sack.1, detail);
        if out.cum_advanced {
            self.timeouts = 0;
        }
        let rtt_ns = out.rtt_sent_ns.map(|t| now_ns - t);
        if let Some(r) = rtt_ns {
            self.rtt.on_sample(r);
            self.path.on_rtt_sample(now_ns, r);
        }
        if out.cum_advanced {
            if self.sb.packets_out() == 0 {
                // RFC 6298 §5.2: all data acknowledged, stop the timer.
                self.rto_deadline = None;
            } else {
                // RFC 6298 §5.3: new data acknowledged, restart the timer.
                self.arm_rto(now_ns, &mut net.queue);
            }
        }
        let snd_una = self.sb.snd_una();
        match self.recovery {
            Recovery::Reduced { until } | Recovery::Loss { until } if snd_una >= until => {
                self.recovery = Recovery::Open;
            }
            _ => {}
        }
        if out.newly_lost > 0 && self.recovery == Recovery::Open {
            self.recovery = Recovery::Reduced {
                until: self.sb.snd_nxt(),
            };
            self.stats.loss_events += 1;
            self.cc.on_loss(now_ns);
        }
        if ce_delta > 0 && !self.cc.hears_ce_counts() && self.recovery == Recovery::Open {
            // RFC 3168 §6.1.2: one reduction per window, as for a loss (Linux: CWR).
            self.recovery = Recovery::Reduced {
                until: self.sb.snd_nxt(),
            };
            self.stats.ecn_reductions += 1;
            self.cc.on_local_congestion(now_ns);
        }
        // No window growth during fast recovery (Linux runs PRR there, not cong_avoid).
        let grow = match self.recovery {
            Recovery::Reduced { .. } if self.cc.stack_owns_recovery() => 0,
            _ => out.delivered,
        };
        let rtt_us = rtt_ns.map(|r| (r / 1000).min(u64::from(u32::MAX)) as u32);
        let highest = self.sb.snd_una().max(sack.1.min(self.sb.snd_nxt()));
        let report = AckReport {
            delivered: out.delivered,
            grow,
            rtt_us,
            highest,
            ce_delta,
            linux: LinuxAck {
                delivered: out.delivered,
                rtt_us,
                ce_delta,
                snd_una: self.sb.snd_una(),
                snd_nxt: self.sb.snd_nxt(),
                prior_flight,
                flight: self.sb.flight(),
                srtt_us: (self.rtt.srtt_ns() / 1000).min(u64::from(u32::MAX)) as u32,
                newly_lost: out.newly_lost,
                detail: &mut self.detail,
            },
        };
        self.cc.on_ack(now_ns, report);
        self.transmit(now_ns, net);
        // tcp_data_snd_check(): tcp_check_space() after the transmit attempt, which
        // may grow an autotuned buffer and wake the writer; its tcp_sendmsg() then
        // pushes what it wrote.
        let (cwnd, packets_out) = (self.cc.cwnd_segments(), self.sb.packets_out());
        if let Some(wq) = self.wq.as_mut() {
            wq.on_ack(cwnd, packets_out);
        }
        self.write_and_push(now_ns, net);
        rtt_ns
    }

    /// The receiver's SYN-ACK offered `segs` whole segments: the first window the
    /// 2.6.35 writer sizes its skbs by.
    pub fn on_syn_ack_window(&mut self, segs: u32) {
        if let Some(wq) = self.wq.as_mut() {
            wq.on_window(segs);
        }
    }

    /// The retransmission timer event at `now_ns`.
    pub fn on_rto_timer(&mut self, now_ns: u64, net: &mut Net) {
        if self.rto_event_at != Some(now_ns) {
            return; // superseded by an earlier event
        }
        self.rto_event_at = None;
        let Some(deadline) = self.rto_deadline else {
            return;
        };
        if deadline > now_ns {
            net.queue.push(deadline, Event::RtoTimer);
            self.rto_event_at = Some(deadline);
            return;
        }
        self.stats.rtos += 1;
        let prior_flight = self.sb.flight();
        self.detail.clear();
        let detail = self.cc.samples_per_segment().then_some(&mut self.detail);
        let newly_lost = self.sb.on_rto(detail);
        self.recovery = Recovery::Loss {
            until: self.sb.snd_nxt(),
        };
        self.cc.on_rto(
            now_ns,
            LinuxRto {
                prior_flight,
                flight: self.sb.flight(),
                newly_lost,
                lost: &self.detail.lost,
                snd_una: self.sb.snd_una(),
                snd_nxt: self.sb.snd_nxt(),
                timeouts: self.timeouts,
            },
        );
        self.timeouts = self.timeouts.saturating_add(1);
        // RFC 6298 §5.5-5.6: back off, restart the timer, resend the head.
        self.rtt.back_off();
        self.rto_deadline = None;
        self.try_send(now_ns, net);
        if self.rto_deadline.is_none() && self.sb.packets_out() > 0 {
            self.arm_rto(now_ns, &mut net.queue);
        }
    }

    /// Linux 2.6.35 `tcp_tso_should_defer()` for the skb at the send head: a
    /// multi-segment skb waits for more window while data is in flight and the
    /// connection is in Open, unless the room (`limit`, the least of the receive
    /// window's and cwnd's, compared in bytes) reaches `sk_gso_max_size`, or holds the
    /// whole skb and the skb is not the queue's tail, or the skb carries the FIN (the
    /// writer has written everything), or the room is at least a third of
    /// `min(snd_wnd, snd_cwnd)` (`tcp_tso_win_divisor` = 3). A deferral is abandoned by
    /// the first transmit attempt after the jiffies counter has moved on by two since
    /// it began. Transmit attempts come with ACKs: no timer ends a deferral, and a bulk
    /// writer blocked on a full send buffer is woken only when a third of it has been
    /// acknowledged (`sk_stream_min_wspace`), itself on an ACK.
    ///
    /// `head` is the send head's length and whether it is the tail, from the write
    /// queue; without one (a writer that is not bulk) every skb is taken to be a whole
    /// one of the fixed burst size in the middle of the queue, and nothing is deferred
    /// while the application has written less than the window allows.
    fn defers(
        &mut self,
        now_ns: u64,
        written: u32,
        window_end: u32,
        head: Option<(u32, bool)>,
    ) -> bool {
        let Some(burst) = self.defer_burst else {
            return false;
        };
        let cwnd = self.cc.cwnd_segments();
        // Without the write queue, a writer that has not written up to what the window
        // allows is never deferred for (its data goes as it comes).
        let app_limited = head.is_none() && written < window_end.min(self.sb.snd_una() + cwnd);
        let (skb_segs, skb_is_tail) = head.unwrap_or((burst, false));
        let wanted = !app_limited
            && wants_to_defer(&DeferInputs {
                skb_segs,
                skb_is_tail,
                skb_has_fin: skb_is_tail && written >= self.total_segs,
                open: self.recovery == Recovery::Open,
                cwnd,
                in_flight: self.sb.in_flight(),
                snd_wnd: self.rwnd,
                send_win: window_end.saturating_sub(self.sb.snd_nxt()),
                mss: self.mss,
            });
        if !wanted {
            self.deferred_until = None;
            return false;
        }
        // The host's clock, ns since boot.
        let now = now_ns + self.uptime_ns;
        let jiffy = self.jiffy_ns.max(1);
        // Jiffies are whole ticks of the host's clock: the deferral is over from the
        // start of the second tick after the one it began in (worked out once, when it
        // begins, rather than divided out again at every attempt).
        let until = *self
            .deferred_until
            .get_or_insert_with(|| (now / jiffy + 2) * jiffy);
        if now >= until {
            self.deferred_until = None;
            return false;
        }
        true
    }

    /// Why the transmit loop found no room for new data: a full congestion window
    /// first (Linux's `tcp_write_xmit()` tests cwnd before the receive window), then
    /// an application that has not written more, then the window, the receiver's or
    /// the send buffer's, whichever is smaller.
    fn no_room_limit(&self, snd_nxt: u32, written: u32, window_end: u32) -> Limit {
        if !self.app_open || snd_nxt >= self.total_segs {
            Limit::Done
        } else if self.sb.in_flight() >= self.cc.cwnd_segments() {
            Limit::Cwnd
        } else if written < window_end && written <= snd_nxt {
            // A bulk writer with its write queue modelled stops writing only when the
            // send buffer is full; other writers have written all they have so far.
            if self.wq.is_some() {
                Limit::SendBuffer
            } else {
                Limit::Application
            }
        } else if self.rwnd <= self.sndbuf_segs {
            Limit::ReceiveWindow
        } else {
            Limit::SendBuffer
        }
    }

    /// Send what the window, pacer, TSQ and qdisc allow at `now_ns`, and, with the
    /// write queue modelled, let a bulk writer that can write do so and push it.
    pub fn try_send(&mut self, now_ns: u64, net: &mut Net) {
        self.transmit(now_ns, net);
        self.write_and_push(now_ns, net);
    }

    fn write_and_push(&mut self, now_ns: u64, net: &mut Net) {
        let (snd_una, snd_nxt) = (self.sb.snd_una(), self.sb.snd_nxt());
        if self.app_open
            && self
                .wq
                .as_mut()
                .is_some_and(|wq| wq.write(snd_una, snd_nxt))
        {
            self.transmit(now_ns, net);
        }
    }

    /// Send whatever the window, pacer, TSQ and qdisc allow at `now_ns`: the
    /// library's send path decides each burst.
    // Linux net/ipv4/tcp_output.c tcp_write_xmit()
    fn transmit(&mut self, now_ns: u64, net: &mut Net) {
        let stopped_for = loop {
            let retransmit = self.sb.next_retransmit();
            let snd_nxt = self.sb.snd_nxt();
            let window_end = self.sb.snd_una() + self.rwnd.min(self.sndbuf_segs);
            let written = match &self.wq {
                Some(wq) => wq.written(),
                None => self.app.written_segs(now_ns, self.mss, self.total_segs),
            };
            // The skb at the send head (one at a time, whole or split, as Linux sends).
            let head = self.wq.as_ref().and_then(|wq| wq.head(snd_nxt));
            let new_room = if self.app_open {
                written.min(window_end).saturating_sub(snd_nxt)
            } else {
                0
            };
            if retransmit.is_none() && new_room == 0 {
                // Held back by the application (not the window): come back when it
                // has written more.
                if self.app_open && written <= snd_nxt && snd_nxt < self.total_segs.min(window_end)
                {
                    if let Some(at) = self.app.next_write_ns(now_ns, snd_nxt, self.mss) {
                        self.wake(at, &mut net.queue);
                    }
                }
                break self.no_room_limit(snd_nxt, written, window_end);
            }
            // Where the send path can only say "send" or "cwnd full" (no pacer, no TSQ:
            // the 2.6.35 host), the TSO deferral is decided first, so that the most
            // common outcome of an ACK there, a deferral, skips the library's poll: the
            // same decisions, in the same order, at less cost.
            let deferral_first = retransmit.is_none()
                && self.path.says_only_send_or_cwnd_full()
                && self.cc.cwnd_segments() > self.sb.in_flight();
            if deferral_first && self.defers(now_ns, written, window_end, head) {
                break Limit::TsoDeferral;
            }
            let decision = self.path.poll(
                &self.cc,
                now_ns,
                self.sb.in_flight(),
                self.sb.packets_out(),
                retransmit.is_some(),
            );
            let segs = match decision {
                Decision::Send(n) if retransmit.is_some() => n.min(1),
                Decision::Send(n) => {
                    // 2.6.35's tcp_cwnd_test() has no half-cwnd cap (Linux 3.18): with
                    // no TSQ capping it, the burst is the skb, at most the cwnd room.
                    let n = match self.defer_burst {
                        Some(burst) if !self.track_completions => burst.min(
                            self.cc
                                .cwnd_segments()
                                .saturating_sub(self.sb.in_flight())
                                .max(1),
                        ),
                        _ => n,
                    };
                    let segs = head.map_or(n, |(len, _)| n.min(len)).min(new_room);
                    // Not twice: a call that ends an expired deferral starts a new one.
                    if !deferral_first && self.defers(now_ns, written, window_end, head) {
                        break Limit::TsoDeferral;
                    }
                    segs
                }
                Decision::WaitUntil(t) => {
                    self.wake(t, &mut net.queue);
                    break Limit::Pacing;
                }
                Decision::WaitForAck => break Limit::Cwnd,
                Decision::WaitForTxCompletion => break Limit::Tsq,
            };
            if let Some(head_done) = net.host.full_until(now_ns) {
                // Linux: the qdisc drops, tcp_transmit_skb() enters CWR, the skb stays queued.
                if self.recovery == Recovery::Open {
                    self.recovery = Recovery::Reduced { until: snd_nxt };
                    self.stats.local_congestion += 1;
                    self.cc.on_local_congestion(now_ns);
                }
                self.wake(head_done, &mut net.queue);
                break Limit::Qdisc;
            }
            let per_segment = self.cc.samples_per_segment();
            let first = match retransmit {
                Some(seq) => {
                    let tx = per_segment.then(|| self.cc.on_segment_sent(now_ns, self.sb.flight()));
                    self.sb.on_retransmit(now_ns, seq);
                    if let Some(tx) = tx {
                        self.sb.set_tx(seq, tx);
                    }
                    self.stats.retransmits += 1;
                    seq
                }
                None if per_segment => {
                    for _ in 0..segs {
                        let tx = self.cc.on_segment_sent(now_ns, self.sb.flight());
                        self.sb.on_send_one(now_ns, tx);
                    }
                    snd_nxt
                }
                None => {
                    self.sb.on_send_new(now_ns, segs);
                    if let Some(wq) = self.wq.as_mut() {
                        wq.on_sent(snd_nxt + segs);
                    }
                    snd_nxt
                }
            };
            let len = segs.saturating_mul(self.mss);
            let departure = self
                .path
                .on_send(now_ns, len, segs, self.path.pacing_rate(&self.cc))
                .max(now_ns);
            let (start, per) = net.host.enqueue(departure, segs, self.wire_bytes);
            for i in 0..segs {
                let at = start + per * u64::from(i + 1);
                if let Some((arrive, ce)) = net.link.offer(at, self.wire_bytes as u32, self.ect) {
                    net.queue.push(
                        arrive,
                        Event::Arrive {
                            seq: first + i,
                            tsecr: self.ts_recent,
                            ce,
                        },
                    );
                }
            }
            if self.track_completions {
                let done = start + per * u64::from(segs) + self.tx_completion_ns;
                net.queue.push(done, Event::TxCompletion { bytes: len });
            }
            self.cc.on_transmit(
                now_ns,
                self.sb.flight(),
                self.sb.snd_una(),
                self.sb.snd_nxt(),
            );
            if self.rto_deadline.is_none() {
                // RFC 6298 §5.1: start the timer when sending with none running.
                self.arm_rto(now_ns, &mut net.queue);
            }
        };
        self.limits.note(now_ns, stopped_for);
        if matches!(stopped_for, Limit::Application | Limit::SendBuffer) {
            // Nothing more written to send: the delivery-rate sampler's app-limited mark.
            self.cc.on_app_limited(now_ns, self.sb.flight());
        }
        // Linux tcp_cwnd_validate(): window use is re-evaluated even when nothing left.
        self.cc.on_transmit(
            now_ns,
            self.sb.flight(),
            self.sb.snd_una(),
            self.sb.snd_nxt(),
        );
    }
}
