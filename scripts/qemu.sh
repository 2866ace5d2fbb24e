#!/usr/bin/env bash
# The library running on emulated targets, compared byte for byte with the host:
#   (a) qemu thumbv7em: the Rust replay firmware (embedded/replay) on a Cortex-M4
#       (QEMU mps2-an386) replays every shipped trace, Linux mode, RFC mode, NewReno and
#       the send path, and the v0.2 event traces of ffi/tests/data/, reading the trace
#       and writing the CSV through semihosting; and every kernel trace of the other
#       algorithms, tests/data/linux-{bbr,bbr3,dctcp,prague}/ with `--cc bbr|bbr3|dctcp|
#       prague` (passed to the firmware as semihosting arguments), one line per
#       algorithm ("qemu thumbv7em --cc bbr: N/N traces identical");
#   (b) qemu riscv32imc: the same firmware on RISC-V (QEMU virt, riscv32imc); and
#       built for thumbv6m (ARMv6-M, a subset the Cortex-M4 runs) on the same board;
#   (c) qemu C ABI thumbv7em: a C program (embedded/c/replay.c) built with
#       arm-none-eabi-gcc against ffi/include/congestion.h and the no_std thumbv7em
#       static library replays the CUBIC traces of (a) through the C ABI;
# every CSV is compared with the host's `cargo run --release --example replay`. Then
#   (d) the C firmware example (embedded/c/example.c) runs its main loop under QEMU, and
#       the C checks of the v0.2 event model (ffi/tests/c/recovery.c) and of BBR, BBRv3,
#       DCTCP and Prague (ffi/tests/c/linux_algorithms.c) pass there, and the per-packet
#       BBR calls (ffi/tests/c/packet_bbr.c: congestion_rfc_bbr3_*,
#       congestion_linux_bbr{,3}_controller_*) run their three modelled transfers with
#       the same trace (a hash of every value read after every call) as on the host;
#       and a C stack (embedded/c/bbr_replay.c) replays the BBR v1 and BBRv3 kernel
#       traces through congestion_linux_bbr{,3}_*, its CSV identical to the host's
#       ("qemu C ABI thumbv7em --cc bbr3: 24/24 traces identical");
#   (e) instructions per event on the emulated cores (embedded/replay `cost`, QEMU
#       -icount shift=0), and flash/RAM per mode (scripts/firmware.sh's images, the
#       state sizes and stack depths `cost` measures on the target).
# Exits non-zero on any difference or failure. Installs what it needs (apt, rustup);
# prints "SKIP qemu: REASON" and exits 0 only when QEMU or the ARM GCC cannot be
# installed on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/target/qemu
# Start clean: a CSV left from an earlier run must never stand in for a failed one.
rm -rf "$out"
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
targets="thumbv7em-none-eabihf thumbv6m-none-eabi riscv32imc-unknown-none-elf"
rustup target add $targets >/dev/null 2>&1 || rustup target add $targets

# One run of an image under QEMU with semihosting; extra words become its argv.
# QEMU_ICOUNT=1: count instructions (-icount shift=0) for the cost firmware.
run_qemu() { # "QEMU AND ITS BOARD OPTIONS" IMAGE ARGS...
  local -a qemu
  read -ra qemu <<<"$1"
  local image=$2
  shift 2
  local args="arg=$(basename "$image")" icount=()
  for a in "$@"; do args="$args,arg=$a"; done
  [ -n "${QEMU_ICOUNT:-}" ] && icount=(-icount shift=0)
  timeout 120 "${qemu[@]}" -nographic -monitor none -serial none "${icount[@]}" \
    -kernel "$image" -semihosting-config "enable=on,target=native,$args"
}
run_arm() { run_qemu "qemu-system-arm -M mps2-an386" "$@"; }
run_riscv() { run_qemu "qemu-system-riscv32 -M virt -bios none" "$@"; }

# ---- host reference ----------------------------------------------------------------
cargo build --quiet --release --example replay
# CUBIC's traces: the shipped ones, NewReno's (tests/data/newreno/, when present) and the
# C ABI's v0.2 event traces (ffi/tests/data/: Linux mode, RFC mode and NewReno).
shopt -s nullglob
traces=(tests/data/linux-cubic/*.events tests/data/rfc9438/*.events tests/data/newreno/*.events
  tests/data/pacing/*.events ffi/tests/data/*.events)
shopt -u nullglob
# Every other algorithm replays all of its kernel traces, tests/data/linux-WORD/ for
# `--cc WORD`: no subset. Measured on a loaded 2-core machine, the slowest run is
# linux-bbr3/bw_step_change (20,702 events) at 1.2 s (thumbv7em), 0.9 s (riscv32imc)
# and 1.6 s (thumbv6m); the 86 traces on the three targets take about 60 s together,
# far inside the 120 s each run may take (run_qemu).
algorithms="cubic bbr bbr3 dctcp prague"
traces_of() { # WORD -> the algorithm's traces, one a line
  if [ "$1" = cubic ]; then
    printf '%s\n' "${traces[@]}"
  else
    ls tests/data/linux-"$1"/*.events
  fi
}
# The CSV's name for a trace: CUBIC's keep their own (the C ABI's are named alike);
# the others carry their algorithm (linux-dctcp and linux-prague share trace names).
key_of() { # WORD TRACE
  local name
  name=$(basename "$2" .events)
  if [ "$1" = cubic ]; then echo "$name"; else echo "$1-$name"; fi
}
mkdir -p "$out/host"
for cc in $algorithms; do
  for t in $(traces_of "$cc"); do
    ./target/release/examples/replay --cc "$cc" "$t" >"$out/host/$(key_of "$cc" "$t").csv"
  done
done

fail=0
# compare LABEL DIR WORD: the CSVs in DIR of algorithm WORD's traces against the host's.
compare() {
  local label=$1 dir=$2 cc=$3
  local same=0 total=0
  for t in $(traces_of "$cc"); do
    local name
    name=$(key_of "$cc" "$t")
    total=$((total + 1))
    if cmp -s "$out/host/$name.csv" "$dir/$name.csv"; then
      same=$((same + 1))
    else
      echo "error: $label: $name differs from the host's replay" >&2
    fi
  done
  echo "$label: $same/$total traces identical"
  [ "$same" = "$total" ] || fail=1
  # No trace found is a failure too, never "0/0 identical".
  [ "$total" -gt 0 ] || { echo "error: $label: no traces" >&2; fail=1; }
}

# ---- (a), (b): the Rust replay firmware --------------------------------------------
for target in $targets; do
  cargo build --quiet --release --manifest-path embedded/replay/Cargo.toml --target "$target"
done
fw=embedded/replay/target
for cc in $algorithms; do
  for t in $(traces_of "$cc"); do
    name=$(key_of "$cc" "$t")
    for target in $targets; do
      short=${target%%-*}
      mkdir -p "$out/$short"
      case $target in
        riscv32*) run=run_riscv ;;
        *) run=run_arm ;;
      esac
      $run "$fw/$target/release/replay" --cc "$cc" "$t" "$out/$short/$name.csv" ||
        echo "error: $short firmware failed on $name" >&2
    done
  done
done
# One line per target and algorithm; CUBIC's keep their old label.
for cc in $algorithms; do
  flag=" --cc $cc"
  [ "$cc" = cubic ] && flag=""
  compare "qemu thumbv7em$flag" "$out/thumbv7em" "$cc"
  compare "qemu riscv32imc$flag" "$out/riscv32imc" "$cc"
  compare "qemu thumbv6m$flag (on the Cortex-M4)" "$out/thumbv6m" "$cc"
done

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
mkdir -p "$out/c"
for t in "${traces[@]}"; do
  name=$(basename "$t" .events)
  run_arm "$out/c-replay.elf" "$t" "$out/c/$name.csv" ||
    echo "error: the C replay failed on $name" >&2
done
compare "qemu C ABI thumbv7em" "$out/c" cubic

# ---- (d): the C firmware example ---------------------------------------------------
arm-none-eabi-gcc "${cflags[@]}" "${ldflags[@]}" embedded/c/example.c embedded/c/startup.c \
  "$lib" -o "$out/c-example.elf"
if run_arm "$out/c-example.elf" >"$out/c-example.txt"; then
  echo "qemu C example thumbv7em: $(tail -n 1 "$out/c-example.txt")"
else
  echo "error: the C firmware example failed:" >&2
  cat "$out/c-example.txt" >&2
  fail=1
fi

# The v0.2 event model checked from C (ffi/tests/c/recovery.c) on the Cortex-M4.
arm-none-eabi-gcc "${cflags[@]}" "${ldflags[@]}" ffi/tests/c/recovery.c embedded/c/startup.c \
  "$lib" -o "$out/c-recovery.elf"
if run_arm "$out/c-recovery.elf" >"$out/c-recovery.txt" 2>&1 && grep -q '^ok ' "$out/c-recovery.txt"; then
  echo "qemu C event checks thumbv7em: $(tail -n 1 "$out/c-recovery.txt")"
else
  echo "error: the C event checks failed on the Cortex-M4:" >&2
  cat "$out/c-recovery.txt" >&2
  fail=1
fi

# The kernel-style algorithms' C calls (ffi/tests/c/linux_algorithms.c: BBR v1, BBRv3,
# DCTCP, TCP Prague, hand-computed values) on the Cortex-M4.
arm-none-eabi-gcc "${cflags[@]}" "${ldflags[@]}" ffi/tests/c/linux_algorithms.c \
  embedded/c/startup.c "$lib" -o "$out/c-linux-algorithms.elf"
if run_arm "$out/c-linux-algorithms.elf" >"$out/c-linux-algorithms.txt" 2>&1 &&
  grep -q '^ok ' "$out/c-linux-algorithms.txt"; then
  echo "qemu C BBR/BBRv3/DCTCP/Prague checks thumbv7em: $(tail -n 1 "$out/c-linux-algorithms.txt")"
else
  echo "error: the C checks of BBR, BBRv3, DCTCP and Prague failed on the Cortex-M4:" >&2
  cat "$out/c-linux-algorithms.txt" >&2
  fail=1
fi

# The per-packet BBR calls (ffi/tests/c/packet_bbr.c) on the host and on the Cortex-M4:
# each algorithm's transfer prints its end state and a hash of its whole trace, so the
# two outputs must be byte-identical.
cargo build --quiet -p congestion-ffi --release
"${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Werror -Iffi/include ffi/tests/c/packet_bbr.c \
  target/release/libcongestion_ffi.a -Wl,--gc-sections -lpthread -ldl -lm -o "$out/host-packet-bbr"
"$out/host-packet-bbr" >"$out/host-packet-bbr.txt"
arm-none-eabi-gcc "${cflags[@]}" "${ldflags[@]}" ffi/tests/c/packet_bbr.c \
  embedded/c/startup.c "$lib" -o "$out/c-packet-bbr.elf"
if run_arm "$out/c-packet-bbr.elf" >"$out/c-packet-bbr.txt" 2>&1 &&
  grep -q '^ok ' "$out/c-packet-bbr.txt" && cmp -s "$out/host-packet-bbr.txt" "$out/c-packet-bbr.txt"; then
  echo "qemu C per-packet BBR thumbv7em: $(grep -c 'trace ' "$out/c-packet-bbr.txt")/3 transfers identical to the host, $(tail -n 1 "$out/c-packet-bbr.txt")"
else
  echo "error: the per-packet BBR checks failed on the Cortex-M4 or differ from the host's:" >&2
  diff "$out/host-packet-bbr.txt" "$out/c-packet-bbr.txt" >&2 || true
  fail=1
fi

# The BBR v1 and BBRv3 kernel traces through the C ABI's scoreboard calls, from C
# (embedded/c/bbr_replay.c: a C stack's scoreboard around congestion_linux_bbr{,3}_*):
# on the Cortex-M4 its CSV (every column the C ABI's getters give, each row from init on)
# must equal the host's run of the same program, which ffi/tests/c_bbr_replay.rs checks
# against the kernel's columns. x_delivered0_wrap starts the kernel's `delivered` near
# 2^32, which no stack can set: left out there too.
"${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Werror -Iffi/include embedded/c/bbr_replay.c \
  target/release/libcongestion_ffi.a -Wl,--gc-sections -lpthread -ldl -lm -o "$out/host-bbr-replay"
arm-none-eabi-gcc "${cflags[@]}" "${ldflags[@]}" embedded/c/bbr_replay.c \
  embedded/c/startup.c "$lib" -o "$out/c-bbr-replay.elf"
mkdir -p "$out/c-bbr"
for cc in bbr bbr3; do
  same=0
  total=0
  for t in tests/data/linux-"$cc"/*.events; do
    name=$(basename "$t" .events)
    [ "$name" = x_delivered0_wrap ] && continue
    total=$((total + 1))
    "$out/host-bbr-replay" "$cc" "$t" "$out/c-bbr/host-$cc-$name.csv" ||
      echo "error: the host C BBR replay failed on $cc $name" >&2
    run_arm "$out/c-bbr-replay.elf" "$cc" "$t" "$out/c-bbr/$cc-$name.csv" ||
      echo "error: the C BBR replay failed on the Cortex-M4 on $cc $name" >&2
    if cmp -s "$out/c-bbr/host-$cc-$name.csv" "$out/c-bbr/$cc-$name.csv"; then
      same=$((same + 1))
    else
      echo "error: qemu C ABI --cc $cc: $name differs from the host's" >&2
    fi
  done
  echo "qemu C ABI thumbv7em --cc $cc: $same/$total traces identical"
  [ "$same" = "$total" ] && [ "$total" -gt 0 ] || fail=1
done

# ---- (e): cost on the target -------------------------------------------------------
for target in $targets; do
  short=${target%%-*}
  case $target in
    riscv32*) run=run_riscv ;;
    *) run=run_arm ;;
  esac
  # -icount shift=0: one instruction is one nanosecond of virtual time.
  QEMU_ICOUNT=1 $run "$fw/$target/release/cost" >"$out/cost-$short.txt" ||
    { echo "error: the cost firmware failed on $short" >&2; fail=1; }
done
value() { awk -v k="$2" -v n="$3" '$1 == k && $2 == n { print $3 }' "$out/cost-$1.txt"; }
printf '\ninstructions per event (QEMU -icount shift=0, embedded/replay cost, opt-level "s", LTO)\n\n'
printf '| target | mode | ACK in CA | ACK in slow start | loss | loss + next ACK | RTO |\n'
printf '|---|---|---|---|---|---|---|\n'
for short in thumbv7em thumbv6m riscv32imc; do
  for mode in linux rfc; do
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$short" "$mode" \
      "$(value "$short" cost "${mode}_ack_ca")" "$(value "$short" cost "${mode}_ack_ss")" \
      "$(value "$short" cost "${mode}_loss")" "$(value "$short" cost "${mode}_loss_next_ack")" \
      "$(value "$short" cost "${mode}_rto")"
  done
done
printf '\ncalibration (32 nops + call + loop): %s / %s / %s; stream alone, subtracted: %s / %s / %s\n' \
  "$(value thumbv7em cost calibration_32_nops)" "$(value thumbv6m cost calibration_32_nops)" \
  "$(value riscv32imc cost calibration_32_nops)" "$(value thumbv7em cost stream_alone)" \
  "$(value thumbv6m cost stream_alone)" "$(value riscv32imc cost stream_alone)"

# Flash: the library's share of scripts/firmware.sh's images (each mode's image minus
# the no-library baseline). RAM: one flow's state plus the deepest stack of an event;
# the parameter block every flow shares is counted once, apart.
scripts/firmware.sh >"$out/firmware.txt" 2>&1 || { cat "$out/firmware.txt" >&2; fail=1; }
bin="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin"
section() { # VARIANT TARGET SECTION -> bytes (0 when the image has no such section)
  "$bin/llvm-size" -A "embedded/target/$1/$2/release/congestion-firmware" |
    awk -v s="$3" '$1 == s { n = $2 } END { print n + 0 }'
}
share() { echo $(($(section "$1" "$2" "$3") - $(section baseline "$2" "$3"))); }
printf '\nflash and RAM per mode, bytes (flash: library share of the embedded/ images)\n\n'
printf '| target | mode | .text | .rodata | state per flow | stack | RAM per flow | parameters, once |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for target in $targets; do
  short=${target%%-*}
  linux_state=$(($(value "$short" size LinuxFlowState) + $(value "$short" size SendPathState)))
  linux_params=$(($(value "$short" size LinuxParams) + $(value "$short" size SendPathParams)))
  rfc_state=$(value "$short" size RfcState)
  rfc_params=$(value "$short" size RfcParams)
  for mode in linux rfc; do
    state=$linux_state params=$linux_params label="Linux + send path"
    [ "$mode" = rfc ] && state=$rfc_state params=$rfc_params label="RFC + HyStart++"
    stack=$(value "$short" stack "$mode")
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$short" "$label" \
      "$(share "$mode" "$target" .text)" "$(share "$mode" "$target" .rodata)" \
      "$state" "$stack" "$((state + stack))" "$params"
  done
done

exit "$fail"
