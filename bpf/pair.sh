#!/usr/bin/env bash
# Two congestion controls on the same testbed path, alternating, N runs each: the
# median goodput, retransmits and RTT of each, and whether B's median goodput is
# within TOL percent of A's.
#
# Usage: pair.sh --a bbr --b rbbr [--runs 5] [--time 8] [--rate 20mbit]
#                [--limit 150000] [--ecn-mark BYTES] [--tol 3] [--out FILE]
#                [--default-cc]
# Prints a markdown table and a last line "PASS ..." or "FAIL ..."; exits 1 on FAIL.
# --out FILE keeps every run's metrics (one JSON line each).
# --default-cc is passed to testbed.sh (each cc is the sender namespace's default).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
A=bbr; B=rbbr; RUNS=5; TIME=8; RATE=20mbit; LIMIT=150000; ECN=(); TOL=3; OUT=""; DEF=()
while [ $# -gt 0 ]; do
    case "$1" in
        --a) A="$2"; shift 2 ;;
        --b) B="$2"; shift 2 ;;
        --runs) RUNS="$2"; shift 2 ;;
        --time) TIME="$2"; shift 2 ;;
        --rate) RATE="$2"; shift 2 ;;
        --limit) LIMIT="$2"; shift 2 ;;
        --ecn-mark) ECN=(--ecn-mark "$2"); shift 2 ;;
        --tol) TOL="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        --default-cc) DEF=(--default-cc); shift ;;
        *) echo "pair.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
case "$RUNS" in ''|*[!0-9]*) echo "pair.sh: --runs must be a whole number" >&2; exit 2 ;; esac

runs="$(mktemp)"
trap 'rm -f "$runs"' EXIT
for i in $(seq "$RUNS"); do
    for cc in "$A" "$B"; do
        "$HERE/testbed.sh" --cc "$cc" --rate "$RATE" --limit "$LIMIT" --time "$TIME" "${ECN[@]}" "${DEF[@]}" >> "$runs"
    done
done
[ -n "$OUT" ] && cp "$runs" "$OUT"
python3 - "$runs" "$A" "$B" "$TOL" "$RATE" "$LIMIT" "${ECN[*]:-}" <<'PY'
import json, statistics, sys
path, a, b, tol, rate, limit, ecn = sys.argv[1:]
rows = [json.loads(l) for l in open(path) if l.strip()]
def med(cc, key):
    v = [r[key] for r in rows if r["cc"] == cc and r.get(key) is not None]
    return (statistics.median(v), min(v), max(v), len(v)) if v else (None, None, None, 0)
print(f"path: tbf {rate}, queue {limit} B {ecn}")
print("| cc | runs | goodput Mbit/s median (min-max) | retransmits median (min-max) | median RTT ms, median of runs | median cwnd |")
print("|---|---|---|---|---|---|")
for cc in (a, b):
    g, r, t, c = med(cc, "mbps"), med(cc, "retrans"), med(cc, "median_rtt_ms"), med(cc, "median_cwnd")
    print(f"| {cc} | {g[3]} | {g[0]:.2f} ({g[1]:.2f}-{g[2]:.2f}) | {r[0]:g} ({r[1]:g}-{r[2]:g}) | {t[0]:.1f} | {c[0]:g} |")
ga, gb = med(a, "mbps")[0], med(b, "mbps")[0]
diff = 100.0 * (gb - ga) / ga
verdict = "PASS" if abs(diff) <= float(tol) else "FAIL"
print(f"{verdict}: median goodput {b} {gb:.2f} vs {a} {ga:.2f} Mbit/s: {diff:+.2f} % (tolerance {tol} %)")
sys.exit(0 if verdict == "PASS" else 1)
PY
