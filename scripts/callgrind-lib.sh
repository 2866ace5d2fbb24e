# Sourced by the scripts that count instructions under callgrind (instructions.sh,
# rfc-cost.sh, kernel-*.sh). The sourcing script sets `cg_bin`, a program taking
# CONTROLLER SCENARIO N, and `cg_dir`, a directory for the profiles.
# shellcheck shell=bash disable=SC2154

# instructions CONTROLLER SCENARIO N -> total Ir of one run
instructions() {
  local f="$cg_dir/$1-$2-$3.cg"
  valgrind --tool=callgrind --callgrind-out-file="$f" "$cg_bin" "$1" "$2" "$3" >/dev/null 2>&1
  awk '/^(summary|totals):/ { print $2; exit }' "$f"
}

# per_event CONTROLLER SCENARIO N -> instructions per event, (I(2N) - I(N)) / N: process
# start, warm-up and snapshots cost the same in both runs and cancel
per_event() {
  local a b
  a=$(instructions "$1" "$2" "$3")
  b=$(instructions "$1" "$2" $(($3 * 2)))
  awk -v a="$a" -v b="$b" -v n="$3" 'BEGIN { printf "%.1f", (b - a) / n }'
}

# minus A B -> A - B
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }

# bbr_streams LABEL: the C BBR harness (`cg_bin`: kernel|null on bbr-steady|bbr-probertt)
# per ACK + sends on both BBR streams, N rounded down to whole 50,000-ACK cycles
bbr_streams() {
  local nb null_s null_p raw_s raw_p
  nb=$(((N / 50000) * 50000))
  [ "$nb" -gt 0 ] || nb=50000
  null_s=$(per_event null bbr-steady "$nb")
  null_p=$(per_event null bbr-probertt "$nb")
  raw_s=$(per_event kernel bbr-steady "$nb")
  raw_p=$(per_event kernel bbr-probertt "$nb")
  echo "$1 ($($CC --version | head -1), $CFLAGS), the BBR streams ($nb ACKs):"
  echo "  steady PROBE_BW, per ACK + sends:     $(minus "$raw_s" "$null_s") (raw $raw_s, stream alone $null_s)"
  echo "  PROBE_RTT + losses, per ACK + sends:  $(minus "$raw_p" "$null_p") (raw $raw_p, stream alone $null_p)"
}
