#!/usr/bin/env bash
# Instructions per ACK of Linux's own C BBR (tcp_bbr.c's ops, tcp_rate.c's sampler,
# win_minmax.c, and the pacing step and min-RTT filter of tcp_output.c / tcp_input.c) on
# the BBR streams of perf/src/bbr, under callgrind, to set beside the `bbr` row of
# `ONLY=bbr scripts/instructions.sh`.
#
# No kernel code is kept in this repository: as scripts/kernel-hooks.sh does for CUBIC,
# the three files are compiled whole from a Linux tree at measurement time, and the few
# helpers they need from tcp.h, win_minmax.h, tcp_output.c and tcp_input.c are extracted
# by name; all are built with gcc -O2 against perf/kernel/bbr_shim.h (types, socket and
# skb fields, no-op module/BTF macros) with the harness perf/kernel/bbr_stream.c.
#
#   KERNEL_SRC=~/linux scripts/kernel-bbr.sh     # a Linux source tree
#   scripts/kernel-bbr.sh                        # downloads the files for KERNEL_TAG
#                                                # (default v6.17) from git.kernel.org
#   N=400000 scripts/kernel-bbr.sh               # ACKs per run (a multiple of 50,000)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200000}
CC=${CC:-gcc}
CFLAGS=${CFLAGS:-"-O2"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files="net/ipv4/tcp_bbr.c net/ipv4/tcp_rate.c lib/win_minmax.c include/net/tcp.h
  include/linux/win_minmax.h net/ipv4/tcp_output.c net/ipv4/tcp_input.c"
src=${KERNEL_SRC:-}
if [ -z "$src" ]; then
  tag=${KERNEL_TAG:-v6.17}
  base="https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/plain"
  src="$work/linux"
  for f in $files; do
    mkdir -p "$src/$(dirname "$f")"
    echo "fetching $f ($tag)" >&2
    curl -sSfL "$base/$f?h=$tag" -o "$src/$f"
  done
fi
for f in $files; do
  [ -r "$src/$f" ] || { echo "kernel-bbr.sh: $src/$f not found (KERNEL_SRC)" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "kernel-bbr.sh: needs valgrind" >&2; exit 2; }

# shellcheck source=scripts/kernel-src-lib.sh
. scripts/kernel-src-lib.sh
inc="$work/inc"
mkdir -p "$inc"
# win_minmax.h: its types and inline helpers, without its #include lines.
sed '/^#include/d' "$src/include/linux/win_minmax.h" > "$inc/win_minmax_extract.h"
need "$inc/win_minmax_extract.h" minmax_reset
{
  for fn in tcp_min_rtt tcp_stamp_us_delta tcp_skb_timestamp_us tcp_skb_sent_after \
    tcp_left_out tcp_packets_in_flight tcp_snd_cwnd tcp_snd_cwnd_set; do
    extract "$src/include/net/tcp.h" "^static inline [a-z0-9 ]+ $fn\\("
  done
} > "$inc/kernel_helpers.h"
for fn in tcp_packets_in_flight tcp_snd_cwnd_set tcp_skb_sent_after tcp_min_rtt; do
  need "$inc/kernel_helpers.h" "$fn"
done
{
  extract "$src/net/ipv4/tcp_output.c" '^static void tcp_update_skb_after_send\('
  extract "$src/net/ipv4/tcp_input.c" '^static void tcp_update_rtt_min\('
} > "$inc/kernel_glue.h"
need "$inc/kernel_glue.h" tcp_update_skb_after_send
need "$inc/kernel_glue.h" tcp_update_rtt_min

# The kernel's #include lines resolve to empty headers; the shim is force-included.
for f in net/ipv4/tcp_bbr.c net/ipv4/tcp_rate.c lib/win_minmax.c; do
  grep -oE '^#include <[^>]+>' "$src/$f" | sed 's/#include <\(.*\)>/\1/'
done | sort -u | while read -r h; do
  mkdir -p "$work/empty/$(dirname "$h")"
  : > "$work/empty/$h"
done
# Linux 6.10 gave cong_control the ACK and its flags.
defs=()
if grep -qE 'bbr_main\(struct sock \*sk, u32 ack' "$src/net/ipv4/tcp_bbr.c"; then
  defs+=(-DCONG_CONTROL_ACK_FLAG)
fi
kflags=(-std=gnu11 "${defs[@]}" -I"$inc" -include "$PWD/perf/kernel/bbr_shim.h" -I"$work/empty")
# tcp_bbr.c in one translation unit with an accessor for its mode (harness only).
printf '#include "%s"\nint harness_bbr_mode(struct sock *sk) { return ((struct bbr *)inet_csk_ca(sk))->mode; }\n' \
  "$src/net/ipv4/tcp_bbr.c" > "$work/bbr_tu.c"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$work/bbr_tu.c" -o "$work/tcp_bbr.o"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$src/net/ipv4/tcp_rate.c" -o "$work/tcp_rate.o"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$src/lib/win_minmax.c" -o "$work/win_minmax.o"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c perf/kernel/bbr_stream.c -o "$work/stream.o"
$CC "$work/stream.o" "$work/tcp_bbr.o" "$work/tcp_rate.o" "$work/win_minmax.o" -o "$work/bbr_stream"

# The streams reach their states (as perf/tests/bbr.rs checks ours): print the check.
BBR_STREAM_CHECK=1 "$work/bbr_stream" kernel bbr-steady 100000 >&2
BBR_STREAM_CHECK=1 "$work/bbr_stream" kernel bbr-probertt 50000 >&2

cg_bin="$work/bbr_stream" cg_dir=$work
# shellcheck source=scripts/callgrind-lib.sh
. scripts/callgrind-lib.sh

bbr_streams "Linux C BBR"
