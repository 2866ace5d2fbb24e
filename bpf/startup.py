#!/usr/bin/env python3
"""When a testbed.sh run retransmitted, and how fast BBR paced after STARTUP.

Usage: startup.py DIR   (DIR from `testbed.sh --out DIR`: iperf.json, ss.txt)
Prints one JSON object on one line, from the data flow's `ss -tin` samples:
  retrans (the last sample's), last_retrans_ms (first sample showing that count, ms
  after the first sample), max_pacing_mbps_after_100ms (pacing_rate at gain <= 1.25
  is at most 1.25 x the bandwidth filter's max: ~20 on the 20 Mbit/s path, ~10^3 when
  a near-zero-delay sample such as iperf3's cookie ACK sits in the filter),
  pacing_below_40_ms (first sample pacing under 40 Mbit/s after 100 ms: that sample
  has left the filter), first_bbr (the kernel bbr's `bbr:(...)` in the first sample;
  BPF congestion controls have no get_info, so null for rbbr).
"""
import json
import re
import sys

from analyze import parse_ss


def main():
    out = sys.argv[1]
    with open(out + "/iperf.json") as f:
        port = json.load(f)["start"]["connected"][0]["local_port"]
    t0 = None
    retrans, last_ms, max_pace, below, first_bbr = 0, None, 0.0, None, None
    for t, sport, info in parse_ss(out + "/ss.txt"):
        if sport != port:
            continue
        if t0 is None:
            t0 = t
            m = re.search(r"bbr:\(([^)]*)\)", info)
            first_bbr = m.group(1) if m else None
        ms = (t - t0) // 1_000_000
        r = re.search(r"\sretrans:\d+/(\d+)", info)
        if r and int(r.group(1)) > retrans:
            retrans, last_ms = int(r.group(1)), ms
        p = re.search(r"pacing_rate (\d+)bps", info)
        if p and ms >= 100:
            mbps = int(p.group(1)) / 1e6
            max_pace = max(max_pace, mbps)
            if below is None and mbps < 40:
                below = ms
    print(json.dumps({"retrans": retrans, "last_retrans_ms": last_ms,
                      "max_pacing_mbps_after_100ms": round(max_pace, 1),
                      "pacing_below_40_ms": below, "first_bbr": first_bbr}))


if __name__ == "__main__":
    main()
