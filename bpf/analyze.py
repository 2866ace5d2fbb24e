#!/usr/bin/env python3
"""Metrics of one testbed.sh run: iperf3's JSON plus the 50 ms `ss -tin` samples.

Usage: analyze.py DIR CC   (DIR holds iperf.json and ss.txt)
Prints one JSON object on one line:
  cc, mbps (receiver goodput), retrans (iperf3's count for the sender),
  exit_cwnd (cwnd in the first sample that shows an ssthresh, i.e. the first one
    after slow start ended), exit_ssthresh (that ssthresh: equal to the cwnd at the
    exit when HyStart ended slow start, beta*cwnd when a loss did),
  loss_ssthresh (ssthresh in the first sample after the first retransmission),
  median_cwnd, median_rtt_ms (over the data flow's samples), samples.
Missing values are null.
"""
import json
import re
import statistics
import sys


def parse_ss(path):
    """Yield (t_ns, sport, fields) for each socket in each sample."""
    t = None
    sport = None
    with open(path) as f:
        for line in f:
            if line.startswith("T "):
                t = int(line.split()[1])
                sport = None
            elif line[:1] in (" ", "\t"):
                if sport is not None and t is not None:
                    yield t, sport, line
            elif line.strip():
                cols = line.split()
                # State Recv-Q Send-Q Local:Port Peer:Port
                sport = int(cols[3].rsplit(":", 1)[1]) if len(cols) >= 5 else None


def field(info, name):
    m = re.search(r"(?:^|\s)" + name + r":([0-9.]+)", info)
    return float(m.group(1)) if m else None


def main():
    out, cc = sys.argv[1], sys.argv[2]
    with open(out + "/iperf.json") as f:
        ip = json.load(f)
    end = ip.get("end", {})
    mbps = end.get("sum_received", {}).get("bits_per_second", 0) / 1e6
    retrans = end.get("sum_sent", {}).get("retransmits")
    data_port = ip["start"]["connected"][0]["local_port"]

    samples = [
        (t, info) for t, sport, info in parse_ss(out + "/ss.txt") if sport == data_port
    ]
    exit_cwnd = exit_ssthresh = loss_ssthresh = None
    cwnds, rtts = [], []
    for _, info in samples:
        if cc not in info.split():
            continue  # not (yet) under the congestion control under test
        cwnd = field(info, "cwnd")
        ssthresh = field(info, "ssthresh")
        rtt = re.search(r"\srtt:([0-9.]+)/", info)
        retr = re.search(r"\sretrans:\d+/(\d+)", info)
        if cwnd is None:
            continue
        cwnds.append(cwnd)
        if rtt:
            rtts.append(float(rtt.group(1)))
        if exit_cwnd is None and ssthresh is not None:
            exit_cwnd, exit_ssthresh = cwnd, ssthresh
        if loss_ssthresh is None and retr and int(retr.group(1)) > 0 and ssthresh is not None:
            loss_ssthresh = ssthresh

    def num(x):
        return None if x is None else int(x)

    print(
        json.dumps(
            {
                "cc": cc,
                "mbps": round(mbps, 3),
                "retrans": retrans,
                "exit_cwnd": num(exit_cwnd),
                "exit_ssthresh": num(exit_ssthresh),
                "loss_ssthresh": num(loss_ssthresh),
                "median_cwnd": statistics.median(cwnds) if cwnds else None,
                "median_rtt_ms": statistics.median(rtts) if rtts else None,
                "samples": len(cwnds),
            }
        )
    )


if __name__ == "__main__":
    main()
