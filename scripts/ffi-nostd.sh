#!/usr/bin/env bash
# The C ABI (ffi/) as a bare-metal static library, for each FPU-less or small target:
#   cargo build -p congestion-ffi --release --target T
# and two checks on it:
#   1. nm: every symbol the archive leaves undefined is defined in it (compiler builtins
#      such as memcpy and __aeabi_uldivmod come inside the archive), and nothing else may
#      be needed: the firmware that links it supplies no symbol at all;
#   2. no panic path: linking every exported `congestion_*` function as a root with
#      --gc-sections keeps no panic routine (the archive does hold one, the panic
#      handler, so the check would see it if any entry point could reach it);
#   3. no floating point: that image holds no soft-float or libm routine (the regular
#      expression of scripts/firmware.sh).
# Prints the size of that image: the whole C ABI (CUBIC in both modes, NewReno in RFC
# mode, the send path, BBR v1, BBRv3, DCTCP and TCP Prague in Linux mode, and the
# per-packet BBR calls: congestion_rfc_bbr3_*, congestion_linux_bbr{,3}_controller_*).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${TARGETS:-"thumbv7em-none-eabihf thumbv6m-none-eabi riscv32imc-unknown-none-elf"}

rustup target add $targets >/dev/null 2>&1 || rustup target add $targets
rustup component add llvm-tools >/dev/null 2>&1 || rustup component add llvm-tools
bin="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin"
target_dir=${CARGO_TARGET_DIR:-$PWD/target}
fail=0
# Soft-float and libm routines, as scripts/firmware.sh matches them.
float_re='^(__aeabi_[fd]|__aeabi_[a-z0-9]*(f|d)(2|cmp)|__(add|sub|mul|div|neg|pow)[sdt]f[23]|__(fix|fixuns)[sdt]f|__float(un)?[sdt]i[sdt]f|__float|__(eq|ne|lt|le|gt|ge|un|cmp)[sdt]f2|__extend|__trunc|(sqrt|cbrt|pow|exp|log|floor|ceil|round|fma)f?$)'

for t in $targets; do
  cargo build --quiet -p congestion-ffi --release --target "$t"
  lib="$target_dir/$t/release/libcongestion_ffi.a"
  defined=$("$bin/llvm-nm" --defined-only -j "$lib" 2>/dev/null | grep -v ':$' | sort -u)
  undefined=$("$bin/llvm-nm" --undefined-only -j "$lib" 2>/dev/null | grep -v ':$' | sort -u)
  missing=$(comm -23 <(echo "$undefined") <(echo "$defined") | grep -v '^$' || true)
  if [ -n "$missing" ]; then
    echo "error: $t: the static library needs symbols it does not define:" >&2
    echo "$missing" >&2
    fail=1
  fi
  if ! grep -q "rust_begin_unwind$" <<<"$defined"; then
    echo "error: $t: no panic handler in the archive (is the check still looking?)" >&2
    fail=1
  fi
  roots=$(echo "$defined" | grep '^congestion_' | sed 's/^/--undefined=/')
  image="$target_dir/$t/release/congestion-ffi-entry-points.elf"
  # shellcheck disable=SC2086
  "$bin/rust-lld" -flavor gnu --gc-sections --no-undefined -e congestion_linux_cubic_init $roots \
    "$lib" -o "$image"
  panics=$("$bin/llvm-nm" -j "$image" | grep -iE 'panic|rust_begin_unwind' || true)
  if [ -n "$panics" ]; then
    echo "error: $t: a panic path is reachable from the C ABI:" >&2
    echo "$panics" >&2
    fail=1
  fi
  floats=$("$bin/llvm-nm" -j "$image" | grep -E "$float_re" || true)
  if [ -n "$floats" ]; then
    echo "error: $t: floating-point routines reachable from the C ABI:" >&2
    echo "$floats" | sort -u >&2
    fail=1
  fi
  printf '%-28s %3d entry points, no undefined symbols, no panic path, no float, %s bytes of .text\n' \
    "$t" "$(echo "$roots" | wc -l)" \
    "$("$bin/llvm-size" -A "$image" | awk '$1 == ".text" { print $2 }')"
done
exit "$fail"
