//! The caller-owned blobs of the kernel-style algorithms: for each of BBR v1, BBRv3,
//! DCTCP and TCP Prague a flow state (aligned to 64, sized for the library's flow, the
//! parameter block's address and the magic word) and a parameter block (8-aligned, with
//! room to grow), each told apart by its own magic word ([`crate::state::Blob`]).

use crate::state::Blob;
use crate::tcp_blob::{FlowInner, ParamsInner, TcpFlowParams};
use crate::*;
use congestion::linux::bbr3::Bbr3Params;
use congestion::linux::dctcp::DctcpParams;
use congestion::linux::prague::PragueParams;
use congestion::linux::{Bbr, Bbr3, BbrParams, Dctcp, Prague};

/// Bytes a [`CongestionLinuxBbrState`] occupies (Linux-mode BBR v1; aligned to `CONGESTION_LINUX_STATE_ALIGN`, 64).
pub const CONGESTION_LINUX_BBR_STATE_SIZE: usize = 256;
/// [`CONGESTION_LINUX_BBR_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_BBR_STATE_WORDS: usize = CONGESTION_LINUX_BBR_STATE_SIZE / 8;
/// Bytes a [`CongestionLinuxBbrParams`] occupies (aligned to `CONGESTION_LINUX_PARAMS_ALIGN`, 8); room to grow included.
pub const CONGESTION_LINUX_BBR_PARAMS_SIZE: usize = 64;
/// [`CONGESTION_LINUX_BBR_PARAMS_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_BBR_PARAMS_WORDS: usize = CONGESTION_LINUX_BBR_PARAMS_SIZE / 8;

/// One Linux-mode BBR v1 flow, owned by the caller. Opaque: only its init function writes it and only its own `congestion_linux_*` functions read it. It refers to the parameter block it was initialised with (which must outlive it); a copy (`memcpy`) is a copy of the flow.
#[repr(C, align(64))]
pub struct CongestionLinuxBbrState {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_LINUX_BBR_STATE_WORDS],
}

/// The validated settings Linux-mode BBR v1 flows share, owned by the caller: one block for any number of flows. Opaque: only its params_init function writes it.
#[repr(C, align(8))]
pub struct CongestionLinuxBbrParams {
    /// Opaque bytes (as 64-bit words, for the 8-byte alignment). Never read or
    /// write them directly.
    pub opaque: [u64; CONGESTION_LINUX_BBR_PARAMS_WORDS],
}

impl Blob for CongestionLinuxBbrState {
    type Inner = FlowInner<Bbr, BbrParams>;
    const MAGIC: u64 = 0x3172_4242_4c43_4343;
    const SIZE: usize = CONGESTION_LINUX_BBR_STATE_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_STATE_ALIGN;
    const MAGIC_OFFSET: usize = core::mem::offset_of!(FlowInner<Bbr, BbrParams>, magic);
}

impl Blob for CongestionLinuxBbrParams {
    type Inner = ParamsInner<BbrParams>;
    const MAGIC: u64 = 0x3150_4242_4c43_4343;
    const SIZE: usize = CONGESTION_LINUX_BBR_PARAMS_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_PARAMS_ALIGN;
}

const _: () = assert!(size_of::<FlowInner<Bbr, BbrParams>>() <= CONGESTION_LINUX_BBR_STATE_SIZE);
const _: () = assert!(align_of::<FlowInner<Bbr, BbrParams>>() <= CONGESTION_LINUX_STATE_ALIGN);
const _: () = assert!(size_of::<CongestionLinuxBbrState>() == CONGESTION_LINUX_BBR_STATE_SIZE);
const _: () = assert!(size_of::<ParamsInner<BbrParams>>() <= CONGESTION_LINUX_BBR_PARAMS_SIZE);
const _: () = assert!(align_of::<ParamsInner<BbrParams>>() <= CONGESTION_LINUX_PARAMS_ALIGN);
const _: () = assert!(size_of::<CongestionLinuxBbrParams>() == CONGESTION_LINUX_BBR_PARAMS_SIZE);

/// Bytes a [`CongestionLinuxBbr3State`] occupies (Linux-mode BBRv3; aligned to `CONGESTION_LINUX_STATE_ALIGN`, 64).
pub const CONGESTION_LINUX_BBR3_STATE_SIZE: usize = 320;
/// [`CONGESTION_LINUX_BBR3_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_BBR3_STATE_WORDS: usize = CONGESTION_LINUX_BBR3_STATE_SIZE / 8;
/// Bytes a [`CongestionLinuxBbr3Params`] occupies (aligned to `CONGESTION_LINUX_PARAMS_ALIGN`, 8); room to grow included.
pub const CONGESTION_LINUX_BBR3_PARAMS_SIZE: usize = 64;
/// [`CONGESTION_LINUX_BBR3_PARAMS_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_BBR3_PARAMS_WORDS: usize = CONGESTION_LINUX_BBR3_PARAMS_SIZE / 8;

/// One Linux-mode BBRv3 flow, owned by the caller. Opaque: only its init function writes it and only its own `congestion_linux_*` functions read it. It refers to the parameter block it was initialised with (which must outlive it); a copy (`memcpy`) is a copy of the flow.
#[repr(C, align(64))]
pub struct CongestionLinuxBbr3State {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_LINUX_BBR3_STATE_WORDS],
}

/// The validated settings Linux-mode BBRv3 flows share, owned by the caller: one block for any number of flows. Opaque: only its params_init function writes it.
#[repr(C, align(8))]
pub struct CongestionLinuxBbr3Params {
    /// Opaque bytes (as 64-bit words, for the 8-byte alignment). Never read or
    /// write them directly.
    pub opaque: [u64; CONGESTION_LINUX_BBR3_PARAMS_WORDS],
}

impl Blob for CongestionLinuxBbr3State {
    type Inner = FlowInner<Bbr3, Bbr3Params>;
    const MAGIC: u64 = 0x3372_4242_4c43_4343;
    const SIZE: usize = CONGESTION_LINUX_BBR3_STATE_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_STATE_ALIGN;
    const MAGIC_OFFSET: usize = core::mem::offset_of!(FlowInner<Bbr3, Bbr3Params>, magic);
}

impl Blob for CongestionLinuxBbr3Params {
    type Inner = ParamsInner<Bbr3Params>;
    const MAGIC: u64 = 0x3350_4242_4c43_4343;
    const SIZE: usize = CONGESTION_LINUX_BBR3_PARAMS_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_PARAMS_ALIGN;
}

const _: () = assert!(size_of::<FlowInner<Bbr3, Bbr3Params>>() <= CONGESTION_LINUX_BBR3_STATE_SIZE);
const _: () = assert!(align_of::<FlowInner<Bbr3, Bbr3Params>>() <= CONGESTION_LINUX_STATE_ALIGN);
const _: () = assert!(size_of::<CongestionLinuxBbr3State>() == CONGESTION_LINUX_BBR3_STATE_SIZE);
const _: () = assert!(size_of::<ParamsInner<Bbr3Params>>() <= CONGESTION_LINUX_BBR3_PARAMS_SIZE);
const _: () = assert!(align_of::<ParamsInner<Bbr3Params>>() <= CONGESTION_LINUX_PARAMS_ALIGN);
const _: () = assert!(size_of::<CongestionLinuxBbr3Params>() == CONGESTION_LINUX_BBR3_PARAMS_SIZE);

/// Bytes a [`CongestionLinuxDctcpState`] occupies (Linux-mode DCTCP; aligned to `CONGESTION_LINUX_STATE_ALIGN`, 64).
pub const CONGESTION_LINUX_DCTCP_STATE_SIZE: usize = 512;
/// [`CONGESTION_LINUX_DCTCP_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_DCTCP_STATE_WORDS: usize = CONGESTION_LINUX_DCTCP_STATE_SIZE / 8;
/// Bytes a [`CongestionLinuxDctcpParams`] occupies (aligned to `CONGESTION_LINUX_PARAMS_ALIGN`, 8); room to grow included.
pub const CONGESTION_LINUX_DCTCP_PARAMS_SIZE: usize = 128;
/// [`CONGESTION_LINUX_DCTCP_PARAMS_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_DCTCP_PARAMS_WORDS: usize = CONGESTION_LINUX_DCTCP_PARAMS_SIZE / 8;

/// One Linux-mode DCTCP flow, owned by the caller. Opaque: only its init function writes it and only its own `congestion_linux_*` functions read it. It refers to the parameter block it was initialised with (which must outlive it); a copy (`memcpy`) is a copy of the flow.
#[repr(C, align(64))]
pub struct CongestionLinuxDctcpState {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_LINUX_DCTCP_STATE_WORDS],
}

/// The validated settings Linux-mode DCTCP flows share, owned by the caller: one block for any number of flows. Opaque: only its params_init function writes it.
#[repr(C, align(8))]
pub struct CongestionLinuxDctcpParams {
    /// Opaque bytes (as 64-bit words, for the 8-byte alignment). Never read or
    /// write them directly.
    pub opaque: [u64; CONGESTION_LINUX_DCTCP_PARAMS_WORDS],
}

impl Blob for CongestionLinuxDctcpState {
    type Inner = FlowInner<Dctcp, TcpFlowParams<DctcpParams>>;
    const MAGIC: u64 = 0x3174_4344_4c43_4343;
    const SIZE: usize = CONGESTION_LINUX_DCTCP_STATE_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_STATE_ALIGN;
    const MAGIC_OFFSET: usize =
        core::mem::offset_of!(FlowInner<Dctcp, TcpFlowParams<DctcpParams>>, magic);
}

impl Blob for CongestionLinuxDctcpParams {
    type Inner = ParamsInner<TcpFlowParams<DctcpParams>>;
    const MAGIC: u64 = 0x3150_4344_4c43_4343;
    const SIZE: usize = CONGESTION_LINUX_DCTCP_PARAMS_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_PARAMS_ALIGN;
}

const _: () = assert!(
    size_of::<FlowInner<Dctcp, TcpFlowParams<DctcpParams>>>() <= CONGESTION_LINUX_DCTCP_STATE_SIZE
);
const _: () = assert!(
    align_of::<FlowInner<Dctcp, TcpFlowParams<DctcpParams>>>() <= CONGESTION_LINUX_STATE_ALIGN
);
const _: () = assert!(size_of::<CongestionLinuxDctcpState>() == CONGESTION_LINUX_DCTCP_STATE_SIZE);
const _: () = assert!(
    size_of::<ParamsInner<TcpFlowParams<DctcpParams>>>() <= CONGESTION_LINUX_DCTCP_PARAMS_SIZE
);
const _: () =
    assert!(align_of::<ParamsInner<TcpFlowParams<DctcpParams>>>() <= CONGESTION_LINUX_PARAMS_ALIGN);
const _: () =
    assert!(size_of::<CongestionLinuxDctcpParams>() == CONGESTION_LINUX_DCTCP_PARAMS_SIZE);

/// Bytes a [`CongestionLinuxPragueState`] occupies (Linux-mode TCP Prague; aligned to `CONGESTION_LINUX_STATE_ALIGN`, 64).
pub const CONGESTION_LINUX_PRAGUE_STATE_SIZE: usize = 512;
/// [`CONGESTION_LINUX_PRAGUE_STATE_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_PRAGUE_STATE_WORDS: usize = CONGESTION_LINUX_PRAGUE_STATE_SIZE / 8;
/// Bytes a [`CongestionLinuxPragueParams`] occupies (aligned to `CONGESTION_LINUX_PARAMS_ALIGN`, 8); room to grow included.
pub const CONGESTION_LINUX_PRAGUE_PARAMS_SIZE: usize = 128;
/// [`CONGESTION_LINUX_PRAGUE_PARAMS_SIZE`] in 64-bit words.
pub const CONGESTION_LINUX_PRAGUE_PARAMS_WORDS: usize = CONGESTION_LINUX_PRAGUE_PARAMS_SIZE / 8;

/// One Linux-mode TCP Prague flow, owned by the caller. Opaque: only its init function writes it and only its own `congestion_linux_*` functions read it. It refers to the parameter block it was initialised with (which must outlive it); a copy (`memcpy`) is a copy of the flow.
#[repr(C, align(64))]
pub struct CongestionLinuxPragueState {
    /// Opaque bytes. Never read or write them directly.
    pub opaque: [u64; CONGESTION_LINUX_PRAGUE_STATE_WORDS],
}

/// The validated settings Linux-mode TCP Prague flows share, owned by the caller: one block for any number of flows. Opaque: only its params_init function writes it.
#[repr(C, align(8))]
pub struct CongestionLinuxPragueParams {
    /// Opaque bytes (as 64-bit words, for the 8-byte alignment). Never read or
    /// write them directly.
    pub opaque: [u64; CONGESTION_LINUX_PRAGUE_PARAMS_WORDS],
}

impl Blob for CongestionLinuxPragueState {
    type Inner = FlowInner<Prague, TcpFlowParams<PragueParams>>;
    const MAGIC: u64 = 0x3167_4150_4c43_4343;
    const SIZE: usize = CONGESTION_LINUX_PRAGUE_STATE_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_STATE_ALIGN;
    const MAGIC_OFFSET: usize =
        core::mem::offset_of!(FlowInner<Prague, TcpFlowParams<PragueParams>>, magic);
}

impl Blob for CongestionLinuxPragueParams {
    type Inner = ParamsInner<TcpFlowParams<PragueParams>>;
    const MAGIC: u64 = 0x3150_4150_4c43_4343;
    const SIZE: usize = CONGESTION_LINUX_PRAGUE_PARAMS_SIZE;
    const ALIGN: usize = CONGESTION_LINUX_PARAMS_ALIGN;
}

const _: () = assert!(
    size_of::<FlowInner<Prague, TcpFlowParams<PragueParams>>>()
        <= CONGESTION_LINUX_PRAGUE_STATE_SIZE
);
const _: () = assert!(
    align_of::<FlowInner<Prague, TcpFlowParams<PragueParams>>>() <= CONGESTION_LINUX_STATE_ALIGN
);
const _: () =
    assert!(size_of::<CongestionLinuxPragueState>() == CONGESTION_LINUX_PRAGUE_STATE_SIZE);
const _: () = assert!(
    size_of::<ParamsInner<TcpFlowParams<PragueParams>>>() <= CONGESTION_LINUX_PRAGUE_PARAMS_SIZE
);
const _: () = assert!(
    align_of::<ParamsInner<TcpFlowParams<PragueParams>>>() <= CONGESTION_LINUX_PARAMS_ALIGN
);
const _: () =
    assert!(size_of::<CongestionLinuxPragueParams>() == CONGESTION_LINUX_PRAGUE_PARAMS_SIZE);
