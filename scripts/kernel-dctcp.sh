#!/usr/bin/env bash
# Instructions per ACK of Linux's own C DCTCP hooks (tcp_dctcp.c's in_ack_event and
# cong_avoid = tcp_reno_cong_avoid) on the project's benchmark stream with 2 % of ACKs
# CE-marked, under callgrind, beside `count dctcp-hooks` (perf/src/dctcp.rs).
#
# No kernel code is kept in this repository: as scripts/kernel-hooks.sh does for CUBIC,
# tcp_dctcp.c (and the tcp_dctcp.h it includes) is compiled whole from a Linux tree at
# measurement time, and the Reno helpers of tcp_cong.c and four tcp.h inline helpers
# are extracted by name; all built with gcc -O2 against perf/kernel/dctcp_shim.h with
# the harness perf/kernel/dctcp_stream.c.
#
#   KERNEL_SRC=~/linux scripts/kernel-dctcp.sh    # a Linux source tree
#   scripts/kernel-dctcp.sh                       # downloads the files for KERNEL_TAG
#                                                 # (default v6.17) from git.kernel.org
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200000}
CC=${CC:-gcc}
CFLAGS=${CFLAGS:-"-O2"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files="net/ipv4/tcp_dctcp.c net/ipv4/tcp_dctcp.h net/ipv4/tcp_cong.c include/net/tcp.h"
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
  [ -r "$src/$f" ] || { echo "kernel-dctcp.sh: $src/$f not found (KERNEL_SRC)" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "kernel-dctcp.sh: needs valgrind" >&2; exit 2; }

# shellcheck source=scripts/kernel-src-lib.sh
. scripts/kernel-src-lib.sh
inc="$work/inc"
mkdir -p "$inc"
{
  for fn in tcp_snd_cwnd tcp_snd_cwnd_set tcp_in_slow_start tcp_is_cwnd_limited; do
    extract "$src/include/net/tcp.h" "^static inline [a-z0-9 ]+ $fn\\("
  done
} > "$inc/kernel_helpers.h"
for fn in tcp_snd_cwnd_set tcp_in_slow_start tcp_is_cwnd_limited; do need "$inc/kernel_helpers.h" "$fn"; done
{
  for fn in tcp_slow_start tcp_cong_avoid_ai tcp_reno_cong_avoid tcp_reno_ssthresh tcp_reno_undo_cwnd; do
    extract "$src/net/ipv4/tcp_cong.c" "^(__bpf_kfunc )?[a-z0-9 ]+ $fn\\("
  done
} > "$work/tcp_cong_helpers.c"
for fn in tcp_reno_cong_avoid tcp_reno_ssthresh tcp_reno_undo_cwnd tcp_cong_avoid_ai; do
  need "$work/tcp_cong_helpers.c" "$fn"
done
mkdir -p "$work/empty"
grep -ohE '^#include <[^>]+>' "$src/net/ipv4/tcp_dctcp.c" "$src/net/ipv4/tcp_dctcp.h" |
  sed 's/#include <\(.*\)>/\1/' | sort -u | while read -r h; do
  mkdir -p "$work/empty/$(dirname "$h")"
  : > "$work/empty/$h"
done
kflags=(-std=gnu11 -I"$inc" -include "$PWD/perf/kernel/dctcp_shim.h" -I"$work/empty")
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$src/net/ipv4/tcp_dctcp.c" -o "$work/tcp_dctcp.o"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$work/tcp_cong_helpers.c" -o "$work/tcp_cong.o"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c perf/kernel/dctcp_stream.c -o "$work/stream.o"
$CC "$work/stream.o" "$work/tcp_dctcp.o" "$work/tcp_cong.o" -o "$work/dctcp_stream"
"$work/dctcp_stream" kernel ca 100000 >&2

cg_bin="$work/dctcp_stream" cg_dir=$work
# shellcheck source=scripts/callgrind-lib.sh
. scripts/callgrind-lib.sh

null=$(per_event null ca "$N")
ca=$(minus "$(per_event kernel ca "$N")" "$null")
nev=$((N / 10))
lossack=$(minus "$(per_event kernel loss "$nev")" "$(per_event kernel base "$nev")")
echo "Linux C DCTCP hooks ($($CC --version | head -1), $CFLAGS), the project's stream, 2 % of ACKs CE:"
echo "  per ACK (dctcp_update_alpha + tcp_reno_cong_avoid, indirect calls): $ca (stream alone $null, subtracted)"
echo "  loss + next ACK (dctcp_ssthresh, then the ACK):                      $lossack"
