#!/usr/bin/env bash
# Side by side: the kernel's cubic and rcubic (bpf/target/rcubic.bpf.o) on three
# tbf paths, RUNS runs each, alternating cubic, rcubic, cubic, ... so slow drifts of
# the machine hit both alike. Prints a markdown table (table.py) on stdout; the raw
# per-run metrics go to OUT/runs.jsonl and each run's iperf3/ss output to OUT/.
#
# Usage: compare.sh [--runs 5] [--time 8] [--out DIR]      (root; build.sh first)
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
RUNS=5
TIME=8
OUT="$HERE/target/compare"
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS="$2"; shift 2 ;;
        --time) TIME="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        *) echo "compare.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
# rate, tbf queue limit in bytes
PATHS=(
    "10mbit 50000"
    "25mbit 200000"
    "50mbit 100000"
)

REGISTERED=0
cleanup() {
    [ "$REGISTERED" = 1 ] && bpftool struct_ops unregister name rcubic >/dev/null 2>&1
    true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if ! grep -qw rcubic /proc/sys/net/ipv4/tcp_available_congestion_control; then
    bpftool struct_ops register "$HERE/target/rcubic.bpf.o" >/dev/null 2>&1
    REGISTERED=1
fi

rm -rf "$OUT"
mkdir -p "$OUT"
for path in "${PATHS[@]}"; do
    read -r rate limit <<<"$path"
    for run in $(seq "$RUNS"); do
        for cc in cubic rcubic; do
            dir="$OUT/$rate-$limit-$cc-$run"
            line="$("$HERE/testbed.sh" --cc "$cc" --rate "$rate" --limit "$limit" \
                --time "$TIME" --out "$dir")"
            echo "{\"rate\": \"$rate\", \"limit\": $limit, \"run\": $run, \"m\": $line}" \
                >> "$OUT/runs.jsonl"
            echo "compare.sh: $rate $limit $cc run $run: $line" >&2
        done
    done
done
python3 "$HERE/table.py" "$OUT/runs.jsonl"
