#!/usr/bin/env python3
"""A real QUIC transfer between two aioquic endpoints on 127.0.0.1 through the UDP relay
(relay.py, its own process: rate, delay, drop-tail buffer, random loss), with this
crate's controller (through the C ABI) or aioquic's own.

    python transfer.py --rate 50m --rtt 40ms --buffer 256kB --bytes 100MB --cc ours-cubic-rfc

The flags are the quinn adapter's (adapters/quinn/examples/transfer.rs), read the same
way (congestion_aioquic/units.py): rates in bit/s with k/m/g as powers of 10; sizes in
bytes with k/m/g (or KiB/MiB/GiB) as powers of 2 and kB/MB/GB as powers of 10;
durations need a unit; `--loss` is a probability in [0, 1) (`0.005`, or `0.5%`).
Usage errors exit 2. `--cc` is `ours-cubic-rfc` (RFC 9438 CUBIC + HyStart++ through the C ABI),
`ours-newreno-rfc` (RFC 9002 NewReno + HyStart++ through the C ABI), `ours-bbr`,
`ours-bbr3` (Linux-mode BBR v1 / BBRv3 through the C ABI's per-packet calls, in packets),
`ours-bbr3-rfc` (RFC-mode BBRv3 in bytes, the same calls), `cubic` or `newreno`
(aioquic's own "cubic" and "reno").

The client (this process) opens a bidirectional stream, writes the bytes and ends the
stream; the server (a child process) counts them and answers one byte. The last line
printed is `goodput MBIT Mbit/s lost N cc NAME`: goodput from opening the stream to the
answer, N the packets the client's loss detection declared lost.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime
import os
import ssl
import subprocess
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from aioquic.asyncio import QuicConnectionProtocol, serve  # noqa: E402
from aioquic.quic import events  # noqa: E402
from aioquic.quic.configuration import QuicConfiguration  # noqa: E402
from aioquic.quic.connection import QuicConnection  # noqa: E402
from aioquic.quic.recovery import QuicPacketRecovery  # noqa: E402

import congestion_aioquic  # noqa: E402,F401  (registers congestion-cubic, congestion-newreno)
from congestion_aioquic import units  # noqa: E402

CC_NAMES = {
    "ours-cubic-rfc": "congestion-cubic",
    "ours-newreno-rfc": "congestion-newreno",
    "ours-bbr": "congestion-bbr",
    "ours-bbr3": "congestion-bbr3",
    "ours-bbr3-rfc": "congestion-bbr3-rfc",
    "cubic": "cubic",
    "newreno": "reno",
}
# The 0.2 words, accepted this release with a note on stderr.
RENAMED_CC = {"ours": "ours-cubic-rfc", "ours-newreno": "ours-newreno-rfc"}

# Flow control must never be what limits the sender: the controller must.
WINDOW = 64 << 20
# The client keeps at most this much written but not yet sent in the stream.
STREAM_BUFFER = 4 << 20
CHUNK = 1 << 20


@dataclasses.dataclass
class TransferConfig:
    rate_bps: int = 50_000_000
    rtt_s: float = 0.040
    buffer_bytes: int = 256_000
    bytes: int = 100_000_000
    cc: str = "ours-cubic-rfc"
    loss_ppm: int = 0
    seed: int = 1
    sample_s: float = 0.1
    timeout_s: float = 300.0


@dataclasses.dataclass
class Sample:
    t_s: float
    cwnd: int
    srtt_s: float


@dataclasses.dataclass
class TransferReport:
    cc: str
    bytes: int
    elapsed_s: float
    lost_packets: int
    lost_bytes: int
    pto_packets: int
    sent_packets: int
    relay: dict[str, int]
    samples: list[Sample]
    # The client's congestion-control object (ours: its call counters and the C ABI).
    controller: Any = None

    @property
    def goodput_mbit(self) -> float:
        return self.bytes * 8 / max(self.elapsed_s, 1e-9) / 1e6


def make_certificate(directory: str) -> tuple[str, str]:
    """A self-signed certificate for localhost, as PEM files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path = os.path.join(directory, "cert.pem")
    key_path = os.path.join(directory, "key.pem")
    with open(cert_path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as f:
        f.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    return cert_path, key_path


# -- the server (child process) ---------------------------------------------------


def _grow_socket_buffers(transport) -> None:
    """Room for a window's burst in the endpoint's own UDP socket: otherwise a Python
    endpoint that falls behind for a moment loses datagrams there, not in the relay's
    emulated buffer (the kernel caps this at net.core.rmem_max / wmem_max)."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return
    import socket

    for opt in (socket.SO_RCVBUF, socket.SO_SNDBUF):
        try:
            sock.setsockopt(socket.SOL_SOCKET, opt, 8 << 20)
        except OSError:
            pass


class _Sink(QuicConnectionProtocol):
    """Counts the stream's bytes and answers one byte at its end."""

    received = 0
    done: asyncio.Event

    def quic_event_received(self, event: events.QuicEvent) -> None:
        if isinstance(event, events.StreamDataReceived):
            _Sink.received += len(event.data)
            if event.end_stream:
                self._quic.send_stream_data(event.stream_id, b"k", end_stream=True)
                self.transmit()
        elif isinstance(event, events.ConnectionTerminated):
            _Sink.done.set()


async def _serve(cert: str, key: str, timeout_s: float) -> None:
    config = QuicConfiguration(is_client=False, max_data=WINDOW, max_stream_data=WINDOW)
    config.idle_timeout = 30.0
    config.load_cert_chain(cert, key)
    _Sink.done = asyncio.Event()
    server = await serve("127.0.0.1", 0, configuration=config, create_protocol=_Sink)
    _grow_socket_buffers(server._transport)
    port = server._transport.get_extra_info("sockname")[1]
    print(f"server 127.0.0.1:{port}", flush=True)
    try:
        await asyncio.wait_for(_Sink.done.wait(), timeout_s)
    except asyncio.TimeoutError:
        pass
    print(f"received {_Sink.received}", flush=True)
    server.close()


# -- the client (this process) ----------------------------------------------------


class _Client(QuicConnectionProtocol):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.answered = asyncio.Event()

    def quic_event_received(self, event: events.QuicEvent) -> None:
        if isinstance(event, events.StreamDataReceived) and event.end_stream:
            self.answered.set()


class _LossCounter:
    """Counts what the client's loss detection declares lost (all controllers alike):
    a wrapper around QuicPacketRecovery._on_packets_lost, installed for one run."""

    def __init__(self) -> None:
        self.lost_packets = 0
        self.lost_bytes = 0
        self.pto_packets = 0
        self._original = None

    def __enter__(self) -> "_LossCounter":
        original = QuicPacketRecovery._on_packets_lost
        counter = self

        def counted(recovery, *, congestion_event=True, now, packets, persistent_congestion=False, space):
            packets = list(packets)
            in_flight = [p for p in packets if p.in_flight]
            if congestion_event:
                counter.lost_packets += len(in_flight)
                counter.lost_bytes += sum(p.sent_bytes for p in in_flight)
            else:
                counter.pto_packets += len(in_flight)
            return original(
                recovery,
                congestion_event=congestion_event,
                now=now,
                packets=packets,
                persistent_congestion=persistent_congestion,
                space=space,
            )

        self._original = original
        QuicPacketRecovery._on_packets_lost = counted
        return self

    def __exit__(self, *exc) -> None:
        QuicPacketRecovery._on_packets_lost = self._original


def _start_child(args: list[str], expect: str, timeout_s: float = 30.0) -> tuple[subprocess.Popen, int]:
    """Starts a child that prints `EXPECT 127.0.0.1:PORT` first; returns it and PORT."""
    proc = subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.PIPE, text=True, cwd=HERE
    )
    deadline = time.monotonic() + timeout_s
    line = proc.stdout.readline()
    if not line.startswith(expect + " ") or time.monotonic() > deadline:
        proc.kill()
        raise RuntimeError(f"{args[0]} did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1])


def _finish_child(proc: subprocess.Popen, prefix: str, timeout_s: float = 10.0) -> str | None:
    """Waits for a child's exit (bounded) and returns its last line starting with
    `prefix`."""
    try:
        out, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    lines = [line for line in (out or "").splitlines() if line.startswith(prefix)]
    return lines[-1] if lines else None


async def _client(cfg: TransferConfig, port: int, cafile: str):
    config = QuicConfiguration(
        is_client=True,
        congestion_control_algorithm=CC_NAMES[cfg.cc],
        max_data=WINDOW,
        max_stream_data=WINDOW,
        server_name="localhost",
    )
    config.idle_timeout = 30.0
    config.load_verify_locations(cafile)
    config.verify_mode = ssl.CERT_REQUIRED
    loop = asyncio.get_running_loop()
    # aioquic's connect() binds "::" (every interface) and waits out the closing
    # period; this binds 127.0.0.1 only and waits at most a second for the close.
    connection = QuicConnection(configuration=config)
    # BBR paces at its own rate (a no-op for the other controllers).
    congestion_aioquic.install_pacer(connection)
    transport, client = await loop.create_datagram_endpoint(
        lambda: _Client(connection), local_addr=("127.0.0.1", 0)
    )
    try:
        _grow_socket_buffers(transport)
        client.connect(("127.0.0.1", port), transmit=True)
        await asyncio.wait_for(client.wait_connected(), 30)
        quic = client._quic
        cc = quic._loss._cc
        start = loop.time()
        samples: list[Sample] = []
        stream_id = quic.get_next_available_stream_id()
        left = cfg.bytes
        chunk = bytes(CHUNK)
        quic.send_stream_data(stream_id, b"", end_stream=False)
        sender = quic._streams[stream_id].sender
        next_sample = start
        while left > 0 or not client.answered.is_set():
            now = loop.time()
            if now - start > cfg.timeout_s:
                raise TimeoutError("transfer timed out")
            if left > 0:
                buffered = sender._buffer_stop - sender._buffer_start
                while left > 0 and buffered < STREAM_BUFFER:
                    n = min(left, CHUNK)
                    left -= n
                    buffered += n
                    quic.send_stream_data(stream_id, chunk[:n] if n < CHUNK else chunk, end_stream=left == 0)
                client.transmit()
            if now >= next_sample:
                samples.append(Sample(now - start, cc.congestion_window, quic._loss._rtt_smoothed))
                next_sample += cfg.sample_s
            try:
                await asyncio.wait_for(client.answered.wait(), 0.01)
            except asyncio.TimeoutError:
                pass
        elapsed = loop.time() - start
        sent = quic._packet_number  # packets the client sent (all spaces)
    finally:
        client.close()
        try:
            await asyncio.wait_for(client.wait_closed(), 1.0)
        except asyncio.TimeoutError:
            pass
        transport.close()
    return elapsed, samples, cc, sent


def run(cfg: TransferConfig) -> TransferReport:
    """One transfer: server and relay as child processes, the client here."""
    with tempfile.TemporaryDirectory() as tmp:
        cert, key = make_certificate(tmp)
        server, server_port = _start_child(
            [os.path.join(HERE, "transfer.py"), "--serve", "--cert", cert, "--key", key,
             "--timeout", f"{cfg.timeout_s + 30}s"],
            "server",
        )
        relay = None
        try:
            relay, relay_port = _start_child(
                [os.path.join(HERE, "relay.py"), "--server-port", str(server_port),
                 "--rate", str(cfg.rate_bps), "--rtt", f"{round(cfg.rtt_s * 1e9)}ns",
                 "--buffer", str(cfg.buffer_bytes), "--loss", f"{cfg.loss_ppm / 1e6:.6f}",
                 "--seed", str(cfg.seed), "--lifetime", f"{cfg.timeout_s + 40}s"],
                "relay",
            )
            with _LossCounter() as losses:
                elapsed, samples, cc, sent = asyncio.run(_client(cfg, relay_port, cert))
        finally:
            received_line = _finish_child(server, "received", timeout_s=40)
            relay_line = None
            if relay is not None:
                relay.terminate()
                relay_line = _finish_child(relay, "stats")
    if received_line is None:
        raise RuntimeError("the server did not report")
    received = int(received_line.split()[1])
    relay_stats: dict[str, int] = {}
    if relay_line:
        words = relay_line.split()[1:]
        relay_stats = {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}
    return TransferReport(
        cc=cfg.cc,
        bytes=received,
        elapsed_s=elapsed,
        lost_packets=losses.lost_packets,
        lost_bytes=losses.lost_bytes,
        pto_packets=losses.pto_packets,
        sent_packets=sent,
        relay=relay_stats,
        samples=samples,
        controller=cc,
    )


def _cc(text: str) -> str:
    if text in RENAMED_CC:
        print(f"--cc {text} is deprecated since 0.3.0 and will be removed: use --cc {RENAMED_CC[text]}",
              file=sys.stderr)
        return RENAMED_CC[text]
    if text not in CC_NAMES:
        raise argparse.ArgumentTypeError(f"`{text}` is not one of {', '.join(CC_NAMES)}")
    return text


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="transfer.py",
        description="One QUIC bulk transfer between two aioquic endpoints on 127.0.0.1 "
        "through a relay process (rate, delay, drop-tail buffer, random loss).",
    )
    p.add_argument("--rate", type=units.rate_bps, default=units.rate_bps("50m"),
                   help="bottleneck rate, bit/s, above 0 (k/m/g = 10^3/10^6/10^9), e.g. 50m")
    p.add_argument("--rtt", type=units.rtt_s, default=units.rtt_s("40ms"),
                   help="round-trip propagation delay with its unit, e.g. 40ms")
    p.add_argument("--buffer", type=units.buffer_bytes, default=units.buffer_bytes("256kB"),
                   help="drop-tail buffer, bytes, at least 1500 (k/m/g = 2^10/2^20/2^30; kB/MB = 10^3/10^6)")
    p.add_argument("--bytes", type=units.positive_size, default=units.positive_size("100MB"),
                   help="bytes to send, above 0, e.g. 100MB, 30m")
    p.add_argument("--cc", type=_cc, default="ours-cubic-rfc",
                   help="the sender's controller: ours-cubic-rfc, ours-newreno-rfc, ours-bbr, ours-bbr3, ours-bbr3-rfc, cubic (aioquic's) or newreno (aioquic's reno)")
    p.add_argument("--loss", type=units.loss_ppm, default=0,
                   help="random loss probability on the data direction, in [0, 1): e.g. 0.005 (or 0.5%%)")
    p.add_argument("--seed", type=int, default=1, help="seed of the loss draws")
    p.add_argument("--sample", type=units.positive_duration_s, default=0.1,
                   help="period of the cwnd samples, e.g. 100ms")
    p.add_argument("--timeout", type=units.positive_duration_s, default=300.0,
                   help="give up after this long, e.g. 300s")
    # The server child's own flags.
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--cert", help=argparse.SUPPRESS)
    p.add_argument("--key", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    a = parse(argv)
    if a.serve:
        asyncio.run(_serve(a.cert, a.key, a.timeout))
        return 0
    cfg = TransferConfig(
        rate_bps=a.rate, rtt_s=a.rtt, buffer_bytes=a.buffer, bytes=a.bytes, cc=a.cc,
        loss_ppm=a.loss, seed=a.seed, sample_s=a.sample, timeout_s=a.timeout,
    )
    print(
        f"# link {cfg.rate_bps} bit/s, rtt {cfg.rtt_s * 1e3:g}ms, buffer {cfg.buffer_bytes} B, "
        f"loss {cfg.loss_ppm} ppm, seed {cfg.seed}; {cfg.bytes} bytes with cc {cfg.cc} "
        f"(aioquic \"{CC_NAMES[cfg.cc]}\")",
        flush=True,
    )
    try:
        report = run(cfg)
    except Exception as e:  # noqa: BLE001
        print(f"transfer failed: {e}", file=sys.stderr)
        return 1
    print("# t_ms cwnd_bytes srtt_ms")
    for s in report.samples:
        print(f"{s.t_s * 1e3:.0f} {s.cwnd} {s.srtt_s * 1e3:.1f}")
    r = report.relay
    print(
        f"# elapsed {report.elapsed_s:.3f} s, received {report.bytes} bytes, sent {report.sent_packets} "
        f"packets, lost {report.lost_packets} packets ({report.lost_bytes} bytes), "
        f"{report.pto_packets} retransmitted on PTO, relay drops {r.get('forward_tail_drops', '?')} "
        f"tail + {r.get('forward_random_drops', '?')} random, max sampled cwnd "
        f"{max((s.cwnd for s in report.samples), default=0)} B"
    )
    calls = getattr(report.controller, "calls", None)
    if calls is not None:
        print("# adapter calls: " + ", ".join(f"{k} {v}" for k, v in sorted(calls.items())))
    print(f"goodput {report.goodput_mbit:.2f} Mbit/s lost {report.lost_packets} cc {report.cc}")
    return 0 if report.bytes == cfg.bytes else 1


if __name__ == "__main__":
    sys.exit(main())
