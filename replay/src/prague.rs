//! TCP Prague's part of the socket-model replay (`shared/conformance/linux-prague`):
//! its module parameters and its columns.

use crate::tcp_model::TcpAlgorithm;
use crate::{Problem, set_u32};
use congestion::linux::prague::{PragueCa, PragueOps, PragueParams};
use congestion::linux::tcp::TcpSock;
use core::fmt::{self, Write};

/// The Prague columns of the reference CSVs.
pub(crate) struct PragueColumns;

impl TcpAlgorithm for PragueColumns {
    type Ops = PragueOps;
    const HEADER: &'static str = "idx,ev,t_us,cwnd,ssthresh,ca_state,upscaled_alpha,alpha,frac_cwnd,rate_bytes,loss_rate_bytes,ai_ack_increase,loss_cwnd,hsrtt_us,round,next_seq,old_delivered,old_delivered_ce,saw_ce,in_loss,cwnd_mode,cwnd_mode_transit,alpha_mode,alpha_stamp,cwr_stamp,mtu_cache,max_tso_burst,mss,delivered,delivered_ce,snd_una,snd_nxt,packets_out,is_cwnd_limited,max_packets_out,cwnd_usage_seq,high_seq,prior_cwnd,prior_ssthresh,undo_marker,retransmits,lsndtime,srtt_us,pacing_rate";
    const CELLS: usize = 42;
    // Prague sets sk_pacing_rate itself; the harness adds no P().
    const MODEL_PACING_AFTER_EVENTS: bool = false;

    /// The module parameters, live; a refused value (`prague_burst_shift` above 63)
    /// keeps the old one, as a refused sysfs write does.
    fn set<'a>(p: &mut PragueParams, key: &'a str, value: u64) -> Option<Result<(), Problem<'a>>> {
        let v = match set_u32(key, value) {
            Ok(v) => v,
            Err(e) => return Some(Err(e)),
        };
        let mut c = *p.config();
        match key {
            "prague_rtt_target" => c.prague_rtt_target = v,
            "prague_rtt_transition" => c.prague_rtt_transition = v,
            "prague_alpha_mode" => c.prague_alpha_mode = v,
            "prague_cwnd_mode" => c.prague_cwnd_mode = v,
            "prague_cwnd_transit" => c.prague_cwnd_transit = v,
            "prague_max_tso_segs" => c.prague_max_tso_segs = v,
            "prague_burst_shift" => c.prague_burst_shift = v,
            _ => return None,
        }
        if let Ok(valid) = c.validate() {
            *p = valid;
        }
        Some(Ok(()))
    }

    fn write_state<W: Write>(out: &mut W, sk: &TcpSock, ca: &PragueCa) -> fmt::Result {
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            sk.snd_cwnd,
            sk.snd_ssthresh,
            sk.icsk_ca_state as u8,
            ca.upscaled_alpha,
            ca.upscaled_alpha >> 4,
            ca.frac_cwnd,
            ca.rate_bytes,
            ca.loss_rate_bytes,
            ca.ai_ack_increase,
            ca.loss_cwnd,
            ca.hsrtt_us,
            ca.round,
            ca.next_seq,
            ca.old_delivered,
            ca.old_delivered_ce,
            u8::from(ca.saw_ce),
            u8::from(ca.in_loss),
            u8::from(ca.cwnd_mode),
            u8::from(ca.cwnd_mode_transit),
            u8::from(ca.alpha_mode),
            ca.alpha_stamp,
            ca.cwr_stamp,
            ca.mtu_cache,
            ca.max_tso_burst,
            sk.mss_cache,
        )?;
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            sk.delivered,
            sk.delivered_ce,
            sk.snd_una,
            sk.snd_nxt,
            sk.packets_out,
            u8::from(sk.is_cwnd_limited),
            sk.max_packets_out,
            sk.cwnd_usage_seq,
            sk.high_seq,
            sk.prior_cwnd,
            sk.prior_ssthresh,
            u8::from(sk.undo_marker),
            sk.icsk_retransmits,
            sk.lsndtime,
            sk.srtt_us,
            sk.sk_pacing_rate,
        )
    }
}
