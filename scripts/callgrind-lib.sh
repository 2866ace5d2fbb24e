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
