//! The send side of the benchmark stream, per packet: the same path (a packet of 1200
//! bytes every 20 µs, 20 ms RTT) with the Linux-mode flow from the congestion-avoidance
//! snapshot (cwnd about 1100 packets, its pacing rate about 79 MB/s) and a self-paced
//! send path (`PacingStatus::Needed`).
//!
//! One event is one packet, through one of: the EDT pacer's stamp, the TSQ check
//! (limit and budget test), TSO autosizing, or the whole send-path round
//! (`SendPath::poll` + `on_send` + `on_tx_completion`, the three calls a stack makes
//! per burst).

use super::{OursLinux, Regime, START_US, Stream};
use congestion::hystart::PacingStatus;
use congestion::pacing::{
    EdtPacer, PACING_SHIFT, Rate, SendContext, SendPath, SendPathConfig, SendVerdict, TsoInput,
    TsqBudget, TsqLimitInput, tso_segs, tsq_limit_bytes,
};
use congestion::{CongestionController, Duration, Instant};
use std::hint::black_box;

/// Time between two packets, ns (2 packets per 40 µs ACK).
pub const PACKET_INTERVAL_NS: u64 = 20_000;
/// Packet length, bytes.
pub const PACKET_LEN: u32 = super::PACKET_BYTES;

/// Which piece of the send path one event runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendPiece {
    /// Nothing: the per-packet cost of the loop itself, to subtract.
    Nothing,
    /// `EdtPacer::on_send` (departure stamp).
    Pacer,
    /// `tsq_limit_bytes` + `TsqBudget::check`.
    TsqCheck,
    /// `tso_segs` (autosizing).
    TsoAutosize,
    /// `SendPath::poll` + `on_send` + `on_tx_completion`.
    WholeSendPath,
}

/// The send side of one flow.
pub struct SendStream {
    flow: congestion::linux::Cubic,
    path: SendPath,
    pacer: EdtPacer,
    tsq: TsqBudget,
    rate: Rate,
    now_ns: u64,
}

impl SendStream {
    /// The Linux-mode flow at the congestion-avoidance snapshot, a send path that has
    /// seen its 20 ms RTT.
    pub fn new() -> Self {
        let stream = Stream::new(OursLinux::new(), Regime::CongestionAvoidance);
        let flow = stream.live().flow;
        let mut config = SendPathConfig::new();
        config.pacing_status = PacingStatus::Needed;
        let params = config.validate().expect("Linux defaults are valid");
        let mut path = SendPath::new(params);
        let now = Instant::from_micros(START_US);
        path.on_rtt_sample(now, Duration::from_micros(super::RTT_US));
        SendStream {
            flow,
            path,
            pacer: EdtPacer::new(),
            tsq: TsqBudget::new(),
            rate: Rate::from_bytes_per_second(flow.sk_pacing_rate()),
            now_ns: START_US * 1000,
        }
    }

    /// The flow's pacing rate, bytes per second.
    pub fn rate_bytes_per_second(&self) -> u64 {
        self.rate.as_bytes_per_second()
    }

    /// One packet through `piece`; returns something that depends on the result.
    #[inline(always)]
    pub fn packet(&mut self, piece: SendPiece) -> u64 {
        self.now_ns += PACKET_INTERVAL_NS;
        let now_ns = black_box(self.now_ns);
        let rate = black_box(self.rate);
        match piece {
            SendPiece::Nothing => now_ns ^ rate.as_bytes_per_second(),
            SendPiece::Pacer => self
                .pacer
                .on_send(now_ns, u64::from(PACKET_LEN), 1, rate, true),
            SendPiece::TsqCheck => {
                let limit = tsq_limit_bytes(&TsqLimitInput {
                    pacing_rate: rate,
                    pacing_shift: PACING_SHIFT,
                    truesize_bytes: black_box(PACKET_LEN),
                    paced: true,
                    limit_output_bytes: congestion::pacing::LIMIT_OUTPUT_BYTES,
                    retransmit: false,
                });
                u64::from(self.tsq.check(limit, false))
            }
            SendPiece::TsoAutosize => u64::from(tso_segs(&TsoInput {
                pacing_rate: rate,
                pacing_shift: PACING_SHIFT,
                min_rtt_us: black_box(super::RTT_US as u32),
                tso_rtt_log: congestion::pacing::TSO_RTT_LOG,
                gso_max_size: congestion::pacing::GSO_MAX_SIZE,
                gso_max_segs: congestion::pacing::GSO_MAX_SEGS,
                min_tso_segs: congestion::pacing::MIN_TSO_SEGS,
                mss: PACKET_LEN,
            })),
            SendPiece::WholeSendPath => {
                let now = Instant::from_micros(now_ns / 1000);
                let ctx = SendContext {
                    now,
                    // One packet of room, as after each ACK in steady state.
                    in_flight: self.flow.cwnd() - 1,
                    mss: PACKET_LEN,
                    pacing_rate: rate,
                    retransmit: false,
                    rtx_queue_at_most_one: false,
                };
                match self.path.poll(&self.flow, black_box(&ctx)) {
                    SendVerdict::Send { segments } => {
                        let len = segments * PACKET_LEN;
                        let departure = self.path.on_send(now, len, segments, rate);
                        self.path.on_tx_completion(len);
                        departure
                    }
                    other => other.retry_at().map_or(1, |t| t.as_micros()),
                }
            }
        }
    }
}

impl Default for SendStream {
    fn default() -> Self {
        Self::new()
    }
}
