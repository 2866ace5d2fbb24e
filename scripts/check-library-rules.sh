#!/usr/bin/env bash
# Fails when the library (src/) uses floating point or 128-bit integers, which the
# firmware and BPF builds cannot have. Comment lines are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=$(grep -rnwE 'f32|f64|u128|i128' src | grep -vE '^[^:]+:[0-9]+:\s*//' || true)
if [ -n "$bad" ]; then
  echo "error: floating point or 128-bit integers in src/:" >&2
  echo "$bad" >&2
  exit 1
fi
echo "library rules: no f32/f64/u128/i128 in src/"
