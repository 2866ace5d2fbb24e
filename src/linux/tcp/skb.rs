//! The per-segment `sacked` bits of `struct tcp_skb_cb` that the glue and the rate
//! sampler test. A stack (or a replay's scoreboard) keeps them with each segment.

/// `TCPCB_SACKED_ACKED`: the segment was SACKed.
pub const SACKED_ACKED: u8 = 0x01;
/// `TCPCB_SACKED_RETRANS`: a retransmission of the segment is in flight.
pub const SACKED_RETRANS: u8 = 0x02;
/// `TCPCB_LOST`: the segment is marked lost.
pub const LOST: u8 = 0x04;
/// `TCPCB_REPAIRED`: sent by the repair mode (counts as a retransmission).
pub const REPAIRED: u8 = 0x10;
/// `TCPCB_EVER_RETRANS`: the segment was retransmitted at least once.
pub const EVER_RETRANS: u8 = 0x80;
/// `TCPCB_RETRANS`: any of the retransmission bits.
pub const RETRANS: u8 = SACKED_RETRANS | EVER_RETRANS | REPAIRED;
