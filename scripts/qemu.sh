#!/usr/bin/env bash
# The library running on emulated targets, compared byte for byte with the host:
#   (a) qemu thumbv7em: the Rust replay firmware (embedded/replay) on a Cortex-M4
#       (QEMU mps2-an386) replays every shipped trace, Linux mode, RFC mode and the send
#       path, reading the trace and writing the CSV through semihosting;
#   (b) qemu riscv32imc: the same firmware on RISC-V (QEMU virt, riscv32imc);
#   (c) qemu C ABI thumbv7em: a C program (embedded/c/replay.c) built with
#       arm-none-eabi-gcc against ffi/include/congestion.h and the no_std thumbv7em
#       static library replays the Linux-mode and RFC-mode traces through the C ABI;
# every CSV is compared with the host's `cargo run --release --example replay`. Then
#   (d) the C firmware example (embedded/c/example.c) runs its main loop under QEMU;
#   (e) instructions per event on the emulated Cortex-M4 (embedded/replay `cost`,
#       QEMU -icount shift=0), and flash/RAM per mode (scripts/firmware.sh's images).
# Exits non-zero on any difference or failure. Installs what it needs (apt, rustup);
# prints "SKIP qemu: REASON" and exits 0 only when QEMU or the ARM GCC cannot be
# installed on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/target/qemu
mkdir -p "$out"

# ---- tools -------------------------------------------------------------------------
rdimon_ok() {
  command -v arm-none-eabi-gcc >/dev/null &&
    [ -f "$(arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 \
      -print-file-name=librdimon.a)" ]
}
tools_ok() {
  command -v qemu-system-arm >/dev/null && command -v qemu-system-riscv32 >/dev/null && rdimon_ok
}
if ! tools_ok; then
  if ! command -v apt-get >/dev/null; then
    echo "SKIP qemu: apt-get is not available to install QEMU and arm-none-eabi-gcc"
    exit 0
  fi
  apt-get update -qq >/dev/null || true
  for pkg in qemu-system-arm qemu-system-misc gcc-arm-none-eabi libnewlib-arm-none-eabi; do
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$pkg" \
      >/dev/null || true
  done
  if ! tools_ok; then
    echo "SKIP qemu: could not install qemu-system-arm, qemu-system-misc (riscv32), gcc-arm-none-eabi and libnewlib-arm-none-eabi"
    exit 0
  fi
fi
rustup target add thumbv7em-none-eabihf riscv32imc-unknown-none-elf >/dev/null 2>&1 ||
  rustup target add thumbv7em-none-eabihf riscv32imc-unknown-none-elf

# One run of an image under QEMU with semihosting; extra words become its argv.
run_arm() {
  local image=$1; shift
  local args="arg=$(basename "$image")"
  for a in "$@"; do args="$args,arg=$a"; done
  timeout 120 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
    -kernel "$image" -semihosting-config "enable=on,target=native,$args"
}
run_riscv() {
  local image=$1; shift
  local args="arg=$(basename "$image")"
  for a in "$@"; do args="$args,arg=$a"; done
  timeout 120 qemu-system-riscv32 -M virt -bios none -nographic -monitor none -serial none \
    -kernel "$image" -semihosting-config "enable=on,target=native,$args"
}

# ---- host reference ----------------------------------------------------------------
cargo build --quiet --release --example replay
traces=(tests/data/linux-cubic/*.events tests/data/rfc9438/*.events tests/data/pacing/*.events)
mkdir -p "$out/host"
for t in "${traces[@]}"; do
  ./target/release/examples/replay "$t" >"$out/host/$(basename "$t" .events).csv"
done

fail=0
# compare LABEL DIR TRACE...: the CSVs in DIR against the host's.
compare() {
  local label=$1 dir=$2; shift 2
  local same=0 total=0
  for t in "$@"; do
    local name
    name=$(basename "$t" .events)
    total=$((total + 1))
    if cmp -s "$out/host/$name.csv" "$dir/$name.csv"; then
      same=$((same + 1))
    else
      echo "error: $label: $name differs from the host's replay" >&2
    fi
  done
  echo "$label: $same/$total traces identical"
  [ "$same" = "$total" ] || fail=1
}

# ---- (a), (b): the Rust replay firmware --------------------------------------------
for target in thumbv7em-none-eabihf riscv32imc-unknown-none-elf; do
  cargo build --quiet --release --manifest-path embedded/replay/Cargo.toml --target "$target"
done
fw=embedded/replay/target
mkdir -p "$out/thumbv7em" "$out/riscv32imc"
for t in "${traces[@]}"; do
  name=$(basename "$t" .events)
  run_arm "$fw/thumbv7em-none-eabihf/release/replay" "$t" "$out/thumbv7em/$name.csv" ||
    echo "error: thumbv7em firmware failed on $name" >&2
  run_riscv "$fw/riscv32imc-unknown-none-elf/release/replay" "$t" "$out/riscv32imc/$name.csv" ||
    echo "error: riscv32imc firmware failed on $name" >&2
done
compare "qemu thumbv7em" "$out/thumbv7em" "${traces[@]}"
compare "qemu riscv32imc" "$out/riscv32imc" "${traces[@]}"

# ---- (c): the C ABI from C ---------------------------------------------------------
cargo build --quiet -p congestion-ffi --release --target thumbv7em-none-eabihf
lib=target/thumbv7em-none-eabihf/release/libcongestion_ffi.a
cflags=(-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -std=c11
  -Wall -Wextra -Werror -Iffi/include)
# newlib's stdio over semihosting (librdimon); our own reset code (startup.c); the
# vector table at 0 where the Cortex-M4 reads it.
ldflags=(--specs=rdimon.specs -nostartfiles -e reset_handler -Wl,--undefined=vector_table
  -Wl,--section-start=.vectors=0 -Wl,--gc-sections -Wl,--no-warn-execstack)
arm-none-eabi-gcc "${cflags[@]}" "${ldflags[@]}" embedded/c/replay.c embedded/c/startup.c \
  "$lib" -o "$out/c-replay.elf"
# The C ABI has no call for the send-path replay events (xmit/txdone): those two
# traces stay with the Rust firmware above.
c_traces=(tests/data/linux-cubic/*.events tests/data/rfc9438/*.events)
mkdir -p "$out/c"
for t in "${c_traces[@]}"; do
  name=$(basename "$t" .events)
  run_arm "$out/c-replay.elf" "$t" "$out/c/$name.csv" ||
    echo "error: the C replay failed on $name" >&2
done
compare "qemu C ABI thumbv7em" "$out/c" "${c_traces[@]}"

exit "$fail"
