//! `arbitrary::Arbitrary` for the events and for valid Linux-mode configurations.

use super::{StackEvent, TimedEvent};
use crate::controller::{AckEvent, EcnEvent, LossEvent, SentEvent, SentPacket};
use crate::cubic::{HystartDetect, LinuxCubicConfig, LinuxCubicParams};
use crate::hystart::PacingStatus;
use crate::linux::LinuxSocketConfig;
use crate::time::Duration;
use crate::time::Instant;
use arbitrary::{Arbitrary, Result, Unstructured};

impl<'a> Arbitrary<'a> for StackEvent {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0u8..=12)? {
            0..=3 => StackEvent::Ack(AckEvent {
                acked: u.arbitrary()?,
                rtt: Option::<u64>::arbitrary(u)?.map(Duration::from_micros),
                largest_acked: u.arbitrary()?,
                app_limited: u.arbitrary()?,
                ce_delta: 0,
            }),
            4 => StackEvent::Sent(SentEvent {
                in_flight_after: u.arbitrary()?,
                largest_sent: u.arbitrary()?,
            }),
            5 => StackEvent::SentCounted {
                sent: u.arbitrary()?,
                largest_sent: u.arbitrary()?,
            },
            6 | 7 => StackEvent::Loss(LossEvent {
                lost: u.arbitrary()?,
                newest_lost: sent_packet(u)?,
                persistent_congestion: u.arbitrary()?,
            }),
            8 => StackEvent::Ecn(EcnEvent {
                ce_increase: u.arbitrary()?,
                newest_acked: sent_packet(u)?,
            }),
            9 => StackEvent::RetransmissionTimeout,
            10 => StackEvent::Discarded(u.arbitrary()?),
            11 => StackEvent::Spurious,
            _ => StackEvent::TransmitStart,
        })
    }
}

/// A packet named by number, by send time, or not at all.
fn sent_packet(u: &mut Unstructured<'_>) -> Result<SentPacket> {
    Ok(match u.int_in_range(0u8..=2)? {
        0 => SentPacket::Number(u.arbitrary()?),
        1 => SentPacket::SentAt(Instant::from_micros(u.arbitrary()?)),
        _ => SentPacket::Unknown,
    })
}

impl<'a> Arbitrary<'a> for TimedEvent {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(TimedEvent {
            advance_us: u.arbitrary()?,
            event: u.arbitrary()?,
        })
    }
}

/// A valid Linux-mode configuration: every field within what validation accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArbitraryLinuxConfig {
    /// Validated CUBIC parameters.
    pub params: LinuxCubicParams,
    /// Socket settings that pass validation.
    pub socket: LinuxSocketConfig,
}

impl<'a> Arbitrary<'a> for ArbitraryLinuxConfig {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut c = LinuxCubicConfig::new();
        c.beta = u.int_in_range(1..=1023)?;
        c.bic_scale = u.int_in_range(1..=crate::cubic::MAX_BIC_SCALE)?;
        c.fast_convergence = u.arbitrary()?;
        c.tcp_friendliness = u.arbitrary()?;
        c.hystart = u.arbitrary()?;
        c.hystart_detect = HystartDetect::from_bits(u.int_in_range(0..=3)?)
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        c.hystart_low_window = u.arbitrary()?;
        c.hystart_ack_delta_us = u.arbitrary()?;
        c.initial_ssthresh = u.arbitrary()?;
        let mut s = LinuxSocketConfig::new();
        s.cwnd_clamp = u.int_in_range(2..=u32::MAX)?;
        s.init_cwnd = u.int_in_range(1..=s.cwnd_clamp)?;
        s.init_ssthresh = u.int_in_range(1..=u32::MAX)?;
        s.mss = u.int_in_range(1..=u32::from(u16::MAX))?;
        s.initial_srtt_us = u.arbitrary()?;
        s.pacing_status =
            *u.choose(&[PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq])?;
        s.gso_max_size = u.arbitrary()?;
        let params = c
            .validate()
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        s.validate()
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        Ok(ArbitraryLinuxConfig { params, socket: s })
    }
}

/// A valid RFC-mode configuration: every field within what validation accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArbitraryRfcConfig(pub crate::rfc::CubicConfig);

impl<'a> Arbitrary<'a> for ArbitraryRfcConfig {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        use crate::rfc::{CubicConfig, SlowStartKind};
        let mut c = CubicConfig::new();
        c.cubic.mss_bytes = u.int_in_range(1..=65_535)?;
        c.cubic.beta_permille = u.int_in_range(1..=999)?;
        c.cubic.ecn_beta_permille = u.int_in_range(1..=999)?;
        c.cubic.c_permille = u.int_in_range(1..=100_000)?;
        c.cubic.fast_convergence = u.arbitrary()?;
        c.cubic.reno_friendly = u.arbitrary()?;
        c.paced = u.arbitrary()?;
        c.slow_start = *u.choose(&[
            SlowStartKind::Standard,
            SlowStartKind::LinuxHystart,
            SlowStartKind::HystartPlusPlus,
        ])?;
        let min = 2 * c.cubic.mss_bytes;
        c.initial_window_bytes = Some(u.int_in_range(min..=min.saturating_mul(1000))?);
        c.validate()
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        Ok(ArbitraryRfcConfig(c))
    }
}
