//! CUBIC's part of the socket-model replay on the generic glue: the traces of
//! `shared/conformance/linux-cubic` driven through `TcpFlow<CubicOps>` (the hooks of
//! `tcp_cubic.c` on `congestion::linux::tcp`) instead of the packed `linux::Cubic`.
//! The CSV is the same, byte for byte.
//!
//! The harness's model of the socket is [`crate::tcp_model`]'s with three settings:
//! a `loss` enters and leaves fast recovery at once (no PRR), an ACK after `rto T 0`
//! still acknowledges the timed-out segments, and there is no restart after idle
//! (`tcp_slow_start_after_idle` off).

use crate::Problem;
use crate::linux::{LinuxReplay, set_module_param};
use crate::tcp_model::TcpAlgorithm;
use congestion::cubic::LinuxCubicParams;
use congestion::hystart::HystartExit;
use congestion::linux::cubic_ops::{CubicCa, CubicOps};
use congestion::linux::tcp::{TcpSock, TcpSysctl};
use core::fmt::{self, Write};

/// The CUBIC columns of the reference CSVs.
pub(crate) struct CubicColumns;

impl TcpAlgorithm for CubicColumns {
    type Ops = CubicOps;
    const HEADER: &'static str = LinuxReplay::HEADER;
    const CELLS: usize = 32;
    const MODEL_PACING_AFTER_EVENTS: bool = true;
    const INSTANT_RECOVERY: bool = true;
    const LOST_SEGMENTS_STAY_OUTSTANDING: bool = true;

    /// The harness models no restart after idle.
    fn sysctl() -> TcpSysctl {
        let mut sysctl = TcpSysctl::new();
        sysctl.slow_start_after_idle = false;
        sysctl
    }

    /// A module parameter takes effect at once, as the harness recomputes the derived
    /// constants on every `set`.
    fn set<'a>(
        params: &mut LinuxCubicParams,
        key: &'a str,
        value: u64,
    ) -> Option<Result<(), Problem<'a>>> {
        let mut config = *params.config();
        let result = set_module_param(&mut config, key, value)?;
        Some(result.and_then(|()| {
            *params = config
                .validate()
                .map_err(|error| Problem::ConfigAfterSet { key, error })?;
            Ok(())
        }))
    }

    fn write_state<W: Write>(out: &mut W, sk: &TcpSock, ca: &CubicCa) -> fmt::Result {
        let (c, h) = (&ca.cubic, &ca.hystart);
        let reason = match ca.hystart_exit {
            None => 0,
            Some(HystartExit::AckTrain) => 1,
            Some(HystartExit::DelayIncrease) => 2,
        };
        write!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{reason}",
            sk.tcp_jiffies32,
            sk.snd_cwnd,
            sk.snd_ssthresh,
            sk.snd_cwnd_cnt,
            sk.icsk_ca_state as u8,
            c.cnt,
            c.last_max_cwnd,
            c.last_cwnd,
            c.last_time,
            c.origin_point,
            c.bic_k,
            c.delay_min,
            c.epoch_start,
            c.ack_cnt,
            c.tcp_cwnd,
            u8::from(h.found),
            h.sample_cnt,
            h.round_start,
            h.end_seq,
            h.last_ack,
            h.curr_rtt,
            sk.snd_una,
            sk.snd_nxt,
            sk.packets_out,
            u8::from(sk.is_cwnd_limited),
            sk.max_packets_out,
            sk.srtt_us,
            sk.sk_pacing_rate,
            sk.prior_cwnd,
            sk.prior_ssthresh,
        )
    }
}
