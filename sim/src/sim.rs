//! The run loop: pop the earliest event, hand it to the sender or the receiver,
//! until the transfer is done. A run is a pure function of its [`SimConfig`].

use crate::config::{Amount, SimConfig};
use crate::event::{Event, EventQueue};
use crate::host::Host;
use crate::link::Link;
use crate::probe::{IntervalReport, Probe, TraceRow};
use crate::rcv_rtt::JiffyClock;
use crate::receiver::Receiver;
use crate::sender::{Net, Sender, SenderStats};
use crate::window::ReceiveWindow;

/// A transfer by size gives up after this much simulated time (7 days): with every
/// packet lost the RTO backs off for ever and the transfer would never end.
pub const GIVE_UP_NS: u64 = 7 * 24 * 3600 * 1_000_000_000;

/// The sender's state on the ACK on which HyStart ended slow start: enough to say why
/// it ended where it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HystartExitDetail {
    /// Segments in flight after the ACK.
    pub in_flight: u32,
    /// The window the receiver (or the send buffer) allowed, segments: when it is below
    /// cwnd, slow start was not growing cwnd (`tcp_is_cwnd_limited`) and the flight was
    /// the receiver's.
    pub send_window: u32,
    /// The 2.6.35 profile's round and test inputs (`None` for other controllers).
    pub linux_2635: Option<crate::cc::Hystart2635Exit>,
}

/// The outcome of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Bytes delivered to the receiving application.
    pub bytes: u64,
    /// Time from the first send to the last byte acknowledged (or the time limit), ns.
    /// For a transfer by size this is nuttcp's final time: its client prints the
    /// server's (`srvr_realt`), timed from before the server's read loop (the data
    /// connection accepted, one propagation delay after the client's `connect()`
    /// returned and it began to write) to EOF, and the client sends its FIN only once
    /// `TCP_INFO` shows nothing unacknowledged (it polls every 1 ms), so EOF comes one
    /// propagation delay after the last ACK (nuttcp.c 7.1; the up to 1 ms of polling
    /// is not modelled).
    pub duration_ns: u64,
    /// Segments retransmitted.
    pub retrans: u64,
    /// Mean of the sender's RTT samples, ns (queues included; the `--stats` line).
    pub mean_rtt_ns: f64,
    /// The handshake's round trip on the idle path, ns: nuttcp's msRTT
    /// ([`SimConfig::handshake_rtt_ns`]).
    pub handshake_rtt_ns: u64,
    /// Smoothed RTT at the end (as `tcpi_rtt`), ns.
    pub final_srtt_ns: u64,
    /// Sender counters.
    pub sender: SenderStats,
    /// Packets dropped by the bottleneck's full buffer.
    pub tail_drops: u64,
    /// Packets dropped at random.
    pub random_drops: u64,
    /// Packets the AQM dropped, and CE marks it applied.
    pub aqm_drops: u64,
    /// CE marks the AQM applied.
    pub ce_marks: u64,
    /// What the bottleneck saw from `SimConfig::measure_from_ns` on.
    pub link: crate::link::LinkStats,
    /// Segments sent including retransmissions.
    pub segments_sent: u64,
    /// Events processed.
    pub events: u64,
    /// Payload bytes per segment.
    pub mss: u32,
    /// Which HyStart detector ended slow start, if one did.
    pub hystart_exit: Option<congestion::hystart::HystartExit>,
    /// When HyStart ended slow start, ns, and the cwnd it left, segments (the
    /// `fink2011` sweep compares it with the path's BDP).
    pub hystart_exit_at: Option<(u64, u32)>,
    /// What held the flight and what HyStart was measuring when it ended slow start.
    pub hystart_exit_detail: Option<HystartExitDetail>,
    /// False when a transfer by size gave up after [`GIVE_UP_NS`].
    pub complete: bool,
    /// How long each reason held the sender back.
    pub limits: crate::limits::LimitTimes,
}

impl Summary {
    /// Goodput, bit/s.
    pub fn throughput_bps(&self) -> f64 {
        if self.duration_ns == 0 {
            0.0
        } else {
            self.bytes as f64 * 8e9 / self.duration_ns as f64
        }
    }
}

struct Intervals {
    every_ns: Option<u64>,
    next_ns: u64,
    last_delivered: u64,
    last_retrans: u64,
}

impl Intervals {
    fn flush<P: Probe>(&mut self, upto_ns: u64, delivered: u64, retrans: u64, probe: &mut P) {
        let Some(every) = self.every_ns else { return };
        while self.next_ns <= upto_ns {
            probe.interval(&IntervalReport {
                bytes: delivered - self.last_delivered,
                duration_ns: every,
                retrans: retrans - self.last_retrans,
            });
            self.last_delivered = delivered;
            self.last_retrans = retrans;
            self.next_ns += every;
        }
    }
}

/// Run `cfg` to the end, reporting to `probe`.
pub fn run<P: Probe>(cfg: &SimConfig, probe: &mut P) -> Result<Summary, String> {
    cfg.validate()?;
    let mss = u64::from(cfg.mss());
    let one_way = cfg.rtt_ns / 2;
    let mut sender = Sender::new(cfg)?;
    let mut receiver = Receiver::new(
        cfg.ack_ratio,
        cfg.delack_ns,
        cfg.quickacks,
        cfg.rcv_ssthresh_growth,
        ReceiveWindow::new(cfg),
    );
    if let Some(hz) = cfg.receiver_hz {
        let clock = JiffyClock::new(hz, cfg.receiver_uptime_ns);
        // The SYN-ACK left one way before the first send; the ACK completing the
        // handshake, sent with the first data, arrives one way after it.
        let syn_ack = clock.jiffies_before_start(one_way);
        let handshake_rtt = clock.jiffies(one_way).wrapping_sub(syn_ack);
        receiver = receiver.with_jiffy_clock(clock, cfg.timestamps, handshake_rtt);
        // The first data echoes the SYN-ACK, sent one RTT before the first data arrives.
        sender.ts_recent = syn_ack;
    }
    sender.on_syn_ack_window(receiver.window_segments());
    let link = Link::new(
        cfg.rate_bps,
        cfg.buffer_bytes,
        one_way,
        cfg.jitter_ns,
        cfg.loss,
        cfg.seed,
    )
    .with_aqm(cfg.aqm, cfg.wire_bytes())
    .measure_between(
        cfg.measure_from_ns,
        match cfg.amount {
            Amount::TimeNs(t) => t,
            Amount::Bytes(_) => u64::MAX,
        },
    );
    let mut net = Net {
        host: Host::new(cfg.nic_rate_bps, cfg.txqueuelen),
        link: if probe.reads_queue_and_pacing() {
            link
        } else {
            link.without_queue_record()
        },
        queue: EventQueue::with_capacity(1 << 16),
    };
    let time_limit = match cfg.amount {
        Amount::TimeNs(t) => Some(t),
        Amount::Bytes(_) => None,
    };
    let total_bytes = match cfg.amount {
        Amount::Bytes(b) => b,
        Amount::TimeNs(_) => u64::MAX,
    };
    // nuttcp's interval reports are the receiver's: its interval timer starts when the
    // data connection is accepted, i.e. when the handshake's last ACK, sent with the
    // first data, arrives one propagation delay after the sender starts (nuttcp.c:
    // setitimer and prep_timer on the receiver before its read loop; it counts bytes
    // read by the receiving application).
    let mut iv = Intervals {
        every_ns: cfg.interval_ns,
        next_ns: cfg
            .interval_ns
            .map_or(u64::MAX, |every| every.saturating_add(one_way)),
        last_delivered: 0,
        last_retrans: 0,
    };
    let mut delack_event_at: Option<u64> = None;
    // CE-marked segments the receiver has seen: every ACK carries the count (AccECN).
    let mut ce_received: u32 = 0;
    let mut end_ns = 0;
    let mut hystart_exit_at = None;
    let mut hystart_exit_detail = None;
    sender.try_send(0, &mut net);
    let mut complete = true;
    while let Some((now, event)) = net.queue.pop() {
        if time_limit.is_some_and(|t| now > t) {
            break;
        }
        if now > GIVE_UP_NS {
            complete = false;
            break;
        }
        let delivered = (receiver.delivered * mss).min(total_bytes);
        iv.flush(now, delivered, sender.stats.retransmits, probe);
        if net.queue.processed() & 0xffff == 0 {
            probe.progress(now, delivered);
        }
        end_ns = now;
        let ack = match event {
            Event::Arrive { seq, tsecr, ce } => {
                ce_received += u32::from(ce);
                receiver.on_segment(now, seq, sender.rtt.srtt_ns(), tsecr)
            }
            Event::DelackTimer => {
                if delack_event_at == Some(now) {
                    delack_event_at = None;
                }
                receiver.on_delack_timer(now)
            }
            Event::Ack {
                cum,
                sack_lo,
                sack_hi,
                rwnd,
                tsval,
                ce_count,
            } => {
                // The sender keeps the latest ACK's TSval to echo (tcp_store_ts_recent).
                sender.ts_recent = tsval;
                let rtt = sender.on_ack(now, cum, (sack_lo, sack_hi), rwnd, ce_count, &mut net);
                if hystart_exit_at.is_none() && sender.cc.hystart_exit().is_some() {
                    hystart_exit_at = Some((now, sender.cc.cwnd_segments()));
                    hystart_exit_detail = Some(HystartExitDetail {
                        in_flight: sender.sb.in_flight(),
                        send_window: sender.send_window_segments(),
                        linux_2635: sender.cc.hystart_2635_state(now),
                    });
                }
                let (queue_bytes, pacing_rate) = if probe.reads_queue_and_pacing() {
                    (
                        net.host.backlog_bytes(now) + net.link.queued_bytes(now),
                        sender.cc.pacing_rate(),
                    )
                } else {
                    net.link.forget_left(now);
                    (0, 0)
                };
                probe.ack(&TraceRow {
                    time_ns: now,
                    cwnd: sender.cc.cwnd_segments(),
                    ssthresh: sender.cc.ssthresh_segments(),
                    phase: sender.cc.phase(),
                    in_flight: sender.sb.in_flight(),
                    rtt_ns: rtt.unwrap_or(0),
                    pacing_rate,
                    queue_bytes,
                    acked_bytes: (u64::from(sender.sb.snd_una()) * mss).min(total_bytes),
                    rwnd,
                });
                if sender.done() {
                    break;
                }
                None
            }
            Event::TxCompletion { bytes } => {
                sender.on_tx_completion(now, bytes, &mut net);
                None
            }
            Event::PacingWake => {
                sender.on_wake(now, &mut net);
                None
            }
            Event::RtoTimer => {
                sender.on_rto_timer(now, &mut net);
                None
            }
        };
        if let Some(a) = ack {
            net.queue.push(
                now + one_way,
                Event::Ack {
                    cum: a.cum,
                    sack_lo: a.sack_lo,
                    sack_hi: a.sack_hi,
                    rwnd: a.rwnd,
                    tsval: a.tsval,
                    ce_count: ce_received,
                },
            );
        }
        if let Some(t) = receiver.delack_deadline {
            if delack_event_at.is_none_or(|e| e > t) {
                net.queue.push(t, Event::DelackTimer);
                delack_event_at = Some(t);
            }
        }
    }
    if let Some(t) = time_limit {
        end_ns = t;
        sender.close_app();
    }
    let delivered = (receiver.delivered * mss).min(total_bytes);
    iv.flush(end_ns, delivered, sender.stats.retransmits, probe);
    sender.limits.close(end_ns);
    Ok(Summary {
        bytes: delivered,
        duration_ns: end_ns,
        retrans: sender.stats.retransmits,
        mean_rtt_ns: sender.rtt.mean_ns(),
        handshake_rtt_ns: cfg.handshake_rtt_ns(),
        final_srtt_ns: sender.rtt.srtt_ns(),
        sender: sender.stats,
        tail_drops: net.link.tail_drops,
        random_drops: net.link.random_drops,
        aqm_drops: net.link.aqm.drops,
        ce_marks: net.link.aqm.marks,
        link: net.link.stats,
        segments_sent: u64::from(sender.sb.snd_nxt()) + sender.stats.retransmits,
        events: net.queue.processed(),
        mss: cfg.mss(),
        hystart_exit: sender.cc.hystart_exit(),
        hystart_exit_at,
        hystart_exit_detail,
        complete,
        limits: sender.limits,
    })
}
