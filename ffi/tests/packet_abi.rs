//! The per-packet BBR calls against the Rust controllers they wrap: the same events
//! through `congestion_rfc_bbr3_*` / `congestion_linux_bbr{,3}_controller_*` and through
//! `rfc::Bbr3Controller` / `linux::{BbrController, Bbr3Controller}` give the same
//! snapshots, windows, flights and pacing rates after every call (the arguments are the
//! Rust calls', in the same order). Then the refusals. Small enough for Miri.

use congestion::linux::tcp::{RandomSource, TxSnapshot};
use congestion::{AckEvent, AckedPacket, CongestionController, Duration, Instant, LossEvent};
use congestion_ffi::*;
use std::mem::MaybeUninit;

/// The draws both sides make: the C side's callback and the Rust side's source.
struct Lcg(u32);
impl RandomSource for Lcg {
    fn below(&mut self, ceil: u32) -> u32 {
        self.0 = self.0.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (self.0 >> 16) % ceil.max(1)
    }
}
unsafe extern "C" fn c_draw(ctx: *mut core::ffi::c_void, ceil: u32) -> u32 {
    // SAFETY: the tests pass a live `Lcg` as the context.
    unsafe { &mut *ctx.cast::<Lcg>() }.below(ceil)
}

/// The C form of a Rust snapshot (the layout is the same: asserted in the crate).
fn c_snap(s: &TxSnapshot) -> CongestionTxSnapshot {
    // SAFETY: 32 bytes of integers on both sides.
    unsafe { std::mem::transmute::<TxSnapshot, CongestionTxSnapshot>(*s) }
}

/// One algorithm's C calls, as function pointers on an untyped state.
struct Calls<S> {
    sent: unsafe extern "C" fn(*mut S, u64, u64, u64, *mut CongestionTxSnapshot) -> i32,
    ack: unsafe extern "C" fn(
        *mut S,
        u64,
        u64,
        u64,
        i64,
        u8,
        u64,
        u64,
        *const CongestionTxSnapshot,
    ) -> i32,
    lost: unsafe extern "C" fn(*mut S, u64, u64, u64, u8, *const CongestionTxSnapshot) -> i32,
    cwnd: unsafe extern "C" fn(*const S, *mut u64) -> i32,
    in_flight: unsafe extern "C" fn(*const S, *mut u64) -> i32,
    pacing: unsafe extern "C" fn(*const S, *mut u64) -> i32,
}

/// A short transfer (`n` packets of `unit`, each acknowledged 20 ms after it left, one
/// in ten lost) through both sides, compared after every call.
fn compare<S, C: CongestionController>(
    s: *mut S,
    rust: &mut C,
    calls: &Calls<S>,
    unit: u64,
    n: u64,
) {
    let get = |f: unsafe extern "C" fn(*const S, *mut u64) -> i32| {
        let mut v = 0;
        assert_eq!(unsafe { f(s, &mut v) }, CONGESTION_OK);
        v
    };
    let same = |rust: &C| {
        assert_eq!(get(calls.cwnd), rust.cwnd());
        assert_eq!(get(calls.in_flight), rust.in_flight());
        assert_eq!(get(calls.pacing), rust.pacing_rate().as_bytes_per_second());
    };
    let t0 = 1_000_000u64;
    let mut kept = Vec::new();
    for pn in 0..n {
        let now = t0 + pn * 1000;
        let mut c = CongestionTxSnapshot::default();
        assert_eq!(
            unsafe { (calls.sent)(s, now, unit, pn, &mut c) },
            CONGESTION_OK
        );
        let r = rust.on_packet_sent_counted(Instant::from_micros(now), unit, pn);
        assert_eq!(c, c_snap(&r));
        kept.push((now, c, r));
        same(rust);
    }
    for (pn, (sent, c, r)) in kept.iter().enumerate() {
        let pn = pn as u64;
        let now = sent + 20_000 + n * 1000;
        if pn % 10 == 9 {
            assert_eq!(
                unsafe { (calls.lost)(s, now, unit, pn, 0, c) },
                CONGESTION_OK
            );
            rust.on_packet_lost(Instant::from_micros(now), &LossEvent::packet(unit, pn), r);
        } else {
            let rtt = (now - sent) as i64;
            assert_eq!(
                unsafe { (calls.ack)(s, now, unit, pn, rtt, 0, 0, *sent, c) },
                CONGESTION_OK
            );
            let ack = AckEvent::new(unit, pn, Some(Duration::from_micros(rtt as u64)));
            rust.on_ack_sampled(
                Instant::from_micros(now),
                &ack,
                &AckedPacket::new(Instant::from_micros(*sent), *r),
            );
        }
        same(rust);
    }
}

fn rand(lcg: &mut Lcg) -> CongestionRandom {
    CongestionRandom {
        below: Some(c_draw),
        ctx: (lcg as *mut Lcg).cast(),
        value: 0,
    }
}

const N: u64 = if cfg!(miri) { 12 } else { 200 };

#[test]
fn rfc_bbr3_matches_the_rust_controller() {
    let mut cfg = MaybeUninit::uninit();
    assert_eq!(
        unsafe { congestion_rfc_bbr3_config_quic(cfg.as_mut_ptr(), 1200) },
        CONGESTION_OK
    );
    let cfg = unsafe { cfg.assume_init() };
    let mut params = Box::new(MaybeUninit::<CongestionRfcBbr3Params>::zeroed());
    let p = params.as_mut_ptr();
    assert_eq!(
        unsafe { congestion_rfc_bbr3_params_init(p, size_of::<CongestionRfcBbr3Params>(), &cfg) },
        CONGESTION_OK
    );
    let mut state = Box::new(MaybeUninit::<CongestionRfcBbr3State>::zeroed());
    let s = state.as_mut_ptr();
    let mut lcg = Lcg(7);
    let r = rand(&mut lcg);
    assert_eq!(
        unsafe {
            congestion_rfc_bbr3_init(s, size_of::<CongestionRfcBbr3State>(), p, 1_000_000, &r)
        },
        CONGESTION_OK
    );
    let mut rust = congestion::rfc::Bbr3Controller::new(
        congestion::rfc::Bbr3Config::quic(1200),
        Instant::from_micros(1_000_000),
        Lcg(7),
    )
    .unwrap();
    let calls = Calls {
        sent: congestion_rfc_bbr3_on_packet_sent_counted,
        ack: congestion_rfc_bbr3_on_ack_sampled,
        lost: congestion_rfc_bbr3_on_packet_lost,
        cwnd: congestion_rfc_bbr3_cwnd,
        in_flight: congestion_rfc_bbr3_in_flight,
        pacing: congestion_rfc_bbr3_pacing_rate,
    };
    compare(s, &mut rust, &calls, 1200, N);
}

fn linux_config() -> CongestionLinuxBbrConfig {
    let mut cfg = MaybeUninit::uninit();
    assert_eq!(
        unsafe { congestion_linux_bbr_config_default(cfg.as_mut_ptr()) },
        CONGESTION_OK
    );
    let mut cfg = unsafe { cfg.assume_init() };
    cfg.mss = 1200;
    cfg.initial_rtt_us = 20_000;
    cfg
}

#[test]
fn linux_bbr_controller_matches_the_rust_controller() {
    let cfg = linux_config();
    let mut params = Box::new(MaybeUninit::<CongestionLinuxBbrParams>::zeroed());
    let p = params.as_mut_ptr();
    assert_eq!(
        unsafe { congestion_linux_bbr_params_init(p, size_of::<CongestionLinuxBbrParams>(), &cfg) },
        CONGESTION_OK
    );
    let mut state = Box::new(MaybeUninit::<CongestionLinuxBbrControllerState>::zeroed());
    let s = state.as_mut_ptr();
    let mut lcg = Lcg(9);
    let r = rand(&mut lcg);
    assert_eq!(
        unsafe {
            congestion_linux_bbr_controller_init(
                s,
                size_of::<CongestionLinuxBbrControllerState>(),
                p,
                1_000_000,
                &r,
            )
        },
        CONGESTION_OK
    );
    let mut rc = congestion::linux::BbrConfig::new();
    rc.mss = 1200;
    rc.initial_rtt_us = 20_000;
    let mut rust =
        congestion::linux::BbrController::new(rc, Instant::from_micros(1_000_000), Lcg(9)).unwrap();
    let calls = Calls {
        sent: congestion_linux_bbr_controller_on_packet_sent_counted,
        ack: congestion_linux_bbr_controller_on_ack_sampled,
        lost: congestion_linux_bbr_controller_on_packet_lost,
        cwnd: congestion_linux_bbr_controller_cwnd,
        in_flight: congestion_linux_bbr_controller_in_flight,
        pacing: congestion_linux_bbr_controller_pacing_rate,
    };
    compare(s, &mut rust, &calls, 1, N);
}

#[test]
fn linux_bbr3_controller_matches_the_rust_controller() {
    let cfg = linux_config();
    let mut params = Box::new(MaybeUninit::<CongestionLinuxBbr3Params>::zeroed());
    let p = params.as_mut_ptr();
    assert_eq!(
        unsafe {
            congestion_linux_bbr3_params_init(p, size_of::<CongestionLinuxBbr3Params>(), &cfg)
        },
        CONGESTION_OK
    );
    let mut state = Box::new(MaybeUninit::<CongestionLinuxBbr3ControllerState>::zeroed());
    let s = state.as_mut_ptr();
    let mut lcg = Lcg(11);
    let r = rand(&mut lcg);
    assert_eq!(
        unsafe {
            congestion_linux_bbr3_controller_init(
                s,
                size_of::<CongestionLinuxBbr3ControllerState>(),
                p,
                1_000_000,
                &r,
            )
        },
        CONGESTION_OK
    );
    let mut rc = congestion::linux::Bbr3Config::new();
    rc.mss = 1200;
    rc.initial_rtt_us = 20_000;
    let mut rust =
        congestion::linux::Bbr3Controller::new(rc, Instant::from_micros(1_000_000), Lcg(11))
            .unwrap();
    let calls = Calls {
        sent: congestion_linux_bbr3_controller_on_packet_sent_counted,
        ack: congestion_linux_bbr3_controller_on_ack_sampled,
        lost: congestion_linux_bbr3_controller_on_packet_lost,
        cwnd: congestion_linux_bbr3_controller_cwnd,
        in_flight: congestion_linux_bbr3_controller_in_flight,
        pacing: congestion_linux_bbr3_controller_pacing_rate,
    };
    compare(s, &mut rust, &calls, 1, N);
}

#[test]
fn bad_pointers_are_refused() {
    let mut v = 0u64;
    let snap = CongestionTxSnapshot::default();
    unsafe {
        assert_eq!(
            congestion_rfc_bbr3_cwnd(std::ptr::null(), &mut v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_bbr3_on_ack_sampled(std::ptr::null_mut(), 0, 0, 0, -1, 0, 0, 0, &snap),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_bbr3_config_quic(std::ptr::null_mut(), 1200),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_bbr3_params_init(std::ptr::null_mut(), 64, std::ptr::null()),
            CONGESTION_ERR_NULL
        );
        // A misaligned state: refused before anything is read through it.
        let mut buf = Box::new(MaybeUninit::<[CongestionRfcBbr3State; 2]>::zeroed());
        let odd = buf
            .as_mut_ptr()
            .cast::<u8>()
            .add(8)
            .cast::<CongestionRfcBbr3State>();
        assert_eq!(
            congestion_rfc_bbr3_cwnd(odd, &mut v),
            CONGESTION_ERR_ALIGNMENT
        );
        // A zeroed (never initialised) state.
        let zero = buf.as_mut_ptr().cast::<CongestionLinuxBbrControllerState>();
        assert_eq!(
            congestion_linux_bbr_controller_on_rto(zero, 0),
            CONGESTION_ERR_UNINITIALIZED
        );
    }
}
