#!/usr/bin/env bash
# One bounded TCP flow through a tbf bottleneck, between network namespaces.
#
#   sender --veth-- router --veth-- receiver
#   10.200.1.1      10.200.1.2 | 10.200.2.1      10.200.2.2
#                               tbf (rate, queue limit) on the router's egress
#
# The addresses exist only inside the three namespaces. This kernel has no netem, so
# the flow's delay is the tbf queue it builds. `ss -tin` is sampled every 50 ms in
# the sender's namespace.
#
# Usage: testbed.sh --cc cubic|rcubic|bbr|rbbr|reno|rdctcp|... [--rate 20mbit]
#                   [--limit BYTES] [--time SECONDS] [--parallel N] [--out DIR]
#                   [--ecn-mark BYTES] [--default-cc]
# --ecn-mark K turns ECN on at both ends (net.ipv4.tcp_ecn=1) and sets CE on packets
# entering the bottleneck while its backlog is above K bytes (ecn_mark.bpf.c, a tc
# program: this kernel has no ECN-marking qdisc); the sender's marked share is added
# to the metrics as ce_marked / ce_seen.
# --default-cc also makes <cc> the sender namespace's default
# (net.ipv4.tcp_congestion_control), so the socket has it from its creation. Without
# it iperf3 sets TCP_CONGESTION only after writing its 37-byte cookie on the data
# connection, and whether the cookie's ACK reaches <cc> is a race (bpf/README.md,
# "Why the kernel's bbr can retransmit more than rbbr").
# --parallel N runs N flows at once (iperf3 -P); the metrics are the first flow's.
# Writes DIR/iperf.json, DIR/ss.txt and DIR/nstat.txt (the sender's TCP counters), prints one line of metrics (analyze.py).
# If --cc rcubic, rbbr or rdctcp is not registered yet, registers
# bpf/target/<cc>.bpf.o for the run and unregisters it afterwards. Everything it creates it removes on exit.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
CC=cubic
RATE=20mbit
LIMIT=150000
TIME=8
OUT=""
PARALLEL=1
ECN_MARK=""
DEFAULT_CC=0
while [ $# -gt 0 ]; do
    case "$1" in
        --cc) CC="$2"; shift 2 ;;
        --rate) RATE="$2"; shift 2 ;;
        --limit) LIMIT="$2"; shift 2 ;;
        --time) TIME="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        --parallel) PARALLEL="$2"; shift 2 ;;
        --ecn-mark) ECN_MARK="$2"; shift 2 ;;
        --default-cc) DEFAULT_CC=1; shift ;;
        *) echo "testbed.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
case "$TIME" in ''|*[!0-9]*) echo "testbed.sh: --time must be whole seconds" >&2; exit 2 ;; esac
[ "$TIME" -ge 1 ] && [ "$TIME" -le 60 ] || { echo "testbed.sh: --time 1..60" >&2; exit 2; }
case "$PARALLEL" in ''|*[!0-9]*) echo "testbed.sh: --parallel must be a whole number" >&2; exit 2 ;; esac
[ "$PARALLEL" -ge 1 ] && [ "$PARALLEL" -le 64 ] || { echo "testbed.sh: --parallel 1..64" >&2; exit 2; }
case "$ECN_MARK" in *[!0-9]*) echo "testbed.sh: --ecn-mark must be a byte count" >&2; exit 2 ;; esac

TAG="rcb$$"
SND="$TAG-snd"
RTR="$TAG-rtr"
RCV="$TAG-rcv"
OWN_OUT=0
if [ -z "$OUT" ]; then
    OUT="$(mktemp -d)"
    OWN_OUT=1
fi
mkdir -p "$OUT"
REGISTERED=0
ID=""
SAMPLER=""

cleanup() {
    set +e
    [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null && wait "$SAMPLER" 2>/dev/null
    for ns in "$SND" "$RTR" "$RCV"; do
        # Ends iperf3 and anything else this script started inside the namespace.
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill "$pid" 2>/dev/null; done
        ip netns del "$ns" 2>/dev/null
    done
    [ "$REGISTERED" = 1 ] && bpftool struct_ops unregister id "$ID" >/dev/null 2>&1
    [ "$OWN_OUT" = 1 ] && rm -rf "$OUT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! grep -qw "$CC" /proc/sys/net/ipv4/tcp_available_congestion_control; then
    if [ "$CC" = rcubic ] || [ "$CC" = rbbr ] || [ "$CC" = rdctcp ]; then
        # By id later: an instance unregistered earlier can linger under the same name.
        ID="$(bpftool struct_ops register "$HERE/target/$CC.bpf.o" 2>&1 |
            sed -n "s/.*Registered tcp_congestion_ops $CC id \([0-9]*\).*/\1/p")"
        REGISTERED=1
    else
        modprobe "tcp_$CC" 2>/dev/null || true
    fi
fi
grep -qw "$CC" /proc/sys/net/ipv4/tcp_available_congestion_control ||
    { echo "testbed.sh: congestion control $CC is not available" >&2; exit 1; }

for ns in "$SND" "$RTR" "$RCV"; do
    ip netns add "$ns"
    ip -n "$ns" link set lo up
done
ip link add "$TAG-s" netns "$SND" type veth peer name "$TAG-r1" netns "$RTR"
ip link add "$TAG-r2" netns "$RTR" type veth peer name "$TAG-d" netns "$RCV"
ip -n "$SND" addr add 10.200.1.1/24 dev "$TAG-s"
ip -n "$RTR" addr add 10.200.1.2/24 dev "$TAG-r1"
ip -n "$RTR" addr add 10.200.2.1/24 dev "$TAG-r2"
ip -n "$RCV" addr add 10.200.2.2/24 dev "$TAG-d"
ip -n "$SND" link set "$TAG-s" up
ip -n "$RTR" link set "$TAG-r1" up
ip -n "$RTR" link set "$TAG-r2" up
ip -n "$RCV" link set "$TAG-d" up
ip -n "$SND" route add default via 10.200.1.2
ip -n "$RCV" route add default via 10.200.2.1
ip netns exec "$RTR" sysctl -qw net.ipv4.ip_forward=1
# No cached ssthresh/RTT from earlier flows: every run starts cold.
ip netns exec "$SND" sysctl -qw net.ipv4.tcp_no_metrics_save=1
[ "$DEFAULT_CC" = 1 ] && ip netns exec "$SND" sysctl -qw net.ipv4.tcp_congestion_control="$CC"
# The bottleneck: a token bucket at RATE with a LIMIT-byte queue on the router's
# egress towards the receiver. burst: 2 full-size packets' worth (tbf segments GSO).
ip netns exec "$RTR" tc qdisc add dev "$TAG-r2" root tbf rate "$RATE" burst 3028 limit "$LIMIT"
if [ -n "$ECN_MARK" ]; then
    for ns in "$SND" "$RCV"; do ip netns exec "$ns" sysctl -qw net.ipv4.tcp_ecn=1; done
    # The tbf rate in bytes/s, from tc's own reading of RATE.
    rate_bps="$(ip netns exec "$RTR" tc -j qdisc show dev "$TAG-r2" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["options"]["rate"])')"
    clang-22 -target bpf -mcpu=v3 -O2 -g -Wall -Werror -I"$HERE/target" \
        -DRATE_BYTES_PER_SEC="${rate_bps}ull" -DMARK_BYTES="${ECN_MARK}ull" \
        -c "$HERE/ecn_mark.bpf.c" -o "$OUT/ecn_mark.o"
    ip netns exec "$RTR" tc qdisc add dev "$TAG-r2" clsact
    ip netns exec "$RTR" tc filter add dev "$TAG-r2" egress bpf direct-action \
        obj "$OUT/ecn_mark.o" sec tc
fi

ip netns exec "$RCV" timeout $((TIME + 20)) iperf3 -s -1 -B 10.200.2.2 >/dev/null 2>&1 &
for _ in $(seq 50); do
    ip netns exec "$RCV" ss -ltnH 'sport = :5201' | grep -q . && break
    sleep 0.1
done

# ss sampler: a "T <ns since epoch>" line, then `ss -tin` for the flows to the receiver.
(
    while :; do
        echo "T $(date +%s%N)"
        ip netns exec "$SND" ss -tinH dst 10.200.2.2 2>/dev/null || true
        sleep 0.05
    done
) > "$OUT/ss.txt" &
SAMPLER=$!

ip netns exec "$SND" timeout $((TIME + 15)) \
    iperf3 -c 10.200.2.2 -t "$TIME" -P "$PARALLEL" -C "$CC" -J > "$OUT/iperf.json"

ip netns exec "$SND" nstat -asz > "$OUT/nstat.txt" 2>/dev/null || true
kill "$SAMPLER" 2>/dev/null || true
wait "$SAMPLER" 2>/dev/null || true
SAMPLER=""
if [ -n "$ECN_MARK" ]; then
    # The marker's counters (its .bss), for analyze.py.
    prog="$(ip netns exec "$RTR" tc -j filter show dev "$TAG-r2" egress |
        python3 -c 'import json,sys; print([f["options"]["prog"]["id"] for f in json.load(sys.stdin) if "options" in f][0])')"
    bss="$(bpftool -j prog show id "$prog" | python3 -c 'import json,sys; print([m for m in json.load(sys.stdin)["map_ids"]][-1])')"
    bpftool -j map dump id "$bss" > "$OUT/ecn_mark.json" 2>/dev/null || true
fi
python3 "$HERE/analyze.py" "$OUT" "$CC"
