#!/usr/bin/env bash
# Build bpf/target/{rcubic,rbbr,rdctcp}.bpf.o: the congestion crate's Linux-mode
# CUBIC + HyStart (Rust, bpf/rcubic), BBR v1 and DCTCP (Rust, bpf/rops), each linked
# with its struct_ops shim (C, <name>.bpf.c).
#
#   Rust --(nightly, -Z build-std=core, fat LTO)--> LLVM bitcode
#        --(llc-22, same LLVM major as the nightly)--> BPF object with BTF
#   C    --(clang-22 -target bpf, vmlinux.h from this kernel's BTF)--> BPF object
#   both --(bpftool gen object: libbpf's static linker)--> rcubic.bpf.o
#
# Installs what is missing (Debian apt, rustup) unless RCUBIC_NO_INSTALL=1.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$HERE/target"
LLVM_MAJOR=22
export CARGO_TARGET_DIR="$OUT/cargo"
mkdir -p "$OUT"

log() { printf 'build.sh: %s\n' "$*" >&2; }

need_apt=()
command -v "clang-$LLVM_MAJOR" >/dev/null || need_apt+=("clang-$LLVM_MAJOR")
command -v "llc-$LLVM_MAJOR" >/dev/null || need_apt+=("llvm-$LLVM_MAJOR")
command -v bpftool >/dev/null || need_apt+=(bpftool)
[ -e /usr/include/bpf/bpf_helpers.h ] || need_apt+=(libbpf-dev)
command -v iperf3 >/dev/null || need_apt+=(iperf3)
command -v ss >/dev/null || need_apt+=(iproute2)
command -v python3 >/dev/null || need_apt+=(python3)
if [ "${#need_apt[@]}" -gt 0 ]; then
    [ "${RCUBIC_NO_INSTALL:-0}" = 1 ] && { log "missing: ${need_apt[*]}"; exit 1; }
    log "installing ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # Debian 12 carries clang-22/llvm-22 in bookworm-security.
    apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

command -v rustup >/dev/null || { log "rustup is required (https://rustup.rs)"; exit 1; }
# rust-toolchain.toml pins the nightly; this installs it (with rust-src) if absent.
cd "$HERE/rcubic"
rustup toolchain install >/dev/null 2>&1 || rustup toolchain install
rustc_llvm="$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')"
if [ "$rustc_llvm" != "$LLVM_MAJOR" ]; then
    log "the pinned nightly uses LLVM $rustc_llvm, but this script uses llc-$LLVM_MAJOR"
    exit 1
fi

# One Rust crate to LLVM bitcode to a BPF object: $1 crate directory, $2 output,
# then any extra rustc flags.
rust_to_bpf() {
    local crate="$1" out="$2" bc
    shift 2
    log "rust: $crate, bitcode for bpfel-unknown-none"
    (cd "$HERE/$crate" &&
        cargo rustc --quiet --release --target bpfel-unknown-none -Z build-std=core -- --emit=llvm-bc "$@")
    bc="$(ls -t "$CARGO_TARGET_DIR"/bpfel-unknown-none/release/deps/"$crate"-*.bc | head -n 1)"
    "llc-$LLVM_MAJOR" -march=bpfel -mcpu=v3 -O2 -filetype=obj "$bc" -o "$out"
}

# One C struct_ops shim against this kernel's BTF: $1 source name, $2 output.
shim_to_bpf() {
    log "c: $1 against this kernel's BTF"
    "clang-$LLVM_MAJOR" -target bpf -mcpu=v3 -O2 -g -Wall -Werror ${RCUBIC_CFLAGS:-} \
        -I"$OUT" -c "$HERE/$1" -o "$2"
}

bpftool btf dump file /sys/kernel/btf/vmlinux format c > "$OUT/vmlinux.h"

# rcubic: CUBIC + HyStart (bpf/rcubic) with its shim.
rust_to_bpf rcubic "$OUT/rcubic_rs.o"
shim_to_bpf rcubic.bpf.c "$OUT/rcubic_shim.o"
bpftool gen object "$OUT/rcubic.bpf.o" "$OUT/rcubic_shim.o" "$OUT/rcubic_rs.o"
log "built $OUT/rcubic.bpf.o"

# rbbr and rdctcp: BBR v1 and DCTCP (one Rust crate, bpf/rops), each with its shim.
# The static linker keeps only the Rust functions a shim calls.
# BBR's generic hooks (over the caller's RandomSource) must be inlined: a function
# left out of line gets a BTF name like `bbr_lt_bw_sampling<rops::sock::KernelRandom>`,
# which the kernel refuses ("Invalid name"). LLVM's default threshold keeps two
# long-term-sampling functions out of line; this one inlines all but one non-generic
# helper, whose BTF is valid.
rust_to_bpf rops "$OUT/rops_rs.o" -C llvm-args=-inline-threshold=100000
for cc in rbbr rdctcp; do
    shim_to_bpf "$cc.bpf.c" "$OUT/${cc}_shim.o"
    bpftool gen object "$OUT/$cc.bpf.o" "$OUT/${cc}_shim.o" "$OUT/rops_rs.o"
    # Say which function the kernel would refuse, here rather than as "BTF -22" at load.
    bad="$(bpftool btf dump file "$OUT/$cc.bpf.o" | sed -n "s/^\[[0-9]*\] FUNC '\([^']*[^A-Za-z0-9_.'][^']*\)'.*/\1/p")"
    if [ -n "$bad" ]; then
        log "$cc: out-of-line functions with names BTF refuses (inline them): $bad"
        exit 1
    fi
    log "built $OUT/$cc.bpf.o"
done
