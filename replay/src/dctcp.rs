//! DCTCP's part of the socket-model replay (`shared/conformance/linux-dctcp`): its
//! module parameters and its columns.

use crate::tcp_model::TcpAlgorithm;
use crate::{Problem, set_u32};
use congestion::linux::dctcp::{DctcpCa, DctcpOps, DctcpParams};
use congestion::linux::tcp::TcpSock;
use core::fmt::{self, Write};

/// The DCTCP columns of the reference CSVs.
pub(crate) struct DctcpColumns;

impl TcpAlgorithm for DctcpColumns {
    type Ops = DctcpOps;
    const HEADER: &'static str = "idx,ev,t_us,cwnd,ssthresh,cwnd_cnt,ca_state,alpha,old_delivered,old_delivered_ce,next_seq,loss_cwnd,prior_rcv_nxt,ce_state,delivered,delivered_ce,snd_una,snd_nxt,packets_out,is_cwnd_limited,max_packets_out,cwnd_usage_seq,high_seq,prior_cwnd,prior_ssthresh,undo_marker,prr_delivered,prr_out,retransmits,lsndtime,srtt_us,pacing_rate";
    const CELLS: usize = 30;
    const MODEL_PACING_AFTER_EVENTS: bool = true;

    /// `dctcp_shift_g` above 10 is refused by the library; as the kernel's sysfs write
    /// does, the replay then keeps the old value and goes on.
    fn set<'a>(
        params: &mut DctcpParams,
        key: &'a str,
        value: u64,
    ) -> Option<Result<(), Problem<'a>>> {
        let result = match key {
            "dctcp_shift_g" => set_u32(key, value).map(|g| {
                // Refused: the old value stays (param_set_uint_minmax's -EINVAL).
                let _ = params.set_dctcp_shift_g(g);
            }),
            "dctcp_alpha_on_init" => set_u32(key, value).map(|a| params.set_dctcp_alpha_on_init(a)),
            _ => return None,
        };
        Some(result)
    }

    fn write_state<W: Write>(out: &mut W, sk: &TcpSock, ca: &DctcpCa) -> fmt::Result {
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            sk.snd_cwnd,
            sk.snd_ssthresh,
            sk.snd_cwnd_cnt,
            sk.icsk_ca_state as u8,
            ca.dctcp_alpha,
            ca.old_delivered,
            ca.old_delivered_ce,
            ca.next_seq,
            ca.loss_cwnd,
            ca.prior_rcv_nxt,
            ca.ce_state,
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
            sk.prr_delivered,
            sk.prr_out,
            sk.icsk_retransmits,
            sk.lsndtime,
            sk.srtt_us,
            sk.sk_pacing_rate,
        )
    }
}
