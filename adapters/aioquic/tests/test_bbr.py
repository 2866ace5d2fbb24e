"""BBR in aioquic through the C ABI's per-packet calls (`congestion_rfc_bbr3_*`,
`congestion_linux_bbr{,3}_controller_*`): the snapshot each send gives is stored on
aioquic's sent packet and handed back on its ACK or loss; BBR's pacing rate drives the
pacer. On hand-made packets, then real transfers through the relay."""

import ctypes

import pytest
from aioquic.quic.packet_builder import QuicSentPacket

import transfer
from congestion_aioquic import CongestionBbr, CongestionBbr3, CongestionBbr3Rfc, _ffi
from test_controller import MSS, flight

BBRS = [CongestionBbr, CongestionBbr3, CongestionBbr3Rfc]


@pytest.mark.parametrize("cls", BBRS)
def test_snapshots_ride_on_the_sent_packets(cls):
    cc = cls(max_datagram_size=MSS)
    assert cc.congestion_window == 10 * MSS and cc.bytes_in_flight == 0
    ps = flight(cc, 10, 1.0)
    assert cc.bytes_in_flight == 10 * MSS
    for i, p in enumerate(ps):
        seq, sent_us, snap = p.congestion_snapshot
        assert seq == i + 1 and sent_us == 0 and isinstance(snap, _ffi.CongestionTxSnapshot)
    # 20 ms later the first two are acknowledged, then the RTT sample arrives.
    for p in ps[:2]:
        cc.on_packet_acked(now=1.020, packet=p)
    cc.on_rtt_measurement(now=1.020, rtt=0.020)
    assert cc.bytes_in_flight == 8 * MSS
    assert cc.congestion_window == 12 * MSS  # Startup: cwnd grows by what was delivered
    assert cc.mode == 0 and not cc.left_startup and cc.phase == "slow_start"
    # A lost packet hands its snapshot back; it leaves the flight.
    cc.on_packets_lost(now=1.030, packets=ps[2:3])
    assert cc.bytes_in_flight == 7 * MSS
    assert cc.calls["packets_lost"] == 1


def test_a_foreign_snapshot_is_refused():
    cc = CongestionBbr(max_datagram_size=MSS)
    (p,) = flight(cc, 1, 1.0)
    seq, sent_us, snap = p.congestion_snapshot
    snap.flags |= 1 << 30  # no send sets it
    with pytest.raises(_ffi.CongestionError) as e:
        cc.on_packet_acked(now=1.02, packet=p)
    assert e.value.code == _ffi.ERR_SNAPSHOT


@pytest.mark.parametrize("cc_word", ["ours-bbr", "ours-bbr3", "ours-bbr3-rfc"])
def test_bbr_transfer_through_the_relay(counted_lib, cc_word):
    """2 MB over 20 Mbit/s, 20 ms, 64 kB: the transfer completes, BBR leaves Startup,
    and its window and pacing rate are the path's (BDP 50 kB, 2.5 MB/s)."""
    nbytes = 2_000_000
    cfg = transfer.TransferConfig(rate_bps=20_000_000, rtt_s=0.020, buffer_bytes=64_000,
                                  bytes=nbytes, cc=cc_word, seed=3, timeout_s=120)
    report = transfer.run(cfg)
    cc = report.controller
    calls = counted_lib.calls
    assert report.bytes == nbytes
    assert counted_lib.failures == []
    assert cc.left_startup and cc.mode != 0
    # Every acknowledged packet handed its snapshot back, and every lost one.
    assert calls[f"{cc.prefix}_on_ack_sampled"] == cc.calls["on_packet_acked"]
    assert calls[f"{cc.prefix}_on_packet_lost"] == cc.calls["packets_lost"] == report.lost_packets
    assert calls[f"{cc.prefix}_on_packet_sent_counted"] == cc.calls["on_packet_sent"] > nbytes // 1300
    # The window: at least BBR's 4-packet floor, at most a few BDPs plus the buffer.
    cwnds = [s.cwnd for s in report.samples]
    assert min(cwnds) >= 4 * MSS
    assert max(cwnds) <= 6 * (50_000 + 64_000)
    # The pacer ran at BBR's rate, which is the bottleneck's within a factor of 3.
    assert cc.pacer is not None and cc.pacer.rate == cc.pacing_rate
    assert 2_500_000 / 3 <= cc.pacing_rate <= 2_500_000 * 3
    print(f"{cc_word}: {report.elapsed_s:.2f} s, goodput {report.goodput_mbit:.2f} Mbit/s, "
          f"lost {report.lost_packets}, cwnd {cc.congestion_window} B, "
          f"pacing {cc.pacing_rate} B/s, mode {cc.mode}")
