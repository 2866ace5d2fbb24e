//! The sender's RTT estimator and retransmission timeout (RFC 6298, with Linux's
//! 200 ms minimum), and the RTT statistics the report prints.

/// Linux `TCP_RTO_MIN`: 200 ms.
pub const RTO_MIN_NS: u64 = 200_000_000;
/// Linux `TCP_RTO_MAX`: 120 s.
pub const RTO_MAX_NS: u64 = 120_000_000_000;
/// RFC 6298 §2.1: the RTO before any sample, 1 s.
pub const RTO_INITIAL_NS: u64 = 1_000_000_000;

/// SRTT, RTTVAR, RTO and sample statistics.
#[derive(Clone, Debug)]
pub struct RttEstimator {
    srtt_ns: u64,
    rttvar_ns: u64,
    rto_ns: u64,
    backoff: u32,
    min_rtt_ns: u64,
    samples: u64,
    sum_ns: u128,
}

impl RttEstimator {
    /// No sample yet: RTO 1 s.
    pub fn new() -> Self {
        RttEstimator {
            srtt_ns: 0,
            rttvar_ns: 0,
            rto_ns: RTO_INITIAL_NS,
            backoff: 0,
            min_rtt_ns: u64::MAX,
            samples: 0,
            sum_ns: 0,
        }
    }

    /// One RTT sample.
    pub fn on_sample(&mut self, rtt_ns: u64) {
        if self.samples == 0 {
            // RFC 6298 §2.2: SRTT = R, RTTVAR = R/2
            self.srtt_ns = rtt_ns;
            self.rttvar_ns = rtt_ns / 2;
        } else {
            // RFC 6298 §2.3: RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'|; SRTT = 7/8 SRTT + 1/8 R'
            let err = self.srtt_ns.abs_diff(rtt_ns);
            self.rttvar_ns = (3 * self.rttvar_ns + err) / 4;
            self.srtt_ns = (7 * self.srtt_ns + rtt_ns) / 8;
        }
        // RFC 6298 §2.3: RTO = SRTT + max(G, 4 RTTVAR), at least the minimum (§2.4).
        self.rto_ns = (self.srtt_ns + 4 * self.rttvar_ns).clamp(RTO_MIN_NS, RTO_MAX_NS);
        self.backoff = 0;
        self.min_rtt_ns = self.min_rtt_ns.min(rtt_ns);
        self.samples += 1;
        self.sum_ns += u128::from(rtt_ns);
    }

    /// The timer expired: RFC 6298 §5.5 doubles the RTO.
    pub fn back_off(&mut self) {
        self.backoff = (self.backoff + 1).min(16);
    }

    /// The current timeout, backed off.
    pub fn rto_ns(&self) -> u64 {
        (self.rto_ns << self.backoff).min(RTO_MAX_NS)
    }

    /// Smoothed RTT, ns (0 before any sample).
    pub fn srtt_ns(&self) -> u64 {
        self.srtt_ns
    }

    /// Smallest sample, µs (`u32::MAX` before any).
    pub fn min_rtt_us(&self) -> u32 {
        (self.min_rtt_ns / 1000).min(u64::from(u32::MAX)) as u32
    }

    /// Mean of all samples, ns (0 before any).
    pub fn mean_ns(&self) -> f64 {
        if self.samples == 0 {
            0.0
        } else {
            self.sum_ns as f64 / self.samples as f64
        }
    }
}

impl Default for RttEstimator {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc6298_arithmetic_with_the_linux_minimum() {
        let mut r = RttEstimator::new();
        assert_eq!(r.rto_ns(), 1_000_000_000);
        // R = 80 ms: SRTT 80, RTTVAR 40, RTO 80 + 160 = 240 ms.
        r.on_sample(80_000_000);
        assert_eq!(r.rto_ns(), 240_000_000);
        // R = 80 ms again: RTTVAR 30, SRTT 80, RTO 200 ms.
        r.on_sample(80_000_000);
        assert_eq!(r.rto_ns(), 200_000_000);
        // R = 1 ms: the 200 ms floor holds.
        for _ in 0..50 {
            r.on_sample(1_000_000);
        }
        assert_eq!(r.rto_ns(), RTO_MIN_NS);
        r.back_off();
        assert_eq!(r.rto_ns(), 2 * RTO_MIN_NS);
    }
}
