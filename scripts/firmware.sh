#!/usr/bin/env bash
# Builds the firmware image (embedded/) for three FPU-less or small targets, with
# opt-level "s" and LTO, and checks:
#   - it links: its panic handler calls a symbol that does not exist, so any panic path
#     left in the library would fail the link;
#   - no floating-point routine (soft-float helpers, f32/f64 maths) is in it;
# then prints the library's share of .text: the image minus the same image built with
# `--features no-library` (identical register traffic, no library calls), for the
# Linux-mode flow with its send path, the RFC-mode flow, and both in one image; and,
# checked the same way, the "kernel" image: BBR v1, BBRv3, DCTCP and TCP Prague, the
# types behind the C ABI's congestion_linux_{bbr,bbr3,dctcp,prague}_* calls (whose
# entry points scripts/ffi-nostd.sh links and checks one by one); and
# Linux-mode BBR v1 and BBRv3 each with its send side (departure time, snapshot, TSO goal).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${TARGETS:-"thumbv7em-none-eabihf thumbv6m-none-eabi riscv32imc-unknown-none-elf"}
limit_thumbv7em=${LIMIT_BYTES:-6144}

rustup target add $targets >/dev/null 2>&1 || rustup target add $targets
rustup component add llvm-tools >/dev/null 2>&1 || rustup component add llvm-tools
bin="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin"
target_dir=${CARGO_TARGET_DIR:-$PWD/embedded/target}

text_size() { "$bin/llvm-size" -A "$1" | awk '$1 == ".text" { print $2 }'; }
rodata_size() { "$bin/llvm-size" -A "$1" | awk '$1 == ".rodata" { print $2 }'; }

# Soft-float and libm routines: ARM EABI (__aeabi_f*/__aeabi_d*), libgcc/compiler-rt
# (__addsf3, __muldf3, __fixsfsi, __floatsidf, __eqsf2, __extendsfdf2, ...), and maths.
float_re='^(__aeabi_[fd]|__aeabi_[a-z0-9]*(f|d)(2|cmp)|__(add|sub|mul|div|neg|pow)[sdt]f[23]|__(fix|fixuns)[sdt]f|__float(un)?[sdt]i[sdt]f|__float|__(eq|ne|lt|le|gt|ge|un|cmp)[sdt]f2|__extend|__trunc|(sqrt|cbrt|pow|exp|log|floor|ceil|round|fma)f?$)'

fail=0
rows=()
kernel_rows=()
# variant name -> cargo feature flags
declare -A flags=(
  [all]=""
  [linux]="--no-default-features --features linux"
  [rfc]="--no-default-features --features rfc"
  [kernel]="--no-default-features --features kernel"
  [baseline]="--no-default-features --features no-library"
  [bbr]="--no-default-features --features bbr"
  [bbr3]="--no-default-features --features bbr3"
)
for t in $targets; do
  for variant in all linux rfc kernel baseline bbr bbr3; do
    echo "building $t ($variant)" >&2
    # shellcheck disable=SC2086
    if ! CARGO_TARGET_DIR="$target_dir/$variant" cargo build --quiet --release \
        --manifest-path embedded/Cargo.toml --target "$t" ${flags[$variant]}; then
      echo "error: $t ($variant) does not link (a panic path left in the library?)" >&2
      fail=1
      continue 2
    fi
  done
  image() { echo "$target_dir/$1/$t/release/congestion-firmware"; }
  for variant in all linux rfc kernel bbr bbr3; do
    full=$(image "$variant")
    floats=$("$bin/llvm-nm" -j "$full" | grep -E "$float_re" || true)
    if [ -n "$floats" ]; then
      echo "error: floating-point routines in the $t ($variant) image:" >&2
      echo "$floats" | sort -u >&2
      fail=1
    fi
    if "$bin/llvm-nm" -j "$full" | grep -q congestion_panic_path_must_not_be_linked; then
      echo "error: the $t ($variant) image references the panic marker" >&2
      fail=1
    fi
  done
  bt=$(text_size "$(image baseline)")
  br=$(rodata_size "$(image baseline)")
  share() { # VARIANT -> "bytes (KiB)" of library .text
    local s=$(($(text_size "$(image "$1")") - bt))
    echo "$s ($(awk -v s="$s" 'BEGIN { printf "%.1f", s / 1024 }') KiB)"
  }
  rfc_share=$(($(text_size "$(image rfc)") - bt))
  linux_share=$(($(text_size "$(image linux)") - bt))
  kernel_rows+=("$(printf '| %-28s | %17s |' "$t" "$(share kernel)")")
  rows+=("$(printf '| %-28s | %8s | %17s | %17s | %17s | %8s | %17s | %17s |' "$t" "$bt" "$(share linux)" "$(share rfc)" "$(share all)" "$(($(rodata_size "$(image all)") - ${br:-0}))" "$(share bbr)" "$(share bbr3)")")
  if [ "$t" = thumbv7em-none-eabihf ]; then
    for pair in "Linux mode's:$linux_share" "RFC mode's:$rfc_share"; do
      if [ "${pair#*:}" -gt "$limit_thumbv7em" ]; then
        echo "note: ${pair%%:*} library .text on $t is ${pair#*:} bytes, above the $limit_thumbv7em-byte target" >&2
      fi
    done
  fi
done

sleep 0.1 # let cargo's stderr drain before the table
printf '\nfirmware image (embedded/, opt-level "s", LTO, panic = abort): bytes\n\n'
printf 'library .text = image .text minus the baseline image (same register traffic, no library)\n\n'
printf '| %-28s | %8s | %17s | %17s | %17s | %8s | %17s | %17s |\n' target baseline "Linux + send path" "RFC + HyStart++" "all of it" ".rodata" "BBR v1 + send" "BBRv3 + send"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' ------------------------------ ---------- ------------------- ------------------- ------------------- ---------- ------------------- -------------------
for r in "${rows[@]}"; do echo "$r"; done
printf '\nthe kernel-style algorithms (BBR v1, BBRv3, DCTCP, Prague: one image, one chosen at run time)\n\n'
printf '| %-28s | %17s |\n' target "library .text"
printf '|%s|%s|\n' ------------------------------ -------------------
for r in "${kernel_rows[@]}"; do echo "$r"; done
if [ "$fail" = 0 ]; then
  printf '\nall images link with the panic marker unreferenced; no floating-point routines\n'
fi
exit "$fail"
