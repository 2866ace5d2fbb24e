#!/usr/bin/env python3
"""A UDP relay on 127.0.0.1 that is the network link between a QUIC client and server:
a bottleneck rate, a one-way propagation delay, a drop-tail buffer in bytes and seeded
random loss on the data direction. The same link model as the quinn adapter's relay
(adapters/quinn/harness/relay.rs), run as its own process:

    python relay.py --server-port 4433 --rate 50m --rtt 40ms --buffer 256kB \
        [--loss 0.005 --seed 7] [--lifetime 330s --idle 5s]

It prints `relay 127.0.0.1:PORT` (where the client must send) once ready, and at
exit one line `stats forward_admitted N forward_tail_drops N forward_random_drops N
reverse_admitted N reverse_tail_drops N` (also on SIGTERM/SIGINT).

Each direction is one link: a packet arriving at `t` is dropped by the loss draw
(forward only; xorshift64* seeded as the quinn relay's, one draw per packet) or if the
bytes still queued plus its own exceed the buffer (drop-tail); otherwise it leaves the
queue at `max(t, previous departure) + len / rate` and is delivered one delay later.

Bounded: it stops by itself after `--lifetime`, or after `--idle` without any packet.
"""

from __future__ import annotations

import argparse
import collections
import os
import selectors
import signal
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# units.py alone (not the package, whose import loads aioquic): the relay starts fast.
sys.path.insert(0, os.path.join(HERE, "congestion_aioquic"))

import units  # noqa: E402

MASK64 = (1 << 64) - 1


class Link:
    """Queue and loss state of one direction."""

    def __init__(self, rate_bps: int, delay_s: float, buffer_bytes: int, loss_ppm: int, seed: int):
        self.rate_bps = max(1, rate_bps)
        self.delay = delay_s
        self.buffer = buffer_bytes
        self.loss_ppm = loss_ppm
        self.rng = (seed | 1) & MASK64
        # Departure times and sizes of the packets still in the bottleneck queue.
        self.queue: collections.deque[tuple[float, int]] = collections.deque()
        self.queued = 0
        self.last_departure = time.monotonic()
        # (delivery time, payload), in delivery order.
        self.pending: collections.deque[tuple[float, bytes]] = collections.deque()
        self.admitted = self.tail_drops = self.random_drops = 0

    def next_random(self) -> int:
        """xorshift64*, as the quinn relay's."""
        x = self.rng
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        self.rng = x
        return (x * 0x2545F4914F6CDD1D) & MASK64

    def admit(self, now: float, data: bytes) -> None:
        n = len(data)
        q = self.queue
        while q and q[0][0] <= now:
            self.queued -= q.popleft()[1]
        if self.loss_ppm > 0 and self.next_random() % 1_000_000 < self.loss_ppm:
            self.random_drops += 1
            return
        if self.queued + n > self.buffer:
            self.tail_drops += 1
            return
        departs = max(now, self.last_departure) + n * 8 / self.rate_bps
        self.last_departure = departs
        q.append((departs, n))
        self.queued += n
        self.admitted += 1
        self.pending.append((departs + self.delay, data))


def bind() -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    # Bursts must not overflow the relay's socket instead of its emulated buffer.
    for opt in (socket.SO_RCVBUF, socket.SO_SNDBUF):
        try:
            s.setsockopt(socket.SOL_SOCKET, opt, 8 << 20)
        except OSError:
            pass
    s.bind(("127.0.0.1", 0))
    s.setblocking(False)
    return s


def run(args: argparse.Namespace) -> dict[str, int]:
    server = ("127.0.0.1", args.server_port)
    a = bind()  # client-facing
    b = bind()  # server-facing
    forward = Link(args.rate, args.rtt / 2, args.buffer, args.loss_ppm, args.seed)
    reverse = Link(args.rate, args.rtt / 2, args.buffer, 0, args.seed ^ 0x9E3779B9)
    client: tuple[str, int] | None = None
    print(f"relay 127.0.0.1:{a.getsockname()[1]}", flush=True)

    stop = False

    def on_signal(signum, frame):  # noqa: ARG001
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    sel = selectors.DefaultSelector()
    sel.register(a, selectors.EVENT_READ, "a")
    sel.register(b, selectors.EVENT_READ, "b")
    start = time.monotonic()
    deadline = start + args.lifetime
    last_packet = start
    while not stop:
        now = time.monotonic()
        if now >= deadline or now - last_packet >= args.idle:
            break
        # Deliver everything due.
        for link, sock, to in ((forward, b, server), (reverse, a, client)):
            p = link.pending
            while p and p[0][0] <= now:
                data = p.popleft()[1]
                if to is not None:
                    try:
                        sock.sendto(data, to)
                    except (BlockingIOError, OSError):
                        pass
        heads = [l.pending[0][0] for l in (forward, reverse) if l.pending]
        timeout = min(heads) - now if heads else 0.05
        timeout = max(0.0, min(timeout, 0.05))
        for key, _ in sel.select(timeout):
            sock = key.fileobj
            link = forward if key.data == "a" else reverse
            while True:
                try:
                    data, addr = sock.recvfrom(65536)
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:
                    break
                t = time.monotonic()
                last_packet = t
                if key.data == "a":
                    client = addr
                link.admit(t, data)
    stats = {
        "forward_admitted": forward.admitted,
        "forward_tail_drops": forward.tail_drops,
        "forward_random_drops": forward.random_drops,
        "reverse_admitted": reverse.admitted,
        "reverse_tail_drops": reverse.tail_drops,
    }
    print("stats " + " ".join(f"{k} {v}" for k, v in stats.items()), flush=True)
    a.close()
    b.close()
    return stats


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--server-port", type=int, required=True)
    p.add_argument("--rate", type=units.rate_bps, default=units.rate_bps("50m"))
    p.add_argument("--rtt", type=units.rtt_s, default=units.rtt_s("40ms"))
    p.add_argument("--buffer", type=units.buffer_bytes, default=units.buffer_bytes("256kB"))
    p.add_argument("--loss", dest="loss_ppm", type=units.loss_ppm, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--lifetime", type=units.positive_duration_s, default=units.positive_duration_s("330s"))
    p.add_argument("--idle", type=units.positive_duration_s, default=units.positive_duration_s("5s"))
    return p.parse_args(argv)


if __name__ == "__main__":
    run(parse())
