//! What the socket models of `linux-bbr` and `linux-bbr3` share: the `set` keys and
//! their defaults, the fresh socket of `init`, and the segment ranges of the events.

use crate::{Problem, set_u32};
use congestion::hystart::PacingStatus;
use congestion::linux::TCP_INFINITE_SSTHRESH;
use congestion::linux::tcp::{Minmax, TcpSock, before, ecn_flags};

/// The `set` keys, for the next `init` (the READMEs' defaults).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub(crate) mss: u32,
    pub(crate) init_cwnd: u32,
    pub(crate) cwnd_clamp: u32,
    pub(crate) syn_rtt_us: u32,
    pub(crate) max_pacing_rate: u64,
    pub(crate) pacing_status: u8,
    pub(crate) pacing_shift: u8,
    pub(crate) max_tcp_header: u32,
    pub(crate) iss: u32,
    pub(crate) delivered0: u32,
    /// Bit 0: ECN negotiated (`TCP_ECN_OK`); bit 1: a shallow-threshold path
    /// (`TCP_ECN_LOW`). BBR v1 reads neither.
    pub(crate) ecn: u8,
}

impl Settings {
    /// The defaults.
    pub(crate) const fn new() -> Self {
        Settings {
            mss: 1448,
            init_cwnd: 10,
            cwnd_clamp: u32::MAX,
            syn_rtt_us: 0,
            max_pacing_rate: u64::MAX,
            pacing_status: 0,
            pacing_shift: 10,
            max_tcp_header: 320,
            iss: 0,
            delivered0: 0,
            ecn: 0,
        }
    }

    /// `set KEY VALUE`.
    pub(crate) fn set<'a>(&mut self, key: &'a str, value: u64) -> Result<(), Problem<'a>> {
        let choice = |expected| Problem::BadChoice { key, expected };
        match key {
            "mss" => self.mss = set_u32(key, value)?,
            "init_cwnd" => self.init_cwnd = set_u32(key, value)?,
            "cwnd_clamp" => self.cwnd_clamp = set_u32(key, value)?,
            "syn_rtt_us" => self.syn_rtt_us = set_u32(key, value)?,
            "max_pacing_rate" => self.max_pacing_rate = value,
            "pacing_status" => {
                self.pacing_status = u8::try_from(value)
                    .ok()
                    .filter(|v| *v <= 2)
                    .ok_or(choice("expected 0, 1 or 2"))?;
            }
            "pacing_shift" => {
                self.pacing_shift = u8::try_from(value)
                    .ok()
                    .filter(|v| *v < 32)
                    .ok_or(choice("expected a shift below 32"))?;
            }
            "max_tcp_header" => self.max_tcp_header = set_u32(key, value)?,
            "iss" => self.iss = set_u32(key, value)?,
            "delivered0" => self.delivered0 = set_u32(key, value)?,
            "ecn" => {
                self.ecn = u8::try_from(value).map_err(|_| Problem::OutOfRange { key, value })?;
            }
            other => return Err(Problem::UnknownKey(other)),
        }
        Ok(())
    }

    /// `sk_pacing_status` as the library's configuration names it.
    pub(crate) const fn pacing_status(&self) -> PacingStatus {
        PacingStatus::from_code(self.pacing_status)
    }

    /// `init T`: a fresh socket at `t_us` (`tcp_init_sock()` as the models state it):
    /// the initial window, no ssthresh, an application-limited bubble until the first
    /// ACK, and the handshake's RTT as srtt and the first `rtt_min` when there is one.
    pub(crate) fn socket(&self, t_us: u64) -> TcpSock {
        let mut sk = TcpSock::default();
        sk.set_clock(t_us);
        let jiffies = sk.tcp_jiffies32;
        sk.mss_cache = self.mss;
        sk.snd_cwnd = self.init_cwnd;
        sk.snd_cwnd_clamp = self.cwnd_clamp;
        sk.snd_ssthresh = TCP_INFINITE_SSTHRESH;
        sk.snd_una = self.iss;
        sk.snd_nxt = self.iss;
        sk.write_seq = self.iss;
        sk.cwnd_usage_seq = self.iss;
        sk.delivered = self.delivered0;
        sk.app_limited = u32::MAX;
        sk.rate_app_limited = true;
        sk.lsndtime = jiffies;
        sk.rtt_min = Minmax::new(jiffies, u32::MAX);
        if self.syn_rtt_us > 0 {
            sk.srtt_us = self.syn_rtt_us.wrapping_shl(3);
            sk.rtt_min = Minmax::new(jiffies, self.syn_rtt_us);
        }
        sk.sk_pacing_status = self.pacing_status;
        sk.sk_pacing_shift = self.pacing_shift;
        sk.sk_max_pacing_rate = self.max_pacing_rate;
        if self.ecn & 1 != 0 {
            sk.ecn_flags |= ecn_flags::TCP_ECN_OK;
        }
        if self.ecn & 2 != 0 {
            sk.ecn_flags |= ecn_flags::TCP_ECN_LOW;
        }
        sk
    }
}

/// Parses `A` (one segment) or `A-B` (`[A, B)`).
pub(crate) fn range(word: &str) -> Result<(u32, u32), Problem<'_>> {
    let bad = || Problem::BadRange(word);
    match word.split_once('-') {
        Some((a, b)) => {
            let a: u32 = a.parse().map_err(|_| bad())?;
            let b: u32 = b.parse().map_err(|_| bad())?;
            Ok((a, b))
        }
        None => {
            let a: u32 = word.parse().map_err(|_| bad())?;
            Ok((a, a.wrapping_add(1)))
        }
    }
}

/// Whether `seq` is outstanding (`snd_una <= seq < snd_nxt`, wrapping).
pub(crate) fn outstanding(sk: &TcpSock, seq: u32) -> bool {
    !before(seq, sk.snd_una) && before(seq, sk.snd_nxt)
}
