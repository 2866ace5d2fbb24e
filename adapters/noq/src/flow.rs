//! What a flow must offer to sit behind noq: the crate's [`CongestionController`] in
//! bytes, plus construction at noq's MTU and MTU changes.

use congestion::linux;
use congestion::rfc::{Cubic, CubicConfig, NewReno};
use congestion::{AnyController, ConfigError, CongestionController, Instant};

/// A flow the noq adapter can drive. noq counts bytes and the adapter converts nothing,
/// so an implementor must count bytes too
/// ([`WindowUnit::Bytes`](congestion::WindowUnit::Bytes)): the RFC-mode flows. (The
/// Linux-mode flow counts segments; `adapters/quinn` converts for it.)
pub trait NoqFlow: CongestionController + Clone + Send + Sync + core::fmt::Debug + 'static {
    /// Everything needed to build one flow, except the MTU noq picks per path.
    type Config: Clone + Send + Sync + core::fmt::Debug + 'static;

    /// A new flow at `now` for a path whose datagrams carry `mtu_bytes`.
    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError>;

    /// noq's path MTU changed (PLPMTUD found a larger one, or a black hole a smaller).
    fn set_mtu(&mut self, mtu_bytes: u16);
}

/// RFC 9438 CUBIC with the configured slow start (RFC 9406 HyStart++ by default, Linux
/// HyStart, or standard), the MSS set to noq's MTU.
impl NoqFlow for Cubic {
    type Config = CubicConfig;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.cubic.mss_bytes = u64::from(mtu_bytes);
        Cubic::new(config, now)
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        // A refused MSS (0, or above 65535) changes nothing; noq's MTU is 1200..65527.
        let _ = self.set_mss(u64::from(mtu_bytes));
    }
}

/// RFC 9002 NewReno (one MSS per window in congestion avoidance, halving on loss) on
/// the same slow starts and recovery as [`Cubic`], the MSS set to noq's MTU.
impl NoqFlow for NewReno {
    type Config = CubicConfig;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.cubic.mss_bytes = u64::from(mtu_bytes);
        NewReno::new(config, now)
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        let _ = self.set_mss(u64::from(mtu_bytes));
    }
}

/// Which byte-counting flow an [`AnyController`] behind noq runs: the run-time choice
/// between CUBIC and NewReno with one controller type (`NoqController<AnyController>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyRfcConfig {
    /// RFC 9438 CUBIC ([`Cubic`]).
    Cubic(CubicConfig),
    /// RFC 9002 NewReno ([`NewReno`]).
    NewReno(CubicConfig),
}

/// [`AnyController`] holding one of the RFC-mode flows, chosen by [`AnyRfcConfig`]. Only
/// those two variants are ever built, so the flow always counts bytes.
impl NoqFlow for AnyController {
    type Config = AnyRfcConfig;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        match config {
            AnyRfcConfig::Cubic(c) => Cubic::build(c, mtu_bytes, now).map(AnyController::RfcCubic),
            AnyRfcConfig::NewReno(c) => {
                NewReno::build(c, mtu_bytes, now).map(AnyController::RfcNewReno)
            }
        }
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        match self {
            AnyController::RfcCubic(flow) => flow.set_mtu(mtu_bytes),
            AnyController::RfcNewReno(flow) => flow.set_mtu(mtu_bytes),
            // Never built by `build` above; the segment-counting flows have no byte MSS.
            _ => {}
        }
    }
}

/// The adapter's random numbers for BBR's first PROBE_BW phase (the kernel's
/// `get_random_u32_below()`): a xorshift64* generator, seeded from the clock at the first
/// draw and shared by every flow of the process. Not cryptographic; BBR only needs the
/// phases of different flows not to line up.
pub fn random_below(ceil: u32) -> u32 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static STATE: AtomicU64 = AtomicU64::new(0);
    let mut x = STATE.load(Ordering::Relaxed);
    if x == 0 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        x = u64::from(nanos) | 1;
    }
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    STATE.store(x, Ordering::Relaxed);
    let r = x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
    // `RandomFn` reduces modulo `ceil` itself; this keeps the value in range anyway.
    u32::try_from(r).unwrap_or(0) % ceil.max(1)
}

/// Linux-mode BBR v1 in segments of noq's MTU at build time, one per packet (the
/// adapter scales the bytes noq reads to the current MTU), drawing from [`random_below`].
impl NoqFlow for linux::BbrController<linux::RandomFn> {
    type Config = linux::BbrConfig;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.mss = u32::from(mtu_bytes);
        linux::BbrController::new(config, now, linux::RandomFn(random_below))
    }

    /// Ignored: the flow keeps its segment size (see the adapter's snapshot notes).
    fn set_mtu(&mut self, _mtu_bytes: u16) {}
}

/// Linux-mode BBRv3 in segments, as [`linux::BbrController`] above.
impl NoqFlow for linux::Bbr3Controller<linux::RandomFn> {
    type Config = linux::Bbr3Config;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.mss = u32::from(mtu_bytes);
        linux::Bbr3Controller::new(config, now, linux::RandomFn(random_below))
    }

    /// Ignored: the flow keeps its segment size.
    fn set_mtu(&mut self, _mtu_bytes: u16) {}
}
