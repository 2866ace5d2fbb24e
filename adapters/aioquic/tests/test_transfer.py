"""Real aioquic transfers on 127.0.0.1: client here, server and relay (relay.py) as
child processes, with our controller making every window decision through the C ABI.

Every C function is wrapped to count its calls (tests/conftest.py), and every time
aioquic's connection reads the window or the bytes in flight (QuicPacketRecovery's
congestion_window and bytes_in_flight, which decide how much the next datagrams may
carry), the value is compared with a fresh read of the C ABI's getter."""

import ctypes

import pytest
from aioquic.quic.recovery import QuicPacketRecovery

import transfer
from congestion_aioquic import CongestionCubic, _ffi


class WindowReads:
    """Wraps QuicPacketRecovery.congestion_window / bytes_in_flight for one test."""

    def __init__(self, monkeypatch, real):
        self.reads = 0
        self.mismatches = []
        out = ctypes.c_uint64()
        reads = self

        def checked(attr, getter):
            def get(recovery):
                cc = recovery._cc
                value = getattr(cc, attr)
                if isinstance(cc, CongestionCubic):
                    reads.reads += 1
                    assert real[getter](cc._addr, ctypes.byref(out)) == _ffi.OK
                    if out.value != value:
                        reads.mismatches.append((attr, value, out.value))
                return value

            return property(get)

        monkeypatch.setattr(QuicPacketRecovery, "congestion_window",
                            checked("congestion_window", "congestion_rfc_cubic_cwnd"))
        monkeypatch.setattr(QuicPacketRecovery, "bytes_in_flight",
                            checked("bytes_in_flight", "congestion_rfc_cubic_in_flight"))


def check_transfer(report, counted_lib, reads, nbytes):
    cc = report.controller
    calls = counted_lib.calls
    assert isinstance(cc, CongestionCubic)
    assert report.bytes == nbytes
    assert counted_lib.failures == []
    # Every aioquic call became its C ABI event (and nothing else did).
    assert calls["congestion_rfc_cubic_on_sent_counted"] == cc.calls["on_packet_sent"] > nbytes // 1300
    assert calls["congestion_rfc_cubic_on_ack"] == cc.calls["on_packet_acked"] + cc.calls["on_rtt_measurement"]
    assert calls["congestion_rfc_cubic_on_loss"] == cc.calls["on_packets_lost"]
    assert calls["congestion_rfc_cubic_on_discarded"] == cc.calls["on_packets_expired"]
    assert calls["congestion_rfc_cubic_on_persistent_congestion"] == cc.calls["on_persistent_congestion"]
    events = sum(cc.calls[k] for k in ("on_packet_sent", "on_packet_acked", "on_rtt_measurement",
                                       "on_packets_lost", "on_packets_expired", "on_persistent_congestion"))
    # After each event (and at init) the three attributes were read back from the C ABI.
    assert calls["congestion_rfc_cubic_cwnd"] == calls["congestion_rfc_cubic_in_flight"] == events + 1
    # aioquic never saw a window or a flight that was not the C ABI's.
    assert reads.reads > cc.calls["on_packet_sent"] // 10
    assert reads.mismatches == []
    # All but the last packets were acknowledged or declared lost.
    assert cc.calls["on_packet_acked"] + cc.calls["packets_lost"] + cc.calls["packets_expired"] >= cc.calls["on_packet_sent"] - 100


def test_transfer_through_the_relay_with_loss(counted_lib, monkeypatch):
    """2 MB over 20 Mbit/s, 20 ms, 64 kB, 1 % random loss: losses reach the C ABI."""
    reads = WindowReads(monkeypatch, counted_lib.real)
    nbytes = 2_000_000
    cfg = transfer.TransferConfig(rate_bps=20_000_000, rtt_s=0.020, buffer_bytes=64_000,
                                  bytes=nbytes, cc="ours-cubic-rfc", loss_ppm=10_000, seed=3, timeout_s=120)
    report = transfer.run(cfg)
    check_transfer(report, counted_lib, reads, nbytes)
    assert report.relay["forward_random_drops"] > 0
    assert counted_lib.calls["congestion_rfc_cubic_on_loss"] > 0
    assert report.controller.calls["packets_lost"] == report.lost_packets > 0


@pytest.mark.slow
def test_20_mb_transfer_every_window_decision_by_the_c_abi(counted_lib, monkeypatch):
    """20 MB over 50 Mbit/s, 40 ms, 256 kB (aioquic on a loaded 2-core machine moves
    it at what the CPU allows; the controller decides every window regardless)."""
    reads = WindowReads(monkeypatch, counted_lib.real)
    nbytes = 20_000_000
    cfg = transfer.TransferConfig(rate_bps=50_000_000, rtt_s=0.040, buffer_bytes=256_000,
                                  bytes=nbytes, cc="ours-cubic-rfc", timeout_s=280)
    report = transfer.run(cfg)
    check_transfer(report, counted_lib, reads, nbytes)
    print(f"20 MB: {report.elapsed_s:.1f} s, goodput {report.goodput_mbit:.2f} Mbit/s, "
          f"lost {report.lost_packets}, C ABI calls {sum(counted_lib.calls.values())}")
