"""The mapping from aioquic's congestion-control calls to the C ABI, on hand-made
packets: every number checked here was computed by the C ABI and only read back."""

import ctypes

import pytest
from aioquic import tls
from aioquic.quic.congestion.base import create_congestion_control
from aioquic.quic.packet_builder import QuicPacketType, QuicSentPacket

import congestion_aioquic
from congestion_aioquic import CongestionCubic, CongestionNewReno, _ffi, units

MSS = 1200


def packet(n, t, epoch=tls.Epoch.ONE_RTT, size=MSS):
    return QuicSentPacket(
        epoch=epoch,
        in_flight=True,
        is_ack_eliciting=True,
        is_crypto_packet=False,
        packet_number=n,
        packet_type=QuicPacketType.ONE_RTT,
        sent_time=t,
        sent_bytes=size,
    )


def c_value(cc, getter):
    """A getter called on the controller's state directly (not through the adapter)."""
    out = ctypes.c_uint64()
    assert getattr(_ffi.load(), getter)(cc._addr, ctypes.byref(out)) == _ffi.OK
    return out.value


def flight(cc, count, t, first=0):
    ps = [packet(first + i, t) for i in range(count)]
    for p in ps:
        cc.on_packet_sent(packet=p)
    return ps


def test_registered_by_name():
    for name, cls in congestion_aioquic.NAMES.items():
        cc = create_congestion_control(name, max_datagram_size=MSS)
        assert type(cc) is cls
    assert set(congestion_aioquic.NAMES) == {"congestion-cubic", "congestion-newreno", "congestion-bbr",
                                             "congestion-bbr3", "congestion-bbr3-rfc"}


def test_state_size_and_alignment_are_the_c_abis():
    lib = _ffi.load()
    config = _ffi.CongestionRfcCubicConfig()
    assert lib.congestion_rfc_cubic_config_default(ctypes.byref(config)) == _ffi.OK
    params_buf, params = _ffi.aligned_buffer(_ffi.RFC_PARAMS_SIZE, _ffi.RFC_PARAMS_ALIGN)
    params_init = lib.congestion_rfc_cubic_params_init
    assert params_init(params, _ffi.RFC_PARAMS_SIZE - 1, ctypes.byref(config)) == _ffi.ERR_SIZE
    assert params_init(params, _ffi.RFC_PARAMS_SIZE, ctypes.byref(config)) == _ffi.OK
    buf, addr = _ffi.aligned_buffer(_ffi.RFC_STATE_SIZE + 64, _ffi.RFC_STATE_ALIGN)
    assert addr % 64 == 0
    init = lib.congestion_rfc_cubic_init
    assert init(addr, _ffi.RFC_STATE_SIZE - 1, params, 0) == _ffi.ERR_SIZE
    # A state starts a 64-byte line: 8 bytes in (ctypes' own alignment) is refused.
    assert init(addr + 8, _ffi.RFC_STATE_SIZE, params, 0) == _ffi.ERR_ALIGNMENT
    assert init(addr, _ffi.RFC_STATE_SIZE, params, 0) == _ffi.OK
    cc = CongestionCubic(max_datagram_size=MSS)
    assert ctypes.sizeof(cc._state) >= _ffi.RFC_STATE_SIZE
    assert cc._addr % _ffi.RFC_STATE_ALIGN == 0
    del params_buf, buf


def test_initial_values_come_from_the_c_abi():
    cc = CongestionCubic(max_datagram_size=MSS)
    # RFC 9002 initial window min(10 MSS, max(14720, 2 MSS)) = 12000 for 1200 bytes.
    assert cc.congestion_window == c_value(cc, "congestion_rfc_cubic_cwnd") == 12000
    assert cc.ssthresh is None
    assert cc.bytes_in_flight == 0
    assert cc.pacing_rate is None  # no RTT sample yet
    assert cc.phase == "slow_start"
    assert cc.config.mss_bytes == MSS and cc.config.paced == 1


def test_each_call_is_one_c_event_then_the_three_getters(counted_lib):
    cc = CongestionCubic(max_datagram_size=MSS)
    base = dict(counted_lib.calls)
    ps = flight(cc, 3, 1.0)
    cc.on_packet_acked(now=1.05, packet=ps[0])
    cc.on_rtt_measurement(now=1.05, rtt=0.05)
    cc.on_packets_lost(now=1.06, packets=ps[1:2])
    cc.on_packets_expired(packets=ps[2:3])
    cc.on_persistent_congestion()
    got = {k: v - base.get(k, 0) for k, v in counted_lib.calls.items() if v - base.get(k, 0)}
    assert got == {
        "congestion_rfc_cubic_on_sent_counted": 3,
        "congestion_rfc_cubic_on_ack": 2,
        "congestion_rfc_cubic_on_loss": 1,
        "congestion_rfc_cubic_on_discarded": 1,
        "congestion_rfc_cubic_on_persistent_congestion": 1,
        "congestion_rfc_cubic_cwnd": 8,
        "congestion_rfc_cubic_ssthresh": 8,
        "congestion_rfc_cubic_in_flight": 8,
    }
    assert counted_lib.failures == []
    assert cc.calls["on_packet_sent"] == 3 and cc.calls["on_packets_lost"] == 1


def test_slow_start_in_flight_pacing_rate_and_send_quantum():
    cc = CongestionCubic(max_datagram_size=MSS)
    ps = flight(cc, 10, 10.0)
    assert cc.bytes_in_flight == c_value(cc, "congestion_rfc_cubic_in_flight") == 12000
    cc.on_packet_acked(now=10.04, packet=ps[0])
    cc.on_packet_acked(now=10.04, packet=ps[1])
    cc.on_rtt_measurement(now=10.04, rtt=0.040)
    # Slow start: +2400 acked; in flight -2400.
    assert cc.congestion_window == 14400
    assert cc.bytes_in_flight == 9600
    # Linux pacing rule in slow start: 200 % x max(cwnd, in flight) / srtt
    # = 2 x 14400 B / 40 ms = 720,000 B/s.
    assert cc.pacing_rate == c_value(cc, "congestion_rfc_cubic_pacing_rate") == 720_000
    # tcp_tso_autosize: rate >> 10 = 703 B, at least two segments.
    assert cc.send_quantum == c_value(cc, "congestion_rfc_cubic_send_quantum") == 2 * MSS
    log = cc.get_log_data()
    assert log["cwnd"] == 14400 and log["bytes_in_flight"] == 9600
    assert log["pacing_rate"] == 720_000 * 8 and log["send_quantum"] == 2400


def test_one_reduction_per_episode_and_a_second_for_a_packet_sent_after():
    cc = CongestionCubic(max_datagram_size=MSS)
    ps = flight(cc, 10, 10.0)
    cc.on_packet_acked(now=10.04, packet=ps[0])
    cc.on_packet_acked(now=10.04, packet=ps[1])
    cc.on_rtt_measurement(now=10.04, rtt=0.040)
    assert (cc.congestion_window, cc.bytes_in_flight) == (14400, 9600)
    # Two packets of one episode in one report: one reduction (beta 0.7); both leave flight.
    cc.on_packets_lost(now=10.05, packets=ps[2:4])
    assert (cc.congestion_window, cc.ssthresh, cc.bytes_in_flight) == (10080, 10080, 7200)
    assert cc.phase == "recovery"
    # A third packet of the same flight, reported later: sent before recovery began,
    # no second reduction, but its bytes leave flight.
    cc.on_packets_lost(now=10.06, packets=ps[4:5])
    assert (cc.congestion_window, cc.ssthresh, cc.bytes_in_flight) == (10080, 10080, 6000)
    # A packet sent after recovery began, lost: a second reduction.
    later = packet(10, 10.07)
    cc.on_packet_sent(packet=later)
    assert cc.bytes_in_flight == 7200
    cc.on_packets_lost(now=10.08, packets=[later])
    assert (cc.congestion_window, cc.ssthresh, cc.bytes_in_flight) == (7056, 7056, 6000)
    assert cc.calls["on_packets_lost"] == 3 and cc.calls["packets_lost"] == 4
    for name, attr in [("congestion_rfc_cubic_cwnd", cc.congestion_window),
                       ("congestion_rfc_cubic_in_flight", cc.bytes_in_flight),
                       ("congestion_rfc_cubic_ssthresh", cc.ssthresh)]:
        assert c_value(cc, name) == attr


def test_recovery_ends_with_the_ack_of_a_packet_sent_after_it():
    cc = CongestionCubic(max_datagram_size=MSS)
    ps = flight(cc, 10, 1.0)
    cc.on_packet_acked(now=1.1, packet=ps[0])
    cc.on_rtt_measurement(now=1.1, rtt=0.1)
    cc.on_packets_lost(now=1.1, packets=ps[1:2])
    reduced = cc.congestion_window
    cc.on_packet_acked(now=1.15, packet=ps[2])  # sent before: still recovery, no growth
    assert (cc.phase, cc.congestion_window) == ("recovery", reduced)
    later = packet(10, 1.16)
    cc.on_packet_sent(packet=later)
    cc.on_packet_acked(now=1.3, packet=later)
    assert cc.phase != "recovery"


def test_persistent_congestion_and_expired_packets():
    cc = CongestionCubic(max_datagram_size=MSS)
    ps = flight(cc, 10, 1.0)
    cc.on_packet_acked(now=1.1, packet=ps[0])
    cc.on_rtt_measurement(now=1.1, rtt=0.1)
    cwnd = cc.congestion_window
    cc.on_packets_expired(packets=ps[1:3])  # out of flight, no congestion signal
    assert (cc.congestion_window, cc.bytes_in_flight) == (cwnd, 7 * MSS)
    cc.on_packets_lost(now=2.0, packets=ps[3:8])
    cc.on_persistent_congestion()
    # RFC 9002 §7.6.2: kMinimumWindow = 2 MSS; the lost bytes left flight once.
    assert (cc.congestion_window, cc.bytes_in_flight) == (2 * MSS, 2 * MSS)
    assert cc.phase == "slow_start"


def test_packet_numbers_of_different_spaces_do_not_collide():
    cc = CongestionCubic(max_datagram_size=MSS)
    initial = packet(0, 1.0, epoch=tls.Epoch.INITIAL)
    app = [packet(i, 1.0 + i / 100) for i in range(4)]
    cc.on_packet_sent(packet=initial)
    for p in app:
        cc.on_packet_sent(packet=p)
    assert cc._seqs[(tls.Epoch.INITIAL, 0)] == 1
    assert cc._seqs[(tls.Epoch.ONE_RTT, 0)] == 2
    cc.on_packet_acked(now=1.1, packet=initial)
    cc.on_rtt_measurement(now=1.1, rtt=0.1)
    # App packet 0 is the connection's second packet: its loss reduces, and the later
    # app packets' losses (sent before that reduction) do not.
    cc.on_packets_lost(now=1.2, packets=app[:1])
    reduced = cc.congestion_window
    cc.on_packets_lost(now=1.2, packets=app[1:])
    assert cc.congestion_window == reduced
    assert cc.bytes_in_flight == 0 and cc._seqs == {}


def test_newreno_halves():
    cc = CongestionNewReno(max_datagram_size=MSS)
    assert cc.config.algorithm == _ffi.ALGORITHM_NEWRENO
    ps = flight(cc, 10, 1.0)
    cc.on_packet_acked(now=1.1, packet=ps[0])
    cc.on_rtt_measurement(now=1.1, rtt=0.1)
    assert cc.congestion_window == 13200
    cc.on_packets_lost(now=1.2, packets=ps[1:3])
    assert cc.congestion_window == cc.ssthresh == 6600
    cc.on_packets_lost(now=1.2, packets=ps[3:4])
    assert cc.congestion_window == 6600


def test_times_are_microseconds_from_the_first_time_seen(counted_lib):
    seen = []
    real = counted_lib.lib.congestion_rfc_cubic_on_sent_counted

    def spy(state, now_us, sent, largest):
        seen.append((now_us, sent, largest))
        return real(state, now_us, sent, largest)

    counted_lib.lib.congestion_rfc_cubic_on_sent_counted = spy
    cc = CongestionCubic(max_datagram_size=MSS)
    cc.on_packet_sent(packet=packet(0, 1234.5))
    cc.on_packet_sent(packet=packet(1, 1234.5012345))
    cc.on_packet_sent(packet=packet(2, 1234.4))  # never backwards
    assert seen == [(0, MSS, 1), (1235, MSS, 2), (1235, MSS, 3)]


def test_a_failing_call_raises():
    cc = CongestionCubic(max_datagram_size=MSS)
    ctypes.memset(cc._addr, 0, _ffi.RFC_STATE_SIZE)  # its magic word with it: no longer initialised
    with pytest.raises(_ffi.CongestionError) as e:
        cc.on_packet_sent(packet=packet(0, 1.0))
    assert e.value.code == _ffi.ERR_UNINITIALIZED


def test_units_read_like_the_quinn_transfer():
    assert units.rate_bps("50m") == 50_000_000
    assert units.rate_bps("2.5g") == 2_500_000_000
    assert units.size_bytes("256kB") == 256_000
    assert units.size_bytes("30m") == 30 << 20
    assert units.size_bytes("100MB") == 100_000_000
    assert units.rtt_s("40ms") == 0.04
    assert units.rtt_s("1h") == 3600.0 and units.positive_duration_s("5min") == 300.0
    assert units.loss_ppm("0.005") == 5000 and units.loss_ppm("0.5%") == 5000
    for bad, f in [("64KB", units.size_bytes), ("5", units.rtt_s), ("10MB/s", units.rate_bps),
                   ("1000", units.buffer_bytes), ("5m", units.rtt_s), ("1.01h", units.rtt_s), ("1", units.probability), ("0", units.rate_bps)]:
        with pytest.raises(units.UnitError):
            f(bad)
