#!/usr/bin/env python3
"""Markdown table from compare.sh's runs.jsonl: mean ± standard deviation per path
and congestion control over the runs, cubic and rcubic on adjacent rows."""
import json
import statistics
import sys

METRICS = [
    ("mbps", "goodput Mbit/s", 2),
    ("retrans", "retransmits", 1),
    ("exit_cwnd", "cwnd at 1st slow-start exit", 1),
    ("exit_ssthresh", "ssthresh at 1st exit", 1),
    ("loss_ssthresh", "ssthresh after 1st loss", 1),
    ("median_cwnd", "median cwnd", 1),
    ("median_rtt_ms", "median RTT ms", 1),
]


def cell(values, digits):
    values = [v for v in values if v is not None]
    if not values:
        return "–"
    mean = statistics.mean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{mean:.{digits}f} ± {sd:.{digits}f}"


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    groups = {}
    for r in rows:
        groups.setdefault((r["rate"], r["limit"], r["m"]["cc"]), []).append(r["m"])
    print("| path (tbf rate, queue) | cc | runs | " + " | ".join(m[1] for m in METRICS) + " |")
    print("|---|---|---|" + "---|" * len(METRICS))
    for (rate, limit, cc), ms in groups.items():
        cells = [cell([m[k] for m in ms], d) for k, _, d in METRICS]
        print(f"| {rate}, {limit // 1000} kB | {cc} | {len(ms)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
