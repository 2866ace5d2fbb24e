"""aioquic congestion controls whose every window decision is the C ABI's.

Each instance owns one RFC-mode flow of `congestion-ffi` in a ctypes buffer of
`RFC_STATE_SIZE` bytes, aligned to its 64-byte line, on a parameter block of its own. Each call aioquic's recovery makes becomes one
C ABI event (see the table in README.md); after it, the three attributes the recovery
reads (`congestion_window`, `ssthresh`, `bytes_in_flight`) are read back from the
C ABI's getters. The Python side computes nothing about the window: it maps times,
packet numbers and amounts, and counts calls.

Times: aioquic's times are seconds (float, the event loop's clock); the C ABI's
`now_us` is µs from a per-connection epoch, the first time this controller sees.

Packet numbers: one controller serves the whole connection, but QUIC numbers packets
per packet-number space (Initial, Handshake, application). aioquic 1.x happens to draw
all spaces' numbers from one connection counter, which it resets to 0 after version
negotiation; neither is promised. So every in-flight packet gets a connection-wide
sequence number at `on_packet_sent` (1, 2, 3, ... in send order; 0 means "not given"
to the C ABI), and ACKs and losses report that number: the C ABI's recovery periods
(one reduction per episode, RFC 9002 §7.3.2) then compare packets correctly whatever
the numbering. The adapter has no recovery filter of its own.
"""

from __future__ import annotations

import ctypes
from collections import Counter
from collections.abc import Iterable
from typing import Any

from aioquic.quic.congestion.base import QuicCongestionControl
from aioquic.quic.packet_builder import QuicSentPacket
from aioquic.quic.recovery import QuicPacketPacer

from . import _ffi


class _RfcFlowControl(QuicCongestionControl):
    """The shared mapping; subclasses choose the algorithm and slow start."""

    algorithm = _ffi.ALGORITHM_CUBIC
    slow_start = _ffi.SLOW_START_HYSTART_PLUS_PLUS

    def __init__(self, *, max_datagram_size: int, lib: _ffi.Lib | None = None) -> None:
        super().__init__(max_datagram_size=max_datagram_size)
        self._lib = lib if lib is not None else _ffi.load()
        self.calls: Counter[str] = Counter()
        self._state, self._addr = _ffi.aligned_buffer(_ffi.RFC_STATE_SIZE, _ffi.RFC_STATE_ALIGN)
        # The flow's settings, validated into a parameter block the state refers to: one
        # per controller here (aioquic builds one controller per connection, each with
        # its own max_datagram_size).
        self._params, self._params_addr = _ffi.aligned_buffer(
            _ffi.RFC_PARAMS_SIZE, _ffi.RFC_PARAMS_ALIGN
        )
        self._out = ctypes.c_uint64()
        self._out_addr = ctypes.addressof(self._out)
        self._out32 = ctypes.c_uint32()
        self._out32_addr = ctypes.addressof(self._out32)
        self.config = _ffi.CongestionRfcCubicConfig()
        self._check("congestion_rfc_cubic_config_default", self._lib.congestion_rfc_cubic_config_default(
            ctypes.byref(self.config)
        ))
        self.config.mss_bytes = max_datagram_size
        self.config.algorithm = self.algorithm
        self.config.slow_start = self.slow_start
        # aioquic paces its packets (QuicPacketPacer), so HyStart++ needs no per-ACK
        # growth limit L (RFC 9406 §4.3).
        self.config.paced = 1
        self._check("congestion_rfc_cubic_params_init", self._lib.congestion_rfc_cubic_params_init(
            self._params_addr, _ffi.RFC_PARAMS_SIZE, ctypes.byref(self.config)
        ))
        self._check("congestion_rfc_cubic_init", self._lib.congestion_rfc_cubic_init(
            self._addr, _ffi.RFC_STATE_SIZE, self._params_addr, 0
        ))
        self._epoch: float | None = None
        self._last_us = 0
        self._next_seq = 1
        # (epoch, packet_number) -> connection-wide sequence number, while in flight.
        self._seqs: dict[tuple[Any, int], int] = {}
        # Sequence number of the last packet acknowledged: the one aioquic's RTT
        # sample (on_rtt_measurement, right after an ACK's packets) was taken on.
        self._last_acked_seq = 0
        self._read_back()

    # -- mapping helpers ---------------------------------------------------------

    @staticmethod
    def _check(name: str, rc: int) -> None:
        if rc != _ffi.OK:
            raise _ffi.CongestionError(name, rc)

    def _us(self, t: float) -> int:
        """aioquic time (s) as the C ABI's now_us: µs since the first time seen, never
        going backwards."""
        if self._epoch is None:
            self._epoch = t
        us = int(round((t - self._epoch) * 1e6))
        if us > self._last_us:
            self._last_us = us
        return self._last_us

    def _get(self, name: str) -> int:
        self._check(name, getattr(self._lib, name)(self._addr, self._out_addr))
        return self._out.value

    def _read_back(self) -> None:
        """The attributes aioquic's recovery reads, from the C ABI."""
        self.congestion_window = self._get("congestion_rfc_cubic_cwnd")
        ssthresh = self._get("congestion_rfc_cubic_ssthresh")
        self.ssthresh = None if ssthresh == _ffi.SSTHRESH_NONE else ssthresh
        self.bytes_in_flight = self._get("congestion_rfc_cubic_in_flight")

    def _take(self, packets: Iterable[QuicSentPacket]) -> tuple[int, int, int]:
        """Total bytes, newest sequence number (0 if none known), packet count; the
        packets leave the sequence table."""
        total = newest = count = 0
        for p in packets:
            count += 1
            total += p.sent_bytes
            seq = self._seqs.pop((p.epoch, p.packet_number), 0)
            if seq > newest:
                newest = seq
        return total, newest, count

    # -- what aioquic's recovery calls -------------------------------------------

    def on_packet_sent(self, *, packet: QuicSentPacket) -> None:
        self.calls["on_packet_sent"] += 1
        seq = self._next_seq
        self._next_seq += 1
        self._seqs[(packet.epoch, packet.packet_number)] = seq
        self._check("congestion_rfc_cubic_on_sent_counted", self._lib.congestion_rfc_cubic_on_sent_counted(
            self._addr, self._us(packet.sent_time), packet.sent_bytes, seq
        ))
        self._read_back()

    def on_packet_acked(self, *, now: float, packet: QuicSentPacket) -> None:
        self.calls["on_packet_acked"] += 1
        seq = self._seqs.pop((packet.epoch, packet.packet_number), 0)
        if seq:
            self._last_acked_seq = seq
        # The RTT sample of the ACK comes after its packets (on_rtt_measurement).
        self._check("congestion_rfc_cubic_on_ack", self._lib.congestion_rfc_cubic_on_ack(
            self._addr, self._us(now), packet.sent_bytes, seq if seq else _ffi.PACKET_UNKNOWN, -1, 0
        ))
        self._read_back()

    def on_rtt_measurement(self, *, now: float, rtt: float) -> None:
        self.calls["on_rtt_measurement"] += 1
        # An ACK carrying only an RTT sample (acked 0), on the packet it was taken on.
        self._check("congestion_rfc_cubic_on_ack", self._lib.congestion_rfc_cubic_on_ack(
            self._addr, self._us(now), 0, self._last_acked_seq or _ffi.PACKET_UNKNOWN, int(round(rtt * 1e6)), 0
        ))
        self._read_back()

    def on_packets_lost(self, *, now: float, packets: Iterable[QuicSentPacket]) -> None:
        self.calls["on_packets_lost"] += 1
        total, newest, count = self._take(packets)
        self.calls["packets_lost"] += count
        # One burst: its bytes and its newest packet. The C ABI reduces only if that
        # packet was sent after its current recovery period began.
        self._check("congestion_rfc_cubic_on_loss", self._lib.congestion_rfc_cubic_on_loss(
            self._addr, self._us(now), total, newest if newest else _ffi.PACKET_UNKNOWN
        ))
        self._read_back()

    def on_persistent_congestion(self) -> None:
        self.calls["on_persistent_congestion"] += 1
        # aioquic calls this right after on_packets_lost for the same packets, whose
        # bytes already left flight there: 0 lost bytes here, at that loss's time.
        self._check(
            "congestion_rfc_cubic_on_persistent_congestion",
            self._lib.congestion_rfc_cubic_on_persistent_congestion(self._addr, self._last_us, 0),
        )
        self._read_back()

    def on_packets_expired(self, *, packets: Iterable[QuicSentPacket]) -> None:
        self.calls["on_packets_expired"] += 1
        total, _, count = self._take(packets)
        self.calls["packets_expired"] += count
        # Keys discarded, or a PTO's retransmission: out of flight, no congestion
        # signal. aioquic gives no time: the last one seen.
        self._check("congestion_rfc_cubic_on_discarded", self._lib.congestion_rfc_cubic_on_discarded(
            self._addr, self._last_us, total
        ))
        self._read_back()

    # -- read-only extras ----------------------------------------------------------

    @property
    def pacing_rate(self) -> int | None:
        """The C ABI's pacing rate, bytes/s (None before the first RTT sample)."""
        rate = self._get("congestion_rfc_cubic_pacing_rate")
        return None if rate == _ffi.RATE_UNLIMITED else rate

    @property
    def send_quantum(self) -> int:
        """The C ABI's send quantum, bytes."""
        return self._get("congestion_rfc_cubic_send_quantum")

    @property
    def phase(self) -> str:
        self._check("congestion_rfc_cubic_phase", self._lib.congestion_rfc_cubic_phase(
            self._addr, self._out32_addr
        ))
        return _ffi.PHASE_NAMES.get(self._out32.value, str(self._out32.value))

    def get_log_data(self) -> dict[str, Any]:
        data = super().get_log_data()
        rate = self.pacing_rate
        if rate is not None:
            data["pacing_rate"] = rate * 8  # qlog: bits per second
        data["send_quantum"] = self.send_quantum
        data["phase"] = self.phase
        return data


class CongestionCubic(_RfcFlowControl):
    """RFC 9438 CUBIC with RFC 9406 HyStart++ (the C ABI's RFC-mode default)."""

    algorithm = _ffi.ALGORITHM_CUBIC
    slow_start = _ffi.SLOW_START_HYSTART_PLUS_PLUS


class CongestionNewReno(_RfcFlowControl):
    """RFC 9002 NewReno with RFC 9406 HyStart++."""

    algorithm = _ffi.ALGORITHM_NEWRENO
    slow_start = _ffi.SLOW_START_HYSTART_PLUS_PLUS


class _PacketBbrControl(QuicCongestionControl):
    """The per-packet BBR calls (`congestion_<mode>_<bbr>_*`, ffi/src/packet.rs) behind
    aioquic's congestion-control interface.

    Per packet: `on_packet_sent` gives the packet's `CongestionTxSnapshot` (32 bytes),
    stored on aioquic's `QuicSentPacket` itself (`congestion_snapshot`, with its send
    time in µs and its connection-wide sequence number) and handed back unchanged when
    the packet is acknowledged (`on_ack_sampled`, one call per acknowledged packet, each
    its own newest packet) or declared lost (`on_packet_lost`, one call per packet). The
    ACK's RTT sample, which aioquic reports after the ACK's packets
    (`on_rtt_measurement`), is an ACK of nothing (`on_ack` with 0 acknowledged).
    Persistent congestion is a retransmission timeout (`on_rto`: the window collapses);
    expired packets leave the flight (`on_discarded`).

    Amounts are in the family's unit: bytes for RFC-mode BBRv3, segments (one packet
    each) for the Linux-mode controllers, whose window and flight are given to aioquic
    as segments × max_datagram_size. The pacing rate is BBR's own: a pacer installed with
    `install_pacer(connection)` reads it (aioquic's default pacer would derive one from
    cwnd / srtt instead).
    """

    prefix = "congestion_rfc_bbr3"
    segments = False
    state_size = _ffi.RFC_BBR3_STATE_SIZE
    mode_getter = "congestion_rfc_bbr3_bbr_state"

    def __init__(self, *, max_datagram_size: int, lib: _ffi.Lib | None = None) -> None:
        super().__init__(max_datagram_size=max_datagram_size)
        self._lib = lib if lib is not None else _ffi.load()
        self.calls: Counter[str] = Counter()
        self.mss = max_datagram_size
        self._unit = 1 if self.segments else max_datagram_size
        self._state, self._addr = _ffi.aligned_buffer(self.state_size, _ffi.STATE_ALIGN)
        self._params, self._params_addr = _ffi.aligned_buffer(64, _ffi.PARAMS_ALIGN)
        self._out = ctypes.c_uint64()
        self._out_addr = ctypes.addressof(self._out)
        self._out32 = ctypes.c_uint32()
        self._out32_addr = ctypes.addressof(self._out32)
        self._make_params()
        # The generator BBR draws from (its first PROBE_BW phase, its probe waits): a
        # seeded one per controller, so runs repeat. Kept alive with the controller.
        self._seed = 0x9E3779B9

        def below(_ctx: Any, ceil: int) -> int:
            self._seed = (self._seed * 1103515245 + 12345) & 0xFFFFFFFF
            return (self._seed >> 16) % ceil

        self._below = _ffi.RANDOM_BELOW(below)
        self._rand = _ffi.CongestionRandom(self._below, None, 0)
        self._call("init", self._addr, self.state_size, self._params_addr, 0, ctypes.byref(self._rand))
        self._epoch: float | None = None
        self._last_us = 0
        self._next_seq = 1
        self._last_acked_seq = 0
        self.left_startup = False
        self.pacer = None
        self._read_back()

    def _make_params(self) -> None:
        cfg = _ffi.CongestionRfcBbr3Config()
        self._check("congestion_rfc_bbr3_config_quic",
                    self._lib.congestion_rfc_bbr3_config_quic(ctypes.byref(cfg), self.mss))
        self._check("congestion_rfc_bbr3_params_init", self._lib.congestion_rfc_bbr3_params_init(
            self._params_addr, _ffi.RFC_BBR3_PARAMS_SIZE, ctypes.byref(cfg)))

    @staticmethod
    def _check(name: str, rc: int) -> None:
        if rc != _ffi.OK:
            raise _ffi.CongestionError(name, rc)

    def _call(self, call: str, *args: Any) -> None:
        name = f"{self.prefix}_{call}"
        self._check(name, getattr(self._lib, name)(*args))

    def _get(self, call: str) -> int:
        self._call(call, self._addr, self._out_addr)
        return self._out.value

    def _us(self, t: float) -> int:
        if self._epoch is None:
            self._epoch = t
        us = int(round((t - self._epoch) * 1e6))
        if us > self._last_us:
            self._last_us = us
        return self._last_us

    def _read_back(self, acked: bool = True) -> None:
        """The window and flight aioquic reads; after an ACK or a loss also whether BBR
        left Startup and the pacer's rate (a send changes neither)."""
        scale = self.mss if self.segments else 1
        self.congestion_window = self._get("cwnd") * scale
        self.bytes_in_flight = self._get("in_flight") * scale
        self.ssthresh = None
        if not acked:
            return
        if not self.left_startup and self.mode != 0:
            self.left_startup = True
        if self.pacer is not None:
            self.pacer.follow(self)

    def _amount(self, packet: QuicSentPacket) -> int:
        return 1 if self.segments else packet.sent_bytes

    # -- what aioquic's recovery calls -------------------------------------------

    def on_packet_sent(self, *, packet: QuicSentPacket) -> None:
        self.calls["on_packet_sent"] += 1
        seq = self._next_seq
        self._next_seq += 1
        snap = _ffi.CongestionTxSnapshot()
        now = self._us(packet.sent_time)
        self._call("on_packet_sent_counted", self._addr, now, self._amount(packet), seq, ctypes.byref(snap))
        # Stored with aioquic's sent packet, handed back on its ACK or loss.
        packet.congestion_snapshot = (seq, now, snap)
        self._read_back(acked=False)

    def on_packet_acked(self, *, now: float, packet: QuicSentPacket) -> None:
        self.calls["on_packet_acked"] += 1
        kept = getattr(packet, "congestion_snapshot", None)
        t = self._us(now)
        if kept is None:  # not sent through this controller: no sample
            self._call("on_ack", self._addr, t, self._amount(packet), _ffi.PACKET_UNKNOWN, -1, 0, 0)
        else:
            seq, sent_us, snap = kept
            self._last_acked_seq = seq
            self._call("on_ack_sampled", self._addr, t, self._amount(packet), seq, -1, 0, 0, sent_us,
                       ctypes.byref(snap))
        self._read_back()

    def on_rtt_measurement(self, *, now: float, rtt: float) -> None:
        self.calls["on_rtt_measurement"] += 1
        self._call("on_ack", self._addr, self._us(now), 0, self._last_acked_seq or _ffi.PACKET_UNKNOWN,
                   int(round(rtt * 1e6)), 0, 0)
        self._read_back()

    def on_packets_lost(self, *, now: float, packets: Iterable[QuicSentPacket]) -> None:
        self.calls["on_packets_lost"] += 1
        t = self._us(now)
        for packet in packets:
            self.calls["packets_lost"] += 1
            kept = getattr(packet, "congestion_snapshot", None)
            seq, snap = (kept[0], kept[2]) if kept else (_ffi.PACKET_UNKNOWN, _ffi.CongestionTxSnapshot())
            self._call("on_packet_lost", self._addr, t, self._amount(packet), seq, 0, ctypes.byref(snap))
        self._read_back()

    def on_persistent_congestion(self) -> None:
        self.calls["on_persistent_congestion"] += 1
        self._call("on_rto", self._addr, self._last_us)
        self._read_back()

    def on_packets_expired(self, *, packets: Iterable[QuicSentPacket]) -> None:
        self.calls["on_packets_expired"] += 1
        total = 0
        for packet in packets:
            self.calls["packets_expired"] += 1
            total += self._amount(packet)
        self._call("on_discarded", self._addr, self._last_us, total)
        self._read_back()

    # -- read-only extras ----------------------------------------------------------

    @property
    def pacing_rate(self) -> int:
        """BBR's pacing rate, bytes/s."""
        return self._get("pacing_rate")

    @property
    def send_quantum(self) -> int:
        return self._get("send_quantum")

    @property
    def mode(self) -> int:
        """BBR's mode (Linux: `CONGESTION_BBR_MODE_*`) or state (RFC:
        `CONGESTION_RFC_BBR3_STATE_*`); 0 is Startup in both."""
        self._check(self.mode_getter, getattr(self._lib, self.mode_getter)(self._addr, self._out32_addr))
        return self._out32.value

    @property
    def phase(self) -> str:
        self._call("phase", self._addr, self._out32_addr)
        return _ffi.PHASE_NAMES.get(self._out32.value, str(self._out32.value))

    def get_log_data(self) -> dict[str, Any]:
        data = super().get_log_data()
        data["pacing_rate"] = self.pacing_rate * 8  # qlog: bits per second
        data["phase"] = self.phase
        return data


class CongestionBbr3Rfc(_PacketBbrControl):
    """RFC-mode BBRv3 (draft-ietf-ccwg-bbr) in bytes: `congestion_rfc_bbr3_*`."""


class _LinuxBbrControl(_PacketBbrControl):
    segments = True
    params_init = "congestion_linux_bbr_params_init"
    params_size = _ffi.LINUX_BBR_PARAMS_SIZE

    def _make_params(self) -> None:
        cfg = _ffi.CongestionLinuxBbrConfig()
        self._check("congestion_linux_bbr_config_default",
                    self._lib.congestion_linux_bbr_config_default(ctypes.byref(cfg)))
        cfg.mss = self.mss
        self._check(self.params_init, getattr(self._lib, self.params_init)(
            self._params_addr, self.params_size, ctypes.byref(cfg)))


class CongestionBbr(_LinuxBbrControl):
    """Linux-mode BBR v1 (the kernel's tcp_bbr.c) in segments:
    `congestion_linux_bbr_controller_*`."""

    prefix = "congestion_linux_bbr_controller"
    state_size = _ffi.LINUX_BBR_CONTROLLER_STATE_SIZE
    mode_getter = "congestion_linux_bbr_controller_mode"


class CongestionBbr3(_LinuxBbrControl):
    """Linux-mode BBRv3 (Google's v3 tcp_bbr.c) in segments:
    `congestion_linux_bbr3_controller_*`."""

    prefix = "congestion_linux_bbr3_controller"
    state_size = _ffi.LINUX_BBR3_CONTROLLER_STATE_SIZE
    mode_getter = "congestion_linux_bbr3_controller_mode"
    params_init = "congestion_linux_bbr3_params_init"
    params_size = _ffi.LINUX_BBR3_PARAMS_SIZE


class ControllerPacer(QuicPacketPacer):
    """aioquic's token-bucket pacer on the controller's pacing rate: after every event
    the controller hands it BBR's rate (`follow`); aioquic's own calls to
    `update_rate(cwnd, srtt)` are ignored."""

    def follow(self, cc: _PacketBbrControl) -> None:
        rate = cc.pacing_rate
        self.rate = rate
        if rate == 0 or rate == _ffi.RATE_UNLIMITED:
            self.packet_time = None
            return
        self.packet_time = max(1e-6, min(self._max_datagram_size / rate, 1.0))
        # The burst the bucket may hold, as aioquic's own pacer sizes it (a quarter of
        # the window, 2 to 16 packets): the event loop's timers are far coarser than
        # one packet's time at BBR's rate, and a smaller bucket would send below it.
        mss = self._max_datagram_size
        self.bucket_max = max(2 * mss, min(cc.congestion_window // 4, 16 * mss)) / rate
        if self.bucket_time > self.bucket_max:
            self.bucket_time = self.bucket_max

    def update_rate(self, congestion_window: int, smoothed_rtt: float) -> None:
        pass


def install_pacer(connection: Any) -> ControllerPacer | None:
    """Gives the connection's recovery a `ControllerPacer` on its BBR controller (a
    no-op, returning None, for other controllers). Uses aioquic 1.x's private
    `QuicConnection._loss._pacer`."""
    recovery = connection._loss
    cc = recovery._cc
    if not isinstance(cc, _PacketBbrControl):
        return None
    pacer = ControllerPacer(max_datagram_size=cc.mss)
    recovery._pacer = pacer
    cc.pacer = pacer
    pacer.follow(cc)
    return pacer
