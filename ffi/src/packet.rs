//! The per-packet C calls of the delivery-rate-sampling controllers, for stacks that
//! report packets rather than a TCP scoreboard (QUIC): RFC-mode BBRv3
//! (`congestion_rfc_bbr3_*`, `rfc::Bbr3Controller`, bytes) and the Linux-mode BBR v1 and
//! BBRv3 controllers (`congestion_linux_bbr_controller_*`,
//! `congestion_linux_bbr3_controller_*`, `linux::{BbrController, Bbr3Controller}`,
//! segments: one QUIC packet is one segment).
//!
//! Each is the Rust trait's per-packet calls (`CongestionController::on_packet_sent`,
//! `on_ack_sampled`, `on_packet_lost`), one C function each with the same arguments in
//! the same order. The send call writes a [`CongestionTxSnapshot`] (32 bytes, plain
//! integers) that the caller stores with the packet and hands back, unchanged, when the
//! packet is acknowledged or declared lost. The controller keeps its random source: the
//! [`CongestionRandom`] given at init is copied into the state.
//!
//! This file holds the machinery the three share: the blobs, the snapshot checks and
//! the generic bodies every exported function forwards to.

use crate::flow::{ack_event, at, ecn_event, loss_event, phase_code, ssthresh_code};
use crate::state::Blob;
use crate::tcp_blob::{CongestionRandom, FlowInner, ParamsInner, random};
use crate::*;
use congestion::linux::tcp::{RandomSource, TxSnapshot};
use congestion::linux::{Bbr3Params as LinuxBbr3Params, BbrParams};
use congestion::rfc::Bbr3Params as RfcBbr3Params;
use congestion::{AckEvent, AckedPacket, CongestionController, LossEvent, SentEvent};

/// The caller's random source, kept in the state for the controller's draws: as
/// [`crate::tcp_blob::CallerRandom`], over a copy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StoredRandom(pub(crate) CongestionRandom);

impl RandomSource for StoredRandom {
    fn below(&mut self, ceil: u32) -> u32 {
        crate::tcp_blob::CallerRandom(&self.0).below(ceil)
    }
}

/// RFC-mode BBRv3 behind the trait, as the C state holds it.
pub(crate) type RfcBbr3Ctl = congestion::rfc::Bbr3Controller<StoredRandom, RfcBbr3Params>;
/// Linux-mode BBR v1 behind the trait, as the C state holds it.
pub(crate) type LinuxBbrCtl = congestion::linux::BbrController<StoredRandom, BbrParams>;
/// Linux-mode BBRv3 behind the trait, as the C state holds it.
pub(crate) type LinuxBbr3Ctl = congestion::linux::Bbr3Controller<StoredRandom, LinuxBbr3Params>;

/// What the per-packet calls need of a controller beyond the trait.
pub(crate) trait PacketController: CongestionController + Copy {
    /// The flow's `(delivered, lost)` counters when it exposes them, to refuse a
    /// snapshot taken ahead of them (one of another flow).
    fn counters(&self) -> Option<(u32, u32)>;
    /// The model's state or mode, as its `CONGESTION_*_STATE_*`/`_MODE_*` number.
    fn bbr_state(&self) -> u32;
}

impl PacketController for RfcBbr3Ctl {
    fn counters(&self) -> Option<(u32, u32)> {
        None
    }
    fn bbr_state(&self) -> u32 {
        self.flow().state() as u32
    }
}

impl PacketController for LinuxBbrCtl {
    fn counters(&self) -> Option<(u32, u32)> {
        let (delivered, lost, _) = self.flow().delivery_counters();
        Some((delivered, lost))
    }
    fn bbr_state(&self) -> u32 {
        self.flow().mode() as u32
    }
}

impl PacketController for LinuxBbr3Ctl {
    fn counters(&self) -> Option<(u32, u32)> {
        let (delivered, _, lost, _) = self.flow().delivery_counters();
        Some((delivered, lost))
    }
    fn bbr_state(&self) -> u32 {
        self.flow().mode() as u32
    }
}

/// RFC-mode BBRv3's state: `BBR.state` Startup (the draft's §5.3.1).
pub const CONGESTION_RFC_BBR3_STATE_STARTUP: u32 = 0;
/// RFC-mode BBRv3's state: Drain (§5.3.2).
pub const CONGESTION_RFC_BBR3_STATE_DRAIN: u32 = 1;
/// RFC-mode BBRv3's state: ProbeBW_DOWN (§5.3.3.1).
pub const CONGESTION_RFC_BBR3_STATE_PROBE_BW_DOWN: u32 = 2;
/// RFC-mode BBRv3's state: ProbeBW_CRUISE (§5.3.3.2).
pub const CONGESTION_RFC_BBR3_STATE_PROBE_BW_CRUISE: u32 = 3;
/// RFC-mode BBRv3's state: ProbeBW_REFILL (§5.3.3.3).
pub const CONGESTION_RFC_BBR3_STATE_PROBE_BW_REFILL: u32 = 4;
/// RFC-mode BBRv3's state: ProbeBW_UP (§5.3.3.4).
pub const CONGESTION_RFC_BBR3_STATE_PROBE_BW_UP: u32 = 5;
/// RFC-mode BBRv3's state: ProbeRTT (§5.3.4).
pub const CONGESTION_RFC_BBR3_STATE_PROBE_RTT: u32 = 6;

const _: () = {
    use congestion::rfc::bbr3::State;
    assert!(State::Startup as u32 == CONGESTION_RFC_BBR3_STATE_STARTUP);
    assert!(State::Drain as u32 == CONGESTION_RFC_BBR3_STATE_DRAIN);
    assert!(State::ProbeBwDown as u32 == CONGESTION_RFC_BBR3_STATE_PROBE_BW_DOWN);
    assert!(State::ProbeBwCruise as u32 == CONGESTION_RFC_BBR3_STATE_PROBE_BW_CRUISE);
    assert!(State::ProbeBwRefill as u32 == CONGESTION_RFC_BBR3_STATE_PROBE_BW_REFILL);
    assert!(State::ProbeBwUp as u32 == CONGESTION_RFC_BBR3_STATE_PROBE_BW_UP);
    assert!(State::ProbeRtt as u32 == CONGESTION_RFC_BBR3_STATE_PROBE_RTT);
};

/// The flag bits a send sets in [`CongestionTxSnapshot::flags`]: `is_app_limited`
/// (bit 0), `delivered_ce` (bits 1..=20), the 32-bit-stamp mark (bit 21).
const SNAPSHOT_FLAGS: u32 = (1 << 22) - 1;

/// The caller's snapshot as the library's, or [`CONGESTION_ERR_SNAPSHOT`] when no send
/// of this flow can have written it: flag bits no send sets, a stamp (or `time_sent_us`)
/// after `now_us`, or delivery counters ahead of the flow's (compared with the kernel's
/// wrap-around, `after()`).
pub(crate) fn snapshot<C: PacketController>(
    ctl: &C,
    s: &CongestionTxSnapshot,
    now_us: u64,
    time_sent_us: u64,
) -> Result<TxSnapshot, i32> {
    // The RFC-mode sampler stamps `now + 1` µs (0 means "none"), hence the 1 µs slack.
    let latest = now_us.saturating_add(1);
    let future = s.first_tx_mstamp > latest || s.delivered_mstamp > latest || time_sent_us > now_us;
    let ahead = |mine: u32, theirs: u32| (theirs.wrapping_sub(mine) as i32) > 0;
    let counters_ahead = match ctl.counters() {
        Some((delivered, lost)) => ahead(delivered, s.delivered) || ahead(lost, s.lost),
        None => false,
    };
    if s.flags & !SNAPSHOT_FLAGS != 0 || future || counters_ahead {
        return Err(CONGESTION_ERR_SNAPSHOT);
    }
    // SAFETY: the same size and alignment (asserted in bbr_types.rs), every field an
    // integer that any value is valid for.
    Ok(unsafe { core::mem::transmute::<CongestionTxSnapshot, TxSnapshot>(*s) })
}

/// Initialises a per-packet flow at `state` on the block `params` with `make`, keeping
/// a copy of the caller's random source.
///
/// # Safety
/// As [`crate::tcp_blob::init_flow`]; `rand` NULL or readable.
pub(crate) unsafe fn init<S, B, C, P>(
    state: *mut S,
    size: usize,
    params: *const B,
    rand: *const CongestionRandom,
    make: impl FnOnce(P, StoredRandom) -> C,
) -> i32
where
    S: Blob<Inner = FlowInner<C, P>>,
    B: Blob<Inner = ParamsInner<P>>,
    C: Copy,
    P: Copy,
{
    // SAFETY: forwarded contract.
    let rand = match unsafe { random(rand) } {
        Ok(r) => StoredRandom(*r),
        Err(code) => return code,
    };
    // SAFETY: forwarded contract.
    unsafe { crate::tcp_blob::init_flow(state, size, params, |p: &P| Ok(make(*p, rand))) }
}

/// Runs `f` on the controller behind `state`; its error code, or the state's.
///
/// # Safety
/// As [`crate::tcp_blob::with_flow`].
pub(crate) unsafe fn with_ctl<S, C, P>(state: *mut S, f: impl FnOnce(&mut C) -> i32) -> i32
where
    S: Blob<Inner = FlowInner<C, P>>,
    C: Copy,
    P: Copy,
{
    let mut code = CONGESTION_OK;
    // SAFETY: forwarded contract.
    let outer = unsafe { crate::tcp_blob::with_flow(state, |c: &mut C, _| code = f(c)) };
    if outer != CONGESTION_OK { outer } else { code }
}

/// Reads one value of the controller behind `state` into `*out`.
///
/// # Safety
/// As [`crate::tcp_blob::read_flow`].
pub(crate) unsafe fn read_ctl<S, C, P, T>(
    state: *const S,
    out: *mut T,
    f: impl FnOnce(&C) -> T,
) -> i32
where
    S: Blob<Inner = FlowInner<C, P>>,
    C: Copy,
    P: Copy,
{
    // SAFETY: forwarded contract.
    unsafe { crate::tcp_blob::read_flow(state, out, |c: &C, _| f(c)) }
}

/// What a send call reports: the trait's two send calls.
pub(crate) enum Sent {
    /// `on_packet_sent(now, SentEvent::new(in_flight_after, largest_sent))`.
    Event(u64, u64),
    /// `on_packet_sent_counted(now, sent, largest_sent)`.
    Counted(u64, u64),
}

/// `_on_packet_sent`, `_on_packet_sent_counted`: the send, its snapshot to `*snapshot`;
/// the out-pointer is checked first (nothing changes if it is NULL).
///
/// # Safety
/// `state` as [`with_ctl`]; `snapshot` NULL or writable.
pub(crate) unsafe fn sent<S, C, P>(
    state: *mut S,
    now_us: u64,
    sent: Sent,
    snapshot: *mut CongestionTxSnapshot,
) -> i32
where
    S: Blob<Inner = FlowInner<C, P>>,
    C: PacketController,
    P: Copy,
{
    if snapshot.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let now = at(now_us);
    let mut tx = None;
    // SAFETY: forwarded contract.
    let code = unsafe {
        with_ctl(state, |c: &mut C| {
            tx = Some(match sent {
                Sent::Event(in_flight, largest) => {
                    c.on_packet_sent(now, &SentEvent::new(in_flight, largest))
                }
                Sent::Counted(bytes, largest) => c.on_packet_sent_counted(now, bytes, largest),
            });
            CONGESTION_OK
        })
    };
    if let Some(tx) = tx {
        // SAFETY: non-null (checked) and writable per the contract.
        unsafe { snapshot.write(CongestionTxSnapshot::from_rust(&tx)) };
    }
    code
}

/// The ACK the `_on_ack` and `_on_ack_sampled` calls describe.
pub(crate) fn ack(
    acked: u64,
    largest_acked: u64,
    rtt_us: i64,
    app_limited: u8,
    ce_delta: u64,
) -> AckEvent {
    ack_event(acked, largest_acked, rtt_us, app_limited).with_ce(ce_delta)
}

/// The loss the `_on_packet_lost` calls describe.
pub(crate) fn loss(lost: u64, newest_lost: u64, persistent_congestion: u8) -> LossEvent {
    loss_event(lost, newest_lost).with_persistent_congestion(persistent_congestion != 0)
}

/// What a call that hands back a snapshot reports.
pub(crate) enum Sampled {
    /// `on_ack_sampled(now, ack, AckedPacket::new(time_sent, snapshot))`, the newest
    /// packet acknowledged sent at the `u64` (µs).
    Ack(AckEvent, u64),
    /// `on_packet_lost(now, loss, snapshot)`.
    Lost(LossEvent),
}

/// `_on_ack_sampled`, `_on_packet_lost`: the call, after the snapshot's checks
/// ([`snapshot`]): its code if refused (nothing changes), `CONGESTION_ERR_NULL` for a
/// NULL `snapshot`.
///
/// # Safety
/// `state` as [`with_ctl`]; `snapshot` NULL or readable.
pub(crate) unsafe fn sampled<S, C, P>(
    state: *mut S,
    now_us: u64,
    event: Sampled,
    snapshot: *const CongestionTxSnapshot,
) -> i32
where
    S: Blob<Inner = FlowInner<C, P>>,
    C: PacketController,
    P: Copy,
{
    // SAFETY: NULL or readable per the contract.
    let Some(s) = (unsafe { snapshot.as_ref() }) else {
        return CONGESTION_ERR_NULL;
    };
    let time_sent_us = match event {
        Sampled::Ack(_, time_sent_us) => time_sent_us,
        Sampled::Lost(_) => 0,
    };
    let now = at(now_us);
    // SAFETY: forwarded contract.
    unsafe {
        with_ctl(state, |c: &mut C| {
            match self::snapshot(c, s, now_us, time_sent_us) {
                Ok(tx) => {
                    match event {
                        Sampled::Ack(ack, sent) => {
                            c.on_ack_sampled(now, &ack, &AckedPacket::new(at(sent), tx))
                        }
                        Sampled::Lost(loss) => c.on_packet_lost(now, &loss, &tx),
                    }
                    CONGESTION_OK
                }
                Err(code) => code,
            }
        })
    }
}

/// `_on_ack`, `_on_ecn`, `_on_rto`, `_on_discarded`, `_on_spurious`: one trait call each.
pub(crate) enum Plain {
    /// `on_ack(now, ack)`, no sample.
    Ack(AckEvent),
    /// `on_ecn(now, EcnEvent)`, the CE rise and the ACK's largest packet.
    Ecn(u64, u64),
    /// `on_retransmission_timeout(now)`.
    Rto,
    /// `on_discarded(now, amount)`.
    Discarded(u64),
    /// `on_spurious_congestion(now)`.
    Spurious,
}

/// Runs one [`Plain`] event.
///
/// # Safety
/// As [`with_ctl`].
pub(crate) unsafe fn plain<S, C, P>(state: *mut S, now_us: u64, event: Plain) -> i32
where
    S: Blob<Inner = FlowInner<C, P>>,
    C: PacketController,
    P: Copy,
{
    let now = at(now_us);
    // SAFETY: forwarded contract.
    unsafe {
        with_ctl(state, |c: &mut C| {
            match event {
                Plain::Ack(ack) => c.on_ack(now, &ack),
                Plain::Ecn(ce, largest) => c.on_ecn(now, &ecn_event(ce, largest)),
                Plain::Rto => c.on_retransmission_timeout(now),
                Plain::Discarded(amount) => c.on_discarded(now, amount),
                Plain::Spurious => c.on_spurious_congestion(now),
            }
            CONGESTION_OK
        })
    }
}

/// A getter of the per-packet flows.
#[derive(Clone, Copy)]
pub(crate) enum Get {
    /// `cwnd()`.
    Cwnd,
    /// `ssthresh()`, [`CONGESTION_SSTHRESH_NONE`] for none.
    Ssthresh,
    /// `in_flight()`.
    InFlight,
    /// `pacing_rate()`, bytes/s.
    PacingRate,
    /// `send_quantum_bytes()`.
    SendQuantum,
    /// `mss_bytes()`.
    Mss,
}

/// Reads one [`Get`] value into `*out`.
///
/// # Safety
/// As [`read_ctl`].
pub(crate) unsafe fn get<S, C, P>(state: *const S, out: *mut u64, what: Get) -> i32
where
    S: Blob<Inner = FlowInner<C, P>>,
    C: PacketController,
    P: Copy,
{
    // SAFETY: forwarded contract.
    unsafe {
        read_ctl(state, out, |c: &C| match what {
            Get::Cwnd => c.cwnd(),
            Get::Ssthresh => ssthresh_code(c.ssthresh()),
            Get::InFlight => c.in_flight(),
            Get::PacingRate => c.pacing_rate().as_bytes_per_second(),
            Get::SendQuantum => c.send_quantum_bytes(),
            Get::Mss => c.mss_bytes(),
        })
    }
}

/// `_phase` (`CONGESTION_PHASE_*`) when `state_number` is false, else the model's state.
///
/// # Safety
/// As [`read_ctl`].
pub(crate) unsafe fn get_u32<S, C, P>(state: *const S, out: *mut u32, state_number: bool) -> i32
where
    S: Blob<Inner = FlowInner<C, P>>,
    C: PacketController,
    P: Copy,
{
    // SAFETY: forwarded contract.
    unsafe {
        read_ctl(state, out, |c: &C| {
            if state_number {
                c.bbr_state()
            } else {
                phase_code(c.phase())
            }
        })
    }
}

// ---- the blobs --------------------------------------------------------------------

/// Bytes a [`CongestionRfcBbr3State`] occupies (RFC-mode BBRv3; aligned to 64).
pub const CONGESTION_RFC_BBR3_STATE_SIZE: usize = 576;
/// [`CONGESTION_RFC_BBR3_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_RFC_BBR3_STATE_WORDS: usize = CONGESTION_RFC_BBR3_STATE_SIZE / 8;
/// Bytes a [`CongestionRfcBbr3Params`] occupies (aligned to 8); room to grow included.
pub const CONGESTION_RFC_BBR3_PARAMS_SIZE: usize = 64;
/// [`CONGESTION_RFC_BBR3_PARAMS_SIZE`] in 64-bit words.
pub const CONGESTION_RFC_BBR3_PARAMS_WORDS: usize = CONGESTION_RFC_BBR3_PARAMS_SIZE / 8;
/// Bytes a [`CongestionLinuxBbrControllerState`] occupies (aligned to 64).
pub const CONGESTION_LINUX_BBR_CONTROLLER_STATE_SIZE: usize = 384;
/// [`CONGESTION_LINUX_BBR_CONTROLLER_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_BBR_CONTROLLER_STATE_WORDS: usize =
    CONGESTION_LINUX_BBR_CONTROLLER_STATE_SIZE / 8;
/// Bytes a [`CongestionLinuxBbr3ControllerState`] occupies (aligned to 64).
pub const CONGESTION_LINUX_BBR3_CONTROLLER_STATE_SIZE: usize = 512;
/// [`CONGESTION_LINUX_BBR3_CONTROLLER_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_BBR3_CONTROLLER_STATE_WORDS: usize =
    CONGESTION_LINUX_BBR3_CONTROLLER_STATE_SIZE / 8;

/// One RFC-mode BBRv3 flow (bytes, per-packet calls), owned by the caller. Opaque: only `congestion_rfc_bbr3_init` writes it and only the `congestion_rfc_bbr3_*` functions read it. It keeps a copy of its parameters and of the caller's random source; a copy (`memcpy`) is a copy of the flow.
#[repr(C, align(64))]
pub struct CongestionRfcBbr3State {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_RFC_BBR3_STATE_WORDS],
}

/// The validated settings of RFC-mode BBRv3 flows, owned by the caller. Opaque: only `congestion_rfc_bbr3_params_init` writes it.
#[repr(C, align(8))]
pub struct CongestionRfcBbr3Params {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_RFC_BBR3_PARAMS_WORDS],
}

/// One Linux-mode BBR v1 flow behind the per-packet calls (`congestion_linux_bbr_controller_*`, segments), owned by the caller, on a `CongestionLinuxBbrParams` block. Opaque. A copy (`memcpy`) is a copy of the flow.
#[repr(C, align(64))]
pub struct CongestionLinuxBbrControllerState {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_LINUX_BBR_CONTROLLER_STATE_WORDS],
}

/// One Linux-mode BBRv3 flow behind the per-packet calls (`congestion_linux_bbr3_controller_*`, segments), owned by the caller, on a `CongestionLinuxBbr3Params` block. Opaque. A copy (`memcpy`) is a copy of the flow.
#[repr(C, align(64))]
pub struct CongestionLinuxBbr3ControllerState {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_LINUX_BBR3_CONTROLLER_STATE_WORDS],
}

/// A per-packet flow state's [`Blob`]: its controller on its parameters, its magic word,
/// size and alignment, the controller's size and alignment checked against them.
macro_rules! flow_blob {
    ($blob:ty, $ctl:ty, $params:ty, $magic:expr, $size:expr, $align:expr) => {
        impl Blob for $blob {
            type Inner = FlowInner<$ctl, $params>;
            const MAGIC: u64 = $magic;
            const SIZE: usize = $size;
            const ALIGN: usize = $align;
            const MAGIC_OFFSET: usize = core::mem::offset_of!(FlowInner<$ctl, $params>, magic);
        }
        const _: () = {
            assert!(size_of::<FlowInner<$ctl, $params>>() <= $size);
            assert!(align_of::<FlowInner<$ctl, $params>>() <= $align);
            assert!(size_of::<$blob>() == $size);
        };
    };
}

flow_blob!(
    CongestionRfcBbr3State,
    RfcBbr3Ctl,
    RfcBbr3Params,
    0x3352_4242_5243_4343,
    CONGESTION_RFC_BBR3_STATE_SIZE,
    CONGESTION_RFC_STATE_ALIGN
);
flow_blob!(
    CongestionLinuxBbrControllerState,
    LinuxBbrCtl,
    BbrParams,
    0x3163_4242_4c43_4343,
    CONGESTION_LINUX_BBR_CONTROLLER_STATE_SIZE,
    CONGESTION_LINUX_STATE_ALIGN
);
flow_blob!(
    CongestionLinuxBbr3ControllerState,
    LinuxBbr3Ctl,
    LinuxBbr3Params,
    0x3363_4242_4c43_4343,
    CONGESTION_LINUX_BBR3_CONTROLLER_STATE_SIZE,
    CONGESTION_LINUX_STATE_ALIGN
);

impl Blob for CongestionRfcBbr3Params {
    type Inner = ParamsInner<RfcBbr3Params>;
    const MAGIC: u64 = 0x3350_4242_5243_4343;
    const SIZE: usize = CONGESTION_RFC_BBR3_PARAMS_SIZE;
    const ALIGN: usize = CONGESTION_RFC_PARAMS_ALIGN;
}

const _: () = {
    assert!(size_of::<ParamsInner<RfcBbr3Params>>() <= CONGESTION_RFC_BBR3_PARAMS_SIZE);
    assert!(align_of::<ParamsInner<RfcBbr3Params>>() <= CONGESTION_RFC_PARAMS_ALIGN);
    assert!(size_of::<CongestionRfcBbr3Params>() == CONGESTION_RFC_BBR3_PARAMS_SIZE);
};

#[cfg(all(test, target_pointer_width = "64"))]
mod tests {
    use super::*;

    /// The sizes on 64-bit targets, each within its blob with room to grow.
    #[test]
    fn sizes() {
        assert_eq!(size_of::<FlowInner<RfcBbr3Ctl, RfcBbr3Params>>(), 504);
        assert_eq!(size_of::<ParamsInner<RfcBbr3Params>>(), 24);
        assert_eq!(size_of::<FlowInner<LinuxBbrCtl, BbrParams>>(), 288);
        assert_eq!(size_of::<FlowInner<LinuxBbr3Ctl, LinuxBbr3Params>>(), 352);
    }
}
