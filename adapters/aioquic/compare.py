#!/usr/bin/env python3
"""Runs transfer.py on the four settings of docs/integrations.md with every --cc, two
runs each (interleaved: run 1 of every controller, then run 2, so that a change in the
machine's load falls on all of them alike), and prints a markdown table.

    python compare.py [--scale-bytes 10] [--scale-rate 1] [--runs 2] [--out FILE]

`--scale-bytes N` divides the bytes of every setting by N; `--scale-rate N` divides the
rates and the buffers by N (the buffer in RTTs of the path stays the same), for a
machine where aioquic (pure Python) cannot reach the settings' rates.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# rate bit/s, rtt, buffer bytes, bytes, loss, seed (docs/integrations.md)
SETTINGS = [
    (50_000_000, "40ms", 256_000, 100_000_000, "0", 1),
    (20_000_000, "80ms", 50_000, 30_000_000, "0", 1),
    (100_000_000, "10ms", 1_000_000, 100_000_000, "0", 1),
    (50_000_000, "40ms", 256_000, 30_000_000, "0.005", 7),
]
CCS = ["ours-cubic-rfc", "ours-newreno-rfc", "cubic", "newreno"]
SUMMARY = re.compile(r"^goodput ([0-9.]+) Mbit/s lost (\d+) cc (\S+)$")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--scale-bytes", type=int, default=10)
    p.add_argument("--scale-rate", type=int, default=1)
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--out", default=None, help="append every run's output here")
    a = p.parse_args()
    results: dict[tuple[int, str], list[tuple[float, int]]] = {}
    log = open(a.out, "a") if a.out else None
    for run in range(a.runs):
        for i, (rate, rtt, buf, nbytes, loss, seed) in enumerate(SETTINGS):
            for cc in CCS:
                args = [
                    sys.executable, os.path.join(HERE, "transfer.py"),
                    "--rate", str(rate // a.scale_rate), "--rtt", rtt,
                    "--buffer", str(max(1500, buf // a.scale_rate)),
                    "--bytes", str(nbytes // a.scale_bytes),
                    "--loss", loss, "--seed", str(seed), "--cc", cc,
                ]
                out = subprocess.run(args, capture_output=True, text=True, timeout=400).stdout
                if log:
                    log.write(f"$ {' '.join(args[1:])}\n{out}\n")
                    log.flush()
                last = out.strip().splitlines()[-1] if out.strip() else ""
                m = SUMMARY.match(last)
                r = (float(m.group(1)), int(m.group(2))) if m else (float("nan"), -1)
                results.setdefault((i, cc), []).append(r)
                print(f"run {run + 1} setting {i + 1} {cc}: {last or 'FAILED'}", flush=True)
    print()
    print("| link (rate, RTT, buffer, loss), bytes | cc | goodput Mbit/s | lost packets | median goodput |")
    print("|---|---|---|---|---|")
    for i, (rate, rtt, buf, nbytes, loss, seed) in enumerate(SETTINGS):
        link = (
            f"{rate / a.scale_rate / 1e6:g} Mbit/s, {rtt}, {max(1500, buf // a.scale_rate) / 1000:g} kB"
            + (f", {float(loss) * 100:g} % loss (seed {seed})" if loss != "0" else "")
            + f", {nbytes / a.scale_bytes / 1e6:g} MB"
        )
        for j, cc in enumerate(CCS):
            rs = results[(i, cc)]
            goodput = " / ".join(f"{g:.2f}" for g, _ in rs)
            lost = " / ".join(str(n) for _, n in rs)
            med = statistics.median(g for g, _ in rs)
            print(f"| {link if j == 0 else ''} | {cc} | {goodput} | {lost} | {med:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
