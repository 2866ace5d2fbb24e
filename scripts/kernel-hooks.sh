#!/usr/bin/env bash
# Instructions per ACK of Linux's own C CUBIC hooks on the project's benchmark stream,
# under callgrind, to set beside the `hooks` row of scripts/instructions.sh.
#
# No kernel code is kept in this repository: the kernel's tcp_cubic.c, the two
# tcp_cong.c helpers it calls (tcp_slow_start, tcp_cong_avoid_ai) and four tcp.h inline
# helpers are taken from a Linux tree at measurement time, and compiled with gcc -O2
# against perf/kernel/shim.h (types, socket fields, no-op module/BTF macros) with the
# harness perf/kernel/stream.c (the same stream as benches/common/mod.rs).
#
#   KERNEL_SRC=~/linux scripts/kernel-hooks.sh     # a Linux source tree
#   scripts/kernel-hooks.sh                        # downloads the three files for
#                                                  # KERNEL_TAG (default v6.17) from git.kernel.org
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200000}
CC=${CC:-gcc}
CFLAGS=${CFLAGS:-"-O2"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

src=${KERNEL_SRC:-}
if [ -z "$src" ]; then
  tag=${KERNEL_TAG:-v6.17}
  base="https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/plain"
  src="$work/linux"
  for f in net/ipv4/tcp_cubic.c net/ipv4/tcp_cong.c include/net/tcp.h; do
    mkdir -p "$src/$(dirname "$f")"
    echo "fetching $f ($tag)" >&2
    curl -sSfL "$base/$f?h=$tag" -o "$src/$f"
  done
fi
for f in net/ipv4/tcp_cubic.c net/ipv4/tcp_cong.c include/net/tcp.h; do
  [ -r "$src/$f" ] || { echo "kernel-hooks.sh: $src/$f not found (KERNEL_SRC)" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "kernel-hooks.sh: needs valgrind" >&2; exit 2; }

# shellcheck source=scripts/kernel-src-lib.sh
. scripts/kernel-src-lib.sh
{
  extract "$src/include/net/tcp.h" '^static inline u32 tcp_snd_cwnd\('
  extract "$src/include/net/tcp.h" '^static inline void tcp_snd_cwnd_set\('
  extract "$src/include/net/tcp.h" '^static inline bool tcp_in_slow_start\('
  extract "$src/include/net/tcp.h" '^static inline bool tcp_is_cwnd_limited\('
} > "$work/tcp_helpers.h"
{
  extract "$src/net/ipv4/tcp_cong.c" '^(__bpf_kfunc )?u32 tcp_slow_start\('
  extract "$src/net/ipv4/tcp_cong.c" '^(__bpf_kfunc )?void tcp_cong_avoid_ai\('
} > "$work/tcp_cong_helpers.c"
for h in tcp_snd_cwnd_set tcp_is_cwnd_limited; do
  grep -q "$h" "$work/tcp_helpers.h" || { echo "kernel-hooks.sh: $h not found in tcp.h" >&2; exit 2; }
done
grep -q tcp_cong_avoid_ai "$work/tcp_cong_helpers.c" ||
  { echo "kernel-hooks.sh: tcp_cong_avoid_ai not found in tcp_cong.c" >&2; exit 2; }

# The kernel's #include lines resolve to empty headers; the shim is force-included.
mkdir -p "$work/inc/linux" "$work/inc/net" "$work/inc/asm"
for h in linux/mm.h linux/btf.h linux/btf_ids.h linux/module.h linux/math64.h net/tcp.h asm/div64.h; do
  : > "$work/inc/$h"
done
shim="$PWD/perf/kernel/shim.h"
kflags=(-std=gnu11 -include "$shim" -include "$work/tcp_helpers.h" -I"$work/inc")
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$src/net/ipv4/tcp_cubic.c" -o "$work/tcp_cubic.o"
# shellcheck disable=SC2086
$CC $CFLAGS "${kflags[@]}" -c "$work/tcp_cong_helpers.c" -o "$work/tcp_cong.o"
# shellcheck disable=SC2086
$CC $CFLAGS -std=gnu11 -I"$PWD/perf/kernel" -c perf/kernel/stream.c -o "$work/stream.o"
$CC "$work/stream.o" "$work/tcp_cubic.o" "$work/tcp_cong.o" -o "$work/stream"

cg_bin="$work/stream" cg_dir=$work
# shellcheck source=scripts/callgrind-lib.sh
. scripts/callgrind-lib.sh

null=$(per_event null ca "$N")
ca=$(minus "$(per_event kernel ca "$N")" "$null")
nev=$((N / 10))
lossack=$(minus "$(per_event kernel loss "$nev")" "$(per_event kernel base "$nev")")
echo "Linux C CUBIC hooks ($($CC --version | head -1), $CFLAGS), the project's stream:"
echo "  per ACK (cubictcp_acked + cubictcp_cong_avoid, indirect calls): $ca (stream alone $null, subtracted)"
echo "  loss + next ACK (ssthresh hook, then the ACK that computes K):  $lossack"
