#!/usr/bin/env bash
# RFC mode's instructions per event under callgrind, on the project's stream and on the
# steady-growth stream (examples/rfc_ack_cost.rs says what each is). Per event =
# (Ir(2N) - Ir(N)) / N; the stream alone (`null`) is subtracted from the ACK figures,
# the snapshot + one ACK (`base`) from the congestion event (loss + the epoch start on
# the next ACK).
#
#   scripts/rfc-cost.sh            # N = 200,000
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200000}
export CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
cargo build --release --example rfc_ack_cost >&2
bin=${CARGO_TARGET_DIR:-target}/release/examples/rfc_ack_cost
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cg_bin=$bin cg_dir=$out
# shellcheck source=scripts/callgrind-lib.sh
. scripts/callgrind-lib.sh

null=$(per_event null ca "$N")
for s in project steady; do
  ca=$(minus "$(per_event "$s" ca "$N")" "$null")
  ev=$(minus "$(per_event "$s" loss $((N / 10)))" "$(per_event "$s" base $((N / 10)))")
  echo "$s: ACK (on_ack + on_sent) $ca, loss + next ACK $ev (stream alone $null)"
done
