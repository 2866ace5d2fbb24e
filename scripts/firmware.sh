#!/usr/bin/env bash
# Builds the firmware image (embedded/) for three FPU-less or small targets, with
# opt-level "s" and LTO, and checks:
#   - it links: its panic handler calls a symbol that does not exist, so any panic path
#     left in the library would fail the link;
#   - no floating-point routine (soft-float helpers, f32/f64 maths) is in it;
# then prints the library's share of .text: the image minus the same image built with
# `--features no-library` (identical register traffic, no library calls).
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
for t in $targets; do
  for variant in full baseline; do
    features=()
    [ "$variant" = baseline ] && features=(--features no-library)
    echo "building $t ($variant)" >&2
    if ! CARGO_TARGET_DIR="$target_dir/$variant" cargo build --quiet --release \
        --manifest-path embedded/Cargo.toml --target "$t" "${features[@]}"; then
      echo "error: $t ($variant) does not link (a panic path left in the library?)" >&2
      fail=1
      continue 2
    fi
  done
  full="$target_dir/full/$t/release/congestion-firmware"
  base="$target_dir/baseline/$t/release/congestion-firmware"
  floats=$("$bin/llvm-nm" -j "$full" | grep -E "$float_re" || true)
  if [ -n "$floats" ]; then
    echo "error: floating-point routines in the $t image:" >&2
    echo "$floats" | sort -u >&2
    fail=1
  fi
  if "$bin/llvm-nm" -j "$full" | grep -q congestion_panic_path_must_not_be_linked; then
    echo "error: the $t image references the panic marker" >&2
    fail=1
  fi
  ft=$(text_size "$full"); bt=$(text_size "$base")
  fr=$(rodata_size "$full"); br=$(rodata_size "$base")
  share=$((ft - bt))
  rows+=("$(printf '| %-28s | %10s | %10s | %14s | %14s |' "$t" "$ft" "$bt" "$share ($(awk -v s="$share" 'BEGIN { printf "%.1f", s / 1024 }') KiB)" "$((${fr:-0} - ${br:-0}))")")
  if [ "$t" = thumbv7em-none-eabihf ] && [ "$share" -gt "$limit_thumbv7em" ]; then
    echo "error: library .text on $t is $share bytes, above $limit_thumbv7em" >&2
    fail=1
  fi
done

sleep 0.1 # let cargo's stderr drain before the table
printf '\nfirmware image (embedded/, opt-level "s", LTO, panic = abort): bytes\n\n'
printf '| %-28s | %10s | %10s | %14s | %14s |\n' target ".text" "baseline" "library .text" "library .rodata"
printf '|%s|%s|%s|%s|%s|\n' ------------------------------ ------------ ------------ ---------------- ----------------
for r in "${rows[@]}"; do echo "$r"; done
if [ "$fail" = 0 ]; then
  printf '\nall images link with the panic marker unreferenced; no floating-point routines\n'
fi
exit "$fail"
