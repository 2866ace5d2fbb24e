//! What a flow must offer to sit behind quinn: the crate's [`CongestionController`]
//! plus construction at quinn's MTU, MTU changes and a pacing rate.

use congestion::linux::{LinuxFlow, LinuxFlowConfig, LinuxSocketConfig};
use congestion::pacing::{BytesPacingInput, PacingRateConfig, pacing_rate_bytes};
use congestion::rfc::{RfcFlow, RfcFlowConfig};
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

    /// The flow's pacing rate in bytes per second, if it computes one.
    fn pacing_rate_bytes_per_second(&self) -> Option<u64>;
}

/// Linux mode (segments): CUBIC + Linux HyStart with the kernel's socket glue, the MSS
/// set to quinn's MTU. The adapter converts bytes to segments with that MTU.
impl QuinnFlow for LinuxFlow {
    type Config = congestion::cubic::LinuxCubicParams;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut socket = LinuxSocketConfig::new();
        socket.mss = u32::from(mtu_bytes);
        LinuxFlow::new(LinuxFlowConfig::from_parts(*config.config(), socket), now)
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        let mut socket = *self.socket_config();
        socket.mss = u32::from(mtu_bytes);
        // Only an MSS of 0 is refused, and quinn's MTU is at least 1200: the old
        // settings stay in force if that ever changed.
        let _ = self.set_socket_config(socket);
    }

    fn pacing_rate_bytes_per_second(&self) -> Option<u64> {
        Some(self.pacing_rate()).filter(|&r| r != 0)
    }
}

/// RFC mode (bytes): RFC 9438 CUBIC with the configured slow start (RFC 9406
/// HyStart++ by default, or Linux HyStart, or standard), the MSS set to quinn's MTU. Its
/// pacing rate is the bytes-mode `tcp_update_pacing_rate` (200 % of cwnd/srtt in slow
/// start, 120 % after) from the flow's smoothed RTT.
impl QuinnFlow for RfcFlow {
    type Config = RfcFlowConfig;

    fn build(config: &Self::Config, mtu_bytes: u16, now: Instant) -> Result<Self, ConfigError> {
        let mut config = *config;
        config.cubic.mss_bytes = u64::from(mtu_bytes);
        RfcFlow::new(config, now)
    }

    fn set_mtu(&mut self, mtu_bytes: u16) {
        // A refused MSS (0, or above 65535) changes nothing; quinn's MTU is 1200..65527.
        let _ = self.set_mss(u64::from(mtu_bytes));
    }

    fn pacing_rate_bytes_per_second(&self) -> Option<u64> {
        let params = PacingRateConfig::new().validate().ok()?;
        let rate = pacing_rate_bytes(
            &params,
            &BytesPacingInput {
                cwnd_bytes: self.cwnd(),
                ssthresh_bytes: self.ssthresh(),
                in_flight_bytes: self.in_flight(),
                srtt_us: u32::try_from(self.srtt_us()).unwrap_or(u32::MAX),
            },
        );
        // No RTT estimate yet means "not paced": report nothing rather than infinity.
        rate.is_pacing().then(|| rate.as_bytes_per_second())
    }
}
