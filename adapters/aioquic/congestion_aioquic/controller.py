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
