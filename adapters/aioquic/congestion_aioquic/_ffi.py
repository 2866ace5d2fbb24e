"""The C ABI of `congestion-ffi` through ctypes.

Only what the aioquic adapter uses is declared: RFC-mode CUBIC/NewReno (config, init,
events, getters) and the per-packet BBR calls (RFC-mode BBRv3 in bytes, the Linux-mode
BBR v1 and BBRv3 controllers in segments), each with its argument and result types, so that ctypes converts and
checks every argument. The functions are attributes of one `Lib` object, looked up at
every call: a test may replace any of them with a wrapper (to count calls) and the
controller goes through the wrapper.

The shared library is `target/release/libcongestion_ffi.so`, built by
`cargo rustc -p congestion-ffi --release --crate-type cdylib`; `CONGESTION_FFI_LIB`
names another file.
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

# ffi/src/state.rs (and CONGESTION_RFC_STATE_SIZE / _ALIGN, CONGESTION_RFC_PARAMS_SIZE /
# _ALIGN in ffi/include/congestion.h). The C ABI has no call that returns them: they are
# compile-time constants of the header. congestion_rfc_cubic_init refuses a smaller buffer
# (CONGESTION_ERR_SIZE) and every call a misaligned one (CONGESTION_ERR_ALIGNMENT); the
# tests check both. A state starts a 64-byte cache line; ctypes aligns its arrays to 8
# only, so `aligned_buffer` over-allocates and offsets.
RFC_STATE_SIZE = 576
RFC_STATE_ALIGN = 64
RFC_PARAMS_SIZE = 192
RFC_PARAMS_ALIGN = 8


def aligned_buffer(size: int, align: int) -> tuple[ctypes.Array, int]:
    """A zeroed buffer of at least `size` bytes and the address in it aligned to
    `align`; keep the buffer alive as long as the address is used."""
    buffer = (ctypes.c_uint8 * (size + align - 1))()
    addr = ctypes.addressof(buffer)
    return buffer, addr + (-addr % align)

# ffi/src/packet.rs (CONGESTION_RFC_BBR3_STATE_SIZE, ..._PARAMS_SIZE,
# CONGESTION_LINUX_BBR{,3}_CONTROLLER_STATE_SIZE) and ffi/src/blobs.rs
# (CONGESTION_LINUX_BBR{,3}_PARAMS_SIZE); every state aligned to 64, every block to 8.
RFC_BBR3_STATE_SIZE = 576
RFC_BBR3_PARAMS_SIZE = 64
LINUX_BBR_CONTROLLER_STATE_SIZE = 384
LINUX_BBR3_CONTROLLER_STATE_SIZE = 512
LINUX_BBR_PARAMS_SIZE = 64
LINUX_BBR3_PARAMS_SIZE = 64
STATE_ALIGN = 64
PARAMS_ALIGN = 8

# ffi/src/lib.rs
OK = 0
ERR_NULL = -1
ERR_UNINITIALIZED = -2
ERR_ARGUMENT = -3
ERR_ALIGNMENT = -4
ERR_SIZE = -5
ERR_SNAPSHOT = -29
PACKET_UNKNOWN = (1 << 64) - 1
SSTHRESH_NONE = (1 << 64) - 1
RATE_UNLIMITED = (1 << 64) - 1

PHASE_SLOW_START = 0
PHASE_CONSERVATIVE_SLOW_START = 1
PHASE_CONGESTION_AVOIDANCE = 2
PHASE_RECOVERY = 3
PHASE_NAMES = {
    PHASE_SLOW_START: "slow_start",
    PHASE_CONSERVATIVE_SLOW_START: "conservative_slow_start",
    PHASE_CONGESTION_AVOIDANCE: "congestion_avoidance",
    PHASE_RECOVERY: "recovery",
}

# ffi/src/rfc_config.rs
SLOW_START_STANDARD = 0
SLOW_START_LINUX_HYSTART = 1
SLOW_START_HYSTART_PLUS_PLUS = 2
ALGORITHM_CUBIC = 0
ALGORITHM_NEWRENO = 1
PACING_FORMULA_LINUX = 0
PACING_FORMULA_RFC9002 = 1


class CongestionRfcCubicConfig(ctypes.Structure):
    """`CongestionRfcCubicConfig` (96 bytes, no padding). The send-path fields (from
    `pacing_status` on) only matter to `congestion_rfc_cubic_send_*`, which aioquic, pacing
    itself from the rate, does not call."""

    _fields_ = [
        ("mss_bytes", ctypes.c_uint64),
        ("initial_window_bytes", ctypes.c_uint64),
        ("initial_ssthresh_bytes", ctypes.c_uint64),
        ("max_pacing_rate", ctypes.c_uint64),
        ("beta_permille", ctypes.c_uint32),
        ("ecn_beta_permille", ctypes.c_uint32),
        ("c_permille", ctypes.c_uint32),
        ("pacing_ss_ratio_percent", ctypes.c_uint32),
        ("pacing_ca_ratio_percent", ctypes.c_uint32),
        ("pacing_n_percent", ctypes.c_uint32),
        ("fast_convergence", ctypes.c_uint8),
        ("reno_friendly", ctypes.c_uint8),
        ("slow_start", ctypes.c_uint8),
        ("paced", ctypes.c_uint8),
        ("algorithm", ctypes.c_uint8),
        ("pacing_formula", ctypes.c_uint8),
        ("pacing_status", ctypes.c_uint8),
        ("pacing_shift", ctypes.c_uint8),
        ("gso_max_size", ctypes.c_uint32),
        ("tsq_limit_bytes", ctypes.c_uint32),
        ("truesize_overhead_bytes", ctypes.c_uint32),
        ("gso_max_segs", ctypes.c_uint32),
        ("min_tso_segs", ctypes.c_uint32),
        ("min_rtt_window_ms", ctypes.c_uint32),
        ("tso_rtt_log", ctypes.c_uint8),
        ("reserved", ctypes.c_uint8 * 7),
    ]


assert ctypes.sizeof(CongestionRfcCubicConfig) == 96

class CongestionTxSnapshot(ctypes.Structure):
    """`CongestionTxSnapshot`: what a per-packet send call gives, 32 plain bytes the
    adapter stores with aioquic's sent packet and hands back unchanged."""

    _fields_ = [
        ("first_tx_mstamp", ctypes.c_uint64),
        ("delivered_mstamp", ctypes.c_uint64),
        ("delivered", ctypes.c_uint32),
        ("lost", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
        ("in_flight", ctypes.c_uint32),
    ]


assert ctypes.sizeof(CongestionTxSnapshot) == 32

# The C side's generator: `below(ctx, ceil)`, or NULL to draw `value` every time.
RANDOM_BELOW = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32)


class CongestionRandom(ctypes.Structure):
    _fields_ = [("below", RANDOM_BELOW), ("ctx", ctypes.c_void_p), ("value", ctypes.c_uint32)]


class CongestionRfcBbr3Config(ctypes.Structure):
    """`CongestionRfcBbr3Config` (16 bytes)."""

    _fields_ = [
        ("smss", ctypes.c_uint32),
        ("initial_cwnd", ctypes.c_uint32),
        ("pacing_offload_bytes", ctypes.c_uint32),
        ("has_selective_acks", ctypes.c_uint8),
        ("reserved", ctypes.c_uint8 * 3),
    ]


assert ctypes.sizeof(CongestionRfcBbr3Config) == 16


class CongestionLinuxBbrConfig(ctypes.Structure):
    """`CongestionLinuxBbrConfig` (40 bytes), BBR v1 and v3 alike."""

    _fields_ = [
        ("max_pacing_rate", ctypes.c_uint64),
        ("mss", ctypes.c_uint32),
        ("init_cwnd", ctypes.c_uint32),
        ("cwnd_clamp", ctypes.c_uint32),
        ("initial_rtt_us", ctypes.c_uint32),
        ("max_tcp_header", ctypes.c_uint32),
        ("min_tso_segs", ctypes.c_uint32),
        ("pacing_status", ctypes.c_uint8),
        ("pacing_shift", ctypes.c_uint8),
        ("ecn", ctypes.c_uint8),
        ("ecn_low", ctypes.c_uint8),
    ]


assert ctypes.sizeof(CongestionLinuxBbrConfig) == 40

BBR_MODE_STARTUP = 0
RFC_BBR3_STATE_STARTUP = 0

_u8, _u32, _u64, _i64, _i32 = (
    ctypes.c_uint8,
    ctypes.c_uint32,
    ctypes.c_uint64,
    ctypes.c_int64,
    ctypes.c_int32,
)
_ptr = ctypes.c_void_p

# name: argument types; every function returns int32_t (a CONGESTION_* code).
PROTOTYPES: dict[str, list] = {
    "congestion_rfc_cubic_config_default": [ctypes.POINTER(CongestionRfcCubicConfig)],
    # params, params_size, config
    "congestion_rfc_cubic_params_init": [_ptr, ctypes.c_size_t, ctypes.POINTER(CongestionRfcCubicConfig)],
    # state, state_size, params, now_us
    "congestion_rfc_cubic_init": [_ptr, ctypes.c_size_t, _ptr, _u64],
    # state, now_us, in_flight_after, largest_sent
    "congestion_rfc_cubic_on_sent": [_ptr, _u64, _u64, _u64],
    # state, now_us, sent, largest_sent
    "congestion_rfc_cubic_on_sent_counted": [_ptr, _u64, _u64, _u64],
    # state, now_us, acked, largest_acked, rtt_us (negative: none), app_limited
    "congestion_rfc_cubic_on_ack": [_ptr, _u64, _u64, _u64, _i64, _u8],
    # state, now_us, lost, newest_lost
    "congestion_rfc_cubic_on_loss": [_ptr, _u64, _u64, _u64],
    # state, now_us, lost, newest_sent_at_us
    "congestion_rfc_cubic_on_loss_sent_at": [_ptr, _u64, _u64, _u64],
    # state, now_us, lost
    "congestion_rfc_cubic_on_persistent_congestion": [_ptr, _u64, _u64],
    # state, now_us, ce_increase, largest_acked
    "congestion_rfc_cubic_on_ecn": [_ptr, _u64, _u64, _u64],
    "congestion_rfc_cubic_on_rto": [_ptr, _u64],
    # state, now_us, amount
    "congestion_rfc_cubic_on_discarded": [_ptr, _u64, _u64],
    "congestion_rfc_cubic_on_spurious": [_ptr, _u64],
    "congestion_rfc_cubic_on_transmit_start": [_ptr, _u64],
    "congestion_rfc_cubic_set_mss": [_ptr, _u64],
    # getters: state, out pointer
    "congestion_rfc_cubic_cwnd": [_ptr, _ptr],
    "congestion_rfc_cubic_ssthresh": [_ptr, _ptr],
    "congestion_rfc_cubic_phase": [_ptr, _ptr],
    "congestion_rfc_cubic_in_flight": [_ptr, _ptr],
    "congestion_rfc_cubic_pacing_rate": [_ptr, _ptr],
    "congestion_rfc_cubic_send_quantum": [_ptr, _ptr],
    "congestion_rfc_cubic_mss": [_ptr, _ptr],
}


# The per-packet BBR families: the same calls under three prefixes (ffi/src/packet.rs).
PACKET_PREFIXES = (
    "congestion_rfc_bbr3",
    "congestion_linux_bbr_controller",
    "congestion_linux_bbr3_controller",
)
_snap = ctypes.POINTER(CongestionTxSnapshot)
for _p in PACKET_PREFIXES:
    PROTOTYPES.update({
        # state, state_size, params, now_us, rand
        f"{_p}_init": [_ptr, ctypes.c_size_t, _ptr, _u64, ctypes.POINTER(CongestionRandom)],
        # state, now_us, sent, largest_sent, snapshot (out)
        f"{_p}_on_packet_sent_counted": [_ptr, _u64, _u64, _u64, _snap],
        # state, now_us, acked, largest_acked, rtt_us, app_limited, ce_delta, time_sent_us, snapshot
        f"{_p}_on_ack_sampled": [_ptr, _u64, _u64, _u64, _i64, _u8, _u64, _u64, _snap],
        # state, now_us, acked, largest_acked, rtt_us, app_limited, ce_delta
        f"{_p}_on_ack": [_ptr, _u64, _u64, _u64, _i64, _u8, _u64],
        # state, now_us, lost, newest_lost, persistent_congestion, snapshot
        f"{_p}_on_packet_lost": [_ptr, _u64, _u64, _u64, _u8, _snap],
        f"{_p}_on_rto": [_ptr, _u64],
        # state, now_us, amount
        f"{_p}_on_discarded": [_ptr, _u64, _u64],
        f"{_p}_cwnd": [_ptr, _ptr],
        f"{_p}_in_flight": [_ptr, _ptr],
        f"{_p}_pacing_rate": [_ptr, _ptr],
        f"{_p}_send_quantum": [_ptr, _ptr],
        f"{_p}_mss": [_ptr, _ptr],
        f"{_p}_phase": [_ptr, _ptr],
    })
PROTOTYPES["congestion_rfc_bbr3_bbr_state"] = [_ptr, _ptr]
PROTOTYPES["congestion_linux_bbr_controller_mode"] = [_ptr, _ptr]
PROTOTYPES["congestion_linux_bbr3_controller_mode"] = [_ptr, _ptr]
PROTOTYPES["congestion_rfc_bbr3_config_quic"] = [ctypes.POINTER(CongestionRfcBbr3Config), _u32]
PROTOTYPES["congestion_rfc_bbr3_params_init"] = [_ptr, ctypes.c_size_t, ctypes.POINTER(CongestionRfcBbr3Config)]
PROTOTYPES["congestion_linux_bbr_config_default"] = [ctypes.POINTER(CongestionLinuxBbrConfig)]
PROTOTYPES["congestion_linux_bbr_params_init"] = [_ptr, ctypes.c_size_t, ctypes.POINTER(CongestionLinuxBbrConfig)]
PROTOTYPES["congestion_linux_bbr3_params_init"] = [_ptr, ctypes.c_size_t, ctypes.POINTER(CongestionLinuxBbrConfig)]


class CongestionError(RuntimeError):
    """A C ABI call returned a negative `CONGESTION_*` code."""

    def __init__(self, function: str, code: int) -> None:
        super().__init__(f"{function} returned {code}")
        self.function = function
        self.code = code


class Lib:
    """The loaded shared library: one attribute per C function of `PROTOTYPES`."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = str(path)
        self.cdll = ctypes.CDLL(self.path)
        for name, argtypes in PROTOTYPES.items():
            f = getattr(self.cdll, name)
            f.argtypes = argtypes
            f.restype = _i32
            setattr(self, name, f)


def default_library_path() -> Path:
    """`CONGESTION_FFI_LIB`, else `target/release/libcongestion_ffi.so` of the
    repository this package sits in (or of the current directory's)."""
    env = os.environ.get("CONGESTION_FFI_LIB")
    if env:
        return Path(env)
    name = "libcongestion_ffi.so"
    starts = [Path(__file__).resolve().parent, Path.cwd().resolve()]
    for start in starts:
        for d in [start, *start.parents]:
            candidate = d / "target" / "release" / name
            if candidate.is_file():
                return candidate
    raise FileNotFoundError(
        f"{name} not found: build it with `cargo rustc -p congestion-ffi --release "
        "--crate-type cdylib` or set CONGESTION_FFI_LIB"
    )


_lib: Lib | None = None


def load() -> Lib:
    """The process's `Lib`, loaded on first use."""
    global _lib
    if _lib is None:
        _lib = Lib(default_library_path())
    return _lib
