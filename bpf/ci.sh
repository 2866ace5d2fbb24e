#!/usr/bin/env bash
# CI for rcubic: build the BPF object, register it (the verifier passing is the
# check), carry one short TCP flow through it between namespaces, unregister it.
#
# Exit 0 with a plain "SKIP: <why>" when this machine cannot load BPF struct_ops
# (not root, no kernel BTF, no struct_ops for tcp_congestion_ops, no network
# namespaces). Any other failure exits non-zero. Installs its own dependencies
# (apt-get, rustup) on a fresh Debian machine; takes a few minutes at most.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
log() { printf 'bpf/ci.sh: %s\n' "$*"; }
skip() { log "SKIP: $*"; exit 0; }
fail() { log "FAIL: $*"; exit 1; }

# What the machine must allow; each "cannot" is a plain skip.
[ "$(uname -s)" = Linux ] || skip "not Linux ($(uname -s)): no BPF"
[ "$(id -u)" = 0 ] || skip "not root: loading BPF struct_ops and creating namespaces need root"
[ -r /sys/kernel/btf/vmlinux ] ||
    skip "the kernel has no BTF (/sys/kernel/btf/vmlinux missing: CONFIG_DEBUG_INFO_BTF off)"
command -v apt-get >/dev/null || skip "no apt-get: this script installs its tools on Debian only"

# Tools: rustup (build.sh installs the apt packages and the pinned nightly).
if ! command -v rustup >/dev/null; then
    [ -x "$HOME/.cargo/bin/rustup" ] || {
        log "installing rustup"
        command -v curl >/dev/null ||
            { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl ca-certificates >/dev/null; }
        curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal --default-toolchain none >/dev/null
    }
    export PATH="$HOME/.cargo/bin:$PATH"
fi

"$HERE/build.sh" || fail "build"
obj="$HERE/target/rcubic.bpf.o"
[ -s "$obj" ] || fail "build produced no $obj"

# Kernel support checked after the build, when bpftool is installed.
# grep -c reads all its input: with pipefail, grep -q could fail bpftool with SIGPIPE.
n="$(bpftool btf dump file /sys/kernel/btf/vmlinux | grep -c "STRUCT 'bpf_struct_ops_tcp_congestion_ops'" || true)"
[ "${n:-0}" -ge 1 ] ||
    skip "this kernel has no BPF struct_ops for tcp_congestion_ops (needs CONFIG_BPF_JIT, CONFIG_BPF_SYSCALL)"
ip netns add "rcubic-ci-probe-$$" 2>/dev/null || skip "cannot create network namespaces here"
ip netns del "rcubic-ci-probe-$$"

if grep -qw rcubic /proc/sys/net/ipv4/tcp_available_congestion_control; then
    fail "rcubic is already registered on this machine; unregister it first (bpftool struct_ops unregister name rcubic)"
fi

REGISTERED=0
ID=""
cleanup() {
    if [ "$REGISTERED" = 1 ]; then
        bpftool struct_ops unregister id "$ID" >/dev/null 2>&1 || true
    fi
}
trap cleanup EXIT

log "registering (the verifier checks every function)"
if ! out="$(bpftool struct_ops register "$obj" 2>&1)"; then
    printf '%s\n' "$out" | grep -v '^\[\|^	' | tail -n 40
    fail "the kernel refused rcubic (verifier log above)"
fi
REGISTERED=1
# Unregister by id: an instance unregistered earlier can linger under the same name
# while its last sockets close, and `unregister name` then fails on it.
ID="$(printf '%s\n' "$out" | sed -n 's/.*Registered tcp_congestion_ops rcubic id \([0-9]*\).*/\1/p')"
[ -n "$ID" ] || fail "bpftool did not say which id it registered: $out"
grep -qw rcubic /proc/sys/net/ipv4/tcp_available_congestion_control ||
    fail "registered, but rcubic is not in tcp_available_congestion_control"
log "registered: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"

log "one 3 s flow through rcubic (20 Mbit/s tbf, 150 kB queue)"
metrics="$("$HERE/testbed.sh" --cc rcubic --rate 20mbit --limit 150000 --time 3)" ||
    fail "the test flow failed"
log "flow: $metrics"
python3 - "$metrics" <<'PY' || fail "the flow did not run under rcubic"
import json, sys
m = json.loads(sys.argv[1])
assert m["cc"] == "rcubic" and m["samples"] >= 10, "too few ss samples under rcubic"
assert m["mbps"] > 1.0, "no throughput"
assert m["exit_ssthresh"] is not None, "slow start never ended"
PY

bpftool struct_ops unregister id "$ID" >/dev/null || fail "unregister"
REGISTERED=0
ID=""
if grep -qw rcubic /proc/sys/net/ipv4/tcp_available_congestion_control; then
    fail "rcubic still listed after unregister"
fi
log "OK: rcubic built, verified, carried a flow, unregistered"
