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
