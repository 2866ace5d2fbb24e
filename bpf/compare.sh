#!/usr/bin/env bash
# Side by side: the kernel's cubic and rcubic (bpf/target/rcubic.bpf.o) on three
# tbf paths, RUNS runs each, alternating cubic, rcubic, cubic, ... so slow drifts of
# the machine hit both alike. Prints a markdown table (table.py) on stdout; the raw
# per-run metrics go to OUT/runs.jsonl and each run's iperf3/ss output to OUT/.
#
# An rcubic flow during which rcubic's ssthresh audit (rcubic.bpf.c) saw snd_ssthresh
# take a value rcubic did not produce is recorded in OUT/anomalies.jsonl, with the
# audit's trace_pipe lines, and rerun (up to 3 attempts); see bpf/README.md for why
# such values appear on this machine's kernel.
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
ID=""
cleanup() {
    [ "$REGISTERED" = 1 ] && bpftool struct_ops unregister id "$ID" >/dev/null 2>&1
    true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if ! grep -qw rcubic /proc/sys/net/ipv4/tcp_available_congestion_control; then
    # By id later: an instance unregistered earlier can linger under the same name.
    ID="$(bpftool struct_ops register "$HERE/target/rcubic.bpf.o" 2>&1 |
        sed -n 's/.*Registered tcp_congestion_ops rcubic id \([0-9]*\).*/\1/p')"
    REGISTERED=1
fi

# The audit's "unexplained" counter (4th number of audit.py), or empty without one.
unexplained() {
    python3 "$HERE/audit.py" |
        awk '{print $4}'
}
ATTEMPTS=3

rm -rf "$OUT"
mkdir -p "$OUT"
[ -n "$(unexplained)" ] ||
    echo "compare.sh: warning: rcubic has no ssthresh audit loaded; flows are not checked" >&2
RERUNS=0
for path in "${PATHS[@]}"; do
    read -r rate limit <<<"$path"
    for run in $(seq "$RUNS"); do
        for cc in cubic rcubic; do
            for attempt in $(seq "$ATTEMPTS"); do
                dir="$OUT/$rate-$limit-$cc-$run"
                [ "$attempt" -gt 1 ] && dir="$dir-attempt$attempt"
                before="$(unexplained)"
                trace="$(mktemp)"
                # The audit prints each value it flags to the trace pipe.
                timeout $((TIME + 40)) cat /sys/kernel/tracing/trace_pipe > "$trace" 2>/dev/null &
                reader=$!
                line="$("$HERE/testbed.sh" --cc "$cc" --rate "$rate" --limit "$limit" \
                    --time "$TIME" --out "$dir")"
                after="$(unexplained)"
                kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null || true
                flagged=0
                [ "$cc" = rcubic ] && [ -n "$before" ] && flagged=$((after - before))
                if [ "$flagged" -gt 0 ] && [ "$attempt" -lt "$ATTEMPTS" ]; then
                    grep 'rcubic audit' "$trace" | python3 -c '
import json, sys
rate, limit, run, attempt, flagged, m = sys.argv[1:7]
print(json.dumps({"rate": rate, "limit": int(limit), "run": int(run),
                  "attempt": int(attempt), "unexplained": int(flagged),
                  "trace": [l.strip() for l in sys.stdin], "m": json.loads(m)}))
' "$rate" "$limit" "$run" "$attempt" "$flagged" "$line" >> "$OUT/anomalies.jsonl"
                    echo "compare.sh: $rate $limit $cc run $run: snd_ssthresh took $flagged" \
                        "value(s) rcubic did not produce; rerunning this flow" >&2
                    RERUNS=$((RERUNS + 1))
                    rm -f "$trace"
                    continue
                fi
                rm -f "$trace"
                echo "{\"rate\": \"$rate\", \"limit\": $limit, \"run\": $run, \"audit_unexplained\": $flagged, \"m\": $line}" \
                    >> "$OUT/runs.jsonl"
                echo "compare.sh: $rate $limit $cc run $run: $line" >&2
                break
            done
        done
    done
done
python3 "$HERE/table.py" "$OUT/runs.jsonl"
echo
echo "rcubic flows rerun because snd_ssthresh took a value rcubic did not produce: $RERUNS" \
    "($OUT/anomalies.jsonl)"
kept="$(grep -c '"audit_unexplained": [1-9]' "$OUT/runs.jsonl" || true)"
echo "rcubic flows in the table still hit after $ATTEMPTS attempts: ${kept:-0}" \
    "(audit_unexplained in $OUT/runs.jsonl)"
