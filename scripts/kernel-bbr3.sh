#!/usr/bin/env bash
# Instructions per ACK of Google's own C BBRv3 (the v3 tree's tcp_bbr.c ops, its
# tcp_rate.c sampler, win_minmax.c, and the pacing step and min-RTT filter of
# tcp_output.c / tcp_input.c) on the BBR streams of perf/src/bbr, under callgrind, to set
# beside the `bbr3` row of `ONLY=bbr scripts/instructions.sh` (linux::Bbr3). The figure
# is "ACK + the sends it allows" with the stream's own loop subtracted, as for v1
# (scripts/kernel-bbr.sh): what the kernel's C costs for the same work our Rust does.
# Counted per ACK: v3's per-ACK app-limited check, the sampler per (S)ACKed skb, the
# min-RTT filter, on a loss the Recovery glue and the skb_marked_lost hook, tcp_rate_gen()
# and bbr_main() (with PLB's calls, which return at once as PLB is off by default); per
# send: the departure time, the TX_START test, the pacing step and tcp_rate_skb_sent().
# Not counted: the rest of tcp_ack() and tcp_transmit_skb(), which neither side models.
#
# No kernel code is kept in this repository: the three files are compiled whole from a
# BBRv3 tree at measurement time, and the few helpers they need from tcp.h,
# win_minmax.h, tcp_output.c and tcp_input.c are extracted by name; all are built with
# gcc -O2 against perf/kernel/bbr3_shim.h (types, socket and skb fields with v3's rate
# sample, no-op module/BTF macros; PLB off) with the harness perf/kernel/bbr3_stream.c.
# There is no download mode: get a v3 tree first.
#
#   git clone --depth 1 -b v3 https://github.com/google/bbr ~/bbr3
#   KERNEL_SRC=~/bbr3 scripts/kernel-bbr3.sh
#   N=400000 KERNEL_SRC=~/bbr3 scripts/kernel-bbr3.sh   # ACKs per run (a multiple of 50,000)
#   COMPARE=1 KERNEL_SRC=~/bbr3 scripts/kernel-bbr3.sh  # also require linux::Bbr3's path
#
# The tree's tcp_rate.c must count losses over the sampling interval (tx.lost,
# rs->prior_lost, rs->lost: the patch "count packets lost over TCP rate sampling
# interval" of the v3 branch), which v3's tcp_bbr.c reads; the script refuses a tree
# without it. tests/data/linux-bbr3/README.md lists the commits our traces follow.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200000}
CC=${CC:-gcc}
CFLAGS=${CFLAGS:-"-O2"}
src=${KERNEL_SRC:-}
[ -n "$src" ] || { echo "kernel-bbr3.sh: set KERNEL_SRC to a google/bbr v3 tree (see the header)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files="net/ipv4/tcp_bbr.c net/ipv4/tcp_rate.c lib/win_minmax.c include/net/tcp.h
  include/linux/win_minmax.h net/ipv4/tcp_output.c net/ipv4/tcp_input.c"
for f in $files; do
  [ -r "$src/$f" ] || { echo "kernel-bbr3.sh: $src/$f not found (KERNEL_SRC)" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "kernel-bbr3.sh: needs valgrind" >&2; exit 2; }
grep -qE '^#define BBR_VERSION[[:space:]]+3' "$src/net/ipv4/tcp_bbr.c" ||
  { echo "kernel-bbr3.sh: $src/net/ipv4/tcp_bbr.c is not BBRv3 (BBR_VERSION 3)" >&2; exit 2; }
grep -q 'rs->prior_lost' "$src/net/ipv4/tcp_rate.c" ||
  { echo "kernel-bbr3.sh: $src/net/ipv4/tcp_rate.c does not count rs->lost (see the header)" >&2; exit 2; }

# shellcheck source=scripts/kernel-src-lib.sh
. scripts/kernel-src-lib.sh
inc="$work/inc"
mkdir -p "$inc"
# win_minmax.h: its types and inline helpers, without its #include lines.
sed '/^#include/d' "$src/include/linux/win_minmax.h" > "$inc/win_minmax_extract.h"
need "$inc/win_minmax_extract.h" minmax_reset
helpers="tcp_skb_pcount tcp_min_rtt tcp_stamp_us_delta tcp_stamp32_us_delta
  tcp_skb_timestamp_us tcp_skb_sent_after tcp_left_out tcp_packets_in_flight tcp_snd_cwnd
  tcp_snd_cwnd_set"
for fn in $helpers; do
  extract "$src/include/net/tcp.h" "^static inline [a-z0-9 ]+ $fn\\("
done > "$inc/kernel_helpers.h"
for fn in $helpers; do
  need "$inc/kernel_helpers.h" "[ ]$fn("
done
{
  extract "$src/net/ipv4/tcp_output.c" '^static void tcp_update_skb_after_send\('
  extract "$src/net/ipv4/tcp_input.c" '^static void tcp_update_rtt_min\('
} > "$inc/kernel_glue.h"
need "$inc/kernel_glue.h" tcp_update_skb_after_send
need "$inc/kernel_glue.h" tcp_update_rtt_min

# tcp_bbr.c is compiled from a copy, so that its "tcp_dctcp.h" (the receiver-side CE
# hook, which the shim declares) resolves to an empty file beside it, not the tree's.
mkdir -p "$work/v3"
cp "$src/net/ipv4/tcp_bbr.c" "$work/v3/tcp_bbr.c"
: > "$work/v3/tcp_dctcp.h"
# The kernel's #include <...> lines resolve to empty headers; the shim is force-included.
for f in net/ipv4/tcp_bbr.c net/ipv4/tcp_rate.c lib/win_minmax.c; do
  grep -oE '^#include <[^>]+>' "$src/$f" | sed 's/#include <\(.*\)>/\1/'
done | sort -u | while read -r h; do
  mkdir -p "$work/empty/$(dirname "$h")"
  : > "$work/empty/$h"
done
kflags=(-std=gnu11 -I"$inc" -include "$PWD/perf/kernel/bbr3_shim.h" -I"$work/empty")
# tcp_bbr.c in one translation unit with accessors for its mode and cycle phase (the
# harness's warm-up and check only).
cat > "$work/bbr_tu.c" <<EOF
#include "$work/v3/tcp_bbr.c"
int harness_bbr_mode(struct sock *sk) { return ((struct bbr *)inet_csk_ca(sk))->mode; }
int harness_bbr_cycle_idx(struct sock *sk) { return ((struct bbr *)inet_csk_ca(sk))->cycle_idx; }
EOF
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$work/bbr_tu.c" -o "$work/tcp_bbr.o"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$src/net/ipv4/tcp_rate.c" -o "$work/tcp_rate.o"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$src/lib/win_minmax.c" -o "$work/win_minmax.o"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c perf/kernel/bbr3_stream.c -o "$work/stream.o"
$CC "$work/stream.o" "$work/tcp_bbr.o" "$work/tcp_rate.o" "$work/win_minmax.o" -o "$work/bbr3_stream"

# The streams reach their states (as perf/tests/bbr.rs checks ours): steady stays in
# PROBE_BW without loss; the PROBE_RTT stream enters PROBE_RTT once and takes 10 losses
# per 25,000-ACK cycle. With COMPARE=1 the same line for linux::Bbr3 (perf's bbr3_check
# binary) must be equal: ACKs per phase, and cwnd and pacing rate summed after every
# ACK, so the C and ours took the same path.
for run in "bbr-steady 100000" "bbr-probertt 50000"; do
  # shellcheck disable=SC2086
  c_line=$(BBR_STREAM_CHECK=1 "$work/bbr3_stream" kernel $run)
  echo "$c_line" >&2
  if [ "${COMPARE:-0}" = 1 ]; then
    cargo build -q --release --manifest-path perf/Cargo.toml --bin bbr3_check >&2
    # shellcheck disable=SC2086
    ours_line=$("${CARGO_TARGET_DIR:-perf/target}/release/bbr3_check" $run)
    echo "$ours_line" >&2
    [ "${c_line#*: }" = "${ours_line#*: }" ] ||
      { echo "kernel-bbr3.sh: the C and linux::Bbr3 took different paths ($run)" >&2; exit 1; }
  fi
done

cg_bin="$work/bbr3_stream" cg_dir=$work
# shellcheck source=scripts/callgrind-lib.sh
. scripts/callgrind-lib.sh

bbr_streams "Google's C BBRv3"
