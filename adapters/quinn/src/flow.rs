//! What a flow must offer to sit behind quinn: the crate's [`CongestionController`]
//! plus construction at quinn's MTU and MTU changes.

use congestion::linux::{self, LinuxSocketConfig};
use congestion::rfc::{self, Classic, WindowAdjustment};
use congestion::{ConfigError, CongestionController, Instant};

/// A flow the quinn adapter can drive. Implemented for the crate's flows; the adapter
/// converts quinn's bytes to the flow's [`WindowUnit`](congestion::WindowUnit).
pub trait QuinnFlow: CongestionController + Clone + Send + Sync + 'static {
    /// Everything needed to build one flow, except the MTU quinn picks per path.
    type Config: Clone + Send + Sync + 'static;

    /// A new flow at `now` for a path whose datagrams carry `mtu_bytes`.
    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError>;

    /// quinn's path MTU changed (PLPMTUD found a larger one, or a black hole a smaller).
    fn set_mtu(&mut self, mtu_bytes: u16);
}

/// Linux mode (segments): CUBIC + Linux HyStart with the kernel's socket glue, the MSS
/// set to quinn's MTU. The adapter converts bytes to segments with that MTU.
impl QuinnFlow for linux::Cubic {
    type Config = congestion::cubic::LinuxCubicParams;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut socket = LinuxSocketConfig::new();
        socket.mss = u32::from(mtu_bytes);
        linux::Cubic::new(
            linux::CubicConfig::from_parts(*config.config(), socket),
            now,
        )
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        let mut socket = *self.socket_config();
        socket.mss = u32::from(mtu_bytes);
        // Only an MSS of 0 is refused, and quinn's MTU is at least 1200: the old
        // settings stay in force if that ever changed.
        let _ = self.set_socket_config(socket);
    }
}

/// RFC mode (bytes): RFC 9438 CUBIC (`rfc::Cubic`) or RFC 9002 NewReno (`rfc::NewReno`)
/// with the configured slow start (RFC 9406 HyStart++ by default, or Linux HyStart, or
/// standard), the MSS set to quinn's MTU.
impl<W: WindowAdjustment + Send + Sync + 'static> QuinnFlow for Classic<W>
where
    W::Undo: Send + Sync,
{
    type Config = rfc::CubicConfig;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.cubic.mss_bytes = u64::from(mtu_bytes);
        Classic::new(config, now)
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        // A refused MSS (0, or above 65535) changes nothing; quinn's MTU is 1200..65527.
        let _ = self.set_mss(u64::from(mtu_bytes));
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

/// Linux-mode BBR v1 in segments of quinn's MTU at build time (the adapter keeps that
/// unit when quinn's MTU changes later), drawing from [`random_below`].
impl QuinnFlow for linux::BbrController<linux::RandomFn> {
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
impl QuinnFlow for linux::Bbr3Controller<linux::RandomFn> {
    type Config = linux::Bbr3Config;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.mss = u32::from(mtu_bytes);
        linux::Bbr3Controller::new(config, now, linux::RandomFn(random_below))
    }

    /// Ignored: the flow keeps its segment size.
    fn set_mtu(&mut self, _mtu_bytes: u16) {}
}
