#!/usr/bin/env bash
# Instructions per event, ours and the peers, under callgrind, on the two ACK streams of
# benches/common/mod.rs (the project's stream, and the steady-growth stream near W_max).
# Each case runs with N and 2N events and the difference is divided by N, so process
# start, warm-up and snapshots are not counted. The stream's own loop (a controller that
# does nothing, `null`) is subtracted from the ACK columns.
#
#   scripts/instructions.sh            # N = 200,000 ACKs, 20,000 congestion events
#   N=1000000 scripts/instructions.sh  # steadier last digit
#   CONTROLLERS="linux rfc" scripts/instructions.sh
#   CONTROLLERS="linux linux-counted rfc rfc-counted" scripts/instructions.sh  # a decision sink's cost
#   ONLY=bbr scripts/instructions.sh   # the BBR streams alone (BBR_CONTROLLERS to choose)
#   ONLY=cubic scripts/instructions.sh # the CUBIC streams alone
#   ONLY=dctcp scripts/instructions.sh # DCTCP's hooks and linux::Dctcp (perf/src/dctcp.rs)
#   ONLY=prague scripts/instructions.sh # Prague's hook and linux::Prague, the same stream
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200000}
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

cg_bin=$bin cg_dir=$out
# shellcheck source=scripts/callgrind-lib.sh
. scripts/callgrind-lib.sh

# The variant of each controller without a pacer, and with one ("-" = it has none).
unpaced() { case $1 in s2n) echo s2n-nopacer ;; *) echo "$1" ;; esac; }
paced() { case $1 in linux) echo linux-paced ;; rfc) echo rfc-paced ;; s2n) echo s2n ;; *) echo - ;; esac; }

only=${ONLY:-all}
if [ "$only" = dctcp ] || [ "$only" = all ]; then
  # DCTCP on the project's stream with 2 % of ACKs CE-marked (perf/src/dctcp.rs).
  echo "measuring DCTCP ..." >&2
  nd=$((N / 10))
  d_null=$(per_event null ca "$N")
  printf '\nDCTCP: instructions per event, the project'"'"'s stream, 2 %% of ACKs CE (stream alone %s, subtracted)\n\n' "$d_null"
  echo "| ctrl        | ACK + send | loss + next ACK |"
  echo "|-------------|------------|-----------------|"
  for c in dctcp-hooks dctcp; do
    d_ca=$(minus "$(per_event "$c" ca "$N")" "$d_null")
    d_loss=$(minus "$(per_event "$c" loss "$nd")" "$(per_event "$c" base "$nd")")
    printf '| %-11s | %10s | %15s |\n' "$c" "$d_ca" "$d_loss"
  done
  [ "$only" = dctcp ] && exit 0
fi
if [ "$only" = prague ] || [ "$only" = all ]; then
  # Prague on DCTCP's stream, 2 % of ACKs CE-marked (perf/src/prague.rs).
  echo "measuring Prague ..." >&2
  np=$((N / 10))
  p_null=$(per_event null ca "$N")
  printf '\nPrague: instructions per event, the project'"'"'s stream, 2 %% of ACKs CE (stream alone %s, subtracted)\n\n' "$p_null"
  echo "| ctrl         | ACK + send | loss + next ACK |"
  echo "|--------------|------------|-----------------|"
  for c in prague-hooks prague; do
    p_ca=$(minus "$(per_event "$c" ca "$N")" "$p_null")
    p_loss=$(minus "$(per_event "$c" loss "$np")" "$(per_event "$c" base "$np")")
    printf '| %-12s | %10s | %15s |\n' "$c" "$p_ca" "$p_loss"
  done
  [ "$only" = prague ] && exit 0
fi
if [ "$only" != cubic ] && [ "$only" != dctcp ] && [ "$only" != prague ]; then
  # The BBR streams (perf/src/bbr): N must be a whole number of cycles (50,000 and
  # 25,000 ACKs), so N rounds down to a multiple of 50,000.
  nb=$(( (N / 50000) * 50000 )); [ "$nb" -gt 0 ] || nb=50000
  bbr_controllers=${BBR_CONTROLLERS:-"bbr bbr3 quinn-bbr s2n-bbr"}
  declare -A b
  echo "measuring the TCP stream alone ..." >&2
  b[null,steady]=$(per_event null-tcp bbr-steady "$nb")
  b[null,prt]=$(per_event null-tcp bbr-probertt "$nb")
  for c in $bbr_controllers; do
    echo "measuring $c ..." >&2
    b[$c,steady_raw]=$(per_event "$c" bbr-steady "$nb")
    b[$c,prt_raw]=$(per_event "$c" bbr-probertt "$nb")
    b[$c,steady]=$(minus "${b[$c,steady_raw]}" "${b[null,steady]}")
    b[$c,prt]=$(minus "${b[$c,prt_raw]}" "${b[null,prt]}")
  done
  printf '\nBBR: instructions per ACK + sends, x86_64 (%s ACKs; the TCP stream alone, %s / %s, subtracted)\n\n' "$nb" "${b[null,steady]}" "${b[null,prt]}"
  echo "| ctrl      | steady PROBE_BW | PROBE_RTT + losses | steady, raw | PROBE_RTT + losses, raw |"
  echo "|-----------|-----------------|--------------------|-------------|-------------------------|"
  for c in $bbr_controllers; do
    printf '| %-9s | %15s | %18s | %11s | %23s |\n' "$c" "${b[$c,steady]}" "${b[$c,prt]}" "${b[$c,steady_raw]}" "${b[$c,prt_raw]}"
  done
  bratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "-"; else printf "%.2f", a / b }'; }
  if [[ " $bbr_controllers " == *" quinn-bbr "* && " $bbr_controllers " == *" s2n-bbr "* ]]; then
    printf '\nBBR ratios, ours / peer, same stream (target <= 0.5)\n\n'
    echo "| ours | stream | / quinn-bbr | / s2n-bbr |"
    echo "|------|--------|-------------|-----------|"
    for c in bbr bbr3; do
      [[ " $bbr_controllers " == *" $c "* ]] || continue
      for k in steady prt; do
        printf '| %s | %s | %s | %s |\n' "$c" "$k" "$(bratio "${b[$c,$k]}" "${b[quinn-bbr,$k]}")" "$(bratio "${b[$c,$k]}" "${b[s2n-bbr,$k]}")"
      done
    done
  fi
  [ "$only" = bbr ] && exit 0
fi

declare -A r
echo "measuring the streams alone ..." >&2
null_ca=$(per_event null ca "$N")
null_ss=$(per_event null ss "$N")
null_steady=$(per_event null steady "$N")
for c in $controllers; do
  echo "measuring $c ..." >&2
  u=$(unpaced "$c")
  p=$(paced "$c")
  r[$c,ca]=$(minus "$(per_event "$u" ca "$N")" "$null_ca")
  r[$c,steady]=$(minus "$(per_event "$u" steady "$N")" "$null_steady")
  r[$c,ss]=$(minus "$(per_event "$u" ss "$N")" "$null_ss")
  if [ "$p" != - ]; then
    r[$c,ca_paced]=$(minus "$(per_event "$p" ca "$N")" "$null_ca")
    r[$c,steady_paced]=$(minus "$(per_event "$p" steady "$N")" "$null_steady")
  else
    r[$c,ca_paced]=-
    r[$c,steady_paced]=-
  fi
  restore=$(per_event "$u" restore "$NEV")
  r[$c,send]=$(minus "$(per_event "$u" send "$NEV")" "$restore")
  r[$c,ack]=$(minus "${r[$c,ca]}" "${r[$c,send]}")
  r[$c,loss]=$(minus "$(per_event "$u" loss-only "$NEV")" "$restore")
  base=$(per_event "$u" base "$NEV")
  r[$c,lossack]=$(minus "$(per_event "$u" loss "$NEV")" "$base")
  r[$c,rtoack]=$(minus "$(per_event "$u" rto "$NEV")" "$base")
  r[$c,steadyloss]=$(minus "$(per_event "$u" steady-loss "$NEV")" "$(per_event "$u" steady-base "$NEV")")
done

echo "measuring the send path ..." >&2
declare -A sp
send_nothing=$(per_event send nothing "$N")
for p in pacer tsq tso sendpath; do
  sp[$p]=$(minus "$(per_event send "$p" "$N")" "$send_nothing")
done

row() { # CONTROLLER KEY...
  local c=$1 line
  shift
  line="| $(printf '%-6s' "$c") |"
  for k in "$@"; do line="$line $(printf '%9s' "${r[$c,$k]}") |"; done
  echo "$line"
}

printf '\ninstructions per event, x86_64, the project'"'"'s stream (%s ACKs, %s events; stream alone %s per ACK, subtracted)\n\n' "$N" "$NEV" "$null_ca"
echo "| ctrl   | ACK+send  | +pacer    | ACK alone | send (2p) | slow st.  | loss call | loss+ACK  | RTO+ACK   |"
echo "|--------|-----------|-----------|-----------|-----------|-----------|-----------|-----------|-----------|"
for c in $controllers; do row "$c" ca ca_paced ack send ss loss lossack rtoack; done

printf '\nthe steady-growth stream near W_max (stream alone %s per ACK, subtracted)\n\n' "$null_steady"
echo "| ctrl   | ACK+send  | +pacer    | loss+ACK  |"
echo "|--------|-----------|-----------|-----------|"
for c in $controllers; do row "$c" steady steady_paced steadyloss; done

cat <<TXT

ACK+send = one ACK and the send call(s) that refill the window, no pacer (s2n: its
pacer short-circuited, see perf/src/s2n.rs); +pacer = the same with a pacer stamping
every packet (ours: EdtPacer at the controller's rate; s2n: its own; quinn and the
hooks have none in the controller: -); ACK alone = ACK+send minus send (2p), the send
call for 2 packets from the snapshot; loss call = the loss alone; loss+ACK = (loss, the
ACK that ends recovery and starts the new epoch) minus (that ACK alone), so the epoch
start and its cube root are counted; RTO+ACK likewise.
linux = linux::Cubic through the CongestionController trait (on_ack, on_sent); hooks =
the CUBIC hooks on LinuxCubicState as the kernel calls them; rfc = rfc::Cubic.
TXT

printf '\nsend path per packet, ours (Linux-mode flow at cwnd ~1100, self-paced; the loop alone, %s, subtracted)\n\n' "$send_nothing"
printf '| %-34s | %12s |\n' "piece" "instructions"
printf '|%s|%s|\n' ------------------------------------ --------------
printf '| %-34s | %12s |\n' "EDT pacer stamp (EdtPacer::on_send)" "${sp[pacer]}"
printf '| %-34s | %12s |\n' "TSQ check (limit + budget)" "${sp[tsq]}"
printf '| %-34s | %12s |\n' "TSO autosizing (tso_segs)" "${sp[tso]}"
printf '| %-34s | %12s |\n' "whole send path (poll+send+compl.)" "${sp[sendpath]}"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b <= 0) print "-"; else printf "%.2f", a / b }'; }
has() { [[ " $controllers " == *" $1 "* ]]; }
if has rfc && has s2n && has quinn && has linux; then
  printf '\nratios, peer / ours, same stream, same column (basis in the first column)\n\n'
  echo "| basis                                   | s2n/rfc | quinn/rfc | s2n/linux | quinn/linux |"
  echo "|-----------------------------------------|---------|-----------|-----------|-------------|"
  for k in ca ca_paced ack steady steady_paced lossack steadyloss; do
    printf '| %-39s | %7s | %9s | %9s | %11s |\n' "$k" \
      "$(ratio "${r[s2n,$k]}" "${r[rfc,$k]}")" "$(ratio "${r[quinn,$k]}" "${r[rfc,$k]}")" \
      "$(ratio "${r[s2n,$k]}" "${r[linux,$k]}")" "$(ratio "${r[quinn,$k]}" "${r[linux,$k]}")"
  done
fi

# The issue's targets (issue 13), measured.
check() { # LABEL VALUE OP LIMIT
  awk -v l="$1" -v v="$2" -v op="$3" -v lim="$4" 'BEGIN {
    ok = (op == "<=") ? (v <= lim) : (v >= lim)
    printf "%-58s %8s  (target %s %s)  %s\n", l, v, op, lim, ok ? "met" : "MISSED"
  }'
}
printf '\ntargets\n\n'
if has linux; then check "linux::Cubic, ACK + sends, project stream" "${r[linux,ca]}" "<=" 120; fi
if has hooks; then check "Linux CUBIC hooks, per ACK, project stream" "${r[hooks,ca]}" "<=" 55; fi
if has rfc; then
  check "rfc::Cubic, ACK + sends, project stream" "${r[rfc,ca]}" "<=" 150
  check "rfc::Cubic, ACK + sends, steady stream" "${r[rfc,steady]}" "<=" 150
  check "rfc::Cubic, loss + epoch-start ACK, project stream" "${r[rfc,lossack]}" "<=" 250
  if has s2n && has quinn; then
    for k in ca steady; do
      check "s2n / rfc::Cubic, ACK + sends ($k, no pacer)" "$(ratio "${r[s2n,$k]}" "${r[rfc,$k]}")" ">=" 2
      check "s2n / rfc::Cubic, ACK + sends ($k, both paced)" "$(ratio "${r[s2n,${k}_paced]}" "${r[rfc,${k}_paced]}")" ">=" 2
      check "quinn / rfc::Cubic, ACK + sends ($k, no pacer)" "$(ratio "${r[quinn,$k]}" "${r[rfc,$k]}")" ">=" 2
    done
  fi
fi
