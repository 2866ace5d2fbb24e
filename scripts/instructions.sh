#!/usr/bin/env bash
# Instructions per event, ours and the peers, on the benchmark ACK stream
# (benches/common/mod.rs): each case runs under `valgrind --tool=callgrind` with N and
# 2N events and the difference is divided by N, so process start, warm-up and the
# snapshot are not counted. Loss and RTO are measured as (snapshot, event, one ACK)
# minus (snapshot, one ACK): the ACK after a loss, where CUBIC computes K with its cube
# root, is part of the loss's cost.
#
#   scripts/instructions.sh            # N = 1,000,000 ACKs, 100,000 loss/RTO events
#   N=200000 scripts/instructions.sh   # quicker
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000000}
NEV=${NEV:-$((N / 10))}

if ! command -v valgrind >/dev/null; then
  echo "installing valgrind" >&2
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq valgrind >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq valgrind >/dev/null; fi
fi

cargo build --release --manifest-path perf/Cargo.toml --bin count >&2
target=${CARGO_TARGET_DIR:-perf/target}
bin="$target/release/count"
controllers=${CONTROLLERS:-"linux hooks rfc quinn s2n"}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# instructions CONTROLLER SCENARIO N -> total Ir of the run
instructions() {
  local f="$out/$1-$2-$3.cg"
  valgrind --tool=callgrind --callgrind-out-file="$f" "$bin" "$1" "$2" "$3" >/dev/null 2>&1
  awk '/^(summary|totals):/ { print $2; exit }' "$f"
}

# per_event CONTROLLER SCENARIO N -> instructions per event, (I(2N) - I(N)) / N
per_event() {
  local a b
  a=$(instructions "$1" "$2" "$3")
  b=$(instructions "$1" "$2" $(($3 * 2)))
  awk -v a="$a" -v b="$b" -v n="$3" 'BEGIN { printf "%.1f", (b - a) / n }'
}

# minus A B -> A - B
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }

declare -A r
echo "measuring the stream alone ..." >&2
null_ca=$(per_event null ca "$N")
null_ss=$(per_event null ss "$N")
for c in $controllers; do
  echo "measuring $c ..." >&2
  r[$c,ca]=$(minus "$(per_event "$c" ca "$N")" "$null_ca")
  r[$c,ss]=$(minus "$(per_event "$c" ss "$N")" "$null_ss")
  base=$(per_event "$c" base "$NEV")
  restore=$(per_event "$c" restore "$NEV")
  r[$c,loss]=$(minus "$(per_event "$c" loss-only "$NEV")" "$restore")
  r[$c,lossack]=$(minus "$(per_event "$c" loss "$NEV")" "$base")
  r[$c,rto]=$(minus "$(per_event "$c" rto-only "$NEV")" "$restore")
  r[$c,rtoack]=$(minus "$(per_event "$c" rto "$NEV")" "$base")
done

echo "measuring the send path ..." >&2
declare -A sp
send_nothing=$(per_event send nothing "$N")
for p in pacer tsq tso sendpath; do
  sp[$p]=$(minus "$(per_event send "$p" "$N")" "$send_nothing")
done

ours=${OURS:-linux}
cols="ca ss loss lossack rto rtoack"
printf '\ninstructions per event, x86_64 (%s ACKs, %s loss/RTO events; the stream alone, %s per ACK, subtracted)\n\n' "$N" "$NEV" "$null_ca"
printf '| %-10s | %16s | %16s | %16s | %16s | %16s | %16s |\n' controller "ACK in CA" "ACK in SS" "loss" "loss + next ACK" "RTO" "RTO + next ACK"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' ------------ ------------------ ------------------ ------------------ ------------------ ------------------ ------------------
for c in $controllers; do
  row="| $(printf '%-10s' "$c") |"
  for s in $cols; do
    v=${r[$c,$s]}
    cell=$v
    if [ "$c" != "$ours" ]; then
      cell=$(awk -v v="$v" -v o="${r[$ours,$s]}" 'BEGIN { if (o > 0) printf "%s (%.1fx)", v, v / o; else print v }')
    fi
    row="$row $(printf '%16s' "$cell") |"
  done
  echo "$row"
done
cat <<TXT

(Nx) = that controller's count / $ours's. linux = LinuxFlow (CUBIC + HyStart + the
kernel's socket glue: smoothed RTT, window-use tracking, pacing rate), per ACK its
ack() and the transmit() of the packets it clocks out; hooks = only the CUBIC hooks on
the 72-byte LinuxCubicState, as the kernel calls cubictcp_acked + cubictcp_cong_avoid;
rfc = RfcFlow (RFC 9438 CUBIC + RFC 9406 HyStart++, bytes), as a QUIC stack calls it.
loss = the loss call alone; loss + next ACK = (event, ACK) - (ACK), which includes
Linux CUBIC's cube root (computed on the first ACK after a loss).
TXT

printf '\nsend path per packet, ours (Linux-mode flow at cwnd ~1100, self-paced; the loop alone, %s, subtracted)\n\n' "$send_nothing"
printf '| %-34s | %12s |\n' "piece" "instructions"
printf '|%s|%s|\n' ------------------------------------ --------------
printf '| %-34s | %12s |\n' "EDT pacer stamp (EdtPacer::on_send)" "${sp[pacer]}"
printf '| %-34s | %12s |\n' "TSQ check (limit + budget)" "${sp[tsq]}"
printf '| %-34s | %12s |\n' "TSO autosizing (tso_segs)" "${sp[tso]}"
printf '| %-34s | %12s |\n' "whole send path (poll+send+compl.)" "${sp[sendpath]}"

# The issue's targets, measured.
check() { # LABEL VALUE OP LIMIT
  awk -v l="$1" -v v="$2" -v op="$3" -v lim="$4" 'BEGIN {
    ok = (op == "<=") ? (v <= lim) : (v >= lim)
    printf "%-52s %10s  (target %s %s)  %s\n", l, v, op, lim, ok ? "met" : "MISSED"
  }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
if [ -n "${r[linux,ca]:-}" ] && [ -n "${r[rfc,ca]:-}" ] && [ -n "${r[s2n,ca]:-}" ]; then
  printf '\ntargets\n\n'
  check "Linux mode ACK in CA (LinuxFlow ack + transmit)" "${r[linux,ca]}" "<=" 55
  check "Linux mode ACK in CA (CUBIC hooks only)" "${r[hooks,ca]}" "<=" 55
  check "RFC mode ACK in CA" "${r[rfc,ca]}" "<=" 80
  check "s2n-quic-core / RFC mode, instructions per ACK in CA" "$(ratio "${r[s2n,ca]}" "${r[rfc,ca]}")" ">=" 3
  check "Linux mode loss + next ACK (cube root included)" "${r[linux,lossack]}" "<=" 120
  check "Linux CUBIC hooks loss + next ACK (cube root incl.)" "${r[hooks,lossack]}" "<=" 120
  check "RFC mode loss (K with its cube root)" "${r[rfc,loss]}" "<=" 120
fi
